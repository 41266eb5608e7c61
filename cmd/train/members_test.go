package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/train"
)

// The table sets the members side by side: a row per set, test first, then
// member 1's challenge sets in its order; a set a member lacks shows "-".
func TestMembersTable(t *testing.T) {
	member := func(test float64, challenges map[string]float64, order ...string) *train.Metrics {
		m := &train.Metrics{}
		m.Test.Accuracy = test
		for _, name := range order {
			c := train.Challenge{Name: name}
			c.Evaluation.Accuracy = challenges[name]
			m.Challenges = append(m.Challenges, c)
		}
		return m
	}
	cases := []struct {
		name    string
		members []*train.Metrics
		want    string
	}{
		{"two members", []*train.Metrics{
			member(0.993, map[string]float64{"negation": 0.974, "two_it": 0.985}, "negation", "two_it"),
			member(0.987, map[string]float64{"negation": 0.95, "two_it": 0.978}, "two_it", "negation"),
		}, `
accuracy of each member (member k has seed + k - 1; the tables above are member 1's):
                        member 1  member 2
test                       99.3%     98.7%
negation                   97.4%     95.0%
two_it                     98.5%     97.8%
`},
		{"a member without a set", []*train.Metrics{
			member(0.9, map[string]float64{"negation": 0.8}, "negation"),
			member(0.85, nil),
			member(1, map[string]float64{"negation": 0.5}, "negation"),
		}, `
accuracy of each member (member k has seed + k - 1; the tables above are member 1's):
                        member 1  member 2  member 3
test                       90.0%     85.0%    100.0%
negation                   80.0%         -     50.0%
`},
	}
	for _, tc := range cases {
		if got := membersTable(tc.members); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// A run of one member has no members to set side by side: nothing is
// written, and no error.
func TestOneMemberWritesNoTable(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(tiny)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"config.json": raw, "metrics.json": []byte("{}")} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := writeMembers(&out, dir); err != nil || out.Len() > 0 {
		t.Errorf("one member: wrote %q (%v), want nothing", out.String(), err)
	}
}

// The end of a run of two members' log sets both members' accuracies side
// by side, as their own metrics.json give them, after member 1's summary.
func TestTrainLogEndsWithEachMember(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two tiny models")
	}
	dir := filepath.Join(t.TempDir(), "run")
	log := captureStdout(t, func() {
		if err := run([]string{"-config", tiny, "-set", "train.members=2", "-set", "train.epochs=1", "-set", "data.train_size=4000", "-out", dir}); err != nil {
			t.Fatal(err)
		}
	})
	ms, err := train.ReadMembers(dir)
	if err != nil {
		t.Fatal(err)
	}
	table := membersTable(ms)
	at := strings.Index(log, table)
	if at < 0 || at < strings.Index(log, "trained ") || !strings.Contains(log[at:], "\nrun folder: ") {
		t.Fatalf("the log does not end with the members' table\n%s\nbefore the run folder:\n%s", table, log)
	}
	if !strings.Contains(table, "member 1  member 2\ntest ") || strings.Count(table, "\n") != 4+len(ms[0].Challenges) {
		t.Errorf("the table has not a row per set and a column per member:\n%s", table)
	}
}

// captureStdout runs f with os.Stdout sent to a file, and returns what it wrote.
func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	file, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	stdout := os.Stdout
	os.Stdout = file
	defer func() { os.Stdout = stdout }()
	f()
	raw, err := os.ReadFile(file.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
