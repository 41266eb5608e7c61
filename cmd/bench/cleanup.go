package main

// What a signal must not leave behind. bench starts children (pytorch_step.py,
// and itself with -child) and makes temporary folders for their input; Ctrl-C
// or SIGTERM would end it at once, its defers unrun, and leave a child
// running (blocked, it may be, on a script that never opens) and the folders
// on disk. Each child and folder is registered while it lives, and a signal
// stops the one and removes the other before the process ends.

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
)

// leftovers are the children running and the temporary folders made.
type leftovers struct {
	mu    sync.Mutex
	procs map[*os.Process]bool
	dirs  map[string]bool
}

var cleanup = newLeftovers()

func newLeftovers() *leftovers {
	return &leftovers{procs: map[*os.Process]bool{}, dirs: map[string]bool{}}
}

// tempDir is os.MkdirTemp("", pattern), removed by remove or on a signal.
func (l *leftovers) tempDir(pattern string) (dir string, remove func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if dir, err = os.MkdirTemp("", pattern); err != nil {
		return "", nil, err
	}
	l.dirs[dir] = true
	return dir, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.dirs, dir)
		os.RemoveAll(dir)
	}, nil
}

// start starts cmd, to be stopped on a signal until forget is called. The
// lock is held across Start, so a signal either finds the child or comes
// after it stopped everything, when no child can start any more.
func (l *leftovers) start(cmd *exec.Cmd) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	l.procs[cmd.Process] = true
	return nil
}

// wait waits for cmd, which start started, and forgets it.
func (l *leftovers) wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.procs, cmd.Process)
	return err
}

// clear stops every child with SIGTERM (a -child cleans up after itself as
// this process does) and removes every folder; it keeps the lock, so that
// nothing new starts before the process ends. It returns how many children
// it stopped.
func (l *leftovers) clear() int {
	l.mu.Lock()
	for p := range l.procs {
		p.Signal(syscall.SIGTERM)
	}
	for dir := range l.dirs {
		os.RemoveAll(dir)
	}
	return len(l.procs)
}

// exitOnSignal ends the process on Ctrl-C or SIGTERM once l is cleared,
// with status 128 + the signal's number (130, 143), as a shell reports a
// process the signal ended.
func (l *leftovers) exitOnSignal(name string) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		n := l.clear()
		fmt.Fprintf(os.Stderr, "\n%s: %v: stopped %d child process(es) and removed the temporary folders\n", name, sig, n)
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
}
