// Vocab: maps tokens to integer ids and back. Built from the training split
// only, so held-out words would show up as <unk>; serialised as a JSON list.

package data

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Reserved tokens and their fixed ids.
const (
	Pad   = "<pad>"
	Unk   = "<unk>"
	PadID = 0
	UnkID = 1
)

// Vocab is an immutable token <-> id table.
type Vocab struct {
	words []string
	ids   map[string]int
}

// BuildVocab collects the tokens of the examples: <pad>, <unk>, then every
// other token in sorted order, so the same examples always give the same ids.
func BuildVocab(examples []Example) *Vocab {
	seen := map[string]bool{Pad: true, Unk: true}
	var rest []string
	for _, e := range examples {
		for _, t := range e.Tokens {
			if !seen[t] {
				seen[t] = true
				rest = append(rest, t)
			}
		}
	}
	slices.Sort(rest)
	v, _ := NewVocab(append([]string{Pad, Unk}, rest...)) // valid by construction
	return v
}

// NewVocab rebuilds a vocabulary from its word list (as saved by Words),
// checking <pad> is id 0, <unk> id 1, and no word is empty or repeated.
func NewVocab(words []string) (*Vocab, error) {
	if len(words) < 2 || words[PadID] != Pad || words[UnkID] != Unk {
		return nil, fmt.Errorf("vocabulary must start with %q, %q; got %q", Pad, Unk, words[:min(2, len(words))])
	}
	v := &Vocab{words: slices.Clone(words), ids: make(map[string]int, len(words))}
	for id, w := range words {
		if w == "" {
			return nil, fmt.Errorf("vocabulary word %d is empty", id)
		}
		if prev, dup := v.ids[w]; dup {
			return nil, fmt.Errorf("vocabulary word %q appears twice, at ids %d and %d", w, prev, id)
		}
		v.ids[w] = id
	}
	return v, nil
}

// Size is the number of ids, reserved tokens included (0 for a nil Vocab).
func (v *Vocab) Size() int {
	if v == nil {
		return 0
	}
	return len(v.words)
}

// Words returns a copy of the word list; index = id.
func (v *Vocab) Words() []string {
	if v == nil {
		return nil
	}
	return slices.Clone(v.words)
}

// ID returns the id of word, or UnkID and false.
func (v *Vocab) ID(word string) (int, bool) {
	if v == nil {
		return UnkID, false
	}
	id, ok := v.ids[word]
	if !ok {
		return UnkID, false
	}
	return id, true
}

// Word returns the token for id, or <unk> for an id outside the table.
func (v *Vocab) Word(id int) string {
	if id < 0 || id >= v.Size() {
		return Unk
	}
	return v.words[id]
}

// Encode maps tokens to ids; tokens not in the table become UnkID and are
// also returned in unknown (in order, repeats kept) so callers can report them.
func (v *Vocab) Encode(tokens []string) (ids []int, unknown []string) {
	ids = make([]int, len(tokens))
	for i, t := range tokens {
		id, ok := v.ID(t)
		if !ok {
			unknown = append(unknown, t)
		}
		ids[i] = id
	}
	return ids, unknown
}

// Decode maps ids back to tokens.
func (v *Vocab) Decode(ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = v.Word(id)
	}
	return out
}

// MarshalJSON writes the vocabulary as its word list.
func (v *Vocab) MarshalJSON() ([]byte, error) { return json.Marshal(v.Words()) }

// UnmarshalJSON reads a word list and validates it like NewVocab.
func (v *Vocab) UnmarshalJSON(b []byte) error {
	var words []string
	if err := json.Unmarshal(b, &words); err != nil {
		return fmt.Errorf("vocabulary JSON: %w", err)
	}
	nv, err := NewVocab(words)
	if err != nil {
		return err
	}
	*v = *nv
	return nil
}
