//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// stopTogether puts cmd in a process group of its own and makes cancelling
// it kill the whole group: go build's compilers too, which outlive a go
// command that is stopped alone (it does not catch SIGINT) and go on
// writing into its work folder.
func stopTogether(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
