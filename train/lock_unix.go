//go:build unix

package train

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// lockFolder takes an exclusive lock on the folder dir itself (flock), so
// that no file is added to the run folder. The kernel drops the lock when
// the returned file is closed or the process ends, however it ends: a killed
// run never leaves its folder locked.
func lockFolder(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, lockedError(dir, lockHolder(dir))
		}
		return nil, fmt.Errorf("cannot lock run folder %s: %w", dir, err)
	}
	return f, nil
}

// lockHolder names the process holding a flock on dir, from Linux's
// /proc/locks (pid, device and inode of each lock) and its command line; or
// "another process" where that cannot be read.
func lockHolder(dir string) string {
	var st unix.Stat_t
	if unix.Stat(dir, &st) != nil {
		return "another process"
	}
	raw, err := os.ReadFile("/proc/locks")
	if err != nil {
		return "another process"
	}
	dev := uint64(st.Dev)
	file := fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), st.Ino)
	for _, line := range strings.Split(string(raw), "\n") {
		// "1: FLOCK  ADVISORY  WRITE 4321 00:2a:1234 0 EOF"
		f := strings.Fields(line)
		if len(f) >= 6 && f[1] == "FLOCK" && f[5] == file {
			return "process " + f[4] + commandOf(f[4])
		}
	}
	return "another process"
}

// commandOf is " (its command line)" for process pid, or "" if unknown.
func commandOf(pid string) string {
	if _, err := strconv.Atoi(pid); err != nil {
		return ""
	}
	raw, err := os.ReadFile("/proc/" + pid + "/cmdline")
	if err != nil || len(raw) == 0 {
		return ""
	}
	return " (" + strings.TrimSpace(strings.ReplaceAll(string(raw), "\x00", " ")) + ")"
}
