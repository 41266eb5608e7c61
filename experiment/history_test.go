package experiment

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/history"
)

// stripHistory is a history of one probe ("a dog it", answer dog) at 4
// points, from uniform attention to the supervised head on "dog".
func stripHistory() *history.History {
	h := history.New(2, 2, [2]int{1, 0}, 8, []history.Probe{{Name: "mission", Text: "a dog it",
		Tokens: []string{"a", "dog", "it"}, Pronoun: 2, Antecedent: 1, Candidates: [2]int{0, 1}}})
	for _, step := range []int{0, 1, 8, 16} {
		w := float64(step) / 16
		row := []float64{(1 - w) / 3, (1 + 2*w) / 3, (1 - w) / 3}
		uniform := []float64{1. / 3, 1. / 3, 1. / 3}
		h.Add(history.Point{Step: step, Epoch: float64(step) / 8, Readings: []history.Reading{{
			Attention:              [][][]float64{{uniform, uniform}, {row, uniform}},
			CandidateProbabilities: [2]float64{1 - w, w}}}})
	}
	return h
}

func TestPlotHistoryStrip(t *testing.T) {
	h := stripHistory()
	dir := t.TempDir()
	widths := map[int]int{}
	for _, n := range []int{1, 4} {
		path := filepath.Join(dir, "strip.png")
		points := []int{0, 1, 2, 3}[:n]
		if err := PlotHistoryStrip(path, h, "mission", points); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%d panels: %v", n, err)
		}
		widths[n] = img.Bounds().Dx()
	}
	if widths[4] <= widths[1] {
		t.Errorf("4 panels are %d px wide, 1 panel %d: each point needs its panel", widths[4], widths[1])
	}
	for _, tc := range []struct {
		probe  string
		points []int
		want   string
	}{
		{"nope", []int{0}, `no probe "nope"`},
		{"mission", []int{4}, "point 4 is not in the history (it has 4)"},
		{"mission", nil, "no points"},
	} {
		if err := PlotHistoryStrip(filepath.Join(dir, "x.png"), h, tc.probe, tc.points); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: %v, want %q", tc.probe, tc.points, err, tc.want)
		}
	}
}

func TestStripLabel(t *testing.T) {
	for _, tc := range []struct {
		step  int
		epoch float64
		want  string
	}{
		{0, 0, "before training"}, {23, 23.0 / 187, "epoch 1/8"}, {46, 46.0 / 187, "epoch 1/4"},
		{93, 93.0 / 187, "epoch 1/2"}, {187, 1, "epoch 1"}, {3740, 20, "epoch 20"}, {60, 60.0 / 187, "epoch 0.32"},
	} {
		if got := StripLabel(history.Point{Step: tc.step, Epoch: tc.epoch}); got != tc.want {
			t.Errorf("step %d, epoch %g: %q, want %q", tc.step, tc.epoch, got, tc.want)
		}
	}
}

// The strip is a PNG whatever the name: strip.svg or strip.txt had been
// written as one. Its path is refused as the Plot functions' paths are,
// by the check the commands run before their work.
func TestPictureChecks(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		check      func(string) error
		path, want string // want "" for no error
	}{
		{CheckPicture, "a.png", ""},
		{CheckPicture, "a.PDF", ""},
		{CheckPicture, "a.svg", ""},
		{CheckPicture, "a.txt", `the extension ".txt" names no picture format (use .png, .svg or .pdf)`},
		{CheckPicture, dir, "it is a folder, not a file"},
		{CheckStrip, "a.png", ""},
		{CheckStrip, "a.svg", `the extension ".svg" names no picture format (use .png)`},
		{CheckStrip, dir, "it is a folder, not a file"},
	} {
		err := tc.check(tc.path)
		if (err == nil) != (tc.want == "") || err != nil && err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.path, err, tc.want)
		}
	}
	path := filepath.Join(dir, "strip.svg")
	err := PlotHistoryStrip(path, stripHistory(), "mission", []int{0})
	if err == nil || !strings.Contains(err.Error(), path+`: the extension ".svg"`) {
		t.Errorf("PlotHistoryStrip(%s) = %v, want the extension refused", path, err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s was written", path)
	}
}
