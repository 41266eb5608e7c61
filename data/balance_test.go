package data

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestBalanceOfCells looks at the weights newGenerator gives the cells
// (frame, outcome, connective, negation, predicate): for each value of
// each feature a one-feature baseline could read, the share of its weight
// on cells pointing at the agent must be near one half. Raking balances
// every feature exactly but for the frames' share bounds, which the
// predicates absorb, so the predicate gets a wider tolerance. Held-out
// cells weigh nothing, as in generation.
func TestBalanceOfCells(t *testing.T) {
	lex := testLexicon(t)
	for _, seed := range testSeeds {
		g := newGenerator(lex, DefaultConfig(), seed, rand.New(rand.NewSource(seed)), newHeldOutSet(nil), nil)
		w := make([]float64, len(g.cum))
		for i := range w {
			w[i] = g.cum[i]
			if i > 0 {
				w[i] -= g.cum[i-1]
			}
		}
		for _, tt := range []struct {
			feature   string
			value     func(c cell) string
			tolerance float64
		}{
			{"predicate", func(c cell) string { return c.Predicate }, 0.05},
			{"verb", func(c cell) string { return lex.Frames[c.frameIndex].Verb(c.Outcome) }, 0.01},
			{"negation", func(c cell) string { return fmt.Sprint(c.Negated) }, 0.01},
			{"connective", func(c cell) string { return fmt.Sprint(c.Concessive) }, 0.01},
		} {
			shares, worst := agentShares(g.cells, w, tt.value), ""
			for v, s := range shares {
				if tt.feature == "predicate" && ownVerbDeed(lex, v) {
					t.Logf("seed %d: %q, a deed its frame's own verb never says, points at the agent in %.3f of its weight", seed, v, s)
					continue
				}
				if s < 0.5-tt.tolerance || s > 0.5+tt.tolerance {
					t.Errorf("seed %d: %s %q points at the agent in %.3f of its weight, want %.2f-%.2f",
						seed, tt.feature, v, s, 0.5-tt.tolerance, 0.5+tt.tolerance)
				}
				if worst == "" || abs(s-0.5) > abs(shares[worst]-0.5) {
					worst = v
				}
			}
			t.Logf("seed %d: %d values of %s; furthest from a half: %q at %.4f", seed, len(shares), tt.feature, worst, shares[worst])
		}
	}
}

// agentShares gives, per value of a feature with any weight, the share of
// that weight on cells whose role is the agent.
func agentShares(cells []cell, w []float64, value func(cell) string) map[string]float64 {
	sums := map[string]*[2]float64{}
	for i, c := range cells {
		v := value(c)
		if sums[v] == nil {
			sums[v] = &[2]float64{}
		}
		sums[v][c.role] += w[i]
	}
	out := map[string]float64{}
	for v, s := range sums {
		if total := s[Agent] + s[Object]; total > 0 {
			out[v] = s[Agent] / total
		}
	}
	return out
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// A held-out pair that would take every cell of one role from its verb is
// refused: "reached" keeps an object to point at.
func TestVerbsPointBothWays(t *testing.T) {
	tall := cellKey{0, Succeeded, "tall", false}
	tallNot := cellKey{0, Succeeded, "tall", true}
	big := cellKey{0, Succeeded, "big", false}
	smallNot := cellKey{0, Succeeded, "small", true}
	cellOf := func(k cellKey, r Role) cell {
		return cell{frameIndex: k.frameIndex, Meaning: Meaning{Outcome: k.outcome, Predicate: k.predicate, Negated: k.negated}, role: r}
	}
	cells := []cell{cellOf(tall, Agent), cellOf(tallNot, Object), cellOf(big, Agent), cellOf(smallNot, Object)}
	for _, tt := range []struct {
		name    string
		heldOut map[cellKey]bool
		pair    [2]cellKey
		want    bool
	}{
		{"both roles left", map[cellKey]bool{}, [2]cellKey{tall, tallNot}, true},
		{"the last object cell in the pair", map[cellKey]bool{smallNot: true}, [2]cellKey{tall, tallNot}, false},
		{"every agent cell in the pair", map[cellKey]bool{}, [2]cellKey{tall, big}, false},
	} {
		if got := verbsPointBothWays(cells, tt.heldOut, tt.pair); got != tt.want {
			t.Errorf("%s: verbsPointBothWays = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// ownVerbDeed says whether deed is a frame's own verb there ("escaped" in
// escape), so that it can describe only the other role where it is said.
func ownVerbDeed(lex *Lexicon, deed string) bool {
	return slices.ContainsFunc(lex.Frames, func(f Frame) bool { _, ok := f.ownVerbDeeds[deed]; return ok })
}
