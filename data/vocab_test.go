package data

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestBuildVocab(t *testing.T) {
	ex := []Example{{Tokens: []string{"the", "dog", "ate", "it", "."}}, {Tokens: []string{"a", "dog", "."}}}
	v := BuildVocab(ex)
	want := []string{Pad, Unk, ".", "a", "ate", "dog", "it", "the"}
	if !slices.Equal(v.Words(), want) {
		t.Fatalf("Words() = %q, want %q", v.Words(), want)
	}
	if v.Size() != len(want) || v.Word(PadID) != Pad || v.Word(UnkID) != Unk {
		t.Errorf("Size %d, Word(0) %q, Word(1) %q", v.Size(), v.Word(0), v.Word(1))
	}
	ids, unknown := v.Encode([]string{"the", "cat", "ate", "cat"})
	if !slices.Equal(ids, []int{7, UnkID, 4, UnkID}) || !slices.Equal(unknown, []string{"cat", "cat"}) {
		t.Errorf("Encode = %v, %q", ids, unknown)
	}
	if got := v.Decode([]int{7, 5, -1, 99}); !slices.Equal(got, []string{"the", "dog", Unk, Unk}) {
		t.Errorf("Decode = %q", got)
	}
}

// Masked training sentences hold the literal <unk>: it must stay the one
// reserved entry and encode as UnkID without being reported unknown.
func TestVocabUnkToken(t *testing.T) {
	v := BuildVocab([]Example{{Tokens: []string{"the", Unk, "ate", "it", Unk}}})
	if want := []string{Pad, Unk, "ate", "it", "the"}; !slices.Equal(v.Words(), want) {
		t.Fatalf("Words() = %q, want %q", v.Words(), want)
	}
	ids, unknown := v.Encode([]string{Unk, "ate", "zorb"})
	if !slices.Equal(ids, []int{UnkID, 2, UnkID}) || !slices.Equal(unknown, []string{"zorb"}) {
		t.Errorf("Encode = %v, %q", ids, unknown)
	}
	if got := testCorpus(t).Vocab().Words(); slices.Index(got, Unk) != UnkID || slices.Contains(got[UnkID+1:], Unk) {
		t.Error("the corpus vocabulary lists <unk> other than at UnkID")
	}
}

func TestVocabFromTrainOnly(t *testing.T) {
	c := testCorpus(t)
	v := c.Vocab()
	if !slices.Equal(v.Words(), BuildVocab(c.Train).Words()) {
		t.Fatal("Corpus.Vocab differs from BuildVocab(train)")
	}
	if !slices.IsSorted(v.Words()[2:]) {
		t.Error("vocabulary after <pad>, <unk> is not sorted")
	}
	for _, split := range [][]Example{c.Validation, c.Test} {
		for _, e := range split {
			if _, unknown := v.Encode(e.Tokens); len(unknown) > 0 {
				t.Fatalf("%q has tokens %q missing from the train vocabulary", e.Text, unknown)
			}
		}
	}
	t.Logf("vocabulary size %d", v.Size())
}

func TestVocabJSONRoundTrip(t *testing.T) {
	v := testCorpus(t).Vocab()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back Vocab
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Words(), v.Words()) {
		t.Error("JSON round trip changed the vocabulary")
	}
	if id, ok := back.ID("dog"); !ok || back.Word(id) != "dog" {
		t.Errorf("ID(dog) = %d, %v after round trip", id, ok)
	}
}

func TestNewVocabErrors(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		want  string // must appear in the error
	}{
		{"nil", nil, "must start with"},
		{"only pad", []string{Pad}, "must start with"},
		{"pad not first", []string{Unk, Pad, "dog"}, `"<unk>" "<pad>"`},
		{"unk missing", []string{Pad, "dog"}, `"dog"`},
		{"duplicate", []string{Pad, Unk, "dog", "cat", "dog"}, `"dog" appears twice, at ids 2 and 4`},
		{"duplicate pad", []string{Pad, Unk, Pad}, `"<pad>" appears twice`},
		{"empty word", []string{Pad, Unk, ""}, "word 2 is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewVocab(tt.words)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewVocab(%q) error = %v, want it to contain %s", tt.words, err, tt.want)
			}
		})
	}
}

func TestVocabUnmarshalErrors(t *testing.T) {
	for _, in := range []string{`{"a":1}`, `["<pad>","<unk>","x","x"]`, `[]`} {
		var v Vocab
		if err := json.Unmarshal([]byte(in), &v); err == nil {
			t.Errorf("Unmarshal(%s) accepted a bad vocabulary", in)
		}
	}
}

func TestNilVocabDoesNotPanic(t *testing.T) {
	var v *Vocab
	if v.Size() != 0 || v.Word(0) != Unk || v.Words() != nil {
		t.Error("nil vocab misbehaves")
	}
	if ids, unknown := v.Encode([]string{"a"}); ids[0] != UnkID || len(unknown) != 1 {
		t.Error("nil vocab Encode")
	}
}
