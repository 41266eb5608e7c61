// Command site builds the static site that trains and questions itformer in
// a browser tab (package cmd/internal/site) into one folder:
//
//	go run ./cmd/site -out site
//	go run ./cmd/serve -site site      # or any static file server
//
// It compiles cmd/wasm with GOOS=js GOARCH=wasm (stripped: -ldflags=-s -w,
// -trimpath), gzips it, and copies wasm_exec.js from the same Go toolchain.
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/cmd/internal/site"
)

func main() {
	cli.Exit("site", run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("site", "site -out DIR")
	out := fs.String("out", "", "the `folder` to write the site into (created if missing)")
	goCmd := fs.String("go", "go", "the go `command` that builds the module; its GOROOT gives wasm_exec.js")
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if *out == "" {
		return fs.Mistake("give -out DIR, the folder to write the site into")
	}
	if fs.NArg() > 0 {
		return fs.Mistake("unexpected arguments %q", fs.Args())
	}
	wasm, wasmExec, err := Build(*goCmd, stderr)
	if err != nil {
		return err
	}
	if err := site.Write(*out, wasm, wasmExec); err != nil {
		return err
	}
	gz, err := os.Stat(filepath.Join(*out, site.WasmName+site.GzipExt))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s %.1f MB (%.1f MB gzip-compressed)\n", *out, site.WasmName,
		float64(len(wasm))/1e6, float64(gz.Size())/1e6)
	return nil
}

// Build compiles the module and reads wasm_exec.js from goCmd's toolchain.
func Build(goCmd string, stderr io.Writer) (wasm, wasmExec []byte, err error) {
	root, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		return nil, nil, fmt.Errorf("%s env GOROOT: %w", goCmd, err)
	}
	if wasmExec, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js")); err != nil {
		return nil, nil, fmt.Errorf("Go's wasm_exec.js: %w", err)
	}
	tmp, err := os.MkdirTemp("", "itformer-site-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	module := filepath.Join(tmp, site.WasmName)
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", module, "itformer/cmd/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("building the module (GOOS=js GOARCH=wasm %s build itformer/cmd/wasm): %w", goCmd, err)
	}
	wasm, err = os.ReadFile(module)
	return wasm, wasmExec, err
}
