// Package cli is how the commands end: -h exits 0, a mistake in how the
// command was called exits 2, any other error 1, each with a message on stderr.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// ErrUsage marks mistakes in how a command was called (exit status 2).
var ErrUsage = errors.New("usage")

// Exit ends the program as err says; it returns only for a nil error or -h.
func Exit(name string, err error) {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return
	case errors.Is(err, ErrUsage):
		fmt.Fprintln(os.Stderr, name+":", strings.TrimPrefix(err.Error(), ErrUsage.Error()+": "))
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}
