package cli

import (
	"bytes"
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"

	"itformer/data"
)

func newTestFlags() *FlagSet {
	fs := NewFlagSet("tool", "tool [-n N] ARG")
	fs.Int("n", 1, "how many")
	return fs
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
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		WarnReading(&buf, tc.unknown, tc.read)
		if buf.String() != tc.want {
			t.Errorf("%q %v: wrote %q, want %q", tc.unknown, tc.read, buf.String(), tc.want)
		}
	}
}
