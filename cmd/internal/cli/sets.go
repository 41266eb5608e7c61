package cli

import (
	"errors"
	"fmt"
	"strings"

	"itformer/data"
)

// ErrNoSet is a -sets name no corpus has: a usage mistake, which a command
// reports with its usage line.
var ErrNoSet = errors.New("no set")

// ChooseSets returns the named sets of c, in the order named ("all": test,
// then every challenge set).
func ChooseSets(c *data.Corpus, names string) ([]data.ChallengeSet, error) {
	all := append([]data.ChallengeSet{{Name: "test", Examples: c.Test}}, c.Challenges...)
	if names == "all" {
		return all, nil
	}
	var out []data.ChallengeSet
	for _, n := range strings.Split(names, ",") {
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
