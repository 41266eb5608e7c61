//go:build !unix

package cputime

import "time"

// Used is 0 where the process's CPU time is not measured (js/wasm, Windows):
// a benchmark then reports no CPU figure.
func Used() time.Duration { return 0 }
