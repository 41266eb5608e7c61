package model

import (
	"strings"
	"testing"
)

func TestConfigValidate(t *testing.T) {
	good := Config{VocabSize: 10, DModel: 8, Heads: 2, DFF: 16, Layers: 2, MaxLen: 12, DType: "float64"}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid config rejected: %v", err)
	}
	cases := []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"zero vocab", func(c *Config) { c.VocabSize = 0 }, "vocab_size must be positive"},
		{"tiny vocab", func(c *Config) { c.VocabSize = 2 }, "vocab_size must be at least 3"},
		{"negative d_model", func(c *Config) { c.DModel = -4 }, "d_model must be positive"},
		{"zero heads", func(c *Config) { c.Heads = 0 }, "heads must be positive"},
		{"indivisible heads", func(c *Config) { c.Heads = 3 }, "d_model (8) must be divisible by heads (3)"},
		{"odd d_model", func(c *Config) { c.DModel, c.Heads = 9, 1 }, "d_model must be even"},
		{"zero d_ff", func(c *Config) { c.DFF = 0 }, "d_ff must be positive"},
		{"zero layers", func(c *Config) { c.Layers = 0 }, "layers must be positive"},
		{"negative max_len", func(c *Config) { c.MaxLen = -1 }, "max_len must be positive"},
		{"bad dtype", func(c *Config) { c.DType = "int8" }, `dtype must be "float64" or "float32", got "int8"`},
		{"empty dtype", func(c *Config) { c.DType = "" }, `dtype must be`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := good
			tc.mutate(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestConfigValidateReportsEveryField(t *testing.T) {
	err := Config{DType: "float64"}.Validate()
	for _, field := range []string{"vocab_size", "d_model", "heads", "d_ff", "layers", "max_len"} {
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("error %v does not name %s", err, field)
		}
	}
}
