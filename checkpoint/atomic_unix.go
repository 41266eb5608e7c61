//go:build unix

package checkpoint

import (
	"errors"
	"os"
	"syscall"
)

// writeToReader writes data into the named pipe at path if a reader holds it
// open (done), and does nothing if none does: opening a pipe's writing end
// without blocking fails with ENXIO when it has no reader.
func writeToReader(path string, data []byte) (done bool, err error) {
	err = writeInPlace(path, os.O_WRONLY|syscall.O_NONBLOCK, data)
	if errors.Is(err, syscall.ENXIO) {
		return false, nil
	}
	return true, err
}
