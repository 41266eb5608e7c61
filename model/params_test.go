package model

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gorgonia.org/tensor"
)

// The saved names, their order and shapes are the checkpoint format and feed
// the weights SHA-256: this is the list from before the Weights tree existed.
func TestParamSpecsKeepTheirNames(t *testing.T) {
	c := tinyConfig
	d, f := c.DModel, c.DFF
	want := []ParamSpec{{"embedding", []int{c.VocabSize, d}, "token embedding: one learned row per vocabulary word"}}
	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("encoder.%d.", l)
		want = append(want,
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
	want = append(want,
		ParamSpec{"head.w_q", []int{d, d}, "resolution head: pronoun vector -> query"},
		ParamSpec{"head.w_k", []int{d, d}, "resolution head: word vectors -> keys"},
	)
	if got := ParamSpecs(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("ParamSpecs:\n got %v\nwant %v", got, want)
	}
	p := newTestParams(t, c)
	if !reflect.DeepEqual(p.Specs(), want) {
		t.Fatalf("Params.Specs differs from ParamSpecs: %v", p.Specs())
	}
	w := p.Weights()
	for name, typed := range map[string]*tensor.Dense{
		"embedding": w.Embedding, "encoder.1.attention.w_v": w.Layers[1].Attention.WV,
		"encoder.0.norm2.gain": w.Layers[0].Norm2.Gain, "encoder.1.ffn.b2": w.Layers[1].FFN.B2,
		"head.w_q": w.Resolution.WQ, "head.w_k": w.Resolution.WK,
	} {
		if p.Tensor(name) != typed {
			t.Errorf("Tensor(%q) is not the typed field's tensor", name)
		}
	}
}

// A name that no field has is refused by name, on every path that takes one.
func TestUnknownParamNameIsAnError(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	const name = "encoder.0.attention.w_x"
	if err := p.SetValues(name, make([]float64, 64)); err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("SetValues(%q) = %v, want an error naming it", name, err)
	}
	if p.Tensor(name) != nil || p.Values(name) != nil {
		t.Errorf("Tensor / Values(%q) found something", name)
	}
}

// A malformed declaration is an error that names the parameter and the
// field, never a panic or a nil node inside Gorgonia.
func TestParamTagErrorsAreNamed(t *testing.T) {
	type noTag struct{ W *tensor.Dense }
	type badSize struct {
		W *tensor.Dense `param:"w" shape:"d_model,d_modle" init:"zeros" role:"r"`
	}
	type badInit struct {
		W *tensor.Dense `param:"w" shape:"d_model" init:"xavier" role:"r"`
	}
	type noRole struct {
		W *tensor.Dense `param:"w" shape:"d_model" init:"zeros"`
	}
	type notAGroup struct {
		W *tensor.Dense `param:"w"`
	}
	type twice struct {
		A LayerNormWeights[*tensor.Dense] `param:"norm" role:"a"`
		B LayerNormWeights[*tensor.Dense] `param:"norm" role:"b"`
	}
	for _, tc := range []struct {
		tree any
		want string
	}{
		{&noTag{}, "field noTag.W has no param tag"},
		{&badSize{}, `parameter "w" (field W): unknown size "d_modle"`},
		{&badInit{}, `parameter "w" (field W): unknown init "xavier"`},
		{&noRole{}, `parameter "w" (field W) has no role`},
		{&notAGroup{}, `parameter "w" (field W): a tensor needs a shape tag`},
		{&twice{}, `two parameters are named "norm.gain"`},
	} {
		err := eachUniqueParam(reflect.ValueOf(tc.tree).Elem(), tinyConfig, func(paramField) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T: error %v, want one containing %q", tc.tree, err, tc.want)
		}
	}
}
