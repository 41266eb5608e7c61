//go:build unix

package fastblas

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time so far (as in
// train's benchmarks: on a shared machine it varies far less than the wall
// clock).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
