// Package cputime reads the process's CPU time, for benchmarks that report
// cpu-ms/op beside the wall clock: on a shared machine, CPU time moves far
// less with what else runs than the wall clock does (docs/performance.md).
package cputime
