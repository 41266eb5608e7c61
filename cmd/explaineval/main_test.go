package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/inference"
	"itformer/inference/inferencetest"
)

func TestMarkdownTables(t *testing.T) {
	var out, progress bytes.Buffer
	if err := run([]string{"-sets", "negation", "-limit", "3"}, &out, &progress); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- A = `default` (attention_supervision 1)", "| knocked out | A negation |", "| L2H8 | ",
		"| rollout | ", "### Where integrated gradients puts its top word", "| negation (3) | ", "| within tolerance | "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(progress.String(), "default: negation (800 sentences)") {
		t.Errorf("progress %q", progress.String())
	}
}

func TestJSON(t *testing.T) {
	var out, progress bytes.Buffer
	if err := run([]string{"-json", "-sets", "two_it", "-limit", "2"}, &out, &progress); err != nil {
		t.Fatal(err)
	}
	var models []modelFigures
	if err := json.Unmarshal(out.Bytes(), &models); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	s := models[0].Sets[0]
	if len(models) != 1 || s.Name != "two_it" || s.N != 800 || s.Attribution.N != 2 ||
		len(s.AblatedAccuracy) != 2 || len(s.HeadOnAntecedent[1]) != 8 || s.Accuracy < 0.9 {
		t.Errorf("figures %+v", s)
	}
}

func TestMistakes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-sets", "tset"}, `-sets: no set "tset" (the sets are test, held_out_noun_role`},
		{[]string{"-limit", "-1"}, "-limit -1"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		var out, progress bytes.Buffer
		err := run(tc.args, &out, &progress)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
		if err != nil && !strings.Contains(err.Error(), "\nusage: explaineval ") { // README: it ends with the usage line
			t.Errorf("%q: usage error %q has no usage line", tc.args, err)
		}
	}
	var out, progress bytes.Buffer
	if err := run([]string{"-run", "/nonexistent/run"}, &out, &progress); err == nil || !strings.Contains(err.Error(), "-run /nonexistent/run: ") {
		t.Errorf("a missing run folder: %v", err)
	}
	// The second model is loaded before the first is measured (minutes):
	// nothing is evaluated, so no progress line is printed.
	progress.Reset()
	err := run([]string{"-run", "default", "-run", "/nonexistent/run", "-sets", "test"}, &out, &progress)
	if err == nil || !strings.Contains(err.Error(), "-run /nonexistent/run: ") || progress.Len() > 0 {
		t.Errorf("a missing second run: %v, after %q", err, progress.String())
	}
}

// A model whose output is not finite stops the command with an error, as
// infer's does, and prints no table.
func TestBrokenModelIsAnError(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	var out, progress bytes.Buffer
	err = run([]string{"-run", inferencetest.HugeWeights(t, p.Checkpoint()), "-sets", "test", "-limit", "1"}, &out, &progress)
	if !errors.Is(err, inference.ErrBrokenModel) || !strings.Contains(err.Error(), "the checkpoint's weights are broken") {
		t.Errorf("%v, want the model reported broken", err)
	}
	if out.Len() > 0 {
		t.Errorf("printed figures:\n%s", out.String())
	}
}
