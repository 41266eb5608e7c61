package cli

// Ctrl-C and SIGTERM for the commands that would leave something behind if
// the signal ended them at once, their defers unrun: temporary folders, child
// processes. Like train, they catch the signals with signal.NotifyContext,
// stop their work when the context is done, remove what they made, say so
// on stderr and exit with status 130.

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// SignalContext is a context cancelled by Ctrl-C or SIGTERM, as train's.
// From then on neither signal ends the process: the command must watch the
// context, clean up and return an Interrupted error.
func SignalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// ErrInterrupted marks a command stopped by Ctrl-C or SIGTERM.
var ErrInterrupted = errors.New("interrupted")

// Interrupted marks err as the end of an interrupted command, keeping its
// message, which should say what was stopped and what was (not) written.
func Interrupted(err error) error { return &interruptedError{err} }

type interruptedError struct{ error }

func (e *interruptedError) Unwrap() error        { return e.error }
func (e *interruptedError) Is(target error) bool { return target == ErrInterrupted }

// InterruptedStatus is the exit status of an interrupted command: 128 +
// SIGINT's number, what a shell reports for Ctrl-C, and what train exits
// with. SIGTERM gets it too, as in train: the context does not say which
// signal came.
const InterruptedStatus = 130
