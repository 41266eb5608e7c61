//go:build unix

package main

import (
	"testing"

	"itformer/cmd/internal/browsertest"
)

// Without chromium, a plain run skips the browser test with one line that
// says so and how to install it; under CI it fails.
func TestBrowserWithoutChromium(t *testing.T) {
	browsertest.CheckWithoutChromium(t)
}
