package checkpoint

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
)

// MembersDir is the folder of a run folder that holds members 2..K of a run
// of several members (train.members, a deep ensemble): members/<k> is member
// k's own run folder; member 1 is the run folder itself.
const MembersDir = "members"

// LoadMembers loads members 2..K of the run whose member 1 is ck, from the
// run folder dir of fsys ("." for its root). A run of one member has none.
func LoadMembers(fsys fs.FS, dir string, ck *Checkpoint) ([]*Checkpoint, error) {
	K := ck.Meta.Config.Train.MemberCount()
	var members []*Checkpoint
	for k := 2; k <= K; k++ {
		name := path.Join(dir, MembersDir, strconv.Itoa(k), FileName)
		m, err := LoadFS(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("member %d of the run's %d (train.members): %w", k, K, err)
		}
		members = append(members, m)
	}
	return members, nil
}
