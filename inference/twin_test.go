package inference

import (
	"fmt"
	"strings"
	"testing"
)

func TestAlign(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"a dog was hungry", "a dog was tasty", "0-0 1-1 2-2 3-3*"},
		{"a dog was hungry", "a dog was not hungry", "0-0 1-1 2-2 -1-3* 3-4"},
		{"it was not big", "it was big", "0-0 1-1 2--1* 3-2"},
		{"x y", "", "0--1* 1--1*"},
	} {
		a, b := strings.Fields(tc.a), strings.Fields(tc.b)
		var parts []string
		for _, p := range align(a, b) {
			mark := ""
			if p[0] < 0 || p[1] < 0 || a[p[0]] != b[p[1]] {
				mark = "*"
			}
			parts = append(parts, fmt.Sprintf("%d-%d%s", p[0], p[1], mark))
		}
		if got := strings.Join(parts, " "); got != tc.want {
			t.Errorf("align(%q, %q) = %s, want %s", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestTwinsMarkTheDecidingWord(t *testing.T) {
	tw, err := defaultPredictor(t).Twins("A dog ate the food because it was hungry", "A dog ate the food because it was tasty")
	if err != nil {
		t.Fatal(err)
	}
	if !tw.AnswerChanged || tw.A.Predictions[0].AnswerWord != "dog" || tw.B.Predictions[0].AnswerWord != "food" {
		t.Errorf("answers %s -> %s, changed %v", tw.A.Predictions[0].AnswerWord, tw.B.Predictions[0].AnswerWord, tw.AnswerChanged)
	}
	var differ []string
	for _, w := range tw.Words {
		if w.Differs {
			differ = append(differ, tw.A.Tokens[w.A]+"/"+tw.B.Tokens[w.B])
		}
	}
	if strings.Join(differ, " ") != "hungry/tasty" {
		t.Errorf("words that differ: %v, want hungry/tasty", differ)
	}
	food := tw.Words[4]
	if food.ProbabilityChange < 0.5 { // the embedded model: +0.887 (0.000 to 0.887)
		t.Errorf("food's probability changed by %.3f, want it to become the answer", food.ProbabilityChange)
	}
}

// Twins compare the words typed: "puppy" and "dog" differ, though the model
// reads both as "dog", and the answer changed from one noun to the other.
func TestTwinsCompareTheWordsTyped(t *testing.T) {
	tw, err := defaultPredictor(t).Twins("The puppy ate the food because it was hungry", "The dog ate the food because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	var differ []string
	for _, w := range tw.Words {
		if w.Differs {
			differ = append(differ, tw.A.Typed[w.A]+"/"+tw.B.Typed[w.B])
		}
	}
	pa, pb := tw.A.Predictions[0], tw.B.Predictions[0]
	if strings.Join(differ, " ") != "puppy/dog" || !tw.AnswerChanged || pa.TypedAnswer != "puppy" || pb.TypedAnswer != "dog" {
		t.Errorf("words that differ %v, answers %s -> %s (changed %v); want puppy/dog, puppy -> dog", differ, pa.TypedAnswer, pb.TypedAnswer, tw.AnswerChanged)
	}
}

// A sentence that cannot be read is named, A or B: "the sentence is empty"
// alone had left the user to guess which.
func TestTwinsNameTheSentenceAtFault(t *testing.T) {
	p := defaultPredictor(t)
	mission := "A dog ate the food because it was hungry"
	for _, tc := range []struct{ a, b, want string }{
		{mission, "", "sentence B: "},
		{"A dog ate the food", mission, "sentence A: "},
	} {
		if _, err := p.Twins(tc.a, tc.b); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Twins(%q, %q): %v, want it to start %q", tc.a, tc.b, err, tc.want)
		}
	}
}
