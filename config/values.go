package config

// Values that encoding/json would turn into a zero in silence: null leaves a
// field at 0, and a number too small for a float64 rounds to 0, so the user
// was told "must be positive, got 0" of a value they never typed. These are
// refused first, each by its field and the value as it was written.

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// checkValues refuses nulls and out-of-range floats in tree, a config's
// decoded JSON (numbers kept as written), against the fields of t; sorted,
// and capped at maxListed.
func checkValues(tree map[string]any, t reflect.Type) error {
	var errs []error
	badValues(tree, t, "", &errs)
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return joinCapped(errs, "bad values")
}

// badValues appends an error for each null or unholdable float in tree.
func badValues(tree map[string]any, t reflect.Type, prefix string, errs *[]error) {
	for key, value := range tree {
		ft, ok := fieldType(t, key)
		if !ok {
			continue // checkKeys names it
		}
		name := prefix + key
		switch v := value.(type) {
		case nil:
			*errs = append(*errs, fmt.Errorf("%s: want %s, got null", name, kindWanted(ft)))
		case map[string]any:
			if ft.Kind() == reflect.Struct {
				badValues(v, ft, name+".", errs)
			}
		case json.Number:
			if err := checkFloat(name, v, ft); err != nil {
				*errs = append(*errs, err)
			}
		}
	}
}

// checkFloat refuses a number that a float64 field cannot hold as written:
// beyond its range, or not zero but rounding to 0 (1e-400).
func checkFloat(name string, n json.Number, ft reflect.Type) error {
	if ft.Kind() != reflect.Float64 && ft.Kind() != reflect.Float32 {
		return nil
	}
	f, err := strconv.ParseFloat(n.String(), ft.Bits())
	switch {
	case err != nil:
		return fmt.Errorf("%s: %s is beyond what %s holds", name, n, kindWanted(ft))
	case f == 0 && !isZero(n.String()):
		return fmt.Errorf("%s: %s is too small for %s, which rounds it to 0", name, n, kindWanted(ft))
	}
	return nil
}

// isZero says whether a JSON number's digits before its exponent are all 0.
func isZero(number string) bool {
	mantissa, _, _ := strings.Cut(strings.ToLower(number), "e")
	return strings.Trim(mantissa, "-+0.") == ""
}

// fieldType is the type of t's field whose JSON name is key.
func fieldType(t reflect.Type, key string) (reflect.Type, bool) {
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == key {
			return t.Field(i).Type, true
		}
	}
	return nil, false
}

// pathType is the type of the field a dotted path (train.epochs) names in t.
func pathType(t reflect.Type, path string) (reflect.Type, bool) {
	for _, part := range strings.Split(path, ".") {
		if t.Kind() != reflect.Struct {
			return nil, false
		}
		var ok bool
		if t, ok = fieldType(t, part); !ok {
			return nil, false
		}
	}
	return t, true
}

// kindWanted names what a field of type ft takes, for messages: by its
// kind, never by a Go type's name (model.Config, train.Metrics), which means
// nothing to someone editing the file.
func kindWanted(ft reflect.Type) string {
	if ft == nil {
		return "a JSON value"
	}
	switch ft.Kind() {
	case reflect.Struct, reflect.Map:
		return "a JSON object ({...})"
	case reflect.Slice, reflect.Array:
		return "a JSON array ([...])"
	case reflect.Pointer:
		return kindWanted(ft.Elem())
	case reflect.Interface:
		return "a JSON value"
	}
	return withArticle(ft.Kind().String())
}

// isNumeric says whether a field of type ft takes a number.
func isNumeric(ft reflect.Type) bool {
	switch ft.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// checkOverrideSection refuses -set key=value where key is a section of the
// config and value no object (model=3), naming the override as typed and a
// field to set instead; a null is left to badValues, which names it too.
func checkOverrideSection(override, key string, value any) error {
	ft, ok := pathType(reflect.TypeOf(Run{}), key)
	if _, isMap := value.(map[string]any); !ok || ft.Kind() != reflect.Struct || isMap || value == nil {
		return nil
	}
	return fmt.Errorf("-set %s: %s is a section of the config: want a JSON object ({...}), or set one of its fields (%s.%s=...)", override, key, key, firstField(ft))
}

// firstField is the JSON name of t's first field a config sets (vocab_size,
// omitted, comes from the vocabulary), for an example.
func firstField(t reflect.Type) string {
	for i := 0; i < t.NumField(); i++ {
		if name, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); opts != "omitempty" {
			return name
		}
	}
	name, _, _ := strings.Cut(t.Field(0).Tag.Get("json"), ",")
	return name
}

// checkOverrideNumber refuses -set key=value where key takes a number and
// value is not one as JSON writes it (01, 1_000, five), naming the override
// as typed: it had been read as a string and refused as "a JSON string".
func checkOverrideNumber(override, key string, value any) error {
	text, isString := value.(string)
	ft, ok := pathType(reflect.TypeOf(Run{}), key)
	if !isString || !ok || !isNumeric(ft) {
		return nil
	}
	hint := ""
	if len(text) > 1 && strings.TrimLeft(text, "-+")[0] == '0' && strings.Trim(text, "-+0123456789.eE") == "" {
		hint = " (a number does not start with 0 unless it is 0 or 0.something)"
	}
	return errors.New("-set " + override + ": want " + kindWanted(ft) + ", got " + strconv.Quote(text) + hint)
}
