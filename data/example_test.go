package data

import "testing"

func TestFlipsCountsWhatTurnsTheAnswerRound(t *testing.T) {
	for _, c := range []struct {
		name string
		e    Example
		want int
	}{
		{"it happened, because", Example{Outcome: Succeeded}, 0},
		{"it did not happen", Example{Outcome: Failed}, 1},
		{"not", Example{Outcome: Succeeded, Negated: true}, 1},
		{"although", Example{Outcome: Succeeded, Concessive: true}, 1},
		{"slow, not fast", Example{Outcome: Succeeded, NegativePole: true}, 1},
		{"all four", Example{Outcome: Failed, Negated: true, Concessive: true, NegativePole: true}, MaxFlips},
	} {
		if got := c.e.Flips(); got != c.want {
			t.Errorf("%s: %d flips, want %d", c.name, got, c.want)
		}
	}
}
