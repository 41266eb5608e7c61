//go:build !unix

package config

// openFlags: outside Unix there is no O_NONBLOCK for open, and no FIFO to fear.
const openFlags = 0
