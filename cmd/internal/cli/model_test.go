package cli

import (
	"strings"
	"testing"
)

// LoadMember gives one member of the embedded ensemble alone, or all of
// them for 0, and names the flag and the range for a member it has not.
func TestLoadMember(t *testing.T) {
	all, err := LoadMember("", 0)
	if err != nil {
		t.Fatal(err)
	}
	if all.Members() < 2 {
		t.Fatalf("the embedded model has %d member(s); this test needs an ensemble", all.Members())
	}
	for k := 1; k <= all.Members(); k++ {
		one, err := LoadMember("", k)
		if err != nil {
			t.Fatalf("member %d: %v", k, err)
		}
		if one.Members() != 1 || one.Checkpoint().Meta.SHA256 != all.Each()[k-1].Checkpoint().Meta.SHA256 {
			t.Errorf("member %d: %d members, weights %.12s; want 1, and the weights of Each()[%d]", k, one.Members(), one.Checkpoint().Meta.SHA256, k-1)
		}
	}
	for _, k := range []int{-1, all.Members() + 1} {
		if _, err := LoadMember("", k); err == nil || !strings.Contains(err.Error(), "-member") {
			t.Errorf("member %d: err %v, want one naming -member", k, err)
		}
	}
}
