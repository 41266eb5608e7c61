// Shapes: the sentence templates, and how one meaning (frame, nouns,
// predicate, negation) is written as tokens in a given template with given
// surface choices (articles, tense, adverbs, a place phrase).

package data

import "strings"

// MaxTokens is the longest sentence the generator writes, punctuation
// included. Generation fails rather than write a longer one.
const MaxTokens = 24

// Shape names. Train uses the first four; validation and test each add one
// shape built only from words and orders training has seen; the
// held_out_shape challenge uses the last four, which no split uses.
const (
	ShapeActive         = "active"          // The dog ate the food because it was hungry.
	ShapePassive        = "passive"         // The food was eaten by the dog because it was hungry.
	ShapeFronted        = "fronted"         // Because it was hungry, the dog ate the food.
	ShapeFrontedPassive = "fronted-passive" // Since it was very hungry, the food was eaten by the dog.
	ShapePassiveAdverb  = "passive-adverb"  // validation only: The food was eaten by a dog as it was really hungry.
	ShapeFrontedAs      = "fronted-as"      // test only: As it was hungry, the dog ate the food.
	ShapeSo             = "so"              // challenge only: It was hungry, so the dog ate the food.
	ShapeSoPassive      = "so-passive"      // challenge only: It was hungry, so the food was eaten by the dog.
	ShapeTwoSentences   = "two-sentences"   // challenge only: The dog ate the food. It was hungry.
	ShapeTwoPassive     = "two-passive"     // challenge only: The food was eaten by the dog. It was hungry.
)

// adverbUse says whether a shape puts a degree adverb before the predicate.
type adverbUse int

const (
	adverbSometimes adverbUse = iota
	adverbNever
	adverbAlways
)

// layout orders the main clause and the reason clause ("it was hungry").
type layout int

const (
	reasonLast   layout = iota // main clause, connective, reason
	reasonFirst                // connective, reason, optional comma, main clause
	soClause                   // reason, ", so", main clause
	twoSentences               // main clause ". " reason
)

// Shape is a sentence template: where the reason clause goes, which voice
// the main clause uses, which connectives open the reason clause.
type Shape struct {
	Name        string
	Fronted     bool // the reason clause (and "it") comes before both nouns
	Passive     bool // "<object> was eaten by <agent>"
	Connectives []string
	adverb      adverbUse
	layout      layout
}

var (
	reasons      = []string{"because", "since", "as"}
	frontReasons = []string{"because", "since"}
)

var allShapes = []Shape{
	{ShapeActive, false, false, reasons, adverbSometimes, reasonLast},
	{ShapePassive, false, true, reasons, adverbNever, reasonLast},
	{ShapeFronted, true, false, frontReasons, adverbSometimes, reasonFirst},
	{ShapeFrontedPassive, true, true, frontReasons, adverbSometimes, reasonFirst},
	{ShapePassiveAdverb, false, true, reasons, adverbAlways, reasonLast},
	{ShapeFrontedAs, true, false, []string{"as"}, adverbSometimes, reasonFirst},
	{ShapeSo, true, false, nil, adverbSometimes, soClause},
	{ShapeSoPassive, true, true, nil, adverbSometimes, soClause},
	{ShapeTwoSentences, false, false, nil, adverbSometimes, twoSentences},
	{ShapeTwoPassive, false, true, nil, adverbSometimes, twoSentences},
}

// Shapes returns all sentence templates in a fixed order.
func Shapes() []Shape {
	out := make([]Shape, len(allShapes))
	copy(out, allShapes)
	return out
}

func shapeByName(name string) Shape {
	for _, s := range allShapes {
		if s.Name == name {
			return s
		}
	}
	panic("data: no shape " + name)
}

// fits reports whether frame f can be written in shape s.
func (s Shape) fits(f *Frame) bool {
	if s.Passive && f.Passive == "" {
		return false
	}
	return s.adverb != adverbAlways || len(f.Adverbs) > 0
}

// tuple is one meaning: a frame, its two nouns, a predicate for one of them
// and whether the predicate is negated.
type tuple struct {
	frameIndex int
	frame      *Frame
	agent      string
	object     string
	predicate  string
	role       Role // the participant the (negated) predicate describes, hence the answer
	negated    bool
}

func (t tuple) key() comboKey { return newComboKey(t.agent, t.object, t.predicate, t.negated) }

// noun returns the noun in role r.
func (t tuple) noun(r Role) string {
	if r == Agent {
		return t.agent
	}
	return t.object
}

// attachmentOf is where a place phrase following role r's noun attaches.
func attachmentOf(r Role) Attachment {
	if r == Agent {
		return AttachAgent
	}
	return AttachObject
}

// placePhrase is a third noun in a prepositional phrase, or none.
type placePhrase struct {
	at    Attachment
	place Place
	set   bool
}

// surface holds the choices that change the words but not the meaning.
type surface struct {
	agentArticle, objectArticle string
	connective                  string
	adverb                      string // "" for none; may be several words
	present                     bool   // "eats ... it is" instead of "ate ... it was"
	contracted                  bool   // "wasn't" instead of "was not" (negated only)
	noComma                     bool   // no comma after a fronted reason clause
	pp                          placePhrase
}

// sentence accumulates tokens and remembers where the nouns, "it", the
// place noun and the deciding words land.
type sentence struct {
	tokens                 []string
	agent, object, pronoun int
	distractors, deciding  []int
}

func (b *sentence) add(phrase string) { b.tokens = append(b.tokens, strings.Fields(phrase)...) }

// mark adds phrase and records the positions of its words.
func (b *sentence) mark(phrase string, into *[]int) {
	for _, w := range strings.Fields(phrase) {
		*into = append(*into, len(b.tokens))
		b.tokens = append(b.tokens, w)
	}
}

func (b *sentence) noun(article, noun string) int {
	b.add(article)
	b.tokens = append(b.tokens, noun)
	return len(b.tokens) - 1
}

func (b *sentence) place(p Place) {
	b.add(p.Prep + " the")
	b.mark(p.Noun, &b.distractors)
}

// participant writes the noun of role r and, if attached to it, the place phrase.
func (b *sentence) participant(t tuple, r Role, sf surface) int {
	article := sf.agentArticle
	if r == Object {
		article = sf.objectArticle
	}
	pos := b.noun(article, t.noun(r))
	if sf.pp.set && sf.pp.at == attachmentOf(r) {
		b.place(sf.pp.place)
	}
	return pos
}

func (b *sentence) mainClause(t tuple, passive bool, sf surface) {
	verb := t.frame.verb(passive, sf.present)
	if passive {
		b.object = b.participant(t, Object, sf)
		b.add(verb)
		b.agent = b.participant(t, Agent, sf)
		return
	}
	b.agent = b.participant(t, Agent, sf)
	b.add(verb)
	b.object = b.participant(t, Object, sf)
}

// reasonClause writes "it was [not] [adverb] predicate".
func (b *sentence) reasonClause(t tuple, sf surface) {
	b.pronoun = len(b.tokens)
	b.add(Pronoun)
	copula := "was"
	if sf.present {
		copula = "is"
	}
	switch {
	case t.negated && sf.contracted:
		b.mark(copula+"n't", &b.deciding)
	case t.negated:
		b.add(copula)
		b.mark("not", &b.deciding)
	default:
		b.add(copula)
	}
	b.add(sf.adverb)
	b.mark(t.predicate, &b.deciding)
}

// realise writes tuple t in shape s with the given surface choices.
func realise(t tuple, s Shape, sf surface) Example {
	var b sentence
	switch s.layout {
	case reasonLast:
		if sf.pp.set && sf.pp.at == AttachScene {
			b.place(sf.pp.place)
			b.add(",")
		}
		b.mainClause(t, s.Passive, sf)
		b.add(sf.connective)
		b.reasonClause(t, sf)
	case reasonFirst:
		b.add(sf.connective)
		b.reasonClause(t, sf)
		if !sf.noComma {
			b.add(",")
		}
		b.mainClause(t, s.Passive, sf)
	case soClause:
		b.reasonClause(t, sf)
		b.add(", so")
		b.mainClause(t, s.Passive, sf)
	case twoSentences:
		b.mainClause(t, s.Passive, sf)
		b.add(".")
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
		Negated:         t.negated, Distractors: b.distractors, Deciding: b.deciding,
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
