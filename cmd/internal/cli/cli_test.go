package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"itformer/data"
)

func newTestFlags() *FlagSet {
	fs := NewFlagSet("tool", "tool [-n N] ARG")
	fs.Int("n", 1, "how many")
	fs.Bool("v", false, "verbose")
	fs.Var(&list{}, "add", "repeatable")
	return fs
}

// list is a Repeatable flag.Value.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }
func (l *list) Repeatable()        {}

// A Repeatable flag may be given many times, a boolean one still takes no
// value, and the flags keep their own Values after Parse.
func TestParseRepeatable(t *testing.T) {
	fs := newTestFlags()
	if err := fs.Parse([]string{"-add", "a", "-v", "-add", "b", "ARG"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := fs.Lookup("add").Value.(*list); !slices.Equal(*got, []string{"a", "b"}) || fs.Arg(0) != "ARG" {
		t.Errorf("-add collected %v, args %v", *got, fs.Args())
	}
	if _, ok := fs.Lookup("v").Value.(*counted); ok {
		t.Error("-v's Value is still the counting wrapper after Parse")
	}
}

// A mistake is one usage error that names it and ends with the usage line;
// nothing is printed by Parse itself, so Exit prints the message once.
func TestParseMistakes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-x"}, "flag provided but not defined: -x"},
		{[]string{"-n", "many"}, `invalid value "many" for flag -n`},
		{[]string{"-n"}, "flag needs an argument: -n"},
		{[]string{"-n", "1", "-n", "2"}, "-n given more than once"},
		{[]string{"-v", "-n", "1", "-v=false", "-n=3"}, "-n, -v given more than once"},
	} {
		fs := newTestFlags()
		var out bytes.Buffer
		err := fs.Parse(tc.args, &out)
		if !errors.Is(err, ErrUsage) {
			t.Fatalf("%q: error %v is not a usage error", tc.args, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.want) || strings.Count(msg, tc.want) != 1 {
			t.Errorf("%q: message %q should name %q once", tc.args, msg, tc.want)
		}
		if strings.Count(msg, "usage: tool [-n N] ARG") != 1 {
			t.Errorf("%q: message %q should end with the usage line once", tc.args, msg)
		}
		if out.Len() != 0 {
			t.Errorf("%q: Parse printed %q; only Exit prints", tc.args, out.String())
		}
	}
}

func TestParseHelp(t *testing.T) {
	fs := newTestFlags()
	var out bytes.Buffer
	if err := fs.Parse([]string{"-h"}, &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h gave %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"usage: tool [-n N] ARG", "-n int", "how many"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help %q lacks %q", out.String(), want)
		}
	}
}

func TestMistakeAndNoArguments(t *testing.T) {
	fs := newTestFlags()
	if err := fs.Parse([]string{"-n", "2", "extra"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	err := fs.NoArguments()
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), `unexpected argument "extra"`) {
		t.Errorf("NoArguments = %v", err)
	}
	if err := Usagef("bad %d", 3); !errors.Is(err, ErrUsage) || err.Error() != "bad 3" {
		t.Errorf("Usagef = %v", err)
	}
}

func TestStrongest(t *testing.T) {
	for _, tc := range []struct {
		row  []float64
		n    int
		want []int
	}{
		{[]float64{0.1, 0.5, 0.2, 0.5}, 2, []int{1, 3}},
		{[]float64{0.1, 0.5, 0.2}, 5, []int{1, 2, 0}},
		{nil, 3, []int{}},
	} {
		if got := Strongest(tc.row, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("Strongest(%v, %d) = %v, want %v", tc.row, tc.n, got, tc.want)
		}
	}
}

func TestWarnReading(t *testing.T) {
	tests := []struct {
		unknown []string
		read    []data.Contraction
		want    string
	}{
		{nil, nil, ""},
		{[]string{"overtake"}, nil, "warning: not in the model's vocabulary, read as <unk>: overtake\n"},
		{[]string{"overtake", "zippy"}, []data.Contraction{{Word: "didn't", ReadAs: []string{"did", "not"}, Position: 2}},
			"note: read \"didn't\" as \"did not\"\nwarning: not in the model's vocabulary, read as <unk>: overtake, zippy\n"},
		{[]string{"!", "zorp", "!", "!"}, nil, "warning: not in the model's vocabulary, read as <unk>: !, zorp\n"},
		// An invisible word (a zero-width space) is quoted with escapes, or the
		// warning would name nothing a reader can see.
		{[]string{"\u200b", "zorp", "a\u00adb"}, nil, "warning: not in the model's vocabulary, read as <unk>: \"\\u200b\", zorp, \"a\\u00adb\"\n"},
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		WarnReading(&buf, tc.unknown, tc.read, nil)
		if buf.String() != tc.want {
			t.Errorf("%q %v: wrote %q, want %q", tc.unknown, tc.read, buf.String(), tc.want)
		}
	}
}

// A command that returned no error but could not write its output (a full
// disk, a closed stdout) exits 1 with a message that says so; -h too.
func TestStatus(t *testing.T) {
	full := errors.New("write /dev/stdout: no space left on device")
	for _, tc := range []struct {
		name           string
		err, stdoutErr error
		wantMsg        string
		wantCode       int
	}{
		{"done", nil, nil, "", 0},
		{"help", flag.ErrHelp, nil, "", 0},
		{"done, output lost", nil, full, "cannot write the output: " + full.Error(), 1},
		{"help, output lost", flag.ErrHelp, full, "cannot write the output: " + full.Error(), 1},
		{"usage mistake", Usagef("bad flag\n"), full, "bad flag", 2},
		{"failure", errors.New("no model"), nil, "no model", 1},
	} {
		msg, code := status(tc.err, tc.stdoutErr)
		if msg != tc.wantMsg || code != tc.wantCode {
			t.Errorf("%s: status = %q, %d; want %q, %d", tc.name, msg, code, tc.wantMsg, tc.wantCode)
		}
	}
}

// CheckedWriter keeps the first write error and writes nothing after it.
func TestCheckedWriter(t *testing.T) {
	var buf bytes.Buffer
	w := &CheckedWriter{W: &failAfter{w: &buf, n: 1}}
	fmt.Fprint(w, "a")
	fmt.Fprint(w, "b")
	fmt.Fprint(w, "c")
	if buf.String() != "a" || w.Err == nil || w.Err.Error() != "disk full" {
		t.Errorf("wrote %q, kept %v; want \"a\" and the first error", buf.String(), w.Err)
	}
}

// failAfter writes its first n calls to w and fails every later one.
type failAfter struct {
	w     io.Writer
	n     int
	calls int
}

func (f *failAfter) Write(p []byte) (int, error) {
	f.calls++
	if f.calls > f.n {
		if f.calls > f.n+1 {
			return 0, errors.New("written after the first error")
		}
		return 0, errors.New("disk full")
	}
	return f.w.Write(p)
}

// An empty value given to any flag is refused by the flag's name; a flag left
// out, or given a value, is not.
func TestAnEmptyValueIsAMistake(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for no error
	}{
		{[]string{"-config", ""}, `-config "": the value is empty; give one, or leave the flag out`},
		{[]string{"-config=", "-out", "x"}, `-config "": the value is empty`},
		{[]string{"-out", "", "-config", ""}, `-out "": the value is empty`},
		{[]string{"-note", ""}, `-note "": the value is empty`},
		{[]string{"-n", ""}, `invalid value "" for flag -n`},
		{[]string{"-config", "c.json"}, ""},
		{[]string{"-tool", ""}, ""}, // "" means something here (AllowEmpty)
		{[]string{"-tool", "", "-note", ""}, `-note "": the value is empty`},
		{nil, ""},
	} {
		fs := NewFlagSet("tool", "tool [-config FILE] [-out DIR]")
		fs.String("config", "", "")
		fs.String("out", "", "")
		fs.String("note", "", "")
		fs.Int("n", 0, "")
		fs.String("tool", "zopfli", "")
		fs.AllowEmpty("tool")
		err := fs.Parse(tc.args, io.Discard)
		if tc.want == "" && err != nil || tc.want != "" && (!errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// An argument after the first one that is not a flag, but that looks like a
// flag, is refused by name: Go's flag package would have left it as a word.
func TestFlagsFirst(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for no error
	}{
		{[]string{"A dog ate the food because it was hungry", "-json"}, `"-json" comes after the sentence: flags must come before the sentence`},
		{[]string{"A", "dog", "--json"}, `"--json" comes after the sentence`},
		{[]string{"a", "-n=2"}, `"-n=2" comes after the sentence`},
		{[]string{"-v", "A dog ate it"}, ""},
		{[]string{"A dog ate it", "-", "--", "-3", "- it"}, ""}, // no flag's name
		{[]string{"A dog -json ate it"}, ""},                    // one argument: a sentence, however odd
	} {
		fs := newTestFlags()
		if err := fs.Parse(tc.args, io.Discard); err != nil {
			t.Fatal(err)
		}
		err := fs.FlagsFirst("the sentence")
		if tc.want == "" && err != nil || tc.want != "" && (!errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// Given tells a flag given its default value from a flag left out.
func TestGiven(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-seed", "1"}, true}, // the default, given
		{[]string{"-other", "x"}, false},
	} {
		fs := NewFlagSet("tool", "tool [-seed N]")
		fs.String("seed", "1", "")
		fs.String("other", "", "")
		if err := fs.Parse(tc.args, io.Discard); err != nil {
			t.Fatal(err)
		}
		if got := fs.Given("seed"); got != tc.want {
			t.Errorf("%q: Given(seed) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
