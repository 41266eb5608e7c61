// Shapes: the sentence templates, and how one meaning (frame, nouns,
// outcome, connective, predicate, negation) is written as tokens in a given
// template with given surface choices (articles, tense, adverbs,
// contractions, adjectives before the nouns, a place phrase).

package data

import (
	"slices"
	"strings"
)

// MaxTokens is the longest sentence the generator writes, punctuation
// included. Generation fails rather than write a longer one.
const MaxTokens = 32

// Shape names. Every split uses the first six, and adds one: train lead-it,
// validation and test one shape built only from words and orders training
// has seen; the held_out_shape challenge uses the last four, which no split
// uses.
const (
	ShapeActive         = "active"          // The dog ate the food because it was hungry.
	ShapePassive        = "passive"         // The food was eaten by the dog because it was hungry.
	ShapeFronted        = "fronted"         // Because it was hungry, the dog ate the food.
	ShapeFrontedPassive = "fronted-passive" // Although it was not hungry, the food was eaten by the dog.
	ShapeSoIt           = "so-it"           // The food was tasty, so the dog ate it. / Because the dog was hungry, it ate the food.
	ShapeTwoIt          = "two-it"          // The dog could not lift the box because it was weak and it was heavy.
	ShapeLeadIt         = "lead-it"         // train only: The dog found the food and ate it.
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
	soIt                       // named noun's reason, ", so", main clause with "it" in that noun's place; or connective first
	twoReasons                 // main clause, connective, reason "and" reason: two "it"s, one per noun
	leadIt                     // agent, lead verb, object, "and", main verb, "it": no reason clause
)

// Shape is a sentence template: where the reason clause goes, which voice
// the main clause uses.
type Shape struct {
	Name    string
	Fronted bool // the reason clause (and "it") comes before both nouns
	Passive bool // "<object> was eaten by <agent>"
	adverb  adverbUse
	layout  layout
}

// connectives are, per layout, the words that open a reason clause that
// explains the outcome ([0]) and one that concedes it ([1]: the property
// went against what happened). "as" only after the main clause, or in the
// test shape; "but" only where it can join clauses.
var connectives = map[layout][2][]string{
	reasonLast:   {{"because", "since", "as"}, {"although", "though", "even though", ", but"}},
	reasonFirst:  {{"because", "since"}, {"although", "even though"}},
	soClause:     {{", so"}, {", but"}},
	twoSentences: {{"."}, {". but"}},
	soIt:         {{", so", ", and", "because", "since"}, {", but", "although", "even though"}},
	twoReasons:   {{"because", "since"}, {"although", "even though"}},
}

// frontedAs is the test shape's only connective.
var frontedAs = [2][]string{{"as"}, {"although"}}

// degreeAdverbs may stand before any predicate; "too" only before one that
// works against the action (Frame.favoursFailure) after "because".
var degreeAdverbs = []string{"very", "really", "so", "really very", "too"}

// degreeAdverbWords are the words of degreeAdverbs ("really very" is two).
func degreeAdverbWords() []string { return strings.Fields(strings.Join(degreeAdverbs, " ")) }

var allShapes = []Shape{
	{ShapeActive, false, false, adverbSometimes, reasonLast},
	{ShapePassive, false, true, adverbNever, reasonLast},
	{ShapeFronted, true, false, adverbSometimes, reasonFirst},
	{ShapeFrontedPassive, true, true, adverbSometimes, reasonFirst},
	{ShapeSoIt, false, false, adverbSometimes, soIt},
	{ShapeTwoIt, false, false, adverbNever, twoReasons},
	{ShapeLeadIt, false, false, adverbNever, leadIt},
	{ShapePassiveAdverb, false, true, adverbAlways, reasonLast},
	{ShapeFrontedAs, true, false, adverbSometimes, reasonFirst},
	{ShapeSo, true, false, adverbSometimes, soClause},
	{ShapeSoPassive, true, true, adverbSometimes, soClause},
	{ShapeTwoSentences, false, false, adverbSometimes, twoSentences},
	{ShapeTwoPassive, false, true, adverbSometimes, twoSentences},
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
	return (!s.Passive || f.hasVoice(true)) && (s.layout != leadIt || len(f.Lead[0]) > 0)
}

// connective is the shape's i-th connective (modulo their number) for an
// explaining or a conceding clause, or "" for a shape with no reason clause.
func (s Shape) connective(concessive bool, i int) string {
	lists := connectives[s.layout]
	if s.Name == ShapeFrontedAs {
		lists = frontedAs
	}
	list := lists[boolIndex(concessive)]
	if len(list) == 0 {
		return ""
	}
	return list[i%len(list)]
}

// tuple is one meaning with its nouns: a frame, its two nouns, and what the
// reason clause says; role is derived from them (Frame.Referent).
type tuple struct {
	frameIndex    int
	frame         *Frame
	agent, object string
	Meaning
	role Role // the participant "it" refers to
}

func (t tuple) key() comboKey { return newComboKey(t.agent, t.object, t.Predicate, t.Negated) }

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
// Choices that depend on the meaning (which connective, which verb
// alternative) are indexes taken modulo the list, so a twin with another
// meaning keeps every choice it can.
type surface struct {
	agentArticle, objectArticle string
	attributes                  [2]string // before the agent's and the object's noun, "" for none
	connective                  int
	verb                        int
	adverb                      string // "" for none; may be several words
	present                     bool   // "eats ... it is" instead of "ate ... it was"
	contracted                  bool   // "wasn't", "couldn't" instead of "was not", "could not"
	noComma                     bool   // no comma after a fronted reason clause
	pp                          placePhrase
	// second is what a two-reason sentence says of the other noun, and
	// askSecond whether its "it" is the one the example asks about.
	second    Meaning
	askSecond bool
	// actor is the third noun of a reason clause that is an act ("because
	// the chicken protected it"), one of the frame's agents.
	actor string
	// mainFirst puts the main clause right after a conceding connective
	// that opens the sentence, and the deed of "it" after it: "Although
	// the fox chased the hare, it escaped." Only a conceding deed is
	// written so: after "because" the deed would read as the main clause's
	// effect ("Because the dog chased the cat, it hid"), which no frame says.
	mainFirst bool
	// refuge is, after a deed of "it", where it went ("it hid in the
	// barn"): a scene place of the frame, or none (Noun "").
	refuge Place
	// choice is, in a lead-it sentence, a noun the verb cannot take set
	// beside the object, and how: "found the banana near the tree and
	// climbed it" (the object last) or "found the tree near the banana".
	choice choicePhrase
}

// choicePhrase is the noun a lead-it sentence sets beside its object (none
// if decoy is ""), which of the two comes first, and the preposition that
// joins them.
type choicePhrase struct {
	decoy, article, prep string
	objectLast           bool
}

// sentence accumulates tokens and remembers where the nouns, "it", the
// place noun and the deciding words land.
type sentence struct {
	tokens                 []string
	agent, object, pronoun int
	decoy                  int // a lead-it choice's other noun, or -1 (sentence.candidates)
	distractors, deciding  []int
	others                 []int // Example.OtherNouns
	connective             []int // Example.Connective
}

// contractions are the negations a contracted surface writes as one word.
var contractions = [][2]string{
	{"could not", "couldn't"}, {"did not", "didn't"}, {"does not", "doesn't"},
	{"cannot", "can't"}, {"was not", "wasn't"}, {"is not", "isn't"},
}

// contract writes phrase's negations as contractions, matching whole
// words: "is not seen" becomes "isn't seen", "is noticed" stays (a match
// inside words made "isn'ticed").
func contract(phrase string) string {
	words := strings.Fields(phrase)
	for _, c := range contractions {
		long := strings.Fields(c[0])
		for i := 0; i+len(long) <= len(words); i++ {
			if slices.Equal(words[i:i+len(long)], long) {
				words = slices.Replace(words, i, i+len(long), c[1])
			}
		}
	}
	return strings.Join(words, " ")
}

func (b *sentence) add(phrase string) { b.tokens = append(b.tokens, strings.Fields(phrase)...) }

// mark adds phrase and records the positions of its words.
func (b *sentence) mark(phrase string, into *[]int) {
	for _, w := range strings.Fields(phrase) {
		*into = append(*into, len(b.tokens))
		b.tokens = append(b.tokens, w)
	}
}

// noun writes "the brown dog" and returns the noun's position; an
// indefinite article ("a") agrees with the word that follows it.
func (b *sentence) noun(article, attribute, noun string) int {
	if article == "a" {
		article = indefinite(strings.TrimSpace(attribute + " " + noun))
	}
	b.add(article)
	b.add(attribute)
	b.tokens = append(b.tokens, noun)
	return len(b.tokens) - 1
}

func (b *sentence) place(p Place) {
	b.add(p.Prep + " the")
	b.mark(p.Noun, &b.distractors)
}

// participant writes the noun of role r and, if attached to it, the place
// phrase; with pronoun it writes "it" instead.
func (b *sentence) participant(t tuple, r Role, sf surface, pronoun bool) int {
	if pronoun {
		b.pronoun = len(b.tokens)
		b.add(Pronoun)
		return -1
	}
	article := sf.agentArticle
	if r == Object {
		article = sf.objectArticle
	}
	pos := b.noun(article, sf.attributes[r], t.noun(r))
	if sf.pp.set && sf.pp.at == attachmentOf(r) {
		b.place(sf.pp.place)
	}
	return pos
}

// mainClause writes "the dog ate the food" (or its passive), with "it" in
// role pronounRole's place when pronoun is set.
func (b *sentence) mainClause(t tuple, passive bool, sf surface, pronoun bool, pronounRole Role) {
	verb := t.verbPhrase(passive, sf)
	first, second := Agent, Object
	if passive {
		first, second = Object, Agent
	}
	at := [2]int{}
	at[first] = b.participant(t, first, sf, pronoun && pronounRole == first)
	b.add(verb)
	at[second] = b.participant(t, second, sf, pronoun && pronounRole == second)
	b.goal(sf)
	b.agent, b.object = at[Agent], at[Object]
}

// goal ends a main clause with where its deed went, when the surface
// attaches the place phrase there: "carried the sack to the barn".
func (b *sentence) goal(sf surface) {
	if sf.pp.set && sf.pp.at == AttachGoal {
		b.place(sf.pp.place)
	}
}

// verbPhrase is the surface's choice among the frame's verb phrases for
// t's outcome in the voice, contracted if the surface contracts.
func (t tuple) verbPhrase(passive bool, sf surface) string {
	verbs := t.frame.verbs(t.Outcome, passive, sf.present)
	verb := verbs[sf.verb%len(verbs)]
	if sf.contracted {
		verb = contract(verb)
	}
	return verb
}

// scenePlace opens the sentence with the place phrase when the surface
// attaches it to the scene: "In the barn, ...".
func (b *sentence) scenePlace(sf surface) {
	if sf.pp.set && sf.pp.at == AttachScene {
		b.place(sf.pp.place)
		b.add(",")
	}
}

// copula writes "was", "was not", "wasn't" (or the present), marking the
// negation as deciding when mark is set.
func (b *sentence) copula(m Meaning, sf surface, mark bool) {
	copula := "was"
	if sf.present {
		copula = "is"
	}
	var sink []int
	into := &sink
	if mark {
		into = &b.deciding
	}
	switch {
	case m.Negated && sf.contracted:
		b.mark(copula+"n't", into)
	case m.Negated:
		b.add(copula)
		b.mark("not", into)
	default:
		b.add(copula)
	}
}

// predicate writes the adverb (if the meaning allows it) and the predicate.
func (b *sentence) predicate(t tuple, m Meaning, sf surface, mark bool) {
	if adv := sf.adverb; adv != "too" || (!m.Concessive && t.frame.favoursFailure(m.Predicate, t.referentOf(m))) {
		b.add(adv)
	}
	if mark {
		b.mark(m.Predicate, &b.deciding)
	} else {
		b.add(m.Predicate)
	}
}

// reasonClause writes "it was [not] [adverb] predicate"; ask says whether
// this "it" is the example's pronoun.
func (b *sentence) reasonClause(t tuple, m Meaning, sf surface, ask bool) {
	if t.frame.IsAct(m.Predicate) {
		b.actClause(m, sf)
		return
	}
	if ask {
		b.pronoun = len(b.tokens)
	}
	b.add(Pronoun)
	if t.frame.IsDeed(m.Predicate) {
		b.deedClause(m, sf)
		return
	}
	b.copula(m, sf, ask)
	b.predicate(t, m, sf, ask)
}

// deedClause writes what "it" did, after the pronoun: "hid", "fled into the
// barn"; in the past, never negated (Frame.Referent), and only where "it" is
// the one asked about (Shape.writes).
func (b *sentence) deedClause(m Meaning, sf surface) {
	b.mark(m.Predicate, &b.deciding)
	if sf.refuge.Noun != "" {
		b.place(sf.refuge)
	}
}

// actClause writes "the chicken protected it": a third noun's deed done to
// "it", always in the past and never negated (Frame.Referent), asked about.
func (b *sentence) actClause(m Meaning, sf surface) {
	b.add("the")
	b.mark(sf.actor, &b.others)
	b.mark(m.Predicate, &b.deciding)
	b.pronoun = len(b.tokens)
	b.add(Pronoun)
}

// writes reports whether shape s can write meaning m of frame f: an act
// ("the chicken protected it") or a deed ("it hid") stands where "it was
// ..." would, but not where a noun is named before its predicate (so-it) or
// beside a second "it" (two-it).
func (s Shape) writes(f *Frame, m Meaning) bool {
	return f.saidWithCopula(m.Predicate) || (s.layout != soIt && s.layout != twoReasons)
}

// shapesWriting are the shapes of shapes that can write every meaning of ms.
func shapesWriting(shapes []Shape, f *Frame, ms ...Meaning) []Shape {
	return slices.DeleteFunc(shapes, func(s Shape) bool {
		return slices.ContainsFunc(ms, func(m Meaning) bool { return !s.writes(f, m) })
	})
}

// referentOf is the role meaning m points at in t's frame.
func (t tuple) referentOf(m Meaning) Role {
	r, _ := t.frame.Referent(m)
	return r
}

// realise writes tuple t in shape s with the given surface choices.
func realise(t tuple, s Shape, sf surface) Example {
	b := sentence{decoy: -1}
	conn := s.connective(t.Concessive, sf.connective)
	switch s.layout {
	case reasonLast, twoSentences, twoReasons:
		if b.concededFirst(t, s, sf, conn) {
			break
		}
		b.scenePlace(sf)
		b.mainClause(t, s.Passive, sf, false, 0)
		b.mark(conn, &b.connective)
		b.reasonClause(t, t.Meaning, sf, !sf.askSecond)
		if s.layout == twoReasons {
			b.add("and")
			b.reasonClause(t, sf.second, sf, sf.askSecond)
		}
	case reasonFirst:
		if b.concededFirst(t, s, sf, conn) {
			break
		}
		b.mark(conn, &b.connective)
		b.reasonClause(t, t.Meaning, sf, true)
		if !sf.noComma {
			b.add(",")
		}
		b.mainClause(t, s.Passive, sf, false, 0)
	case soClause:
		b.reasonClause(t, t.Meaning, sf, true)
		b.mark(conn, &b.connective)
		b.mainClause(t, s.Passive, sf, false, 0)
	case soIt:
		b.soIt(t, s, sf, conn)
	case leadIt:
		b.leadIt(t, sf)
	}
	b.add(".")
	return b.example(t, s, sf)
}

// concededFirst writes, where the surface asks for it, a conceding deed
// after the main clause that the connective opens: "Although the fox chased
// the hare, it escaped." (in the shapes that put the reason first or last;
// not after ", but" or ". but", which cannot open a sentence). It reports
// whether it wrote the sentence.
func (b *sentence) concededFirst(t tuple, s Shape, sf surface, conn string) bool {
	if !sf.mainFirst || !t.Concessive || !t.frame.IsDeed(t.Predicate) || s.layout == twoReasons || strings.ContainsAny(conn, ",.") {
		return false
	}
	b.mark(conn, &b.connective)
	b.mainClause(t, s.Passive, sf, false, 0)
	b.add(",")
	b.reasonClause(t, t.Meaning, sf, true)
	return true
}

// soIt writes "The food was tasty, so the dog ate it.": the noun the
// predicate describes is named first, and "it" takes its place in the main
// clause, as subject or object. A connective that opens a clause goes
// first: "Although the cake was stale, the goat ate it." ("it" is the
// object of "ate", so the cake by the grammar, whatever "although" says).
func (b *sentence) soIt(t tuple, s Shape, sf surface, conn string) {
	opens := !strings.HasPrefix(conn, ",")
	if opens {
		b.mark(conn, &b.connective)
	}
	named := b.participant(t, t.role, sf, false)
	b.copula(t.Meaning, sf, true)
	b.predicate(t, t.Meaning, sf, true)
	if opens {
		b.add(",")
	} else {
		b.mark(conn, &b.connective)
	}
	sf.attributes[t.role] = "" // "the box ... lifted it": the attribute went with the name
	b.mainClause(t, s.Passive, sf, true, t.role)
	if t.role == Agent {
		b.agent = named
	} else {
		b.object = named
	}
}

// leadIt writes "The dog found the food and ate it.": a lead verb names
// both nouns and the main verb takes "it" as its object, so "it" is the
// object by the grammar alone (the dog is the subject of "ate"). There is
// no reason clause: the outcome is written, the predicate is not.
func (b *sentence) leadIt(t tuple, sf surface) {
	b.scenePlace(sf)
	verbs := len(t.frame.verbs(t.Outcome, false, sf.present))
	leads := t.frame.Lead[boolIndex(sf.present)]
	if sf.choice.decoy != "" {
		leads = anyNounLeads(leads)
	}
	b.agent = b.participant(t, Agent, sf, false)
	b.add(leads[sf.verb/verbs%len(leads)]) // not sf.verb%len(leads): the lead would follow the verb's choice
	if sf.choice.decoy == "" {
		b.object = b.participant(t, Object, sf, false)
		b.add("and " + t.verbPhrase(false, sf))
	} else {
		b.choose(t, sf)
	}
	b.pronoun = len(b.tokens)
	b.add(Pronoun)
	b.goal(sf)
}

// leadsOfAnyNoun are the lead verbs that suit any noun: only they may lead
// to a noun the verb cannot take ("found the banana near the tree", never
// "chased the hedge near the cat").
var leadsOfAnyNoun = []string{"saw", "found", "reached", "noticed", "sees", "finds", "reaches", "notices"}

// anyNounLeads are the leads among leadsOfAnyNoun.
func anyNounLeads(leads []string) []string {
	return slices.DeleteFunc(slices.Clone(leads), func(l string) bool { return !slices.Contains(leadsOfAnyNoun, l) })
}

// choose writes "the banana near the tree and climbed": the object and a
// noun its verb cannot take, in the surface's order, then the verb, which
// alone decides between them (so its words are the deciding ones).
func (b *sentence) choose(t tuple, sf surface) {
	c := sf.choice
	b.others = append(b.others, b.agent) // the subject of the verb "it" is the object of
	object := func(article string) { b.object = b.noun(article, sf.attributes[Object], t.object) }
	decoy := func(article string) { b.decoy = b.noun(article, "", c.decoy) }
	if c.objectLast {
		decoy(c.article)
		b.add(c.prep)
		object("the") // a phrase's noun is definite, as in the place phrases
	} else {
		object(sf.objectArticle)
		b.add(c.prep)
		decoy("the")
	}
	b.add("and")
	b.mark(t.verbPhrase(false, sf), &b.deciding)
}

// candidates are the two nouns "it" may refer to, in sentence order: the
// agent and the object, or in a lead-it choice the object and the noun
// beside it (the agent is the subject of the verb "it" is the object of).
func (b *sentence) candidates() [2]int {
	other := b.agent
	if b.decoy >= 0 {
		other = b.decoy
	}
	return [2]int{min(other, b.object), max(other, b.object)}
}

func (b *sentence) example(t tuple, s Shape, sf surface) Example {
	m, role, concessive := t.Meaning, t.role, t.Concessive
	switch {
	case sf.askSecond:
		m, role = sf.second, t.role.other()
	case s.layout == leadIt: // no reason clause: nothing of the meaning but the outcome is written
		m, role, concessive = Meaning{Outcome: t.Outcome}, Object, false
	}
	antecedent := b.agent
	if role == Object {
		antecedent = b.object
	}
	cands := b.candidates()
	return Example{
		Text: renderText(b.tokens), Tokens: b.tokens,
		Pronoun: b.pronoun, Antecedent: antecedent, Candidates: cands,
		Frame: t.frame.Name, Shape: s.Name, Predicate: m.Predicate, Role: role,
		Verb: t.frame.Verb(t.Outcome), Outcome: t.Outcome, Concessive: concessive,
		AntecedentFirst: antecedent == cands[0],
		Negated:         m.Negated, NegativePole: t.frame.properties[m.Predicate].pole < 0,
		Distractors: b.distractors, Deciding: b.deciding,
		ByVerb: b.decoy >= 0, OtherNouns: b.others, Connective: b.connective,
	}
}

// indefinite is "a" or "an" by the word's first letter (no noun or
// attribute in the lexicon starts with a silent consonant or a "yoo" vowel).
func indefinite(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
