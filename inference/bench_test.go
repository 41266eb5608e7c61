package inference

import (
	"os"
	"testing"

	"itformer/checkpoint"
)

// BenchmarkResolve is one sentence through Predictor.Resolve on the default
// model, as cmd/serve answers it: after the first call, the graph for the
// sentence's length is kept, so this is the forward pass and the bookkeeping.
//
//	go test -run '^$' -bench Resolve -benchmem -count 10 ./inference
func BenchmarkResolve(b *testing.B) {
	b.Run("member1", func(b *testing.B) { benchmarkResolve(b, false) })
	b.Run("ensemble", func(b *testing.B) { benchmarkResolve(b, true) })
}

// benchmarkResolve times one answer of the embedded model: member 1 alone,
// or with the other members voting, as every command asks them.
func benchmarkResolve(b *testing.B, members bool) {
	dir := "../cmd/internal/defaultmodel/model"
	ck, err := checkpoint.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	p := New(ck)
	if members {
		others, err := checkpoint.LoadMembers(os.DirFS(dir), ".", ck)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.SetMembers(others); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Resolve("A dog ate the food because it was hungry"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAttribute is one sentence's attribution (integrated gradients
// with AttributionSteps+1 path points as one batch, and gradient × input
// from its last point) on the default model, after the first call has
// built the input-gradient graph for the sentence's length.
//
//	go test -run '^$' -bench Attribute -benchmem -count 10 ./inference
func BenchmarkAttribute(b *testing.B) {
	ck, err := checkpoint.Load("../cmd/internal/defaultmodel/model")
	if err != nil {
		b.Fatal(err)
	}
	p := New(ck)
	res, err := p.Resolve("A dog ate the food because it was hungry")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.Attribute(&res.Predictions[0]); err != nil {
			b.Fatal(err)
		}
	}
}
