package model

// Where every learned tensor is declared: as a field of the Weights tree
// (build.go), whose tags say, once, everything that is not the math:
//
//	WQ T `param:"w_q" shape:"d_model,d_model" init:"normal(1/sqrt(fan_in))" role:"W^Q: ..."`
//
//	param  the last part of its saved name; a group's param is a prefix, and a
//	       slice's elements add their index: encoder.0.attention.w_q
//	shape  Config sizes by their JSON names (vocab_size, d_model, d_ff)
//	init   one of initRules
//	role   the README table's text; a group's role prefixes its members':
//	       "layer norm after attention" + "scale"
//
// The same declaration, instantiated with T = *tensor.Dense, is Params, and
// with T = *G.Node, a Graph's weight nodes. Declaration order is the order of
// ParamSpecs, checkpoints, ValueGrads and the random numbers NewParams draws,
// so adding a parameter is its field plus its use in the math; moving a field
// changes every checkpoint.

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
)

// paramField is one parameter as eachParam finds it.
type paramField struct {
	ParamSpec
	index int           // its place in Specs order
	init  string        // its init tag, a key of initRules
	field reflect.Value // the settable field in the tree being walked
}

// initRules are the ways a tensor starts, by init tag. The normal rules draw
// every entry from rng, row-major, so declaration order fixes the weights.
var initRules = map[string]func(data []float64, shape []int, c Config, rng *rand.Rand){
	// x·W keeps unit variance for unit-variance x: std 1/sqrt(rows of W).
	"normal(1/sqrt(fan_in))": func(data []float64, shape []int, _ Config, rng *rand.Rand) {
		fill(data, rng, 1/math.Sqrt(float64(shape[0])))
	},
	// The embedding is scaled by sqrt(d_model) (embedding.go), after which
	// its entries have unit variance like the positional encoding.
	"normal(1/sqrt(d_model))": func(data []float64, _ []int, c Config, rng *rand.Rand) {
		fill(data, rng, 1/math.Sqrt(float64(c.DModel)))
	},
	"ones": func(data []float64, _ []int, _ Config, _ *rand.Rand) {
		for i := range data {
			data[i] = 1
		}
	},
	"zeros": func([]float64, []int, Config, *rand.Rand) {},
}

func fill(data []float64, rng *rand.Rand, std float64) {
	for i := range data {
		data[i] = rng.NormFloat64() * std
	}
}

// buildWeights makes a Weights tree for c, each parameter made by newParam,
// in Specs order, and returns it with the specs.
func buildWeights[T any](c Config, newParam func(paramField) (T, error)) (Weights[T], []ParamSpec, error) {
	w := Weights[T]{Layers: make([]EncoderWeights[T], max(c.Layers, 0))}
	var specs []ParamSpec
	err := eachUniqueParam(reflect.ValueOf(&w).Elem(), c, func(p paramField) error {
		x, err := newParam(p)
		if err != nil {
			return err
		}
		if err := set(p, x); err != nil {
			return err
		}
		specs = append(specs, p.ParamSpec)
		return nil
	})
	return w, specs, err
}

// eachUniqueParam is eachParam over a whole tree, numbering the parameters
// and refusing two of one name.
func eachUniqueParam(tree reflect.Value, c Config, visit func(paramField) error) error {
	seen := map[string]bool{}
	return eachParam(tree, "", "", c, func(p paramField) error {
		if seen[p.Name] {
			return fmt.Errorf("two parameters are named %q", p.Name)
		}
		p.index = len(seen)
		seen[p.Name] = true
		return visit(p)
	})
}

func set[T any](p paramField, x T) error {
	v := reflect.ValueOf(&x).Elem()
	if !v.Type().AssignableTo(p.field.Type()) {
		return fmt.Errorf("parameter %q is a field of type %v, not %v", p.Name, p.field.Type(), v.Type())
	}
	p.field.Set(v)
	return nil
}

// eachParam calls visit for every tensor field of the struct v, in
// declaration order, descending into groups. prefix and role are the
// enclosing groups' name and role.
func eachParam(v reflect.Value, prefix, role string, c Config, visit func(paramField) error) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("param")
		if !ok || tag == "" {
			return fmt.Errorf("field %s.%s has no param tag", t.Name(), f.Name)
		}
		if err := eachParamIn(v.Field(i), f, prefix+tag, joinRole(role, f.Tag.Get("role")), c, visit); err != nil {
			return err
		}
	}
	return nil
}

// eachParamIn handles one field named name: a tensor, a group or a slice of groups.
func eachParamIn(v reflect.Value, f reflect.StructField, name, role string, c Config, visit func(paramField) error) error {
	switch {
	case f.Tag.Get("shape") != "":
		p, err := leaf(f, name, role, c)
		if err != nil {
			return err
		}
		p.field = v
		return visit(p)
	case v.Kind() == reflect.Struct:
		return eachParam(v, name+".", role, c, visit)
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct:
		for j := 0; j < v.Len(); j++ {
			if err := eachParam(v.Index(j), fmt.Sprintf("%s.%d.", name, j), role, c, visit); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("parameter %q (field %s): a tensor needs a shape tag, a group must be a struct or a slice of structs", name, f.Name)
}

// leaf reads a tensor field's tags.
func leaf(f reflect.StructField, name, role string, c Config) (paramField, error) {
	p := paramField{ParamSpec: ParamSpec{Name: name, Role: role}, init: f.Tag.Get("init")}
	if _, ok := initRules[p.init]; !ok {
		return p, fmt.Errorf("parameter %q (field %s): unknown init %q", name, f.Name, p.init)
	}
	if f.Tag.Get("role") == "" {
		return p, fmt.Errorf("parameter %q (field %s) has no role", name, f.Name)
	}
	for _, dim := range strings.Split(f.Tag.Get("shape"), ",") {
		n, ok := c.size(strings.TrimSpace(dim))
		if !ok {
			return p, fmt.Errorf("parameter %q (field %s): unknown size %q in its shape", name, f.Name, dim)
		}
		p.Shape = append(p.Shape, n)
	}
	return p, nil
}

func joinRole(outer, inner string) string {
	if outer == "" || inner == "" {
		return outer + inner
	}
	return outer + ": " + inner
}

// size is a Config size by its JSON name, for shape tags.
func (c Config) size(name string) (int, bool) {
	switch name {
	case "vocab_size":
		return c.VocabSize, true
	case "d_model":
		return c.DModel, true
	case "d_ff":
		return c.DFF, true
	}
	return 0, false
}
