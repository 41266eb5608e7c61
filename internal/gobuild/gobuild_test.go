package gobuild

import (
	"slices"
	"testing"
)

func TestCommandPassesTheTestBinarysTags(t *testing.T) {
	args := Command("bin", "./x").Args
	tags := Tags()
	if tags == "" {
		if slices.Contains(args, "-tags") {
			t.Errorf("no tags, but %v", args)
		}
		return
	}
	i := slices.Index(args, "-tags")
	if i < 0 || args[i+1] != tags {
		t.Errorf("built with -tags %s, but the command is %v", tags, args)
	}
}
