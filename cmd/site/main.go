// Command site builds the static site that trains and questions itformer in
// a browser tab (package cmd/internal/site) into one folder:
//
//	go run ./cmd/site -out site
//	go run ./cmd/serve -site site      # or any static file server
//
// It compiles cmd/wasm with GOOS=js GOARCH=wasm (stripped: -ldflags=-s -w,
// -trimpath), gzips it with zopfli, and copies wasm_exec.js from the same Go
// toolchain: a minute or two on 2 cores. With -wasm-opt wasm-opt it first
// shrinks the module with binaryen's wasm-opt -Oz, 8% smaller (under the
// 30 MB goal) but minutes longer, and no smaller once gzipped, which is
// what a browser downloads (measured at commit ced281f: 17 kB larger). The two tools are Debian packages (apt-get
// install binaryen zopfli); without zopfli the site still works, and a
// warning says the gzip file misses its size goal.
//
// Beside the module it writes words.zip, the word lists the module does not
// embed (words.go), and refuses to build a site whose word data is over its
// 1 MB budget.
//
// Ctrl-C (or SIGTERM) stops the build and the tools it runs, removes the
// temporary build folder, writes nothing and exits with status 130.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"itformer/cmd/internal/cli"
	"itformer/cmd/internal/site"
)

func main() {
	ctx, stop := cli.SignalContext()
	defer stop()
	cli.Exit("site", run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run builds the site args ask for, unless ctx is done first (Ctrl-C, SIGTERM).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("site", "site -out DIR")
	out := fs.String("out", "", "the `folder` to write the site into (created if missing)")
	goCmd := fs.String("go", "go", "the go `command` that builds the module; its GOROOT gives wasm_exec.js")
	var tools Tools
	fs.StringVar(&tools.WasmOpt, "wasm-opt", "", "binaryen's wasm-opt `command`, which shrinks the module 8% with -Oz in minutes (\"\", the default, skips it: the gzip file is no larger)")
	fs.StringVar(&tools.Zopfli, "zopfli", "zopfli", "the zopfli `command`, which writes the smaller gzip file (\"\" uses Go's gzip)")
	fs.AllowEmpty("zopfli", "wasm-opt") // "" skips the tool
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if err := fs.NoArguments(); err != nil { // first: "site extra" is about extra, not about -out
		return err
	}
	if *out == "" {
		return fs.Mistake("give -out DIR, the folder to write the site into")
	}
	if err := site.CheckFolder(*out); err != nil {
		return err
	}
	m, words, err := prepare(ctx, *goCmd, tools, stdout, stderr)
	if ctx.Err() != nil { // the steps' errors say only that a child was stopped
		return cli.Interrupted(fmt.Errorf("interrupted; nothing was written to %s, and no temporary folder is left", *out))
	}
	if err != nil {
		return err
	}
	if err := site.Write(*out, m.Wasm, m.Gzip, m.WasmExec, words); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s %.1f MB (%.1f MB gzip-compressed), and beside it %s %d bytes (budget %d)\n", *out, site.WasmName,
		float64(len(m.Wasm))/1e6, float64(len(m.Gzip))/1e6, site.WordsName, len(words), wordsBudget)
	return nil
}

// prepare makes what Write writes but the static files: the module, its
// loader, and the word data.
func prepare(ctx context.Context, goCmd string, tools Tools, stdout, stderr io.Writer) (Module, []byte, error) {
	if err := inModule(ctx, goCmd); err != nil {
		return Module{}, nil, err
	}
	words, err := wordData(wordsBudget)
	if err != nil {
		return Module{}, nil, err
	}
	m, err := Build(ctx, goCmd, tools, stdout, stderr)
	return m, words, err
}

// inModule refuses, before a build of minutes, a working directory outside
// this repository: the module is compiled from its source (itformer/cmd/wasm),
// which go build otherwise looks for in the standard library ("not in std").
// A -go command that runs but fails is reported as such, with its exit
// status and stderr, unless the folder is not the repository's either.
func inModule(ctx context.Context, goCmd string) error {
	mod, err := command(ctx, goCmd, "list", "-m").Output()
	var exited *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exited): // it did not start: no such command
		return fmt.Errorf("-go %q cannot be run: %w", goCmd, err)
	case err == nil && strings.TrimSpace(string(mod)) == "itformer":
		return nil
	case err != nil && moduleHere() == "itformer":
		return fmt.Errorf("-go %q failed: `%s list -m` ended with %v%s", goCmd, goCmd, exited, indented(exited.Stderr))
	}
	wd, _ := os.Getwd()
	return fmt.Errorf("site compiles the module from this repository's source: run it from the repository (go run ./cmd/site -out DIR), not from %s", wd)
}

// moduleHere is the path of the module whose go.mod is in the working
// directory or above it ("" for none), read without the go command, so that
// a -go command that fails is not taken for a folder outside the repository.
func moduleHere() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if raw, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			return modulePath(raw)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// modulePath is the path the module directive of a go.mod file names.
func modulePath(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], "\"`")
		}
	}
	return ""
}

// indented is a child's stderr on lines of their own below the error ("" for none).
func indented(stderr []byte) string {
	text := strings.TrimSpace(string(stderr))
	if text == "" {
		return ""
	}
	return "\n  " + strings.ReplaceAll(text, "\n", "\n  ")
}

// command is exec.CommandContext, but once ctx is done it kills the child
// with its own children (stopTogether), and waits at most 5 s more for
// them to let go of its output.
func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	stopTogether(cmd)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// Tools name the programs that shrink the module; an empty name skips one.
type Tools struct {
	WasmOpt string // binaryen's wasm-opt: -Oz, some 8% smaller than Go's output, but not once gzipped
	Zopfli  string // zopfli: a gzip stream some 4% smaller than gzip -9's
}

// Module is what Build makes: the module, its gzip-compressed copy, and Go's
// loader.
type Module struct{ Wasm, Gzip, WasmExec []byte }

// Build compiles the module, shrinks and compresses it with tools, and reads
// wasm_exec.js from goCmd's toolchain, saying on progress what it does and
// how long each step took (the build takes minutes, and silence looks like a
// hang). A tool that is named but not found is skipped with a warning on
// stderr. Once ctx is done the tool running is stopped, and Build returns
// after removing its temporary folder.
func Build(ctx context.Context, goCmd string, tools Tools, progress, stderr io.Writer) (Module, error) {
	var m Module
	root, err := command(ctx, goCmd, "env", "GOROOT").Output()
	if err != nil {
		return m, fmt.Errorf("%s env GOROOT: %w", goCmd, err)
	}
	if m.WasmExec, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js")); err != nil {
		return m, fmt.Errorf("Go's wasm_exec.js: %w", err)
	}
	tmp, err := os.MkdirTemp("", "itformer-site-")
	if err != nil {
		return m, err
	}
	defer os.RemoveAll(tmp)
	module := filepath.Join(tmp, site.WasmName)
	step := stepper{w: progress}
	step.start("compiling the module (GOOS=js GOARCH=wasm %s build itformer/cmd/wasm; a minute or two the first time)", goCmd)
	if err := compile(ctx, goCmd, module, stderr); err != nil {
		return m, err
	}
	step.done(module)
	if tools.WasmOpt != "" {
		step.start("shrinking it with %s %s", tools.WasmOpt, wasmOptArgs[0])
	}
	if module, err = optimize(ctx, tools.WasmOpt, module, stderr); err != nil {
		return m, err
	}
	step.done(module)
	if m.Wasm, err = os.ReadFile(module); err != nil {
		return m, err
	}
	step.start("gzip-compressing it (%s)", compressor(tools.Zopfli))
	if m.Gzip, err = compress(ctx, tools.Zopfli, module, m.Wasm, stderr); err != nil {
		return m, err // no "0.0 MB" for a step that made nothing
	}
	step.doneBytes(len(m.Gzip))
	return m, nil
}

// stepper prints a build's steps: what starts, then how long it took and
// the size of what it made.
type stepper struct {
	w     io.Writer
	began time.Time
	what  bool // a step is under way
}

func (s *stepper) start(format string, args ...any) {
	fmt.Fprintf(s.w, "site: "+format+"...\n", args...)
	s.began, s.what = time.Now(), true
}

// done ends the step under way, if any, with the size of file.
func (s *stepper) done(file string) {
	if st, err := os.Stat(file); err == nil {
		s.doneBytes(int(st.Size()))
	}
}

func (s *stepper) doneBytes(n int) {
	if s.what {
		fmt.Fprintf(s.w, "site:   %.1f MB after %.0f s\n", float64(n)/1e6, time.Since(s.began).Seconds())
	}
	s.what = false
}

// compressor names what compress will run: zopfli, or Go's gzip when the
// tool is skipped or missing.
func compressor(tool string) string {
	if _, err := exec.LookPath(tool); tool == "" || err != nil {
		return "Go's compress/gzip"
	}
	return tool + " " + zopfliArgs[0]
}

// compileFlags: no symbol table or DWARF (-s -w), and no inlining in the
// packages outside the standard library and this module (Gorgonia, tensor,
// gonum, protobuf, ...). Their inlined copies made the module compress
// worse: without them the gzip stream is about 0.5 MB smaller, while the
// model's own loops, which keep inlining, do the arithmetic
// (docs/performance.md, "The module back under 6 MB").
var compileFlags = []string{"-trimpath", "-ldflags=-s -w", "-gcflags=all=-l", "-gcflags=std=", "-gcflags=itformer/...="}

func compile(ctx context.Context, goCmd, module string, stderr io.Writer) error {
	args := append(append([]string{"build"}, compileFlags...), "-o", module, "itformer/cmd/wasm")
	cmd := command(ctx, goCmd, args...)
	// GOTMPDIR: go's work folder goes inside Build's, so that it is removed
	// with it even when go build is killed, which leaves its own behind.
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOTMPDIR="+filepath.Dir(module))
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the module (GOOS=js GOARCH=wasm %s build itformer/cmd/wasm): %w", goCmd, err)
	}
	return nil
}

// wasmOptArgs: -Oz, binaryen's passes for the smallest code, and the
// WebAssembly features Go's output uses, which wasm-opt 108 refuses
// without being told.
var wasmOptArgs = []string{"-Oz", "--enable-bulk-memory", "--enable-sign-ext",
	"--enable-nontrapping-float-to-int", "--enable-mutable-globals"}

// optimize runs wasm-opt on module and returns the optimised file's path,
// or module itself when the tool is skipped.
func optimize(ctx context.Context, tool, module string, stderr io.Writer) (string, error) {
	path, ok := find(tool, "binaryen", "the module is left as Go wrote it, about 10% larger", stderr)
	if !ok {
		return module, nil
	}
	out := strings.TrimSuffix(module, ".wasm") + ".opt.wasm"
	cmd := command(ctx, path, append(wasmOptArgs, "-o", out, module)...)
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("shrinking the module (%s %s): %w", tool, strings.Join(wasmOptArgs, " "), err)
	}
	return out, nil
}

// zopfliArgs: one iteration (--i1) gets most of zopfli's gain over gzip -9
// in a minute; its default, 15, takes over ten times as long.
var zopfliArgs = []string{"--i1", "-c"}

// compress gzips wasm (the contents of file module): with zopfli when
// found, checking that its stream decompresses to wasm, else with Go's gzip.
func compress(ctx context.Context, tool, module string, wasm []byte, stderr io.Writer) ([]byte, error) {
	path, ok := find(tool, "zopfli", "the module is gzipped by Go's compress/gzip, about 4% larger", stderr)
	if !ok {
		return site.Gzip(wasm)
	}
	var gz bytes.Buffer
	cmd := command(ctx, path, append(zopfliArgs, module)...)
	cmd.Stdout, cmd.Stderr = &gz, stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("compressing the module (%s %s): %w", tool, strings.Join(zopfliArgs, " "), err)
	}
	if err := sameAfterGunzip(gz.Bytes(), wasm); err != nil {
		return nil, fmt.Errorf("%s's output: %w", tool, err)
	}
	return gz.Bytes(), nil
}

func sameAfterGunzip(gz, want []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return err
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return errors.New("it does not decompress to the module")
	}
	return nil
}

// find looks tool up in PATH; "" means skip it. When a named tool is
// missing it warns, naming the Debian package and what is lost.
func find(tool, debian, lost string, stderr io.Writer) (string, bool) {
	if tool == "" {
		return "", false
	}
	path, err := exec.LookPath(tool)
	if err != nil {
		fmt.Fprintf(stderr, "site: warning: %s not found (apt-get install %s): %s, over the site's size goal\n", tool, debian, lost)
		return "", false
	}
	return path, true
}
