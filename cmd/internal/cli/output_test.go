package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tempFiles makes a folder holding a file named "file" and returns both.
func tempFiles(t *testing.T) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// An output path is refused, naming its flag, before the work whose result
// it would hold: `selective -plot /nonexistent/dir/x.png` had failed only
// after half a minute of evaluating.
func TestOutputFile(t *testing.T) {
	dir, file := tempFiles(t)
	noTxt := func(path string) error {
		if filepath.Ext(path) == ".txt" {
			return errors.New("not a .txt")
		}
		return nil
	}
	for _, tc := range []struct {
		path, want string // want "" for no error
	}{
		{filepath.Join(dir, "x.png"), ""},
		{file, ""}, // replaced
		{filepath.Join(dir, "x.txt"), "-plot " + filepath.Join(dir, "x.txt") + ": not a .txt"},
		{filepath.Join(dir, "no", "x.png"), "there is no folder " + filepath.Join(dir, "no") + " to write it in"},
		{filepath.Join(file, "x.png"), file + " is not a folder"},
		{"", `-plot "": the value is empty`},
	} {
		err := NewFlagSet("selective", "selective [-plot FILE.png]").OutputFile("plot", tc.path, noTxt)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v, want no error", tc.path, err)
		case tc.want != "" && (!errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want a usage mistake saying %q", tc.path, err, tc.want)
		}
	}
}

// An output folder must be one, or be one os.MkdirAll can make:
// `wordlists -out some.json` had read WordNet for 10 s, then failed with
// "mkdir some.json: not a directory", which named no flag.
func TestOutputDir(t *testing.T) {
	dir, file := tempFiles(t)
	for _, tc := range []struct {
		path, want string // want "" for no error
	}{
		{dir, ""},
		{filepath.Join(dir, "new", "deeper"), ""},
		{file, "-out " + file + ": it is not a folder"},
		{filepath.Join(file, "sub", "x"), "-out " + filepath.Join(file, "sub", "x") + ": " + file + " is not a folder"},
		{"/dev/null", "-out /dev/null: it is not a folder"},
		{"", `-out "": the value is empty`},
	} {
		err := NewFlagSet("wordlists", "wordlists [-out DIR]").OutputDir("out", tc.path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v, want no error", tc.path, err)
		case tc.want != "" && (!errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want a usage mistake saying %q", tc.path, err, tc.want)
		}
	}
}
