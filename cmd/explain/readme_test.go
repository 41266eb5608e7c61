package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// README shows the middle of explain's output for the mission sentence, from
// "step 1" on: every line of it must be a line explain prints now.
func TestREADMEShowsWhatExplainPrints(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```\nstep 1 ")
	block, _, closed := strings.Cut("step 1 "+rest, "```")
	if !ok || !closed {
		t.Fatal(`README has no block that opens with "step 1"`)
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"A dog ate the food because it was hungry"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	printed := map[string]bool{}
	for _, l := range strings.Split(stdout.String(), "\n") {
		printed[l] = true
	}
	for _, want := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		if !printed[want] {
			t.Errorf("README shows a line explain no longer prints:\n%q", want)
		}
	}
}
