package model

import (
	"fmt"
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
// Names, shapes and roles come from the Weights tree's tags (layout.go).
func ParamSpecs(c Config) []ParamSpec {
	_, specs, err := buildWeights(c, func(paramField) (struct{}, error) { return struct{}{}, nil })
	if err != nil {
		// Only a malformed tag gets here, whatever the config, and then
		// every test fails with the tag's name (TestParamSpecsKeepTheirNames).
		panic("model: " + err.Error())
	}
	return specs
}

// Params holds the learned tensors. Graphs bind their weight nodes to these
// tensors without copying, so an optimiser step on one graph is seen by every
// other graph built from the same Params.
type Params struct {
	config  Config
	specs   []ParamSpec
	weights Weights[*tensor.Dense]
	ordered []*tensor.Dense          // in specs order
	byName  map[string]*tensor.Dense // for saving and loading only
}

// NewParams initialises a model's weights from seed, parameter after
// parameter in Specs order, each by its init tag (layout.go): matrices
// ~ N(0, 1/fan_in), the embedding ~ N(0, 1/d_model), layer-norm gains 1,
// biases 0.
func NewParams(c Config, seed int64) (*Params, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	dt, _ := c.tensorType()
	rng := rand.New(rand.NewSource(seed))
	p := &Params{config: c, byName: map[string]*tensor.Dense{}}
	var err error
	p.weights, p.specs, err = buildWeights(c, func(f paramField) (*tensor.Dense, error) {
		data := make([]float64, tensor.Shape(f.Shape).TotalSize())
		initRules[f.init](data, f.Shape, c, rng)
		t := gorgoniax.NewDense(dt, f.Shape, data)
		p.ordered = append(p.ordered, t)
		p.byName[f.Name] = t
		return t, nil
	})
	if err != nil {
		return nil, fmt.Errorf("model parameters: %w", err)
	}
	return p, nil
}

// Config returns the sizes the tensors were made for.
func (p *Params) Config() Config { return p.config }

// Weights returns the tensors as a typed tree. Changing a tensor in place
// changes every graph bound to it.
func (p *Params) Weights() Weights[*tensor.Dense] { return p.weights }

// Specs returns the tensors' descriptions in their fixed order.
func (p *Params) Specs() []ParamSpec { return p.specs }

// Tensor returns the named weight tensor, or nil.
func (p *Params) Tensor(name string) *tensor.Dense { return p.byName[name] }

// Values returns a copy of the named tensor's entries as float64.
func (p *Params) Values(name string) []float64 {
	t := p.byName[name]
	if t == nil {
		return nil
	}
	return gorgoniax.Float64s(t)
}

// SetValues overwrites the named tensor in place (so graphs bound to it see the
// change), refusing an unknown name or a wrong number of entries.
func (p *Params) SetValues(name string, data []float64) error {
	t := p.byName[name]
	if t == nil {
		return fmt.Errorf("unknown parameter %q", name)
	}
	if len(data) != t.Shape().TotalSize() {
		return fmt.Errorf("parameter %q has %d entries (shape %v), got %d", name, t.Shape().TotalSize(), t.Shape(), len(data))
	}
	gorgoniax.CopyInto(t, data)
	return nil
}
