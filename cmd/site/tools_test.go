package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"itformer/cmd/internal/cli"
)

// needTools skips the test without wasm-opt and zopfli, or fails it under
// CI, where .ci/run installs them.
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"wasm-opt", "zopfli"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("no %s on PATH; .ci/run should have installed it (apt-get install -y binaryen zopfli)", tool)
			}
			t.Skipf("no %s on PATH (apt-get install binaryen zopfli)", tool)
		}
	}
}

// The tools as Build runs them, on the smallest module (its header): wasm-opt
// takes the flags and writes a module, and zopfli's stream decompresses to
// the module (compress checks it).
func TestToolsShrinkAModule(t *testing.T) {
	needTools(t)
	module := filepath.Join(t.TempDir(), "m.wasm")
	header := []byte("\x00asm\x01\x00\x00\x00")
	if err := os.WriteFile(module, header, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	out, err := optimize(t.Context(), "wasm-opt", module, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if raw, err := os.ReadFile(out); err != nil || out == module || !bytes.HasPrefix(raw, header[:4]) {
		t.Errorf("wasm-opt wrote %s: %q, %v", out, raw, err)
	}
	if _, err := compress(t.Context(), "zopfli", module, header, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("the tools warned: %s", stderr.String())
	}
}

// A named tool that is missing is skipped with a warning that says how to
// install it; an empty name skips it quietly.
func TestMissingToolWarns(t *testing.T) {
	module := filepath.Join(t.TempDir(), "m.wasm")
	wasm := []byte("\x00asm\x01\x00\x00\x00")
	if err := os.WriteFile(module, wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ tool, want string }{{"itformer-no-such-tool", "apt-get install"}, {"", ""}} {
		var stderr bytes.Buffer
		out, err := optimize(t.Context(), tc.tool, module, &stderr)
		if err != nil || out != module {
			t.Errorf("wasm-opt %q: %s, %v; want the module unchanged", tc.tool, out, err)
		}
		gz, err := compress(t.Context(), tc.tool, module, wasm, &stderr)
		if err != nil || sameAfterGunzip(gz, wasm) != nil {
			t.Errorf("zopfli %q: %v; want Go's gzip", tc.tool, err)
		}
		if got := stderr.String(); tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("tool %q: warned %q, want %q", tc.tool, got, tc.want)
		}
	}
}

// An -out that is another program's folder is refused before the build (with
// a go command that cannot run, the build would fail first), and kept as is.
func TestForeignOutRefusedBeforeTheBuild(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "index.html")
	if err := os.WriteFile(notes, []byte("my page"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "photo.jpg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := run(t.Context(), []string{"-out", dir, "-go", filepath.Join(dir, "no-such-go")}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "holds photo.jpg, which is not a file of the site") {
		t.Errorf("site -out %s: %v, want the folder refused", dir, err)
	}
	if b, _ := os.ReadFile(notes); string(b) != "my page" {
		t.Errorf("index.html is now %q", b)
	}
}

// Run outside the repository, site refuses at once, saying where to run it,
// instead of building for minutes towards go build's "not in std".
func TestOutsideTheRepositoryRefusedBeforeTheBuild(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	t.Chdir(t.TempDir())
	var out, errOut bytes.Buffer
	err = run(t.Context(), []string{"-out", "site", "-go", goCmd}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "run it from the repository") {
		t.Errorf("site outside the repository: %v, want a refusal that says where to run it", err)
	}
	if _, err := os.Stat("site"); !os.IsNotExist(err) {
		t.Errorf("site made its -out folder anyway (%v)", err)
	}
}

// A -go command that cannot be run is named as such, not taken for a working
// directory outside the repository ("run it from the repository ... not from
// /work/itformer", said from the repository's root).
func TestInModuleNamesAGoThatCannotRun(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-go")
	err := inModule(t.Context(), missing)
	if err == nil || !strings.Contains(err.Error(), `-go "`+missing+`" cannot be run`) || strings.Contains(err.Error(), "run it from the repository") {
		t.Errorf("inModule(%s) = %v, want an error that names -go and the command", missing, err)
	}
}

// A usage mistake names what is wrong: "site extra" had said "give -out DIR".
func TestUsageMistakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-out", t.TempDir(), "extra"}, `unexpected argument "extra"`},
		{nil, "give -out DIR"},
	} {
		var out, errOut bytes.Buffer
		err := run(t.Context(), c.args, &out, &errOut)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("site %q: %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
}

// modulePath reads the module directive, quoted or not, comments aside.
func TestModulePath(t *testing.T) {
	for gomod, want := range map[string]string{
		"module itformer\n\ngo 1.26\n":             "itformer",
		"// a comment\nmodule \"itformer\" // x\n": "itformer",
		"go 1.26\n": "",
	} {
		if got := modulePath([]byte(gomod)); got != want {
			t.Errorf("modulePath(%q) = %q, want %q", gomod, got, want)
		}
	}
}
