package model

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/tensor"
)

// Config holds every size of the model. It is validated up front, before any
// graph is built, so a bad value fails with the field's name instead of a
// shape panic deep inside Gorgonia.
type Config struct {
	VocabSize int    `json:"vocab_size,omitempty"` // rows of the embedding table, <pad> and <unk> included; 0 in a run config
	DModel    int    `json:"d_model"`              // width of every word vector
	Heads     int    `json:"heads"`                // attention heads per layer; d_k = d_model / heads
	DFF       int    `json:"d_ff"`                 // hidden width of the feed-forward sublayer
	Layers    int    `json:"layers"`               // N, the number of stacked encoder layers
	MaxLen    int    `json:"max_len"`              // longest sentence, in tokens, the model accepts
	DType     string `json:"dtype"`                // "float64" or "float32"
	// AttentionScaling is "sqrt_dk" (divide scores by sqrt(d_k), the default)
	// or "none"; PositionalEncoding is "sinusoidal" (the default) or "none".
	// Both exist for experiments; empty means the default.
	AttentionScaling   string `json:"attention_scaling,omitempty"`
	PositionalEncoding string `json:"positional_encoding,omitempty"`
}

// DK is the width of one head's query, key and value vectors.
func (c Config) DK() int { return c.DModel / c.Heads }

// Validate reports every invalid field at once, each error naming its field.
func (c Config) Validate() error {
	var errs []error
	positive := []struct {
		name  string
		value int
	}{
		{"vocab_size", c.VocabSize}, {"d_model", c.DModel}, {"heads", c.Heads},
		{"d_ff", c.DFF}, {"layers", c.Layers}, {"max_len", c.MaxLen},
	}
	for _, f := range positive {
		if f.value <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive, got %d", f.name, f.value))
		}
	}
	if c.VocabSize > 0 && c.VocabSize < 3 {
		errs = append(errs, fmt.Errorf("vocab_size must be at least 3 (<pad>, <unk> and one word), got %d", c.VocabSize))
	}
	if c.DModel > 0 && c.Heads > 0 && c.DModel%c.Heads != 0 {
		errs = append(errs, fmt.Errorf("d_model (%d) must be divisible by heads (%d)", c.DModel, c.Heads))
	}
	if c.DModel > 0 && c.DModel%2 != 0 {
		errs = append(errs, fmt.Errorf("d_model must be even for the sine/cosine positional encoding, got %d", c.DModel))
	}
	if _, err := c.tensorType(); err != nil {
		errs = append(errs, err)
	}
	if c.AttentionScaling != "" && c.AttentionScaling != "sqrt_dk" && c.AttentionScaling != "none" {
		errs = append(errs, fmt.Errorf("attention_scaling must be \"sqrt_dk\" or \"none\", got %q", c.AttentionScaling))
	}
	if c.PositionalEncoding != "" && c.PositionalEncoding != "sinusoidal" && c.PositionalEncoding != "none" {
		errs = append(errs, fmt.Errorf("positional_encoding must be \"sinusoidal\" or \"none\", got %q", c.PositionalEncoding))
	}
	return errors.Join(errs...)
}

// scoreDivisor is what attention divides its scores by: sqrt(d_k), or 1 unscaled.
func (c Config) scoreDivisor() float64 {
	if c.AttentionScaling == "none" {
		return 1
	}
	return math.Sqrt(float64(c.DK()))
}

// usesPositions reports whether the positional encoding is added.
func (c Config) usesPositions() bool { return c.PositionalEncoding != "none" }

// tensorType maps the dtype name to Gorgonia's element type.
func (c Config) tensorType() (tensor.Dtype, error) {
	switch c.DType {
	case "float64":
		return tensor.Float64, nil
	case "float32":
		return tensor.Float32, nil
	}
	return tensor.Dtype{}, fmt.Errorf("dtype must be \"float64\" or \"float32\", got %q", c.DType)
}
