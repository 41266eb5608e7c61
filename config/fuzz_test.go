package config

import (
	"reflect"
	"testing"
)

// FuzzParseConfig: any bytes and any override, never a panic; whatever is
// accepted is valid and survives a JSON round trip unchanged.
// Seed corpus: testdata/fuzz/FuzzParseConfig; run
// go test -run '^$' -fuzz=FuzzParseConfig ./config
func FuzzParse(f *testing.F) {
	good := string(tinyConfig.JSON())
	for _, s := range [][2]string{{good, "seed=2"}, {good, "model.heads=3"}, {"{}", ""}, {"null", "a=1"}, {`{"model": 1}`, "model.x=2"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, raw, override string) {
		var overrides []string
		if override != "" {
			overrides = []string{override}
		}
		c, err := Parse([]byte(raw), overrides...)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted an invalid config: %v", err)
		}
		again, err := Parse(c.JSON())
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, c, again)
		}
	})
}
