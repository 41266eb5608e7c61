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
	err := walkJSON(dec, "", 0, fold)
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

// walkJSON reads one value from dec, checking every object's keys.
func walkJSON(dec *json.Decoder, path string, depth int, fold func(string) string) error {
	if depth > maxDepth {
		return errors.New("nested too deeply") // not a duplicate: the caller passes it on to the decoder
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := key.(string)
			sub := strings.TrimPrefix(path+"."+k, ".")
			if seen[fold(k)] {
				return &duplicateKeyError{sub}
			}
			seen[fold(k)] = true
			if err := walkJSON(dec, sub, depth+1, fold); err != nil {
				return err
			}
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkJSON(dec, fmt.Sprintf("%s[%d]", path, i), depth+1, fold); err != nil {
				return err
			}
		}
	default:
		return nil // a scalar
	}
	_, err = dec.Token() // the closing delimiter
	return err
}
