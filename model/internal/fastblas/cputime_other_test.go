//go:build !unix

package fastblas

import "time"

// cpuTime is not measured here (0): BenchmarkDgemm reports no cpu-µs/op.
func cpuTime() time.Duration { return 0 }
