package config

import (
	"testing"

	"itformer/model"
)

func TestParamCountMatchesParamSpecs(t *testing.T) {
	for _, c := range []model.Config{
		{VocabSize: 241, DModel: 32, Heads: 2, DFF: 64, Layers: 2, MaxLen: 16, DType: "float64"},
		{VocabSize: 3, DModel: 2, Heads: 1, DFF: 5, Layers: 7, MaxLen: 1, DType: "float32"},
	} {
		want := 0
		for _, s := range model.ParamSpecs(c) {
			n := 1
			for _, d := range s.Shape {
				n *= d
			}
			want += n
		}
		if got := ParamCount(c); got != float64(want) {
			t.Errorf("ParamCount(%+v) = %v, want %d", c, got, want)
		}
	}
}
