package main

// The members side by side. A run of train.members K trains K models of one
// recipe (train/members.go); the closing summary is member 1's alone, but
// how far the members' accuracies lie apart on each set is what a reader
// of the log wants next: it is the doubt the ensemble reports.

import (
	"fmt"
	"io"
	"strings"

	"itformer/train"
)

// writeMembers writes, for the finished run in dir when it has several
// members, each member's accuracy on test and on every challenge set, read
// from the members' own metrics.json; for one member it writes nothing.
func writeMembers(w io.Writer, dir string) error {
	ms, err := train.ReadMembers(dir)
	if err != nil || len(ms) < 2 {
		return err
	}
	_, err = io.WriteString(w, membersTable(ms))
	return err
}

// membersTable is a row per set, test then member 1's challenge sets, and a
// column per member; a set a member was not scored on shows "-".
func membersTable(ms []*train.Metrics) string {
	var s strings.Builder
	fmt.Fprintf(&s, "\naccuracy of each member (member k has seed + k - 1; the tables above are member 1's):\n%-22s", "")
	for k := range ms {
		fmt.Fprintf(&s, " %9s", fmt.Sprintf("member %d", k+1))
	}
	s.WriteString("\n")
	writeMemberRow(&s, "test", ms, func(m *train.Metrics) (float64, bool) { return m.Test.Accuracy, true })
	for _, c := range ms[0].Challenges {
		writeMemberRow(&s, c.Name, ms, func(m *train.Metrics) (float64, bool) { return challengeAccuracy(m, c.Name) })
	}
	return s.String()
}

// writeMemberRow writes one set's row: its name, then each member's accuracy.
func writeMemberRow(s *strings.Builder, name string, ms []*train.Metrics, accuracy func(*train.Metrics) (float64, bool)) {
	fmt.Fprintf(s, "%-22s", name)
	for _, m := range ms {
		if a, ok := accuracy(m); ok {
			fmt.Fprintf(s, " %8.1f%%", 100*a)
		} else {
			fmt.Fprintf(s, " %9s", "-")
		}
	}
	s.WriteString("\n")
}

// challengeAccuracy is m's accuracy on the challenge set called name, and
// whether m has it: a member trained by another version may lack a set.
func challengeAccuracy(m *train.Metrics, name string) (float64, bool) {
	for _, c := range m.Challenges {
		if c.Name == name {
			return c.Evaluation.Accuracy, true
		}
	}
	return 0, false
}
