//go:build unix

package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serve -run fifo.zip is refused at once, naming the file: it used to block
// opening the FIFO, deaf to Ctrl-C and SIGTERM, which only cancel serving.
func TestServeRefusesAFIFOForAModel(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.zip")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"-addr", "127.0.0.1:0", "-run", fifo}, io.Discard, io.Discard)
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "fifo.zip: a named pipe, not a regular file") {
			t.Errorf("serve -run fifo.zip: %v, want a refusal naming it", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve -run fifo.zip is still loading after 5 s")
	}
}

// Ctrl-C or SIGTERM during a load that does not end stops serve at once.
func TestSignalStopsALoad(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	never := make(chan struct{})
	defer close(never)
	done := make(chan error, 1)
	go func() {
		_, err := untilDone(ctx, func() (int, error) { <-never; return 0, nil })
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped while loading the model") {
			t.Errorf("untilDone after a cancel: %v, want the cancel, said", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled load still waits after 5 s")
	}
}
