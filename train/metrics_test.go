package train

import (
	"os"
	"path/filepath"
	"testing"
)

// A metrics.json of the wrong shape is named with the file and the field as
// it is written, never Go's types ("cannot unmarshal array into Go value of
// type train.Metrics").
func TestReadMetricsNamesTheField(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, raw, want string }{
		{"array", `[]`, "want a JSON object ({...}), got a JSON array"},
		{"field", `{"best_epoch": "3"}`, "best_epoch: want an int, got a JSON string"},
		{"nested", `{"test": {"accuracy": "high"}}`, "test.accuracy: want a float64, got a JSON string"},
		{"empty", ``, "the file is empty; want a JSON object ({...})"},
	} {
		path := filepath.Join(dir, tc.name+".json")
		if err := os.WriteFile(path, []byte(tc.raw), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadMetrics(path); err == nil || err.Error() != path+": "+tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, path+": "+tc.want)
		}
	}
}
