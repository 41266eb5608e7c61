package model

// The machinery behind AttentionSteps (attention.go): its tags read once into
// StepInfo, and one generic map, field by field, that turns the record of
// nodes into values, values into Tensors (B, …) and Tensors into one word's
// rows. For word i of sentence b in head h, a step whose tensor has axes
//
//	(B, T, d_model) or (B, H, T, d_k) gives a vector: Row(b, i) or Row(b, h, i)
//	(B, H, T, T)                      gives n numbers, one per real key word
//
// So a new field needs no code here.

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/gorgoniax"
)

// StepInfo describes one step of AttentionSteps, from its field's tags.
type StepInfo struct {
	Name      string   // its JSON name: "x", "q", "scores"
	Formula   string   // as printed: "q = x·W^Q", "score_j = q · k_j"
	About     string   // the explainers' words for it
	Axes      []string // of its tensor in Output.Trace: B, H, T, d_model, d_k
	SumsToOne bool     // every row sums to 1
	graphAxes []string // of its node's value, if in another order than Axes
}

// PerKey reports whether the step holds one number per key word (a T×T step).
func (s StepInfo) PerKey() bool { return s.Axes[len(s.Axes)-1] == "T" }

// PerHead reports whether the step differs from head to head.
func (s StepInfo) PerHead() bool { return slices.Contains(s.Axes, "H") }

// Step is one field of an AttentionSteps with its description.
type Step[T any] struct {
	StepInfo
	Value T
}

// stepInfos describes AttentionSteps' fields, in declaration order.
var stepInfos = describeSteps()

func describeSteps() []StepInfo {
	t := reflect.TypeFor[AttentionSteps[struct{}]]()
	infos := make([]StepInfo, t.NumField())
	for i := range infos {
		tag := t.Field(i).Tag
		name, _, _ := strings.Cut(tag.Get("json"), ",")
		infos[i] = StepInfo{Name: name, Formula: tag.Get("formula"), About: tag.Get("about"),
			Axes: strings.Split(tag.Get("shape"), ","), SumsToOne: tag.Get("sum") == "1"}
		if graph := tag.Get("graph"); graph != "" {
			infos[i].graphAxes = strings.Split(graph, ",")
		}
	}
	return infos
}

// List returns every step in declaration order, with its description.
func (s AttentionSteps[T]) List() []Step[T] {
	v := reflect.ValueOf(&s).Elem()
	out := make([]Step[T], len(stepInfos))
	for i, info := range stepInfos {
		out[i] = Step[T]{info, *v.Field(i).Addr().Interface().(*T)}
	}
	return out
}

// mapSteps applies f to every step of s, field by field.
func mapSteps[A, B any](s AttentionSteps[A], f func(StepInfo, A) (B, error)) (AttentionSteps[B], error) {
	var out AttentionSteps[B]
	src, dst := reflect.ValueOf(&s).Elem(), reflect.ValueOf(&out).Elem()
	for i, info := range stepInfos {
		b, err := f(info, *src.Field(i).Addr().Interface().(*A))
		if err != nil {
			return out, fmt.Errorf("step %s: %w", info.Name, err)
		}
		dst.Field(i).Set(reflect.ValueOf(&b).Elem())
	}
	return out, nil
}

// tensorOf copies a step's value read after a run, shaped by its axes.
func (s shape) tensorOf(info StepInfo, v *G.Value) (Tensor, error) {
	if info.graphAxes == nil {
		sizes, err := s.sizes(info.Axes)
		return tensorOf(*v, sizes...), err
	}
	sizes, err := s.sizes(info.graphAxes)
	if err != nil {
		return Tensor{}, err
	}
	perm := make([]int, len(info.Axes)) // Axes[i] is graphAxes[perm[i]]
	for i, axis := range info.Axes {
		if perm[i] = slices.Index(info.graphAxes, axis); perm[i] < 0 {
			return Tensor{}, fmt.Errorf("axis %q is not among the graph's %v", axis, info.graphAxes)
		}
	}
	t := tensor.New(tensor.WithShape(sizes...), tensor.WithBacking(gorgoniax.Float64s(*v)))
	if err := t.T(perm...); err != nil {
		return Tensor{}, err
	}
	if err := t.Transpose(); err != nil { // moves the numbers into the new order
		return Tensor{}, err
	}
	return Tensor{Shape: t.Shape().Clone(), Data: t.Data().([]float64)}, nil
}

// sizes returns the sizes of the named axes.
func (s shape) sizes(axes []string) ([]int, error) {
	sizes := make([]int, len(axes))
	for i, axis := range axes {
		n, ok := map[string]int{"B": s.B, "T": s.T, "H": s.H, "d_model": s.D, "d_k": s.dk()}[axis]
		if !ok {
			return nil, fmt.Errorf("unknown axis %q", axis)
		}
		sizes[i] = n
	}
	return sizes, nil
}

// WordSteps are the explainers' steps for one word in one head of one layer,
// over the n real words of its sentence: each AttentionSteps field holds the
// word's vector (x: d_model numbers; q, k, v, z: d_k) or its n numbers, one
// per word (scores, scaled, weights). Keys and Values are every word's k and v.
type WordSteps struct {
	Layer int `json:"layer"` // 0-based, as Head and Word
	Head  int `json:"head"`
	Word  int `json:"word"`
	DK    int `json:"d_k"`
	AttentionSteps[[]float64]
	Keys   [][]float64 `json:"keys"`   // (n, d_k)
	Values [][]float64 `json:"values"` // (n, d_k)
}

// Steps returns WordSteps for word i of sentence b; it needs a Trace run.
func (o *Output) Steps(b, layer, head, i int) (WordSteps, error) {
	if o.Trace == nil {
		return WordSteps{}, fmt.Errorf("no trace: build the graph with GraphOptions.Trace")
	}
	if b < 0 || b >= len(o.Lengths) || layer < 0 || layer >= len(o.Trace) {
		return WordSteps{}, fmt.Errorf("sentence %d / layer %d out of range (%d sentences, %d layers)", b, layer, len(o.Lengths), len(o.Trace))
	}
	tr, n := o.Trace[layer], o.Lengths[b]
	if head < 0 || head >= tr.Q.Shape[1] || i < 0 || i >= n {
		return WordSteps{}, fmt.Errorf("head %d / word %d out of range (%d heads, %d words)", head, i, tr.Q.Shape[1], n)
	}
	w := WordSteps{Layer: layer, Head: head, Word: i, DK: tr.Q.Shape[3]}
	var err error
	w.AttentionSteps, err = mapSteps(tr, func(info StepInfo, t Tensor) ([]float64, error) {
		return wordRow(info, t, b, head, i, n)
	})
	for j := 0; j < n; j++ {
		w.Keys = append(w.Keys, tr.K.Row(b, head, j))
		w.Values = append(w.Values, tr.V.Row(b, head, j))
	}
	return w, err
}

// wordRow is t's row for word i of sentence b in head h: its leading axes
// B, H, T index them. A per-key row keeps only the n real words.
func wordRow(info StepInfo, t Tensor, b, h, i, n int) ([]float64, error) {
	var idx []int
	for _, axis := range info.Axes[:len(info.Axes)-1] {
		switch axis {
		case "B":
			idx = append(idx, b)
		case "H":
			idx = append(idx, h)
		case "T":
			idx = append(idx, i)
		default:
			return nil, fmt.Errorf("leading axis %q is not B, H or T", axis)
		}
	}
	row := t.Row(idx...)
	if info.PerKey() {
		row = row[:n]
	}
	return row, nil
}
