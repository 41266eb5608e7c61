package inference

// Doubt from a deep ensemble (train/members.go): a run of K members is K
// models of one recipe that differ only in their seed. Every member answers
// each pronoun. The ensemble's probability for a noun is the mean of the
// members' (Lakshminarayanan et al. 2017 average the members'
// distributions): its answer is the noun that mean favours, given by a
// member that gives it (member 1 whenever it does), whose attention, steps
// and attribution are then shown, and the guess rule's share threshold
// applies to that mean (Confidence.Share): members that part ways pull it
// down. Where the
// corpus settles the answer every member finds it; where a model had to
// generalise, members part ways, and the learner reads "2 of 3 models say
// dog".

import (
	"fmt"

	"itformer/checkpoint"
	"itformer/model"
)

// Agreement is how the members of an ensemble answer one pronoun.
type Agreement struct {
	Members int    `json:"members"` // models in the ensemble, the shown one included
	Agree   int    `json:"agree"`   // members whose answer is the shown answer
	Shown   int    `json:"shown"`   // the member whose answer, attention and steps are shown, 1-based
	Votes   []Vote `json:"votes"`   // every member's answer, in member order
	// Mean is the ensemble's share for the shown answer: the mean over the
	// members of each one's share of the candidates' probability for it (a
	// member that answers the other candidate gives it 1 - its own share).
	Mean float64 `json:"mean_share"`
}

// Vote is one member's answer.
type Vote struct {
	Member int    `json:"member"` // 1-based; member 1 is the run itself
	Answer string `json:"answer"` // the answer's token, as the model read it
	// Typed is the answer as typed (Candidate.Typed). Votes are counted by
	// it: where "puppy" was read as "dog", "the dog chased the dog" has two
	// tokens "dog", and members that point at different ones disagree.
	Typed string  `json:"typed_answer"`
	Share float64 `json:"share"` // the answer's share of the candidates' probability
}

// Unanimous says whether every member gives the shown answer.
func (a *Agreement) Unanimous() bool { return a == nil || a.Agree == a.Members }

// SetMembers makes the Predictor an ensemble: members are members 2..K of the
// run whose member 1 it runs. Each must read the same words with a model of
// the same shape.
func (p *Predictor) SetMembers(members []*checkpoint.Checkpoint) error {
	p.members = nil
	for i, ck := range members {
		if err := sameShape(p.ck, ck); err != nil {
			return fmt.Errorf("member %d: %w", i+2, err)
		}
		p.members = append(p.members, p.sharing(ck)) // members read the sentence as member 1 does
	}
	return nil
}

// Each returns one Predictor per member, member 1 first, each answering
// alone (and knocking no head out): for a figure that averages the members'
// own probabilities, the ensemble's distribution over the words. A model of
// one member gives itself.
func (p *Predictor) Each() []*Predictor {
	if len(p.members) == 0 {
		return []*Predictor{p}
	}
	return append([]*Predictor{p.sharing(p.ck)}, p.members...)
}

// Another returns a new Predictor over the same checkpoints, members and all,
// whose ablation and graphs are its own (a server's second Predictor for
// requests that knock heads out). Its graphs count against p's bound
// (SetGraphMemory), so the two together keep no more than it.
func (p *Predictor) Another() *Predictor {
	q := p.sharing(p.ck)
	for _, m := range p.members {
		q.members = append(q.members, p.sharing(m.ck))
	}
	return q
}

// Members is the number of models the Predictor asks: 1 for a single model.
func (p *Predictor) Members() int { return 1 + len(p.members) }

// sameShape refuses a member whose vocabulary or model differs from a's.
func sameShape(a, b *checkpoint.Checkpoint) error {
	if a.Meta.Model != b.Meta.Model {
		return fmt.Errorf("its model %+v differs from member 1's %+v", b.Meta.Model, a.Meta.Model)
	}
	if a.Vocab.Size() != b.Vocab.Size() {
		return fmt.Errorf("its vocabulary has %d words, member 1's %d", b.Vocab.Size(), a.Vocab.Size())
	}
	for id := 0; id < a.Vocab.Size(); id++ {
		if a.Vocab.Word(id) != b.Vocab.Word(id) {
			return fmt.Errorf("its word %d is %q, member 1's %q", id, b.Vocab.Word(id), a.Vocab.Word(id))
		}
	}
	return nil
}

// all are the members in order: this Predictor (member 1), then the others.
func (p *Predictor) all() []*Predictor { return append([]*Predictor{p}, p.members...) }

// vote asks every member for every "it" of sentence and returns the member
// to show, with each pronoun's agreement: the member whose answers are the
// ensemble's for the most pronouns, the lowest-numbered among equals (so
// member 1 whenever it gives the ensemble's answers).
func (p *Predictor) vote(sentence string) (*Predictor, []*Agreement, error) {
	enc, pronouns, heads, err := p.read(sentence)
	if err != nil {
		return nil, nil, err
	}
	return p.voteOn(enc, pronouns, heads)
}

// voteOn is vote on a sentence read: the members share member 1's
// vocabulary (SetMembers checks it), so its ids serve them all.
func (p *Predictor) voteOn(enc *Encoded, pronouns, heads []int) (*Predictor, []*Agreement, error) {
	all := p.all()
	votes := make([][]Vote, len(pronouns)) // votes[i][k]: member k+1's answer for pronoun i
	for i, pronoun := range pronouns {
		for k, m := range all {
			v, err := m.answerOf(enc, pronoun, heads)
			if err != nil {
				return nil, nil, fmt.Errorf("member %d: %w", k+1, err)
			}
			v.Member = k + 1
			votes[i] = append(votes[i], v)
		}
	}
	shown := withAnswer(votes, len(all))
	agreements := make([]*Agreement, len(pronouns))
	for i := range pronouns {
		agreements[i] = newAgreement(votes[i], shown)
	}
	return all[shown], agreements, nil
}

// withAnswer is the index of the member that gives the ensemble's answer
// (ensembleAnswer) for the most pronouns, the lowest among equals.
func withAnswer(votes [][]Vote, members int) int {
	with := make([]int, members)
	for _, vs := range votes {
		answer := ensembleAnswer(vs)
		for k, v := range vs {
			if v.Typed == answer {
				with[k]++
			}
		}
	}
	best := 0
	for k := range with {
		if with[k] > with[best] {
			best = k
		}
	}
	return best
}

// ensembleAnswer is the answer (as typed) with the largest mean share: the
// noun the members' averaged distributions favour. With three members it is
// the majority's unless two barely agree against one sure member. Among
// equal means, the lowest-numbered member's answer.
func ensembleAnswer(vs []Vote) string {
	best, bestMean := vs[0].Typed, meanShare(vs, vs[0].Typed)
	for _, v := range vs[1:] {
		if m := meanShare(vs, v.Typed); m > bestMean {
			best, bestMean = v.Typed, m
		}
	}
	return best
}

// meanShare is the members' mean share for answer (as typed): each member's
// share of the candidates' probability for its own answer, or 1 - that share
// where it answers another noun. Two candidates are assumed, as the share
// is: a member's share for the other candidate leaves 1 - share for this one.
func meanShare(vs []Vote, answer string) float64 {
	sum := 0.0
	for _, v := range vs {
		if v.Typed == answer {
			sum += v.Share
		} else {
			sum += 1 - v.Share
		}
	}
	return sum / float64(len(vs))
}

// newAgreement counts the members that give member shown's answer, and
// their mean share for it.
func newAgreement(votes []Vote, shown int) *Agreement {
	a := &Agreement{Members: len(votes), Shown: shown + 1, Votes: votes, Mean: meanShare(votes, votes[shown].Typed)}
	for _, v := range votes {
		if v.Typed == votes[shown].Typed {
			a.Agree++
		}
	}
	return a
}

// apply puts the agreement in pr's confidence, whose share condition then
// reads the members' mean share (Confidence.Share).
func (a *Agreement) apply(pr *Prediction) {
	c := &pr.Confidence
	c.Members = a
	c.Guess = c.isGuess()
	c.Reason = reason(*c, pr.Candidates)
}

// member is the Predictor that answered pr: the shown member of an ensemble,
// or p itself. Attribute and KnockOut explain pr with that model.
func (p *Predictor) member(pr *Prediction) *Predictor {
	if a := pr.Confidence.Members; a != nil && a.Shown >= 2 && a.Shown-2 < len(p.members) {
		return p.members[a.Shown-2]
	}
	return p
}

// answerOf is this model's answer for the pronoun at position pronoun of
// the sentence enc. It runs an untraced graph, kept per sentence length: a
// vote needs the probabilities only, and a traced graph holds about twice
// the memory.
func (p *Predictor) answerOf(enc *Encoded, pronoun int, heads []int) (Vote, error) {
	ids := enc.IDs
	p.mu.Lock()
	defer p.mu.Unlock()
	g, err := p.graph(votingGraph, model.GraphOptions{Batch: 1, SeqLen: len(ids), Ablate: p.ablate, HeadGates: p.gated})
	if err != nil {
		return Vote{}, err
	}
	out, err := g.Run(model.Batch{IDs: ids, Lengths: []int{len(ids)}, Pronoun: []int{pronoun}})
	if err != nil {
		return Vote{}, err
	}
	probs := out.Probs.Row(0)
	if err := finite("the answer's probabilities", probs); err != nil {
		return Vote{}, err
	}
	cands := candidates(enc.Tokens, enc.Typed, heads, probs)
	c := judge(enc.Tokens, nil, pronoun, heads, cands, p.known)
	return Vote{Answer: cands[0].Word, Typed: cands[0].Typed, Share: c.TopProbability}, nil
}

// Describe says how the members answer, for a line beside the answer
// (given as typed, Prediction.TypedAnswer, as the votes name theirs):
// "3 of 3 models trained alike say "dog" (1: dog 100.0%, 2: dog 99.8%,
// 3: dog 100.0%); what is shown is model 1's".
func (a *Agreement) Describe(answer string) string {
	return fmt.Sprintf("%d of %d models trained alike %s %q (%s); what is shown is model %d's", a.Agree, a.Members, a.say(), answer, votesText(a.Votes), a.Shown)
}

// agreementClause says how sure the members are together, for reason (the
// votes themselves are in Describe, shown beside it).
func agreementClause(a *Agreement, answer string) string {
	if a.Unanimous() {
		return fmt.Sprintf("the %d models trained alike give %q only %s on average", a.Members, answer, share(a.Mean))
	}
	return fmt.Sprintf("only %d of the %d models trained alike %s %q, %s on average", a.Agree, a.Members, a.say(), answer, share(a.Mean))
}

// say is the verb for a.Agree models: "1 of 3 models ... says".
func (a *Agreement) say() string {
	if a.Agree == 1 {
		return "says"
	}
	return "say"
}

// votesText lists the members' answers: "1: dog 99%, 2: food 87%, 3: dog 95%".
func votesText(votes []Vote) string {
	s := ""
	for i, v := range votes {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d: %s %s", v.Member, v.Typed, share(v.Share))
	}
	return s
}
