package train

// Stopping during setup. Generating the corpus and building the graphs come
// before the first step, and a deep model's training graph takes a minute
// (200 layers) in one Gorgonia call that cannot be interrupted. A cancelled
// context is therefore honoured between the setup's parts and, during a graph
// build, at once: the build goes on in the background and is released when
// it ends (in a command, the process exits first).
//
// Setup watches ctx.Done(), not ctx.Err(): the training loop asks Err once
// per batch, and the resume tests count those calls to stop at an exact step.

import (
	"context"
	"errors"

	"itformer/internal/await"
	"itformer/model"
)

// ErrSetupInterrupted is returned when the Options' context is cancelled
// before training starts: a new run has not created or changed its folder
// (the folder is claimed only after setup), and a resumed run's folder is as
// it was, so it can still be resumed.
var ErrSetupInterrupted = errors.New("interrupted during setup, before training started")

// done is ctx.Done(), and for a nil ctx (never cancelled) a channel that never closes.
func done(ctx context.Context) <-chan struct{} {
	if ctx == nil {
		return nil
	}
	return ctx.Done()
}

// stopped reports, without waiting, whether ctx is cancelled.
func stopped(ctx context.Context) bool {
	select {
	case <-done(ctx):
		return true
	default:
		return false
	}
}

// cancellable runs build on its own goroutine and returns its result, or
// ErrSetupInterrupted as soon as ctx is cancelled; a build then left running
// is passed to release when it succeeds.
func cancellable[T any](ctx context.Context, build func() (T, error), release func(T)) (T, error) {
	var zero T
	if stopped(ctx) {
		return zero, ErrSetupInterrupted
	}
	v, err, ok := await.Result(done(ctx), build, release)
	if !ok {
		return zero, ErrSetupInterrupted
	}
	return v, err
}

// closeGraph releases a graph whose build finished after setup was cancelled.
func closeGraph(g *model.Graph) { g.Close() }
