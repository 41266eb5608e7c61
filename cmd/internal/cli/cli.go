// Package cli is what the commands share: one way to parse flags and print
// usage, one way to end, and one way to load a model or a run config.
//
// How a command ends: -h prints the usage and the flags to stdout and exits 0;
// a mistake in how the command was called (an unknown flag, a bad value, a
// missing argument) prints one message and the usage line to stderr and exits
// 2; any other error prints one message and exits 1.
package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"itformer/config"
)

// ErrUsage marks mistakes in how a command was called (exit status 2).
var ErrUsage = errors.New("usage")

// Usagef is a usage mistake with a message that says what is wrong.
func Usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

type usageError struct{ msg string }

func (e *usageError) Error() string        { return e.msg }
func (e *usageError) Is(target error) bool { return target == ErrUsage }

// FlagSet is a flag.FlagSet whose Parse reports mistakes as usage errors
// instead of printing them itself, so each message is printed once.
type FlagSet struct {
	*flag.FlagSet
	usage      string          // the usage line, without "usage: "
	emptyMeans map[string]bool // flags for which "" is a value (AllowEmpty)
}

// AllowEmpty exempts flags whose empty value means something from the rule
// that an empty value is a mistake: site -zopfli "" uses Go's gzip.
func (f *FlagSet) AllowEmpty(names ...string) {
	if f.emptyMeans == nil {
		f.emptyMeans = map[string]bool{}
	}
	for _, n := range names {
		f.emptyMeans[n] = true
	}
}

// NewFlagSet makes the flag set of command name; usage is its synopsis, such
// as `infer [-run DIR] [-json] "a sentence with it"`.
func NewFlagSet(name, usage string) *FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // Parse's own messages; ours are printed once, by Exit
	fs.Usage = func() {}
	return &FlagSet{FlagSet: fs, usage: usage}
}

// Parse parses args. With -h it prints the usage and every flag to stdout and
// returns flag.ErrHelp; a mistake returns a usage error that names it.
func (f *FlagSet) Parse(args []string, stdout io.Writer) error {
	err := f.parseCounting(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, f.Help())
		return err
	case err != nil:
		return f.Mistake("%v", err)
	}
	return nil
}

// Repeatable marks a flag.Value that collects every use of its flag (-set
// a=1 -set b=2); any other flag given twice is a mistake, not the last one
// silently winning (-run a -run b).
type Repeatable interface {
	flag.Value
	Repeatable()
}

// parseCounting is flag.FlagSet.Parse, and an error for a flag given twice
// that is not Repeatable, or for one given an empty value: -run "" or
// -config "" would otherwise read as no flag at all and run the default in
// silence, and -out "" as a file named "". Only the flags AllowEmpty names
// take "" as a value.
func (f *FlagSet) parseCounting(args []string) error {
	var empty string // the first flag given "", in the order given
	f.VisitAll(func(fl *flag.Flag) {
		c := &counted{Value: fl.Value, name: fl.Name, empty: &empty}
		if f.emptyMeans[fl.Name] {
			c.empty = new(string) // noted, never looked at
		}
		fl.Value = c
	})
	err := f.FlagSet.Parse(args)
	var twice []string
	f.VisitAll(func(fl *flag.Flag) {
		c := fl.Value.(*counted)
		fl.Value = c.Value
		if _, ok := c.Value.(Repeatable); c.sets > 1 && !ok {
			twice = append(twice, "-"+fl.Name)
		}
	})
	switch {
	case err != nil:
		return err
	case empty != "":
		return fmt.Errorf("-%s \"\": the value is empty; give one, or leave the flag out", empty)
	case len(twice) > 0:
		return fmt.Errorf("%s given more than once; give each once", strings.Join(twice, ", "))
	}
	return nil
}

// counted is a flag.Value that counts its Sets and notes the first flag set
// to "".
type counted struct {
	flag.Value
	name  string
	sets  int
	empty *string
}

func (c *counted) Set(s string) error {
	c.sets++
	if s == "" && *c.empty == "" {
		*c.empty = c.name
	}
	return c.Value.Set(s)
}

// IsBoolFlag keeps -json a flag that takes no value.
func (c *counted) IsBoolFlag() bool {
	b, ok := c.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Mistake is a usage error that ends with the usage line.
func (f *FlagSet) Mistake(format string, args ...any) error {
	return Usagef("%s\nusage: %s\n(%s -h lists the flags)", fmt.Sprintf(format, args...), f.usage, f.Name())
}

// Given reports whether the flag name was given on the command line, even
// with its default value: -seed 1 is not the same as no -seed.
func (f *FlagSet) Given(name string) bool {
	found := false
	f.Visit(func(fl *flag.Flag) { found = found || fl.Name == name })
	return found
}

// NoArguments is a usage error if the command was given any argument.
func (f *FlagSet) NoArguments() error {
	if f.NArg() > 0 {
		return f.Mistake("unexpected argument %q (this command takes flags only)", f.Arg(0))
	}
	return nil
}

// FlagsFirst is a usage error naming the first argument that looks like a
// flag (-json, --json): Go's flag package stops at the first argument that
// is not a flag, so `infer "a sentence" -json` would read -json as words.
// what names the arguments ("the sentence"); none of them, a word or a path,
// starts with "-" and a letter.
func (f *FlagSet) FlagsFirst(what string) error {
	for _, a := range f.Args() {
		if looksLikeFlag(a) {
			return f.Mistake("%q comes after %s: flags must come before %s", a, what, what)
		}
	}
	return nil
}

// looksLikeFlag says whether a is -name or --name (=value or not).
func looksLikeFlag(a string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	return len(name) < len(a) && name != "" && unicode.IsLetter([]rune(name)[0]) && !strings.ContainsAny(a, " \t")
}

// MaxMemoryFlag adds -max-memory, which raises (or lowers) config.MaxMemory:
// the estimated memory above which a run, a model or the graph a sentence
// needs is refused before it is allocated.
func (f *FlagSet) MaxMemoryFlag() {
	f.Var(&config.MaxMemory, "max-memory", "refuse a run, a model or a sentence's graph estimated to need more `memory` than this (500MB, 8GB, 16GiB)")
}

// MemberFlag adds -member: which member of an ensemble to ask alone (1 is
// the first), or 0, the default, for all of them together (LoadMember).
func (f *FlagSet) MemberFlag() *int {
	return f.Int("member", 0, "ask member `K` of an ensemble alone (1 is the first, the one trained with the config's seed); 0 asks all members together")
}

// Help is the usage line and every flag with its default.
func (f *FlagSet) Help() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "usage: %s\n", f.usage)
	f.SetOutput(&b)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
	return b.String()
}

// Stdout is os.Stdout for the commands whose output is their result (infer,
// explain, history...): it keeps its first write error, which Exit reports,
// since their fmt.Fprint* calls drop it and a full disk or a closed stdout
// would otherwise end with status 0 and nothing written.
var Stdout = &CheckedWriter{W: os.Stdout}

// CheckedWriter is W that keeps its first write error in Err and writes
// nothing after it.
type CheckedWriter struct {
	W   io.Writer
	Err error
}

func (c *CheckedWriter) Write(p []byte) (int, error) {
	if c.Err != nil {
		return 0, c.Err
	}
	n, err := c.W.Write(p)
	if err != nil {
		c.Err = err
	}
	return n, err
}

// Exit ends the program as err says; it returns only for a nil error or -h,
// when everything written to Stdout was written.
func Exit(name string, err error) {
	msg, code := status(err, Stdout.Err)
	if code != 0 {
		fmt.Fprintln(os.Stderr, name+":", msg)
		os.Exit(code)
	}
}

// status is the message and exit status of a command that returned err
// after its writes to stdout failed with stdoutErr (nil if none did).
func status(err, stdoutErr error) (string, int) {
	switch {
	case (err == nil || errors.Is(err, flag.ErrHelp)) && stdoutErr != nil:
		return fmt.Sprintf("cannot write the output: %v", stdoutErr), 1
	case err == nil, errors.Is(err, flag.ErrHelp):
		return "", 0
	case errors.Is(err, ErrUsage):
		return strings.TrimSuffix(err.Error(), "\n"), 2
	case errors.Is(err, ErrInterrupted):
		return err.Error(), InterruptedStatus
	default:
		return err.Error(), 1
	}
}
