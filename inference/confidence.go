package inference

// Whether an answer is a guess. A softmax always has a most probable word, so
// the answer alone cannot show whether the model knew or guessed; one stated
// rule decides, and the reason is written in words a user reads as is.

import (
	"fmt"
	"slices"
	"strings"

	"itformer/data"
)

// GuessBelow is the answer's share of the candidates' probability (the
// model's softmax renormalised over the candidates only) under which the
// answer is a guess. Renormalising asks how much the model prefers the answer
// to the other nouns, whatever it gives words that cannot be antecedents.
// Why 0.8: a model trained to spread its probability when the word that
// decides is unknown answers such sentences at about 0.5–0.7, and sentences
// it can read at well above 0.9; and an answer that would be wrong one time
// in five should not be stated as a fact.
const GuessBelow = 0.8

// MinCandidateMass is the model's total probability on the candidates under
// which the answer is a guess, whatever its share: the model then points
// mostly at words that cannot be what "it" refers to (a verb, a predicate),
// and its order among the candidates is made of leftovers ("truck it fresh
// buried" gives "truck" 0.0003%).
const MinCandidateMass = 0.5

// GuessRule is the rule in one sentence, for documents that carry Confidence
// (infer's -json prints it beside the answers).
var GuessRule = fmt.Sprintf("an answer is a guess when its share of the candidates' probability "+
	"(for a model of several members trained alike, a deep ensemble, the mean of the members' shares) is below %g, "+
	"when the candidates together get less than %g of the model's probability, "+
	"when the answer is a word the model does not know, "+
	"when a word the model does not know follows the pronoun in its clause, "+
	"when the corpus the model learned from never gives what the clause says of the pronoun as a reason for the sentence's verb, "+
	"when that clause says something the corpus gives as a reason but the sentence has none of the corpus's verbs, "+
	"or when the sentence says nothing of the pronoun that the corpus gives as a reason and the pronoun is not the object of one of the corpus's verbs after \"and\"", GuessBelow, MinCandidateMass)

// clauseEnds are the tokens that close the pronoun's clause: punctuation and
// the conjunctions that open the next clause ("it was famished, so the dog
// ate"; "it was hungry and it ate").
var clauseEnds = map[string]bool{".": true, ",": true, ";": true, ":": true, "!": true, "?": true,
	"because": true, "since": true, "as": true, "so": true, "and": true, "but": true, "when": true, "while": true}

// Confidence says whether an answer is a guess, and why.
type Confidence struct {
	// Guess is true when the answer is a guess: Share is below GuessBelow
	// (0.8), CandidateMass is below MinCandidateMass (0.5), the
	// answer is an unknown word, or one of the clauses below says so.
	Guess bool `json:"guess"`
	// Reason says why, in one sentence for people. For an answer that is not
	// a guess it is empty, or warns that the answer cannot rest on the
	// unknown words outside the candidates.
	Reason string `json:"reason"`
	// TopProbability is the answer's share of the candidates' probability:
	// the model's softmax renormalised over the candidates only.
	TopProbability float64 `json:"top_probability"`
	// CandidateMass is the model's probability on the candidates together;
	// the rest goes to words that cannot be what "it" refers to.
	CandidateMass float64 `json:"candidate_mass"`
	// UnknownWords are the words the model does not know (it reads them as
	// <unk>) that are not candidates, in sentence order: the word that
	// decides the answer may be one ("famished" in "because it was famished").
	UnknownWords []string `json:"unknown_words"`
	// UnknownCandidates are the candidates the model does not know: it can
	// tell where they stand, not what they are.
	UnknownCandidates []string `json:"unknown_candidates"`
	// UnknownAnswer is true when the answer is one of them: however sure
	// the model is, it chose a word it cannot read, so the answer is a guess.
	UnknownAnswer bool `json:"unknown_answer"`
	// UnknownAboutIt are the unknown words that follow the pronoun in its own
	// clause ("famished" in "because it was famished"): what the sentence
	// says of "it", so the word that decides. Any of them makes the answer a
	// guess, however sure the model is, since its probability can then rest
	// only on the rest of the sentence (which nouns, which verb).
	UnknownAboutIt []string `json:"unknown_about_it"`
	// Unpaired, when set, is the sentence's verb and what it says of "it"
	// where the corpus never pairs them ("chased ... because it was angry"),
	// with the verbs the corpus does give that reason for: the model learned
	// what the predicate means only beside those, so the answer is a guess.
	Unpaired *data.Reason `json:"unpaired,omitempty"`
	// NoKnownVerb is true when the clause of "it" says something the corpus
	// uses as a reason but the sentence has none of the corpus's verb
	// phrases: an unknown word may be its verb ("The horse kicked the fence
	// because it was angry"), or a known verb stands in a phrase the corpus
	// never writes ("The bush hid the fox", "hid behind": the corpus has
	// "hid from"), and the verb decides whom the predicate describes.
	NoKnownVerb bool `json:"no_known_verb"`
	// NoReason is true when the sentence says nothing of "it" that the
	// corpus gives as a reason (no predicate of the lexicon in its clause,
	// or before it when "it" is no copula's subject) and "it" is not the
	// object of a verb of the corpus ("and ate it"), whose grammar decides:
	// every sentence the model learned from had one or the other, so here
	// it has only which nouns and where ("I put the wing on the table and
	// it broke").
	NoReason bool `json:"no_reason"`
	// Relatives are the words read as their WordNet relatives
	// (data.ReadRelatives): known words as the model reads them, so no
	// unknown words for conditions 3 and 5, but the reason names them.
	Relatives []data.Relative `json:"relatives,omitempty"`
	// RestsOn are those of them the answer rests on: the answer itself, or
	// what the sentence says of "it" (in its clause). The reason says the
	// answer rests on reading them so, guess or not.
	RestsOn []data.Relative `json:"rests_on,omitempty"`
	// Members, for a deep ensemble (ensemble.go), is how its models answer;
	// their mean share (Agreement.Mean) is the one the rule holds against
	// GuessBelow. Absent for one model.
	Members *Agreement `json:"members,omitempty"`
}

// judge applies the rule to the answer for the pronoun at position pronoun:
// cands are the candidates, most probable first, at the positions heads of
// tokens; known reports the model's vocabulary.
func judge(tokens []string, relatives []data.Relative, pronoun int, heads []int, cands []Candidate, known func(string) bool) Confidence {
	c := Confidence{Relatives: relatives}
	for _, r := range relatives {
		if r.Position == cands[0].Position || r.Position > pronoun && r.Position < clauseEnd(tokens, pronoun) {
			c.RestsOn = append(c.RestsOn, r)
		}
	}
	for _, cd := range cands {
		c.CandidateMass += cd.Probability
	}
	c.TopProbability = 1 / float64(len(cands)) // every candidate at 0: no preference at all
	if c.CandidateMass > 0 {
		c.TopProbability = cands[0].Probability / c.CandidateMass
	}
	c.UnknownWords, c.UnknownCandidates = unknownWords(tokens, heads, known)
	c.UnknownAnswer = !known(cands[0].Word)
	c.UnknownAboutIt = unknownAboutIt(tokens, pronoun, heads, known)
	if len(c.UnknownAboutIt) == 0 { // else the unknown words decide, and condition 3 says so
		r := lookUpReason(tokens, pronoun)
		if r.Predicate != "" {
			c.NoKnownVerb = len(r.Verbs) == 0
			if r.Unpaired() {
				c.Unpaired = &r
			}
		} else {
			c.NoReason = !data.ObjectOfVerb(tokens, pronoun)
		}
	}
	c.Guess = c.isGuess()
	c.Reason = reason(c, cands)
	return c
}

// Share is the answer's share of the candidates' probability that the rule
// holds against GuessBelow: the model's, or for a deep ensemble the mean of
// its members' (Agreement.Mean), so that members that part ways make it a
// guess and one member unsure among sure ones need not.
func (c Confidence) Share() float64 {
	if c.Members != nil {
		return c.Members.Mean
	}
	return c.TopProbability
}

// isGuess is the rule (GuessRule).
func (c Confidence) isGuess() bool { return guessAt(c.Share(), c.flaggedBesidesShare()) }

// guessAt is the rule for an answer of this share, flagged or not by the
// other conditions (besides).
func guessAt(share float64, besides bool) bool { return share < GuessBelow || besides }

// flaggedBesidesShare reports whether a condition other than the share
// makes the answer a guess (conditions 2-5 and 7).
func (c Confidence) flaggedBesidesShare() bool {
	return c.CandidateMass < MinCandidateMass || c.UnknownAnswer ||
		len(c.UnknownAboutIt) > 0 || c.Unpaired != nil || c.NoKnownVerb || c.NoReason
}

// clauseEnd is the position that ends the pronoun's clause: the first clause
// end after it, or len(tokens).
func clauseEnd(tokens []string, pronoun int) int {
	i := pronoun + 1
	for i < len(tokens) && !endsClause(tokens, i) {
		i++
	}
	return i
}

// degreeBefore are the words after which "so" is a degree adverb ("it was
// so hungry", "it was not so fast"), not the conjunction ("it was hungry so
// it ate").
var degreeBefore = map[string]bool{"was": true, "is": true, "wasn't": true, "isn't": true, "not": true, "really": true}

// endsClause says whether tokens[i] closes the clause it is in.
func endsClause(tokens []string, i int) bool {
	if tokens[i] == "so" && i > 0 && degreeBefore[tokens[i-1]] {
		return false
	}
	return clauseEnds[tokens[i]]
}

// lookUpReason looks up the pronoun's clause and the rest of the sentence in
// the lexicon (data.LookUpReason).
func lookUpReason(tokens []string, pronoun int) data.Reason {
	return data.LookUpReason(tokens, pronoun, clauseEnd(tokens, pronoun))
}

// unknownAboutIt lists, each once, the unknown words between the pronoun
// and the end of its clause that are not candidates.
func unknownAboutIt(tokens []string, pronoun int, heads []int, known func(string) bool) []string {
	out := []string{}
	for i := pronoun + 1; i < clauseEnd(tokens, pronoun); i++ {
		if !known(tokens[i]) && !slices.Contains(heads, i) && !slices.Contains(out, tokens[i]) {
			out = append(out, tokens[i])
		}
	}
	return out
}

// unknownWords splits the words the model does not know, each once, into
// those outside the candidates and the candidates.
func unknownWords(tokens []string, heads []int, known func(string) bool) (others, candidates []string) {
	isHead := map[int]bool{}
	for _, i := range heads {
		isHead[i] = true
	}
	others, candidates = []string{}, []string{}
	seen := map[string]bool{}
	for i, t := range tokens {
		if known(t) || seen[t] {
			continue
		}
		seen[t] = true
		if isHead[i] {
			candidates = append(candidates, t)
		} else {
			others = append(others, t)
		}
	}
	return others, candidates
}

// reason writes why c is a guess, one clause per cause, or for an answer
// that is not one, what the unknown words outside the candidates mean. It
// names the candidates as typed (Candidate.Typed): the clauses on relatives
// say what they were read as.
func reason(c Confidence, cands []Candidate) string {
	if !c.Guess {
		var clauses []string
		if len(c.UnknownWords) > 0 {
			clauses = append(clauses, notKnown(c.UnknownWords)+", so the answer cannot rest on "+plural(c.UnknownWords, "it", "them"))
		}
		return strings.Join(append(clauses, relativeClauses(c)...), "; ")
	}
	var clauses []string
	switch {
	case len(c.UnknownAboutIt) > 0:
		clauses = append(clauses, notKnown(c.UnknownAboutIt)+", and "+
			plural(c.UnknownAboutIt, "it is", "they are")+" what the sentence says of \"it\", so the model cannot know the answer")
		rest := slices.DeleteFunc(slices.Clone(c.UnknownWords), func(w string) bool { return slices.Contains(c.UnknownAboutIt, w) })
		if len(rest) > 0 {
			clauses = append(clauses, "nor "+plural(rest, "is ", "are ")+quoted(rest))
		}
	case len(c.UnknownWords) > 0:
		clauses = append(clauses, notKnown(c.UnknownWords)+", and "+
			plural(c.UnknownWords, "it", "one of them")+" may be the word that decides")
	}
	if c.NoKnownVerb {
		clauses = append(clauses, "none of the verb phrases of the corpus the model learned from is in the sentence, and the verb decides which noun \"it\" is")
	}
	if c.Unpaired != nil {
		clauses = append(clauses, unpaired(*c.Unpaired))
	}
	if c.NoReason {
		clauses = append(clauses, "the sentence says nothing of \"it\" that the corpus the model learned from gives as a reason (such as \"hungry\" or \"too heavy\"), "+
			"and \"it\" is not the object of one of its verbs after \"and\" (\"found the food and ate it\"), so the model has only the nouns and where they stand to go on")
	}
	others := c.UnknownCandidates
	if c.UnknownAnswer && len(clauses) == 0 { // else the "nor" clause names it
		clauses = append(clauses, fmt.Sprintf("the answer %q is not a word this model knows: it can tell where the word stands, not what it is", cands[0].Typed))
		others = slices.DeleteFunc(slices.Clone(others), func(w string) bool { return w == cands[0].Word })
	}
	if len(others) > 0 {
		clauses = append(clauses, unknownCandidates(others, len(clauses) > 0))
	}
	if c.CandidateMass < MinCandidateMass {
		clauses = append(clauses, littleMass(c.CandidateMass))
	}
	switch {
	case c.Share() >= GuessBelow:
	case c.Members != nil:
		clauses = append(clauses, agreementClause(c.Members, cands[0].Typed))
	default:
		clauses = append(clauses, fmt.Sprintf("the model is unsure between %q (%s) and %q (%s)",
			cands[0].Typed, share(cands[0].Probability), cands[1].Typed, share(cands[1].Probability)))
	}
	return strings.Join(append(clauses, relativeClauses(c)...), "; ")
}

// relativeClauses say which words were read as their WordNet relatives:
// first those the answer rests on ("the answer rests on reading "famished"
// as "hungry" (WordNet: similar to)"), then the others.
func relativeClauses(c Confidence) []string {
	var out []string
	if len(c.RestsOn) > 0 {
		out = append(out, "the answer rests on reading "+relativesText(c.RestsOn))
	}
	others := slices.DeleteFunc(slices.Clone(c.Relatives), func(r data.Relative) bool { return slices.Contains(c.RestsOn, r) })
	if len(others) > 0 {
		out = append(out, "the model read "+relativesText(others)+", words it does not know")
	}
	return out
}

// relativesText lists relatives as `"famished" as "hungry" (WordNet: similar to)`.
func relativesText(rs []data.Relative) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return listed(parts)
}

// unpaired says that the corpus never gives r's predicate as a reason for
// its verb, and where it does.
func unpaired(r data.Reason) string {
	return fmt.Sprintf("the corpus this model learned from never gives %q as a reason for %s (%s), so the model cannot know the answer",
		r.Predicate, quoted(r.Verbs), elsewhere(r.Elsewhere))
}

// elsewhere says which verbs a predicate is a reason for and which role it
// then describes: for "avoided" and "hid from" it describes the object.
func elsewhere(uses []data.Use) string {
	if len(uses) == 0 {
		return "nor for any other verb"
	}
	var parts []string
	for _, role := range []data.Role{data.Agent, data.Object} {
		var verbs []string
		for _, u := range uses {
			if u.Role == role {
				verbs = append(verbs, u.Verb)
			}
		}
		if len(verbs) > 0 {
			parts = append(parts, "for "+someQuoted(verbs, 3)+" it describes the "+role.String())
		}
	}
	return strings.Join(parts, "; ")
}

// littleMass says how little of the model's probability the candidates get.
func littleMass(mass float64) string {
	if mass < 0.0005 {
		return "almost none of the model's probability (less than 0.1%) is on the candidates"
	}
	return "only " + share(mass) + " of the model's probability is on the candidates"
}

// notKnown says that words are not in the model's vocabulary.
func notKnown(words []string) string {
	return quoted(words) + plural(words, " is not a word", " are not words") + " this model knows"
}

// unknownCandidates says that candidates are not in the vocabulary, as a
// clause of its own or, after one saying so of other words, with "nor".
func unknownCandidates(words []string, nor bool) string {
	if nor {
		return plural(words, "nor is the candidate ", "nor are the candidates ") + quoted(words)
	}
	return plural(words, "the candidate ", "the candidates ") + notKnown(words)
}

// quoted lists words as "a", "a" and "b", or "a", "b" and "c".
func quoted(words []string) string { return listed(quote(words)) }

// someQuoted lists at most n words as quoted does, then how many more there are.
func someQuoted(words []string, n int) string {
	if len(words) <= n+1 {
		return quoted(words)
	}
	return listed(append(quote(words[:n]), fmt.Sprintf("%d more", len(words)-n)))
}

// quote puts each word in quotes.
func quote(words []string) []string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return q
}

// listed joins items as a, a and b, or a, b and c.
func listed(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func plural(words []string, one, many string) string {
	if len(words) == 1 {
		return one
	}
	return many
}

// share prints a probability as infer's candidates line does, without
// rounding a small one to a misleading 0.0%.
func share(p float64) string {
	if p < 0.0005 {
		return "less than 0.1%"
	}
	return fmt.Sprintf("%.1f%%", 100*p)
}
