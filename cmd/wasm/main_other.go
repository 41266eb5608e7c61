//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main says how to use this package: it runs only in a browser.
func main() {
	fmt.Fprintln(os.Stderr, "wasm: this is the browser module; build the site with: go run ./cmd/site -out DIR")
	os.Exit(2)
}
