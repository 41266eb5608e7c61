package train

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trimEpochLog keeps the epochs before the one a run resumes at, and refuses
// a log that lacks one of them (it was edited or cut by hand), leaving the
// file as it was: a resumed run must not end with a gap in its log.
func TestTrimEpochLog(t *testing.T) {
	cases := []struct {
		name    string
		epochs  []int // the log's lines; nil: no file
		tail    string
		resume  int
		keep    int // lines left
		refused bool
	}{
		{"first epoch, no log yet", nil, "", 1, 0, false},
		{"epochs before", []int{1, 2}, "", 3, 2, false},
		{"the resumed epoch was logged", []int{1, 2, 3}, "", 3, 2, false},
		{"a line cut by a crash", []int{1}, `{"epoch":2,"trai`, 2, 1, false},
		{"no log, epochs missing", nil, "", 3, 0, true},
		{"a line missing", []int{1}, "", 3, 1, true},
		{"a line repeated", []int{1, 1}, "", 3, 2, true},
		{"lines out of order", []int{2, 1}, "", 3, 2, true},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "epochs.jsonl")
		var before string
		if c.epochs != nil {
			var b strings.Builder
			for _, e := range c.epochs {
				line, _ := json.Marshal(EpochRecord{Epoch: e})
				b.Write(append(line, '\n'))
			}
			before = b.String() + c.tail
			if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := trimEpochLog(path, c.resume)
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
