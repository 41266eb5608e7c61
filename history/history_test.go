package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// small is a valid history: one probe of three words, 2 layers x 1 head.
func small() *History {
	h := New(2, 1, [2]int{1, 0}, 10, []Probe{{Name: "p", Set: "test", Text: "dog it food",
		Tokens: []string{"dog", "it", "food"}, Pronoun: 1, Antecedent: 0, Candidates: [2]int{0, 2}}})
	for _, step := range []int{10, 0} {
		h.Add(Point{Step: step, Epoch: float64(step) / 10, Readings: []Reading{{
			Attention:              [][][]float64{{{0.12345, 0.5, 0.37655}}, {{1, 0, 0}}},
			CandidateProbabilities: [2]float64{0.87654, 0.1}}}})
	}
	return h
}

func TestRoundTrip(t *testing.T) {
	h := small()
	js, err := h.JSON()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), js, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, where := range []string{dir, filepath.Join(dir, "checkpoint.json")} {
		got, err := Load(where)
		if err != nil {
			t.Fatal(err)
		}
		if got.Points[0].Step != 0 || got.Points[1].Step != 10 {
			t.Errorf("points at %d, %d: Add must keep them in step order", got.Points[0].Step, got.Points[1].Step)
		}
		r := got.Points[0].Readings[0]
		if r.Attention[0][0][0] != 0.123 || r.CandidateProbabilities[0] != 0.877 {
			t.Errorf("numbers %v %v, want rounded to 3 decimals", r.Attention[0][0], r.CandidateProbabilities)
		}
		if p, i, ok := got.Probe("p"); !ok || i != 0 || p.AnswerProbability(r) != 0.877 {
			t.Errorf("Probe(p) = %v, %d, %v", p, i, ok)
		}
	}
	h.Truncate(5)
	if len(h.Points) != 1 || !h.Has(0) || h.Has(10) {
		t.Errorf("after Truncate(5): %d points", len(h.Points))
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(h *History)
	}{
		{"format", `format "x"`, func(h *History) { h.Format = "x" }},
		{"sizes", "layers 0", func(h *History) { h.Layers = 0 }},
		{"supervised head", "supervised head (2, 0)", func(h *History) { h.SupervisedLayer = 2 }},
		{"position", "position 3 is outside its 3 tokens", func(h *History) { h.Probes[0].Pronoun = 3 }},
		{"antecedent", "is not one of the candidates", func(h *History) { h.Probes[0].Antecedent = 1 }},
		{"layers", "1 layers of attention, want 2", func(h *History) { h.Points[0].Readings[0].Attention = h.Points[0].Readings[0].Attention[:1] }},
		{"row", "2 weights for 3 tokens", func(h *History) { h.Points[1].Readings[0].Attention[1][0] = []float64{1, 0} }},
		{"readings", "0 readings for 1 probes", func(h *History) { h.Points[0].Readings = nil }},
		{"order", "does not come after step 10", func(h *History) { h.Points[0].Step = 10 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := small()
			tc.edit(h)
			js, err := h.JSON()
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(js, "x/history.json")
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x/history.json: ") {
				t.Errorf("got %v, want an ErrFormat naming the file and saying %q", err, tc.want)
			}
		})
	}
	if _, err := Parse([]byte(`{"format": "itformer-history/1", "extra": 1}`), "h.json"); err == nil || !strings.Contains(err.Error(), `unknown field "extra"`) {
		t.Errorf("an unknown field: %v", err)
	}
	// These had named Go's types ("Go value of type history.History") or said "EOF".
	for _, tc := range []struct{ raw, want string }{
		{`[]`, "h.json: want a JSON object ({...}), got a JSON array"},
		{`{"layers": "two"}`, "h.json: layers: want an int, got a JSON string"},
		{`{"probes": {}}`, "h.json: probes: want a JSON array ([...]), got a JSON object"},
		{``, "h.json: the file is empty; want a JSON object ({...})"},
	} {
		if _, err := Parse([]byte(tc.raw), "h.json"); err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q): %v, want %q", tc.raw, err, tc.want)
		}
	}
}
