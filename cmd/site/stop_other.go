//go:build !unix

package main

import "os/exec"

// stopTogether leaves cmd as it is: cancelling it kills the process alone.
func stopTogether(cmd *exec.Cmd) {}
