// Generator: samples sentences for one split from the combinations and shapes
// that split may use, balanced so that "it" is the agent half of the time.

package data

import (
	"fmt"
	"math/rand"
)

// generator holds, per split, the tuples it may draw from.
type generator struct {
	lex *Lexicon
	rng *rand.Rand
	// pools[split][role][frame] are the tuples of that split whose predicate
	// describes role; drawing the role first keeps agent/object at 50/50.
	pools [3][2][][]tuple
	// shapes[split][frame] are the shapes the split may write that frame in.
	shapes [3][][]Shape
}

func newGenerator(lex *Lexicon, rng *rand.Rand, tuples []tuple, assigned map[comboKey]splitID) *generator {
	g := &generator{lex: lex, rng: rng}
	for s := range g.pools {
		for r := range g.pools[s] {
			g.pools[s][r] = make([][]tuple, len(lex.Frames))
		}
		for i := range lex.Frames {
			g.shapes[s] = append(g.shapes[s], shapesFor(splitID(s), &lex.Frames[i]))
		}
	}
	for _, t := range tuples {
		s := assigned[t.key()]
		g.pools[s][t.role][t.frameIndex] = append(g.pools[s][t.role][t.frameIndex], t)
	}
	return g
}

// fill draws distinct sentences for split s until it has n, starting with first.
func (g *generator) fill(s splitID, n int, first []Example) ([]Example, error) {
	out := append([]Example(nil), first...)
	seen := map[string]bool{}
	for _, e := range out {
		seen[e.Text] = true
	}
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		if e, ok := g.sample(s); ok && !seen[e.Text] {
			seen[e.Text] = true
			out = append(out, e)
		}
	}
	if len(out) < n {
		return nil, fmt.Errorf("%s split: only %d distinct sentences of %d wanted; the lexicon has too few combinations", s, len(out), n)
	}
	g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// sample draws role, then frame, then tuple, shape and surface.
func (g *generator) sample(s splitID) (Example, bool) {
	role := Role(g.rng.Intn(2))
	frames := g.usableFrames(s, role)
	if len(frames) == 0 {
		return Example{}, false
	}
	f := frames[g.rng.Intn(len(frames))]
	pool := g.pools[s][role][f]
	t := pool[g.rng.Intn(len(pool))]
	shapes := g.shapes[s][f]
	sh := shapes[g.rng.Intn(len(shapes))]
	return realise(t, sh, g.surface(t, sh)), true
}

// usableFrames lists frames with tuples for role in split s and a shape to write them.
func (g *generator) usableFrames(s splitID, role Role) []int {
	var out []int
	for f, pool := range g.pools[s][role] {
		if len(pool) > 0 && len(g.shapes[s][f]) > 0 {
			out = append(out, f)
		}
	}
	return out
}

func (g *generator) surface(t tuple, sh Shape) surface {
	return surface{
		agentArticle:  g.article(t.agent),
		objectArticle: g.article(t.object),
		connective:    g.pick(sh.Connectives),
		adverb:        g.adverb(t.frame, sh),
	}
}

// article is "the" or "a"/"an" with equal odds; mass nouns always get "the".
func (g *generator) article(noun string) string {
	if g.rng.Intn(2) == 0 || g.lex.IsMass(noun) {
		return "the"
	}
	return indefinite(noun)
}

func (g *generator) adverb(f *Frame, sh Shape) string {
	if sh.adverb == adverbNever || len(f.Adverbs) == 0 {
		return ""
	}
	if sh.adverb == adverbSometimes && g.rng.Intn(2) == 0 {
		return ""
	}
	return g.pick(f.Adverbs)
}

func (g *generator) pick(words []string) string { return words[g.rng.Intn(len(words))] }

// tuples lists every meaning the lexicon can express, in file order.
func (l *Lexicon) tuples() []tuple {
	var out []tuple
	for fi := range l.Frames {
		f := &l.Frames[fi]
		for _, a := range f.Agents {
			for _, o := range f.Objects {
				out = append(out, frameTuples(fi, f, a, o)...)
			}
		}
	}
	return out
}

func frameTuples(fi int, f *Frame, agent, object string) []tuple {
	if agent == object {
		return nil
	}
	var out []tuple
	for _, role := range []Role{Agent, Object} {
		for _, p := range f.Predicates(role) {
			out = append(out, tuple{fi, f, agent, object, p, role})
		}
	}
	return out
}

func (l *Lexicon) frameNames() []string {
	var out []string
	for _, f := range l.Frames {
		out = append(out, f.Name)
	}
	return out
}
