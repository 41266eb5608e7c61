// Shapes: the sentence templates, and how one (frame, nouns, predicate)
// combination is written as tokens in a given template.

package data

import "strings"

// Shape names. Train uses the first four; each held-out split adds one shape
// built only from words and orders training has seen, in a new combination.
const (
	ShapeActive         = "active"          // The dog ate the food because it was hungry.
	ShapePassive        = "passive"         // The food was eaten by the dog because it was hungry.
	ShapeFronted        = "fronted"         // Because it was hungry, the dog ate the food.
	ShapeFrontedPassive = "fronted-passive" // Since it was very hungry, the food was eaten by the dog.
	ShapePassiveAdverb  = "passive-adverb"  // validation only: The food was eaten by a dog as it was really hungry.
	ShapeFrontedAs      = "fronted-as"      // test only: As it was hungry, the dog ate the food.
)

// adverbUse says whether a shape puts "very"/"really" before the predicate.
type adverbUse int

const (
	adverbSometimes adverbUse = iota
	adverbNever
	adverbAlways
)

// Shape is a sentence template: where the reason clause goes, which voice
// the main clause uses, which connectives open the reason clause.
type Shape struct {
	Name        string
	Fronted     bool // reason clause first, then a comma
	Passive     bool // "<object> was eaten by <agent>"
	Connectives []string
	adverb      adverbUse
}

var allShapes = []Shape{
	{ShapeActive, false, false, []string{"because", "since", "as"}, adverbSometimes},
	{ShapePassive, false, true, []string{"because", "since", "as"}, adverbNever},
	{ShapeFronted, true, false, []string{"because", "since"}, adverbSometimes},
	{ShapeFrontedPassive, true, true, []string{"because", "since"}, adverbSometimes},
	{ShapePassiveAdverb, false, true, []string{"because", "since", "as"}, adverbAlways},
	{ShapeFrontedAs, true, false, []string{"as"}, adverbSometimes},
}

// Shapes returns all sentence templates in a fixed order.
func Shapes() []Shape {
	out := make([]Shape, len(allShapes))
	copy(out, allShapes)
	return out
}

// fits reports whether frame f can be written in shape s.
func (s Shape) fits(f *Frame) bool {
	if s.Passive && f.Passive == "" {
		return false
	}
	return s.adverb != adverbAlways || len(f.Adverbs) > 0
}

// tuple is one meaning: a frame, its two nouns and a predicate for one of them.
type tuple struct {
	frameIndex int
	frame      *Frame
	agent      string
	object     string
	predicate  string
	role       Role // the participant the predicate describes, hence the answer
}

func (t tuple) key() comboKey { return newComboKey(t.agent, t.object, t.predicate) }

// surface holds the choices that change the words but not the meaning.
type surface struct {
	agentArticle, objectArticle string
	connective                  string
	adverb                      string // "" for none
}

// sentence accumulates tokens and remembers where the nouns and "it" land.
type sentence struct {
	tokens                 []string
	agent, object, pronoun int
}

func (b *sentence) add(phrase string) { b.tokens = append(b.tokens, strings.Fields(phrase)...) }

func (b *sentence) noun(article, noun string) int {
	b.add(article)
	b.tokens = append(b.tokens, noun)
	return len(b.tokens) - 1
}

func (b *sentence) mainClause(t tuple, passive bool, sf surface) {
	if passive {
		b.object = b.noun(sf.objectArticle, t.object)
		b.add(t.frame.Passive)
		b.agent = b.noun(sf.agentArticle, t.agent)
		return
	}
	b.agent = b.noun(sf.agentArticle, t.agent)
	b.add(t.frame.Active)
	b.object = b.noun(sf.objectArticle, t.object)
}

func (b *sentence) reasonClause(t tuple, sf surface) {
	b.add(sf.connective)
	b.pronoun = len(b.tokens)
	b.add("it was")
	b.add(sf.adverb)
	b.add(t.predicate)
}

// realise writes tuple t in shape s with the given surface choices.
func realise(t tuple, s Shape, sf surface) Example {
	var b sentence
	if s.Fronted {
		b.reasonClause(t, sf)
		b.add(",")
		b.mainClause(t, s.Passive, sf)
	} else {
		b.mainClause(t, s.Passive, sf)
		b.reasonClause(t, sf)
	}
	b.add(".")
	return b.example(t, s)
}

func (b *sentence) example(t tuple, s Shape) Example {
	antecedent := b.agent
	if t.role == Object {
		antecedent = b.object
	}
	cands := [2]int{min(b.agent, b.object), max(b.agent, b.object)}
	return Example{
		Text: renderText(b.tokens), Tokens: b.tokens,
		Pronoun: b.pronoun, Antecedent: antecedent, Candidates: cands,
		Frame: t.frame.Name, Shape: s.Name, Predicate: t.predicate, Role: t.role,
		AntecedentFirst: antecedent == cands[0],
	}
}

// indefinite is "a" or "an" by the noun's first letter (no noun in the
// lexicon starts with a silent consonant or a "yoo" vowel).
func indefinite(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an"
	}
	return "a"
}
