package main

// The module's logic, tested natively: the same code runs in the tab, where
// only main_js.go's glue differs.

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"itformer/data"
)

func TestAnswerMissionAndTwin(t *testing.T) {
	a, err := loadDefault()
	if err != nil {
		t.Fatal(err)
	}
	ans, err := a.answer(Request{Sentence: data.MissionHungry, Twin: data.MissionTasty, Steps: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := ans.Twin.A.Predictions[0].AnswerWord; got != "dog" {
		t.Errorf("mission sentence: answer %q, want dog", got)
	}
	if got := ans.Twin.B.Predictions[0].AnswerWord; got != "food" {
		t.Errorf("twin: answer %q, want food", got)
	}
	if !strings.Contains(ans.Page, "<html") || !strings.Contains(ans.Page, "tasty") {
		t.Errorf("the page drawn for the frame lacks the twin (%d bytes)", len(ans.Page))
	}
	s := ans.Steps
	if s == nil || s.Tokens[s.Word] != "it" || len(s.Steps) == 0 {
		t.Fatalf("steps %+v, want the numbers for \"it\"", s)
	}
	for _, st := range s.Steps {
		if st.PerWord && len(st.Values) != len(s.Tokens) {
			t.Errorf("step %s has %d numbers for %d words", st.Name, len(st.Values), len(s.Tokens))
		}
	}
}

// The tab reads contractions as the commands do: "it's" is "it" "is", in
// the resolution, the steps and the page.
func TestAnswerReadsContractions(t *testing.T) {
	a, err := loadDefault()
	if err != nil {
		t.Fatal(err)
	}
	ans, err := a.answer(Request{Sentence: "The dog didn't eat the food because it's hungry", Steps: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := data.ContractionNote(ans.Resolution.Contractions); got != `read "it's" as "it is"` {
		t.Errorf("contractions %q", got)
	}
	if s := ans.Steps; strings.Join(s.Tokens, " ") != "the dog didn't eat the food because it is hungry ." || s.Tokens[s.Word] != "it" {
		t.Errorf("steps read %q, word %d", s.Tokens, s.Word)
	}
	if !strings.Contains(ans.Page, `<p class="read-as">`) {
		t.Error("the page drawn for the frame does not say how the sentence was read")
	}
}

// The tab shows the words typed, as the commands do: "puppy", read as
// "dog", in the resolution, the steps' rows and the page.
func TestAnswerShowsTheWordsTyped(t *testing.T) {
	a, err := loadDefault()
	if err != nil {
		t.Fatal(err)
	}
	ans, err := a.answer(Request{Sentence: "The puppy ate the food because it was famished", Steps: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := ans.Resolution.Predictions[0]; p.TypedAnswer != "puppy" || p.AnswerWord != "dog" {
		t.Errorf("answer %q read as %q, want puppy read as dog", p.TypedAnswer, p.AnswerWord)
	}
	if s := ans.Steps; strings.Join(s.Typed, " ") != "the puppy ate the food because it was famished ." || s.Tokens[1] != "dog" {
		t.Errorf("steps typed %q, read %q", s.Typed, s.Tokens)
	}
	if !strings.Contains(ans.Page, `class="answer-word">puppy</strong>`) {
		t.Error("the page drawn for the frame does not name puppy")
	}
}

func TestAnswerRefusals(t *testing.T) {
	a, err := loadDefault()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		r    Request
		want string
	}{
		{Request{Sentence: "  "}, "type a sentence"},
		{Request{Sentence: data.MissionHungry, Ablate: "L9H1"}, "L9H1"},
	} {
		if _, err := a.answer(tc.r); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.r, err, tc.want)
		}
	}
	ans, err := a.answer(Request{Sentence: data.MissionHungry, Ablate: "L1H1"})
	if err != nil || strings.Join(ans.Resolution.Ablated, ",") != "L1H1" {
		t.Fatalf("ablating L1H1: %v, ablated %v", err, ans)
	}
}

func TestRunConfigKnobs(t *testing.T) {
	off := false
	cfg, err := TrainRequest{Config: "default", Layers: 2, Heads: 4, DModel: 16, Epochs: 3, Supervision: &off}.RunConfig()
	if err != nil {
		t.Fatal(err)
	}
	if m := cfg.Model; m.Layers != 2 || m.Heads != 4 || m.DModel != 16 || cfg.Train.Epochs != 3 || cfg.Train.AttentionSupervision != 0 || cfg.Train.MemberCount() != 1 {
		t.Errorf("knobs not applied: %+v %+v", cfg.Model, cfg.Train)
	}
	for _, tc := range []struct {
		r    TrainRequest
		want string
	}{
		{TrainRequest{Config: "huge"}, "choose tiny or default"},
		{TrainRequest{Heads: 5}, "heads"}, // does not divide d_model (32 in tiny and in the default)
	} {
		if _, err := tc.r.RunConfig(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.r, err, tc.want)
		}
	}
}

// Stopped after its first epoch, a run still hands over its best checkpoint,
// zipped, with the probes' history; the page can question it.
func TestTrainStopsWithAModel(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an epoch of the tiny config")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var events []Event
	tr := &trainer{dir: filepath.Join(t.TempDir(), "run"), emit: func(e Event) {
		events = append(events, e)
		if e.Type == "epoch" {
			cancel()
		}
	}}
	tr.run(ctx, TrainRequest{Config: "tiny"})
	types := map[string]int{}
	for _, e := range events {
		types[e.Type]++
	}
	last := events[len(events)-1]
	if types["config"] != 1 || types["step"] == 0 || types["epoch"] != 1 || last.Type != "done" || !last.Stopped {
		t.Fatalf("events %v, last %+v", types, last)
	}
	if last.History == nil || len(last.History.Points) == 0 {
		t.Errorf("done carries no history")
	}
	a, err := loadZip(last.Zip, nil, "trained")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.answer(Request{Sentence: data.MissionHungry}); err != nil {
		t.Error(err)
	}
}
