// Package memstat measures a process's memory for the tests that check it
// stays flat: the live heap, which moves only with what is still referenced,
// and the resident set, which is what a user sees in top.
package memstat

import (
	"os"
	"runtime"
	"strconv"
	"strings"
)

// LiveHeap is the heap in use after three collections: enough for an object
// with a finalizer to be found unreachable, finalized, and freed.
func LiveHeap() int64 {
	for range 3 {
		runtime.GC()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// Resident is the process's resident set in bytes, read from /proc, or 0
// where there is none (outside Linux).
func Resident() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmRSS:" && f[2] == "kB" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// MB is bytes as megabytes with one decimal, for messages.
func MB(bytes int64) string { return strconv.FormatFloat(float64(bytes)/1e6, 'f', 1, 64) + " MB" }
