package inference

// Doubt from a deep ensemble (train/members.go): a run of K members is K
// models of one recipe that differ only in their seed. The Predictor shows
// member 1 (its attention, steps and answer); every other member answers the
// same pronoun, and an answer that not all of them give is a guess
// (Confidence.Members). Where the corpus settles the answer every member
// finds it; where a model had to generalise, members part ways, and the
// learner reads "2 of 3 models say dog".

import (
	"fmt"

	"itformer/checkpoint"
	"itformer/model"
)

// Agreement is how the members of an ensemble answer one pronoun.
type Agreement struct {
	Members int    `json:"members"` // models in the ensemble, the shown one included
	Agree   int    `json:"agree"`   // members whose answer is the shown answer
	Votes   []Vote `json:"votes"`   // every member's answer, member 1 (the shown one) first
}

// Vote is one member's answer.
type Vote struct {
	Member int     `json:"member"` // 1-based; member 1 is the run itself
	Answer string  `json:"answer"`
	Share  float64 `json:"share"` // the answer's share of the candidates' probability
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
		p.members = append(p.members, New(ck))
	}
	return nil
}

// Another returns a new Predictor over the same checkpoints, members and all,
// whose ablation and graphs are its own (a server's second Predictor for
// requests that knock heads out).
func (p *Predictor) Another() *Predictor {
	q := New(p.ck)
	for _, m := range p.members {
		q.members = append(q.members, New(m.ck))
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

// addVotes asks every other member for pr's pronoun and marks pr a guess
// unless all give its answer. heads are the candidate positions.
func (p *Predictor) addVotes(pr *Prediction, heads []int) error {
	if len(p.members) == 0 {
		return nil
	}
	a := &Agreement{Members: p.Members(), Agree: 1,
		Votes: []Vote{{Member: 1, Answer: pr.AnswerWord, Share: pr.Confidence.TopProbability}}}
	for i, m := range p.members {
		v, err := m.vote(pr.Tokens, pr.Pronoun, heads)
		if err != nil {
			return fmt.Errorf("member %d: %w", i+2, err)
		}
		v.Member = i + 2
		if v.Answer == pr.AnswerWord {
			a.Agree++
		}
		a.Votes = append(a.Votes, v)
	}
	c := &pr.Confidence
	c.Members = a
	c.Guess = c.Guess || !a.Unanimous()
	c.Reason = reason(*c, pr.Candidates)
	return nil
}

// vote is this model's answer for the pronoun at position pronoun of tokens.
func (p *Predictor) vote(tokens []string, pronoun int, heads []int) (Vote, error) {
	ids, _ := p.ck.Vocab.Encode(tokens)
	p.mu.Lock()
	defer p.mu.Unlock()
	g, err := p.graphFor(len(tokens))
	if err != nil {
		return Vote{}, err
	}
	out, err := g.Run(model.Batch{IDs: ids, Lengths: []int{len(tokens)}, Pronoun: []int{pronoun}})
	if err != nil {
		return Vote{}, err
	}
	if err := checkTrace(out); err != nil {
		return Vote{}, err
	}
	cands := candidates(tokens, heads, out.Probs.Row(0))
	c := judge(tokens, pronoun, heads, cands, p.known)
	return Vote{Answer: cands[0].Word, Share: c.TopProbability}, nil
}

// Describe says how the members answer, for a line beside the answer:
// "3 of 3 models trained alike say "dog" (1: dog 100.0%, 2: dog 99.8%,
// 3: dog 100.0%); the pictures are model 1's".
func (a *Agreement) Describe(answer string) string {
	return fmt.Sprintf("%d of %d models trained alike say %q (%s); what is shown is model 1's", a.Agree, a.Members, answer, votesText(a.Votes))
}

// agreementClause says how many members give the answer, for reason (the
// votes themselves are in Describe, shown beside it).
func agreementClause(a *Agreement, answer string) string {
	return fmt.Sprintf("only %d of the %d models trained alike say %q", a.Agree, a.Members, answer)
}

// votesText lists the members' answers: "1: dog 99%, 2: food 87%, 3: dog 95%".
func votesText(votes []Vote) string {
	s := ""
	for i, v := range votes {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d: %s %s", v.Member, v.Answer, share(v.Share))
	}
	return s
}
