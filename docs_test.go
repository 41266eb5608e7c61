package itformer_test

// README is a guide: short enough to read through, with everything else on
// pages under docs/ that a reader reaches from it. These tests keep it so:
// README stays within its length, every page in docs/ is linked from
// README, and no link in README or the pages points at a file or a heading
// that is not there (sections move between pages; their links must follow).

import (
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// maxREADMELines is how long README may grow: a newcomer reads it through.
const maxREADMELines = 250

func TestREADMEIsShort(t *testing.T) {
	text := readFile(t, "README.md")
	if n := strings.Count(text, "\n"); n > maxREADMELines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to a page under docs/ and link it", n, maxREADMELines)
	}
}

func TestREADMELinksEveryDocsPage(t *testing.T) {
	linked := map[string]bool{}
	for _, l := range markdownLinks(readFile(t, "README.md")) {
		if target, _ := localTarget("README.md", l); target != "" {
			linked[target] = true
		}
	}
	pages := docsPages(t)
	if len(pages) == 0 {
		t.Fatal("no pages under docs/")
	}
	for _, p := range pages {
		if !linked[p] && !(path.Base(p) == "README.md" && linked[path.Dir(p)]) {
			t.Errorf("%s is not linked from README.md: add it to README's list of pages", p)
		}
	}
}

func TestDocsLinksResolve(t *testing.T) {
	files := append([]string{"README.md"}, docsPages(t)...)
	anchors := map[string]map[string]bool{} // file -> its headings' anchors
	for _, file := range files {
		for _, l := range markdownLinks(readFile(t, file)) {
			target, anchor := localTarget(file, l)
			if target == "" && anchor == "" {
				continue // another site
			}
			if target == "" {
				target = file // "#anchor": a heading of this file
			}
			if _, err := os.Stat(filepath.FromSlash(target)); err != nil {
				t.Errorf("%s links to %q, but %s does not exist", file, l, target)
				continue
			}
			if anchor == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			if anchors[target] == nil {
				anchors[target] = headingAnchors(readFile(t, target))
			}
			if !anchors[target][anchor] {
				t.Errorf("%s links to %q, but %s has no heading with the anchor #%s", file, l, target, anchor)
			}
		}
	}
}

// The link checks themselves: anchors follow GitHub's rule, links in code
// are not links, and a missing page or heading is reported.
func TestLinkCheckerReadsMarkdownAsGitHubDoes(t *testing.T) {
	md := "# The format of `history.json`\n" +
		"## Gradient × input, again\n" +
		"## Twins side by side\n## Twins side by side\n" +
		"```\n# not a heading [x](nowhere.md)\n```\n" +
		"See [a](docs/a.md#x), ![b](docs/b.png), `[c](code.md)`, [d](https://example.com) and [e](#twins-side-by-side).\n"
	got := headingAnchors(md)
	for _, want := range []string{"the-format-of-historyjson", "gradient--input-again", "twins-side-by-side", "twins-side-by-side-1"} {
		if !got[want] {
			t.Errorf("headingAnchors misses %q: %v", want, got)
		}
	}
	if got["not-a-heading-xnowheremd"] {
		t.Errorf("a line in a code block counted as a heading")
	}
	links := markdownLinks(md)
	if want := []string{"docs/a.md#x", "docs/b.png", "https://example.com", "#twins-side-by-side"}; !slices.Equal(links, want) {
		t.Errorf("markdownLinks = %q, want %q", links, want)
	}
	if target, anchor := localTarget("docs/page.md", "../README.md#install"); target != "README.md" || anchor != "install" {
		t.Errorf("localTarget from docs/ = %q, %q", target, anchor)
	}
}

// docsPages lists the pages a reader navigates: docs/*.md and the README.md
// of each folder under docs/ (the experiments' generated results are linked
// from docs/experiments/README.md, not from README).
func docsPages(t *testing.T) []string {
	t.Helper()
	var pages []string
	for _, pattern := range []string{"docs/*.md", "docs/*/README.md"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			pages = append(pages, filepath.ToSlash(p))
		}
	}
	slices.Sort(pages)
	return pages
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	fence      = regexp.MustCompile("(?ms)^```.*?^```[^\n]*$")
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	linkTarget = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	heading    = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t]*$`)
)

// markdownLinks returns the targets of the links and images in md, outside
// code blocks and code spans, in order.
func markdownLinks(md string) []string {
	md = codeSpan.ReplaceAllString(fence.ReplaceAllString(md, ""), "")
	var links []string
	for _, m := range linkTarget.FindAllStringSubmatch(md, -1) {
		links = append(links, m[1])
	}
	return links
}

// localTarget resolves link, found in the file from (a path from the
// repository root), to a path from the root and an anchor; both are empty for
// a link to another site.
func localTarget(from, link string) (target, anchor string) {
	if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
		return "", ""
	}
	target, anchor, _ = strings.Cut(link, "#")
	if target != "" {
		target = path.Clean(path.Join(path.Dir(from), target))
	}
	return target, anchor
}

// headingAnchors returns the anchors GitHub gives md's headings: lower case,
// letters, digits, '-' and '_' kept, each space a '-', the rest dropped, and
// a repeated anchor numbered (-1, -2, ...).
func headingAnchors(md string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(md, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a = a + "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

// .gitignore's comments point to where a file it ignores is documented, as
// "(FILE: Section)"; each such section must be there (one pointed to a README
// section that had moved to docs/site.md). And what the documented commands
// write inside the repository is ignored, the tracked examples beside it
// not: README's `infer -html attention.html` had left attention.html in the
// root for git to list.
func TestGitignore(t *testing.T) {
	for _, line := range strings.Split(readFile(t, ".gitignore"), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range pointer.FindAllStringSubmatch(line, -1) {
			file := m[1]
			if path.Ext(file) == "" {
				file += ".md"
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf(".gitignore points to %s, which is not there (%q)", m[1], line)
				continue
			}
			for want := range headingAnchors("# " + m[2]) {
				if !headingAnchors(readFile(t, file))[want] {
					t.Errorf(".gitignore points to the section %q of %s, which has none (%q)", m[2], file, line)
				}
			}
		}
	}
	for name, want := range map[string]bool{
		"attention.html":         true, // go run ./cmd/infer -html attention.html "..."
		"site/index.html":        true, // go run ./cmd/site -out site
		"runs/mine/metrics.json": true, // go run ./cmd/train -config configs/tiny.json -out runs/mine
		"selective":              true, // go build ./cmd/selective
		"docs/attention.html":    false,
		"docs/site.md":           false,
	} {
		if got := ignored(t, name); got != want {
			t.Errorf("%s ignored: %v, want %v", name, got, want)
		}
	}
}

// pointer is a .gitignore comment's "(docs/site.md: Building and serving it)".
var pointer = regexp.MustCompile(`\(([\w./-]+): ([^)]+)\)`)

// ignored asks git whether .gitignore ignores name, a slash-separated path
// from the root, tracked or not (--no-index); the test is skipped where git
// or the repository is missing (a copy of the files without .git).
func ignored(t *testing.T, name string) bool {
	t.Helper()
	err := exec.Command("git", "check-ignore", "-q", "--no-index", name).Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false
	}
	t.Skipf("git check-ignore %s: %v (no git, or not a git work tree)", name, err)
	return false
}
