package train

// Deep ensembles (Lakshminarayanan et al. 2017): a run with train.members K
// trains K models of one recipe that differ only in their seed (weight
// initialisation, batch order, noun dropout). Their disagreement is doubt the
// model itself reports: where the corpus settles the answer, every member
// finds it; where a member had to generalise (a verb and predicate never seen
// together), members that learned the composition at different moments can
// part ways. Ovadia et al. (2019) found ensembles the most reliable under
// dataset shift of the methods they compared.
//
// Member 1 is the run itself, in the run folder as a single model's run; it
// is the one every command shows when it needs one model. Member k >= 2 is a
// whole run folder of its own in <run>/members/<k>, with seed + k - 1: each
// one is resumable, and each is what `train -seed` would write, so an
// ensemble is K ordinary runs.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"itformer/checkpoint"
	"itformer/config"
)

// MemberDir is the run folder of member k (2..K) of the run in dir
// (checkpoint.MembersDir).
func MemberDir(dir string, k int) string {
	return filepath.Join(dir, checkpoint.MembersDir, strconv.Itoa(k))
}

// MemberConfig is member k's config: the run's, with seed + k - 1 and one
// member (a member trains no members of its own).
func MemberConfig(cfg config.Run, k int) config.Run {
	c := cfg
	c.Seed += int64(k - 1)
	c.Train.Members = 0
	return c
}

// ReadMembers reads the closing metrics of every member of the finished run
// in dir, member 1 first (one, for a run of one member): each member's own
// metrics.json, as the run's config.json counts them. A member without one,
// not trained yet, is an error that names it.
func ReadMembers(dir string) ([]*Metrics, error) {
	cfg, err := config.Load(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	K := cfg.Train.MemberCount()
	out := make([]*Metrics, 0, K)
	for k := 1; k <= K; k++ {
		folder := dir // member 1 is the run itself
		if k > 1 {
			folder = MemberDir(dir, k)
		}
		m, err := ReadMetrics(filepath.Join(folder, "metrics.json"))
		if err != nil {
			return nil, fmt.Errorf("member %d of %d (train.members): %w", k, K, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// removeMembers deletes the members of an earlier run in dir before a new
// run starts there. trainMembers keeps a finished member so that a resumed
// run goes on where it stopped; a new run into the same folder (-overwrite)
// must not keep one, or the ensemble would pair the new member 1 with
// members of another config or corpus.
func removeMembers(dir string) error {
	if err := os.RemoveAll(filepath.Join(dir, checkpoint.MembersDir)); err != nil {
		return fmt.Errorf("removing the earlier run's members from %s: %w", dir, err)
	}
	return nil
}

// trainMembers trains members 2..K of the run in opt.OutDir, after member 1:
// a finished member is kept, a stopped one is resumed, a missing one started.
func trainMembers(cfg config.Run, opt Options) error {
	for k := 2; k <= cfg.Train.MemberCount(); k++ {
		o := opt
		o.OutDir = MemberDir(opt.OutDir, k)
		o.NoHistory = true // the page plays back member 1's history only
		if opt.OnMember != nil {
			opt.OnMember(k, cfg.Train.MemberCount())
		}
		if err := trainMember(MemberConfig(cfg, k), o); err != nil {
			return fmt.Errorf("member %d of %d: %w", k, cfg.Train.MemberCount(), err)
		}
	}
	return nil
}

// trainMember brings one member's run folder to its end. One that finished
// but lost its metrics.json (ErrRunFinished, here) is trained again, like
// one with nothing to resume: the same seed gives the same member.
func trainMember(cfg config.Run, opt Options) error {
	if _, err := os.Stat(filepath.Join(opt.OutDir, "metrics.json")); err == nil {
		return nil
	}
	_, err := Resume(opt.OutDir, opt)
	if err == nil || !errors.Is(err, ErrNoResumeCheckpoint) && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, ErrRunFinished) {
		return err
	}
	opt.Overwrite = true // a member's folder is the run's own; a stopped start holds no resume/ yet
	_, err = runFrom(cfg, opt, nil)
	return err
}
