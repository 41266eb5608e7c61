package configs

import (
	"reflect"
	"strings"
	"testing"

	"itformer/config"
)

// The built-in configs are the files beside this one, and all of them parse.
func TestBuiltInConfigsAreTheFiles(t *testing.T) {
	for _, name := range []string{Default, "tiny.json"} {
		got, err := Load(name, "train.epochs=3")
		if err != nil {
			t.Fatal(err)
		}
		want, err := config.Load(name, "train.epochs=3")
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: built in %+v, on disk %+v (%v)", name, got, want, err)
		}
	}
	if _, err := Load("nosuch.json"); err == nil || !strings.Contains(err.Error(), "configs/nosuch.json") {
		t.Errorf("Load(nosuch.json) = %v", err)
	}
	if _, err := Load(Default, "model.nope=1"); err == nil || !strings.Contains(err.Error(), "with the override model.nope=1: unknown key model.nope") {
		t.Errorf("a bad override: %v", err)
	}
}
