package inference

import (
	"testing"

	"itformer/checkpoint"
)

// BenchmarkResolve is one sentence through Predictor.Resolve on the default
// model, as cmd/serve answers it: after the first call, the graph for the
// sentence's length is kept, so this is the forward pass and the bookkeeping.
//
//	go test -run '^$' -bench Resolve -benchmem -count 10 ./inference
func BenchmarkResolve(b *testing.B) {
	ck, err := checkpoint.Load("../cmd/internal/defaultmodel/model")
	if err != nil {
		b.Fatal(err)
	}
	p := New(ck)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Resolve("A dog ate the food because it was hungry"); err != nil {
			b.Fatal(err)
		}
	}
}
