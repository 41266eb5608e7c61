package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// encoding/json keeps the last of two equal keys, so a file that sets
// train.epochs twice silently runs with the second value. These functions
// refuse such a file instead, naming the key by its dotted path
// (train.epochs, variants[1].name).

// CheckDuplicateKeys refuses raw if an object in it repeats a key. Keys are
// compared as encoding/json matches them to struct fields, regardless of
// case ("Seeds" repeats "seeds"), because raw is about to be decoded into a
// struct. Only repeated keys are reported: invalid JSON without one passes,
// for the decoder to report.
func CheckDuplicateKeys(raw []byte) error { return duplicateKeys(raw, strings.ToLower) }

// duplicateKeys is CheckDuplicateKeys with the key comparison given by fold.
func duplicateKeys(raw []byte, fold func(string) string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err == nil {
		err = walkJSON(dec, tok, "", 0, fold)
	}
	var dup *duplicateKeyError
	if errors.As(err, &dup) {
		return dup
	}
	return nil
}

type duplicateKeyError struct{ path string }

func (e *duplicateKeyError) Error() string { return "duplicate key " + e.path }

// maxDepth is encoding/json's own nesting limit; deeper input is its error.
const maxDepth = 10000

// walkJSON reads the rest of the value that starts with tok, checking every
// object's keys. Paths are built only for objects and arrays: a long list of
// words (a checkpoint's vocabulary) costs no formatting.
func walkJSON(dec *json.Decoder, tok json.Token, path string, depth int, fold func(string) string) error {
	if depth > maxDepth {
		return errors.New("nested too deeply") // not a duplicate: the caller passes it on to the decoder
	}
	var err error
	switch tok {
	case json.Delim('{'):
		err = walkObject(dec, path, depth, fold)
	case json.Delim('['):
		for i := 0; err == nil && dec.More(); i++ {
			if tok, err = dec.Token(); err == nil && isOpening(tok) {
				err = walkJSON(dec, tok, fmt.Sprintf("%s[%d]", path, i), depth+1, fold)
			}
		}
	default:
		return nil // a scalar
	}
	if err != nil {
		return err
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

func walkObject(dec *json.Decoder, path string, depth int, fold func(string) string) error {
	seen := map[string]bool{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := key.(string)
		if seen[fold(k)] {
			return &duplicateKeyError{strings.TrimPrefix(path+"."+k, ".")}
		}
		seen[fold(k)] = true
		tok, err := dec.Token()
		if err == nil && isOpening(tok) {
			err = walkJSON(dec, tok, strings.TrimPrefix(path+"."+k, "."), depth+1, fold)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func isOpening(tok json.Token) bool { return tok == json.Delim('{') || tok == json.Delim('[') }
