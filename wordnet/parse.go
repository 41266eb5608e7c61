// Reading the files. Every error names the file and the line (ParseError).
// The formats are wndb(5WN)'s: in every index and data file, lines that
// start with two spaces are the licence, the rest are one entry a line of
// fields separated by single spaces.

package wordnet

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Opener opens a database file for reading (OpenWith).
type Opener func(path string) (io.ReadCloser, error)

// osOpen is Open's Opener. It blocks on a FIFO until a writer comes: a
// command passes OpenWith one that refuses what is not a regular file.
func osOpen(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // not f: a nil *os.File in an io.ReadCloser is not nil
	}
	return f, nil
}

// eachLine calls f for each line of file but its licence lines, with its
// 1-based number, and returns f's first error as a ParseError.
func eachLine(open Opener, file string, f func(line string) error) error {
	fh, err := open(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "  ") || strings.TrimSpace(line) == "" {
			continue
		}
		if err := f(line); err != nil {
			return &ParseError{File: file, Line: n, Msg: err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		return &ParseError{File: file, Line: n + 1, Msg: err.Error()}
	}
	return nil
}

// fields reads space-separated fields in order, remembering the first
// mistake, so that a parser reads as the format's description does.
type fields struct {
	f   []string
	i   int
	err error
}

func newFields(line string) *fields { return &fields{f: strings.Fields(line)} }

func (r *fields) next(what string) string {
	if r.err != nil {
		return ""
	}
	if r.i >= len(r.f) {
		r.err = fmt.Errorf("the line ends where %s should be", what)
		return ""
	}
	r.i++
	return r.f[r.i-1]
}

// number reads a field in base (10 or 16) that must be at least 0.
func (r *fields) number(what string, base int) int {
	s := r.next(what)
	if r.err != nil {
		return 0
	}
	n, err := strconv.ParseInt(s, base, 64)
	if err != nil || n < 0 {
		r.err = fmt.Errorf("%s is %q, not a number", what, s)
	}
	return int(n)
}

func (r *fields) pos(what string) POS {
	s := r.next(what)
	p, ok := ParsePOS(s)
	if r.err == nil && !ok {
		r.err = fmt.Errorf("%s is %q, not n, v, a, s or r", what, s)
	}
	return p
}

// readIndex reads index.pos: lemma pos synset_cnt p_cnt [ptr_symbol...]
// sense_cnt tagsense_cnt synset_offset...
func readIndex(open Opener, file string, want POS) (map[string]*IndexEntry, error) {
	out := map[string]*IndexEntry{}
	err := eachLine(open, file, func(line string) error {
		r := newFields(line)
		e := &IndexEntry{Lemma: r.next("the lemma"), POS: r.pos("the part of speech")}
		synsets := r.number("synset_cnt", 10)
		for range r.number("p_cnt", 10) {
			r.next("a pointer symbol")
		}
		r.number("sense_cnt", 10)
		e.Tagged = r.number("tagsense_cnt", 10)
		for range synsets {
			e.Offsets = append(e.Offsets, r.number("a synset offset", 10))
		}
		switch {
		case r.err != nil:
			return r.err
		case e.POS != want:
			return fmt.Errorf("%q is listed as %s in the index of %s", e.Lemma, e.POS, want)
		case r.i != len(r.f):
			return fmt.Errorf("%d fields after the %d synset offsets synset_cnt gives", len(r.f)-r.i, synsets)
		}
		out[e.Lemma] = e
		return nil
	})
	return out, err
}

// readData reads data.pos: synset_offset lex_filenum ss_type w_cnt (2 hex
// digits) [word lex_id (1 hex digit)]... p_cnt (3 digits) [ptr_symbol
// synset_offset pos source/target (4 hex digits)]... [verb frames] | gloss
func readData(open Opener, file string, want POS) (map[int]*Synset, error) {
	out := map[int]*Synset{}
	err := eachLine(open, file, func(line string) error {
		head, gloss, _ := strings.Cut(line, " | ")
		r := newFields(head)
		s := &Synset{Offset: r.number("synset_offset", 10), LexFile: r.number("lex_filenum", 10), Gloss: strings.TrimSpace(gloss)}
		ssType := r.next("ss_type")
		s.POS, s.Satellite = r.posOf(ssType), ssType == "s"
		for range r.number("w_cnt", 16) {
			lemma := r.next("a word")
			if i := strings.IndexByte(lemma, '('); i > 0 && s.POS == Adj {
				lemma = lemma[:i] // "galore(ip)": the adjective's position marker
			}
			s.Words = append(s.Words, Word{Lemma: lemma, LexID: r.number("a lex_id", 16)})
		}
		for range r.number("p_cnt", 10) {
			p := Pointer{Symbol: r.next("a pointer symbol"), Offset: r.number("a pointer's synset offset", 10), POS: r.pos("a pointer's part of speech")}
			st := r.number("a pointer's source/target", 16)
			p.Source, p.Target = st>>8, st&0xff
			s.Pointers = append(s.Pointers, p)
		}
		switch {
		case r.err != nil:
			return r.err
		case s.POS != want:
			return fmt.Errorf("synset %08d is %s in data.%s", s.Offset, s.POS, want)
		case len(s.Words) == 0:
			return fmt.Errorf("synset %08d has no words", s.Offset)
		case want != Verb && r.i != len(r.f):
			return fmt.Errorf("%d fields after the %d pointers p_cnt gives", len(r.f)-r.i, len(s.Pointers))
		}
		out[s.Offset] = s
		return nil
	})
	return out, err
}

func (r *fields) posOf(ssType string) POS {
	p, ok := ParsePOS(ssType)
	if r.err == nil && !ok {
		r.err = fmt.Errorf("ss_type is %q, not n, v, a, s or r", ssType)
	}
	return p
}

// readExceptions reads pos.exc: an inflected form, then one or more base
// forms ("geese goose", "axes ax axis").
func readExceptions(open Opener, file string) (map[string][]string, error) {
	out := map[string][]string{}
	err := eachLine(open, file, func(line string) error {
		f := strings.Fields(line)
		if len(f) < 2 {
			return fmt.Errorf("%q gives no base form", line)
		}
		out[f[0]] = append(out[f[0]], f[1:]...)
		return nil
	})
	return out, err
}

// readCounts reads cntlist.rev: sense_key sense_number tag_cnt, where a
// sense key is lemma%ss_type:lex_filenum:lex_id:head_word:head_id.
func readCounts(open Opener, file string) (map[senseID]int, error) {
	out := map[senseID]int{}
	err := eachLine(open, file, func(line string) error {
		r := newFields(line)
		key := r.next("the sense key")
		r.number("sense_number", 10)
		n := r.number("tag_cnt", 10)
		if r.err != nil {
			return r.err
		}
		id, err := parseSenseKey(key)
		if err != nil {
			return err
		}
		out[id] += n
		return nil
	})
	return out, err
}

// parseSenseKey reads lemma%ss_type:lex_filenum:lex_id:head_word:head_id
// (senseidx(5WN)); ss_type is 1 noun, 2 verb, 3 adjective, 4 adverb, 5
// adjective satellite.
func parseSenseKey(key string) (senseID, error) {
	lemma, rest, ok := strings.Cut(key, "%")
	parts := strings.Split(rest, ":")
	if !ok || len(parts) != 5 {
		return senseID{}, fmt.Errorf("sense key %q is not lemma%%ss_type:lex_filenum:lex_id:head_word:head_id", key)
	}
	pos := map[string]POS{"1": Noun, "2": Verb, "3": Adj, "4": Adv, "5": Adj}[parts[0]]
	lexFile, err1 := strconv.Atoi(parts[1])
	lexID, err2 := strconv.Atoi(parts[2])
	if pos == 0 || err1 != nil || err2 != nil {
		return senseID{}, fmt.Errorf("sense key %q: ss_type, lex_filenum or lex_id is not a number WordNet uses", key)
	}
	head := ""
	if parts[0] == "5" {
		head = parts[3] + ":" + parts[4]
	}
	return senseID{lemma, pos, lexFile, lexID, head}, nil
}

// readLicense returns the licence at the head of file, the lines that start
// with two spaces and a line number, without the numbers.
func readLicense(open Opener, file string) (string, error) {
	fh, err := open(file)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	var b strings.Builder
	sc := bufio.NewScanner(fh)
	for sc.Scan() && strings.HasPrefix(sc.Text(), "  ") {
		_, text, _ := strings.Cut(strings.TrimLeft(sc.Text(), " "), " ")
		b.WriteString(strings.TrimRight(text, " ") + "\n")
	}
	if b.Len() == 0 {
		return "", &ParseError{File: file, Line: 1, Msg: "no licence at the head of the file"}
	}
	return b.String(), sc.Err()
}
