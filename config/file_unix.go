//go:build unix

package config

import "syscall"

// openFlags makes opening a FIFO return at once instead of waiting for a
// writer; it changes nothing for a regular file, the only kind then read.
const openFlags = syscall.O_NONBLOCK
