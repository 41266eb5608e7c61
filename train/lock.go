package train

// One run at a time in a run folder. Two runs started with one -out both
// wrote config.json, epochs.jsonl and checkpoint.json, and left a folder
// whose files disagreed (one run's seed and epochs, the other's weights).
// A run therefore holds a lock on its folder from the moment it claims it
// (or starts resuming it) until it ends; a second run is refused, with a
// message naming the process that holds the folder.

import (
	"errors"
	"fmt"
)

// ErrFolderLocked is returned for a run folder another run is writing.
var ErrFolderLocked = errors.New("another run is writing this folder")

// lockedError names the folder and who holds it.
func lockedError(dir, holder string) error {
	return fmt.Errorf("%w: %s is held by %s; wait for that run to end, or train into another -out", ErrFolderLocked, dir, holder)
}
