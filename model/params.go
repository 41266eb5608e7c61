package model

import (
	"fmt"
	"math"
	"math/rand"

	"gorgonia.org/tensor"

	"itformer/model/internal/gorgoniax"
)

// ParamSpec describes one learned tensor. Matrices are stored (in, out), so a
// linear layer is x·W; PyTorch's nn.Linear stores the transpose.
type ParamSpec struct {
	Name  string
	Shape []int
	Role  string
}

// ParamSpecs lists every learned tensor of a model with this config, in a
// fixed order: the order of checkpoints, gradient checks and the README table.
func ParamSpecs(c Config) []ParamSpec {
	d, f := c.DModel, c.DFF
	specs := []ParamSpec{{"embedding", []int{c.VocabSize, d}, "token embedding: one learned row per vocabulary word"}}
	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("encoder.%d.", l)
		specs = append(specs,
			ParamSpec{p + "attention.w_q", []int{d, d}, "W^Q: word vector -> queries of all heads"},
			ParamSpec{p + "attention.w_k", []int{d, d}, "W^K: word vector -> keys of all heads"},
			ParamSpec{p + "attention.w_v", []int{d, d}, "W^V: word vector -> values of all heads"},
			ParamSpec{p + "attention.w_o", []int{d, d}, "W^O: concatenated heads -> sublayer output"},
			ParamSpec{p + "norm1.gain", []int{d}, "layer norm after attention: scale"},
			ParamSpec{p + "norm1.bias", []int{d}, "layer norm after attention: shift"},
			ParamSpec{p + "ffn.w1", []int{d, f}, "feed-forward: first linear layer"},
			ParamSpec{p + "ffn.b1", []int{f}, "feed-forward: first bias"},
			ParamSpec{p + "ffn.w2", []int{f, d}, "feed-forward: second linear layer"},
			ParamSpec{p + "ffn.b2", []int{d}, "feed-forward: second bias"},
			ParamSpec{p + "norm2.gain", []int{d}, "layer norm after feed-forward: scale"},
			ParamSpec{p + "norm2.bias", []int{d}, "layer norm after feed-forward: shift"},
		)
	}
	return append(specs,
		ParamSpec{"head.w_q", []int{d, d}, "resolution head: pronoun vector -> query"},
		ParamSpec{"head.w_k", []int{d, d}, "resolution head: word vectors -> keys"},
	)
}

// Params holds the learned tensors by name. Graphs bind their weight nodes to
// these tensors without copying, so an optimiser step on one graph is seen
// by every other graph built from the same Params.
type Params struct {
	config Config
	specs  []ParamSpec
	tensor map[string]*tensor.Dense
}

// NewParams initialises a model's weights from seed: matrices ~ N(0, 1/fan_in)
// (fan_in = rows), the embedding ~ N(0, 1/d_model) so that after the sqrt(d_model)
// scaling its entries have unit variance like the positional encoding, layer-norm
// gains 1, biases 0.
func NewParams(c Config, seed int64) (*Params, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	dt, _ := c.tensorType()
	rng := rand.New(rand.NewSource(seed))
	p := &Params{config: c, specs: ParamSpecs(c), tensor: map[string]*tensor.Dense{}}
	for _, s := range p.specs {
		p.tensor[s.Name] = gorgoniax.NewDense(dt, s.Shape, initialValues(s, c, rng))
	}
	return p, nil
}

func initialValues(s ParamSpec, c Config, rng *rand.Rand) []float64 {
	data := make([]float64, tensor.Shape(s.Shape).TotalSize())
	switch {
	case s.Name == "embedding":
		fill(data, rng, 1/math.Sqrt(float64(c.DModel)))
	case len(s.Shape) == 2:
		fill(data, rng, 1/math.Sqrt(float64(s.Shape[0])))
	case hasSuffix(s.Name, ".gain"):
		for i := range data {
			data[i] = 1
		}
	}
	return data
}

func fill(data []float64, rng *rand.Rand, std float64) {
	for i := range data {
		data[i] = rng.NormFloat64() * std
	}
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// Config returns the sizes the tensors were made for.
func (p *Params) Config() Config { return p.config }

// Specs returns the tensors' descriptions in their fixed order.
func (p *Params) Specs() []ParamSpec { return p.specs }

// Tensor returns the named weight tensor, or nil.
func (p *Params) Tensor(name string) *tensor.Dense { return p.tensor[name] }

// Values returns a copy of the named tensor's entries as float64.
func (p *Params) Values(name string) []float64 {
	t := p.tensor[name]
	if t == nil {
		return nil
	}
	return gorgoniax.Float64s(t)
}

// SetValues overwrites the named tensor in place (so graphs bound to it see the
// change), refusing an unknown name or a wrong number of entries.
func (p *Params) SetValues(name string, data []float64) error {
	t := p.tensor[name]
	if t == nil {
		return fmt.Errorf("unknown parameter %q", name)
	}
	if len(data) != t.Shape().TotalSize() {
		return fmt.Errorf("parameter %q has %d entries (shape %v), got %d", name, t.Shape().TotalSize(), t.Shape(), len(data))
	}
	gorgoniax.CopyInto(t, data)
	return nil
}
