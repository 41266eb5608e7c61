package checkpoint

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A zipped checkpoint loads, through Load and LoadZip, to the same weights
// and meta as its folder.
func TestZipRoundTrip(t *testing.T) {
	f := newFixture(t, "float64", 16, 1)
	dir := f.save(t)
	var buf bytes.Buffer
	if err := WriteZip(&buf, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	want, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.zip")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	fromBytes, err := LoadZip(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*Checkpoint{fromFile, fromBytes} {
		if got.Meta.SHA256 != want.Meta.SHA256 || got.Meta.Epoch != want.Meta.Epoch || got.Vocab.Size() != want.Vocab.Size() {
			t.Errorf("zipped meta %+v, folder's %+v", got.Meta, want.Meta)
		}
		for _, s := range want.Params.Specs() {
			if a, b := got.Params.Values(s.Name), want.Params.Values(s.Name); !slices.Equal(a, b) {
				t.Errorf("%s differs after the zip round trip", s.Name)
			}
		}
	}
}

// Damaged archives are refused with a message that says what they are not.
func TestLoadZipRefusesDamage(t *testing.T) {
	f := newFixture(t, "float64", 16, 1)
	var buf bytes.Buffer
	if err := WriteZip(&buf, os.DirFS(f.save(t))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"not a zip", []byte("hello"), "not a zipped checkpoint"},
		{"cut short", buf.Bytes()[:buf.Len()/2], "not a zipped checkpoint"},
	} {
		if _, err := LoadZip(tc.raw); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if err := WriteZip(&bytes.Buffer{}, os.DirFS(t.TempDir())); err == nil {
		t.Error("WriteZip of an empty folder succeeded")
	}
}
