package train

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/checkpoint"
)

// trimEpochLog keeps the epochs before the one a run resumes at, and refuses
// a log that lacks one of them (it was edited or cut by hand), that goes past
// it, or whose best epoch is not the resume state's (another run's log),
// leaving the file as it was: a resumed run must not end with a gap in its
// log, or with two runs' epochs in it.
func TestTrimEpochLog(t *testing.T) {
	cases := []struct {
		name     string
		epochs   []int // the log's lines; nil: no file
		tail     string
		resume   int
		best     int     // the resume state's best epoch: the line marked best, validation accuracy epoch/10
		accuracy float64 // the resume state's best accuracy, if not the line's
		keep     int     // lines left
		refused  bool
	}{
		{"first epoch, no log yet", nil, "", 1, 0, 0, 0, false},
		{"epochs before", []int{1, 2}, "", 3, 2, 0, 2, false},
		{"the resumed epoch was logged", []int{1, 2, 3}, "", 3, 1, 0, 2, false},
		{"a line cut by a crash", []int{1}, `{"epoch":2,"trai`, 2, 1, 0, 1, false},
		{"no log, epochs missing", nil, "", 3, 0, 0, 0, true},
		{"a line missing", []int{1}, "", 3, 0, 0, 1, true},
		{"a line repeated", []int{1, 1}, "", 3, 0, 0, 2, true},
		{"lines out of order", []int{2, 1}, "", 3, 0, 0, 2, true},
		{"an epoch after the resumed one", []int{1, 2, 3, 4}, "", 3, 2, 0, 4, true},
		{"another best epoch than the resume state's", []int{1, 2}, "", 3, 2, 0.9, 2, true},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "epochs.jsonl")
		var before string
		if c.epochs != nil {
			var b strings.Builder
			for _, e := range c.epochs {
				line, _ := json.Marshal(EpochRecord{Epoch: e, Best: e == c.best, ValidationAccuracy: float64(e) / 10})
				b.Write(append(line, '\n'))
			}
			before = b.String() + c.tail
			if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		st := checkpoint.ResumeState{Epoch: c.resume, BestEpoch: c.best, BestAccuracy: float64(c.best) / 10}
		if c.accuracy != 0 {
			st.BestAccuracy = c.accuracy
		}
		err := trimEpochLog(path, st)
		after, _ := os.ReadFile(path)
		switch {
		case c.refused && (err == nil || !strings.Contains(err.Error(), path)):
			t.Errorf("%s: %v, want a refusal naming %s", c.name, err, path)
		case c.refused && string(after) != before:
			t.Errorf("%s: refused, but the file changed to %q", c.name, after)
		case !c.refused && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.refused && strings.Count(string(after), "\n") != c.keep:
			t.Errorf("%s: %d lines kept, want %d:\n%s", c.name, strings.Count(string(after), "\n"), c.keep, after)
		}
	}
}
