package data

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// tinyExamples are three hand-made sentences of lengths 10, 11 and 12.
func tinyExamples() []Example {
	var out []Example
	for _, s := range []string{
		"A dog ate the food because it was hungry.",
		"The food was eaten by a dog as it was tasty.",
		"Because it was very hungry, the dog ate the food.",
	} {
		toks := Tokenize(s)
		nouns := NounPositions(toks)
		out = append(out, Example{Text: s, Tokens: toks, Pronoun: Pronouns(toks)[0], Antecedent: nouns[0], Candidates: [2]int{nouns[0], nouns[1]}})
	}
	return out
}

func TestBatchesPadding(t *testing.T) {
	ex := tinyExamples()
	v := BuildVocab(ex)
	bs, err := Batches(ex, v, 2, 16, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 2 {
		t.Fatalf("%d batches, want 2", len(bs))
	}
	b := bs[1]
	if b.Size != 2 || b.SeqLen != 16 || len(b.IDs) != 32 || len(b.Examples) != 1 {
		t.Fatalf("last batch: size %d seqLen %d ids %d examples %d", b.Size, b.SeqLen, len(b.IDs), len(b.Examples))
	}
	if !slices.Equal(b.Lengths, []int{12, 0}) || !slices.Equal(b.Pronoun, []int{1, 0}) || !slices.Equal(b.Antecedent, []int{7, 0}) {
		t.Errorf("lengths %v pronoun %v antecedent %v", b.Lengths, b.Pronoun, b.Antecedent)
	}
	if got := v.Decode(b.IDs[:12]); !slices.Equal(got, ex[2].Tokens) {
		t.Errorf("row 0 decodes to %q", got)
	}
	for i, id := range b.IDs[12:] {
		if id != PadID {
			t.Fatalf("position %d after the sentence holds id %d, want PadID", 12+i, id)
		}
	}
	if !b.Mask(0, 11) || b.Mask(0, 12) || b.Mask(1, 0) || b.Mask(2, 0) || b.Mask(0, -1) || b.Mask(0, 16) {
		t.Error("Mask wrong at the edges of row 0, filler row 1 or outside the batch")
	}
	m := b.MaskValues(1, 0)
	if len(m) != 32 || m[11] != 1 || m[12] != 0 || m[16] != 0 {
		t.Errorf("MaskValues = %v", m)
	}
}

func TestBatchesDropLast(t *testing.T) {
	ex := tinyExamples()
	bs, err := Batches(ex, BuildVocab(ex), 2, 12, nil, true)
	if err != nil || len(bs) != 1 || len(bs[0].Examples) != 2 {
		t.Fatalf("dropLast: %d batches, %v", len(bs), err)
	}
	if bs, err := Batches(nil, BuildVocab(ex), 2, 12, nil, false); err != nil || len(bs) != 0 {
		t.Errorf("no examples: %d batches, %v", len(bs), err)
	}
}

func TestBatchesShuffle(t *testing.T) {
	c := testCorpus(t)
	v := c.Vocab()
	order := func(rng *rand.Rand) []string {
		bs, err := Batches(c.Test, v, 32, MaxTokens, rng, false)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range bs {
			out = append(out, texts(b.Examples)[0])
		}
		return out
	}
	kept := order(nil)
	if kept[0] != texts(c.Test[:32])[0] {
		t.Error("rng nil changed the order")
	}
	a, b := order(rand.New(rand.NewSource(7))), order(rand.New(rand.NewSource(7)))
	if !slices.Equal(a, b) {
		t.Error("same rng seed gave different batches")
	}
	if slices.Equal(a, kept) || slices.Equal(a, order(rand.New(rand.NewSource(8)))) {
		t.Error("shuffling did not change the order")
	}
	bs, _ := Batches(c.Test, v, 32, MaxTokens, rand.New(rand.NewSource(7)), false)
	var all []Example
	for _, b := range bs {
		all = append(all, b.Examples...)
	}
	if !slices.Equal(texts(all), texts(c.Test)) {
		t.Error("shuffled batches lost or repeated examples")
	}
}

func TestBatchesErrors(t *testing.T) {
	ex := tinyExamples()
	v := BuildVocab(ex)
	bad := ex[0]
	bad.Antecedent = 40
	tests := []struct {
		name      string
		ex        []Example
		v         *Vocab
		size, len int
		want      []string
	}{
		{"too long", ex, v, 2, 11, []string{ex[2].Text, "12 tokens", "seqLen 11"}},
		{"bad position", []Example{bad}, v, 2, 16, []string{bad.Text, "antecedent 40"}},
		{"zero size", ex, v, 0, 16, []string{"size 0"}},
		{"zero seqLen", ex, v, 2, 0, []string{"seqLen 0"}},
		{"nil vocab", ex, nil, 2, 16, []string{"vocab false"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Batches(tt.ex, tt.v, tt.size, tt.len, nil, false)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestBatchesUncertain(t *testing.T) {
	ex := tinyExamples()
	ex[1].Uncertain = true
	bs, err := Batches(ex, BuildVocab(ex), 4, 16, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := bs[0].Uncertain; !slices.Equal(got, []bool{false, true, false, false}) {
		t.Errorf("Uncertain = %v, want row 1 only (row 3 is filler)", got)
	}
}

func TestBatchesEncodeUnknownAsUnk(t *testing.T) {
	ex := tinyExamples()
	bs, err := Batches(ex[:1], BuildVocab(ex[2:]), 1, 16, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if bs[0].IDs[0] != UnkID { // "a" opens ex[0] but is missing from ex[2]
		t.Errorf("first id %d, want UnkID", bs[0].IDs[0])
	}
}

// Repadded keeps every row's tokens and changes only padding columns.
func TestRepaddedChangesOnlyPadding(t *testing.T) {
	b := Batch{Size: 2, SeqLen: 5, IDs: []int{7, 8, 9, 0, 0, 4, 5, 0, 0, 0}, Lengths: []int{3, 2}}
	for _, tc := range []struct {
		seqLen, want int
		ids          []int
	}{
		{3, 3, []int{7, 8, 9, 4, 5, 0}},
		{1, 3, []int{7, 8, 9, 4, 5, 0}}, // never below the longest row
		{4, 4, []int{7, 8, 9, 0, 4, 5, 0, 0}},
		{6, 6, []int{7, 8, 9, 0, 0, 0, 4, 5, 0, 0, 0, 0}},
	} {
		got := b.Repadded(tc.seqLen)
		if got.SeqLen != tc.want || !slices.Equal(got.IDs, tc.ids) {
			t.Errorf("Repadded(%d): SeqLen %d, IDs %v; want %d, %v", tc.seqLen, got.SeqLen, got.IDs, tc.want, tc.ids)
		}
	}
	if b.SeqLen != 5 || len(b.IDs) != 10 || b.Longest() != 3 {
		t.Fatalf("Repadded changed the batch it was called on: %+v", b)
	}
}
