package checkpoint

import "testing"

// BenchmarkLoad reads and verifies the embedded default model's checkpoint from disk.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Load("../cmd/internal/defaultmodel/model"); err != nil {
			b.Fatal(err)
		}
	}
}
