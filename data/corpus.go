// Corpus: generates the train, validation and test splits and the challenge
// sets from the lexicon, deterministically for a seed.

package data

import (
	"fmt"
	"math/rand"
	"slices"
)

// The two sentences the project is about. Both are generated into the test
// split, so answering them is a claim about held-out data.
const (
	MissionHungry = "A dog ate the food because it was hungry."
	MissionTasty  = "A dog ate the food because it was tasty."
)

// Config sets the split sizes (in sentences), the share of (noun pair,
// predicate) combinations reserved for each held-out split, the uncertain
// share of train and the size of the held-out parts.
type Config struct {
	TrainSize, ValidationSize, TestSize int
	ValidationShare, TestShare          float64
	// UncertainShare of train has its deciding words (predicate, "not")
	// replaced by <unk> and Uncertain set.
	UncertainShare float64
	// UnknownNounShare of train has one candidate noun replaced by <unk>;
	// the answer is unchanged.
	UnknownNounShare float64
	// HeldOutNounRoles is how many (noun, role) pairs no split uses; only the
	// held_out_noun_role challenge does.
	HeldOutNounRoles int
	// HeldOutCellShare of the (verb, predicate, polarity) combinations no
	// split uses; only the held_out_cell challenge does.
	HeldOutCellShare float64
	// ChallengeSize is the number of sentences per challenge set; even,
	// since they come in twins.
	ChallengeSize int
}

// DefaultConfig is the configuration Generate uses.
func DefaultConfig() Config {
	return Config{
		TrainSize: 24000, ValidationSize: 1000, TestSize: 1500, ValidationShare: 0.15, TestShare: 0.20,
		UncertainShare: 0.08, UnknownNounShare: 0.05, HeldOutNounRoles: 8, HeldOutCellShare: 0.08, ChallengeSize: 800,
	}
}

func (c Config) check() error {
	if c.TrainSize <= 0 || c.ValidationSize <= 0 || c.TestSize < 2 {
		return fmt.Errorf("config: sizes must be positive (test >= 2 for the mission sentences), got train %d, validation %d, test %d",
			c.TrainSize, c.ValidationSize, c.TestSize)
	}
	if c.ValidationShare <= 0 || c.TestShare <= 0 || c.ValidationShare+c.TestShare >= 1 {
		return fmt.Errorf("config: held-out shares must be > 0 and leave some for train, got validation %v, test %v",
			c.ValidationShare, c.TestShare)
	}
	if c.UncertainShare < 0 || c.UnknownNounShare < 0 || c.UncertainShare+c.UnknownNounShare > 0.5 {
		return fmt.Errorf("config: uncertain and unknown-noun shares must be >= 0 and leave most of train plain, got %v and %v",
			c.UncertainShare, c.UnknownNounShare)
	}
	if c.HeldOutCellShare < 0 || c.HeldOutCellShare > 0.25 {
		return fmt.Errorf("config: the held-out cell share must be in [0, 0.25], got %v", c.HeldOutCellShare)
	}
	if c.HeldOutNounRoles < 0 || c.ChallengeSize < 0 || c.ChallengeSize%2 != 0 {
		return fmt.Errorf("config: held-out noun roles must be >= 0 and the challenge size even and >= 0, got %d and %d",
			c.HeldOutNounRoles, c.ChallengeSize)
	}
	return nil
}

// Corpus is the generated data set.
type Corpus struct {
	Seed                    int64
	Config                  Config
	Frames                  []string // frame names, sorted
	Train, Validation, Test []Example
	// Challenges are reported apart from test, in a fixed order:
	// held_out_noun_role, distractor, negation, held_out_shape,
	// unknown_deciding_word.
	Challenges []ChallengeSet
	// HeldOutNounRoles are the (noun, role) pairs no split contains.
	HeldOutNounRoles []NounRole
	// HeldOutCells are the (verb, predicate, polarity) combinations no split
	// contains, as "could not lift / not heavy", sorted.
	HeldOutCells []string
}

// Generate builds the corpus from the embedded lexicon with DefaultConfig.
func Generate(seed int64) (*Corpus, error) { return GenerateSized(seed, 0) }

// GenerateSized is Generate with trainSize training sentences (0: the
// default), as a run's data.seed and data.train_size ask.
func GenerateSized(seed int64, trainSize int) (*Corpus, error) {
	lex, err := DefaultLexicon()
	if err != nil {
		return nil, err
	}
	c := DefaultConfig()
	if trainSize > 0 {
		c.TrainSize = trainSize
	}
	return GenerateFrom(lex, c, seed)
}

// missionRoles are the mission's (noun, role) pairs, never held out.
var missionRoles = []NounRole{{"dog", Agent}, {"food", Object}}

// GenerateFrom builds a corpus from any lexicon that contains the mission
// sentences' eat frame. The same lexicon, config and seed give the same corpus.
func GenerateFrom(lex *Lexicon, cfg Config, seed int64) (*Corpus, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	mission, err := missionExamples(lex)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewSource(seed))
	c := &Corpus{Seed: seed, Config: cfg, Frames: lex.frameNames()}
	c.HeldOutNounRoles = chooseHeldOutNounRoles(lex, cfg.HeldOutNounRoles, missionRoles, rng)
	forced := map[comboKey]splitID{}
	for _, m := range mission {
		forced[newComboKey(m.Tokens[m.Candidates[0]], m.Tokens[m.Candidates[1]], m.Predicate, false)] = testSplit
	}
	g := newGenerator(lex, cfg, seed, rng, newHeldOutSet(c.HeldOutNounRoles), forced)
	if err := g.fillAll(c, mission); err != nil {
		return nil, err
	}
	c.HeldOutCells = g.heldOutCellNames()
	c.Challenges = g.challenges(textSet(allOrdinary(c)), cfg.ChallengeSize)
	return c, c.checkCoverage()
}

// fillAll draws train first: validation and test may then use only its words.
func (g *generator) fillAll(c *Corpus, mission []Example) error {
	var err error
	if c.Train, err = g.fillTrain(c.Config); err != nil {
		return err
	}
	g.vocab = BuildVocab(c.Train)
	if c.Validation, err = g.fill(validationSplit, c.Config.ValidationSize, nil); err != nil {
		return err
	}
	c.Test, err = g.fill(testSplit, c.Config.TestSize, mission)
	return err
}

// missionExamples writes the two mission sentences with the same code that
// writes every other sentence, and checks the result is word for word right
// and the referent derived from the meaning is the one the text says.
func missionExamples(lex *Lexicon) ([]Example, error) {
	eat, ok := lex.Frame("eat")
	if !ok {
		return nil, fmt.Errorf("lexicon has no frame %q, needed for %q", "eat", MissionHungry)
	}
	fi := slices.IndexFunc(lex.Frames, func(f Frame) bool { return f.Name == "eat" })
	sf := surface{agentArticle: "a", objectArticle: "the"}
	var out []Example
	for _, m := range []struct {
		text, predicate string
		role            Role
	}{{MissionHungry, "hungry", Agent}, {MissionTasty, "tasty", Object}} {
		meaning := Meaning{Outcome: Succeeded, Predicate: m.predicate}
		role, derived := eat.Referent(meaning)
		t := tuple{frameIndex: fi, frame: eat, agent: "dog", object: "food", Meaning: meaning, role: role}
		e := realise(t, shapeByName(ShapeActive), sf)
		if e.Text != m.text || !derived || role != m.role ||
			!slices.Contains(eat.Agents, "dog") || !slices.Contains(eat.Objects, "food") {
			return nil, fmt.Errorf("lexicon %s cannot produce %q meaning %s (got %q)", eat.File, m.text, m.role, e.Text)
		}
		out = append(out, e)
	}
	return out, nil
}

// checkCoverage makes sure held-out splits use no word training lacks, so
// a model never sees <unk> in validation or test.
func (c *Corpus) checkCoverage() error {
	v := c.Vocab()
	for _, s := range []splitID{validationSplit, testSplit} {
		split, _ := c.Split(s.String())
		for _, e := range split {
			if _, unknown := v.Encode(e.Tokens); len(unknown) > 0 {
				return fmt.Errorf("%s sentence %q uses %q, which never occurs in train", s, e.Text, unknown[0])
			}
		}
	}
	return nil
}

// Vocab is the vocabulary of the training split.
func (c *Corpus) Vocab() *Vocab { return BuildVocab(c.Train) }

// Split returns the examples of "train", "validation" or "test".
func (c *Corpus) Split(name string) ([]Example, error) {
	switch name {
	case "train":
		return c.Train, nil
	case "validation":
		return c.Validation, nil
	case "test":
		return c.Test, nil
	}
	return nil, fmt.Errorf("unknown split %q: want train, validation or test", name)
}

// Challenge returns the challenge set with the given name.
func (c *Corpus) Challenge(name string) (ChallengeSet, bool) {
	i := slices.IndexFunc(c.Challenges, func(s ChallengeSet) bool { return s.Name == name })
	if i < 0 {
		return ChallengeSet{}, false
	}
	return c.Challenges[i], true
}

func allOrdinary(c *Corpus) []Example {
	return slices.Concat(c.Train, c.Validation, c.Test)
}
