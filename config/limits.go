package config

import (
	"errors"
	"fmt"
)

// MaxDescription bounds a run's or an experiment's description, in bytes: it
// is copied into every file of a run (config.json, checkpoint.json, the
// resumable checkpoint), and a paragraph is plenty.
const MaxDescription = 4096

// CheckDescription refuses a description longer than MaxDescription.
func CheckDescription(d string) error {
	if len(d) > MaxDescription {
		return fmt.Errorf("description is %d bytes long; at most %d (it is copied into every run file)", len(d), MaxDescription)
	}
	return nil
}

// MaxEpochs bounds train.epochs: an epoch of the smallest useful config takes
// about a second, so a million is weeks of training, and more is a typo that
// would otherwise run until killed.
const MaxEpochs = 1_000_000

// maxListed is how many errors of one kind a message lists: a file with
// thousands of unknown keys printed them all (51 MB for 2.5 million).
const maxListed = 20

// joinCapped joins the first maxListed errors and counts the rest.
func joinCapped(errs []error, what string) error {
	if len(errs) <= maxListed {
		return errors.Join(errs...)
	}
	more := fmt.Errorf("and %d more %s", len(errs)-maxListed, what)
	return errors.Join(append(errs[:maxListed:maxListed], more)...)
}
