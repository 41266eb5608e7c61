package cli

import (
	"errors"
	"fmt"
	"strings"

	"itformer/data"
)

// ErrNoSet is a -sets list that names a set no corpus has, or one set twice:
// a usage mistake, which a command reports with its usage line.
var ErrNoSet = errors.New("no set")

// setNamedTwice is the -sets mistake of naming a set twice, which would
// measure it twice.
type setNamedTwice string

func (n setNamedTwice) Error() string {
	return fmt.Sprintf("%q is named twice; name each set once", string(n))
}

func (setNamedTwice) Is(target error) bool { return target == ErrNoSet }

// ChooseSets returns the named sets of c, in the order named ("all": test,
// then every challenge set).
func ChooseSets(c *data.Corpus, names string) ([]data.ChallengeSet, error) {
	all := append([]data.ChallengeSet{{Name: "test", Examples: c.Test}}, c.Challenges...)
	if names == "all" {
		return all, nil
	}
	var out []data.ChallengeSet
	named := map[string]bool{}
	for _, n := range strings.Split(names, ",") {
		if named[strings.TrimSpace(n)] {
			return nil, setNamedTwice(strings.TrimSpace(n))
		}
		named[strings.TrimSpace(n)] = true
		found := false
		for _, s := range all {
			if s.Name == strings.TrimSpace(n) {
				out, found = append(out, s), true
			}
		}
		if !found {
			var known []string
			for _, s := range all {
				known = append(known, s.Name)
			}
			return nil, fmt.Errorf("%w %q (the sets are %s, or all)", ErrNoSet, n, strings.Join(known, ", "))
		}
	}
	return out, nil
}
