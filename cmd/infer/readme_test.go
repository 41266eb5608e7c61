package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeTranscript is a block of README.md that shows a command and the
// first lines it prints: "$ go run ./cmd/infer ARGS" then its output.
var readmeTranscript = regexp.MustCompile("(?s)```\n\\$ go run ./cmd/infer ([^\n]*)\n(.*?)```")

// README's infer transcripts are what infer prints now (stderr first, as a
// terminal shows it), line for line as far as README shows them: a newcomer
// runs them and compares.
func TestREADMETranscripts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeTranscript.FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 3 {
		t.Fatalf("README shows %d infer transcripts, want 3 or more", len(blocks))
	}
	for _, b := range blocks {
		var stdout, stderr bytes.Buffer
		if err := run(shellWords(t, b[1]), &stdout, &stderr); err != nil {
			t.Errorf("infer %s: %v", b[1], err)
			continue
		}
		got := strings.Split(stderr.String()+stdout.String(), "\n")
		for i, want := range strings.Split(strings.TrimRight(b[2], "\n"), "\n") {
			if i >= len(got) || got[i] != want {
				t.Errorf("infer %s, line %d:\n README: %q\n now:    %q", b[1], i+1, want, at(got, i))
				break
			}
		}
	}
}

// shellWords splits README's arguments as a shell would: words, and
// double-quoted strings without their quotes (README quotes nothing else).
func shellWords(t *testing.T, s string) []string {
	var words []string
	for _, m := range regexp.MustCompile(`"([^"]*)"|(\S+)`).FindAllStringSubmatch(s, -1) {
		if m[2] != "" && strings.ContainsAny(m[2], `'\$`) {
			t.Fatalf("README's %q needs a shell to read", s)
		}
		words = append(words, m[1]+m[2])
	}
	return words
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(no such line)"
}
