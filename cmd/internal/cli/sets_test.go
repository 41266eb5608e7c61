package cli

import (
	"errors"
	"strings"
	"testing"

	"itformer/data"
)

// -sets is read as named, in order; a name no corpus has, or a set named
// twice (which would be measured twice), is a usage mistake that says so.
func TestChooseSets(t *testing.T) {
	c := &data.Corpus{Test: []data.Example{{}}, Challenges: []data.ChallengeSet{{Name: "negation"}, {Name: "two_it"}}}
	for _, tc := range []struct {
		names string
		want  string // the sets chosen, or the error
	}{
		{"all", "test negation two_it"},
		{"two_it, test", "two_it test"},
		{"test,nope", `no set "nope" (the sets are test, negation, two_it, or all)`},
		{"test,negation,test", `"test" is named twice; name each set once`},
		{"negation, negation", `"negation" is named twice`},
	} {
		sets, err := ChooseSets(c, tc.names)
		var got []string
		for _, s := range sets {
			got = append(got, s.Name)
		}
		if err != nil {
			if !errors.Is(err, ErrNoSet) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q: %v, want a -sets mistake saying %s", tc.names, err, tc.want)
			}
			continue
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: %v, want %s", tc.names, got, tc.want)
		}
	}
}
