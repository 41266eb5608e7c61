// Meaning: what a sentence says, and which noun "it" is because of it.
//
// A frame is an action whose outcome (the dog ate / did not eat the food)
// is explained by a property of one participant. Properties have a
// direction: each is a pole of a dimension (hungry and full are the two
// poles of hunger). The frame says which pole of which dimension of its
// agent or object favours success ("agent: hunger +": a hungry eater eats;
// "object: taste +": tasty food is eaten). A reason clause then says
// "it" has a property, and the referent is the participant for which that
// property explains what happened:
//
//	favours(role, property) = sign of the frame's explanation × pole × (−1 if "not")
//	wanted                  = +1 if the outcome is success, −1 if failure,
//	                          times −1 after "although"/"but" (the property went against it)
//	referent                = the one role with favours == wanted
//
// "The dog ate the food because it was hungry": hunger is the agent's (+),
// hungry is +, not negated: favours +1; ate is success: wanted +1; so the
// dog. "The owl could not catch the mouse because it was fast": speed is
// the agent's (+) and the object's (−); fast is +; wanted is −1 (failure),
// which only the object gives: the mouse. A sentence in which no role or
// both roles fit makes no sense ("The dog ate the food because it was
// full") and is never written.

package data

import (
	"fmt"
	"slices"
	"strings"
)

// Outcome is whether the frame's action happened.
type Outcome int

const (
	// Succeeded: "ate", "lifted", "could lift", "beat".
	Succeeded Outcome = iota
	// Failed: "did not eat", "could not lift", "lost to".
	Failed
)

var outcomeNames = [...]string{"succeeded", "failed"}

func (o Outcome) String() string { return outcomeNames[o] }

// sign is +1 for success, -1 for failure.
func (o Outcome) sign() int { return 1 - 2*int(o) }

// MarshalText writes an Outcome as "succeeded" or "failed".
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads "succeeded" or "failed".
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, name := range outcomeNames {
		if string(b) == name {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("outcome %q: want \"succeeded\" or \"failed\"", b)
}

// Dimension is a property with two poles: hunger is hungry (+) or full (−).
type Dimension struct {
	Name string
	// Act: the words are deeds of a third noun done to "it" ("the dog
	// protected it", acts.txt), not properties said of it ("it was hungry").
	Act bool
	// Deed: the words are deeds of "it" itself ("because it hid",
	// deeds.txt), said without a copula.
	Deed bool
	// Words of each pole: Poles[0] the + words, Poles[1] the − words.
	Poles [2][]string
	line  int // in properties.txt, for error messages
}

// Explanation says that role's pole Sign of dimension Dim favours the
// frame's success ("agent: hunger +").
type Explanation struct {
	Role Role
	Dim  string
	Sign int // +1 or -1
}

func (e Explanation) String() string {
	sign := "+"
	if e.Sign < 0 {
		sign = "-"
	}
	return fmt.Sprintf("%s: %s %s", e.Role, e.Dim, sign)
}

// Meaning is what a sentence says, apart from its nouns and wording: the
// outcome, whether the reason clause concedes ("although", "but") rather than
// explains ("because"), whether it negates the predicate, and the predicate.
type Meaning struct {
	Outcome    Outcome
	Concessive bool
	Negated    bool
	Predicate  string
}

func (m Meaning) String() string {
	conn, not := "because", ""
	if m.Concessive {
		conn = "although"
	}
	if m.Negated {
		not = "not "
	}
	return fmt.Sprintf("%s %s it was %s%s", m.Outcome, conn, not, m.Predicate)
}

// property is a predicate's dimension and pole within one frame.
type property struct {
	dim       string
	pole      int
	act, deed bool
}

// IsAct reports whether predicate is a deed of a third noun done to "it"
// in this frame ("protected": "because the dog protected it").
func (f *Frame) IsAct(predicate string) bool { return f.properties[predicate].act }

// IsDeed reports whether predicate is a deed of "it" itself in this frame
// ("hid": "because it hid").
func (f *Frame) IsDeed(predicate string) bool { return f.properties[predicate].deed }

// saidWithCopula reports whether predicate is a property said of "it" with
// a copula ("it was hungry"), not an act or a deed: only those stand before
// a noun, beside a second "it" or in a so-it clause.
func (f *Frame) saidWithCopula(predicate string) bool {
	p := f.properties[predicate]
	return !p.act && !p.deed
}

// Referent derives which role "it" is from the meaning (see the package
// comment of this file). ok is false when the predicate is not one of the
// frame's properties, or when the sentence would make no sense (no role
// fits) or not decide (both fit).
func (f *Frame) Referent(m Meaning) (r Role, ok bool) {
	p, known := f.properties[m.Predicate]
	if !known || (!f.saidWithCopula(m.Predicate) && m.Negated) { // the corpus never writes "the dog did not protect it" or "it did not hide"
		return 0, false
	}
	wanted := m.Outcome.sign()
	if m.Concessive {
		wanted = -wanted
	}
	negation := 1
	if m.Negated {
		negation = -1
	}
	found := 0
	for _, e := range f.Explains {
		if e.Dim == p.dim && e.Sign*p.pole*negation == wanted {
			r, found = e.Role, found+1
		}
	}
	return r, found == 1
}

// favoursFailure says whether the predicate's own pole (before any "not")
// works against the action for the role it describes: "heavy" for the load
// in lift, "weak" for the bridge in cross. Only such a predicate takes "too"
// ("too heavy", "not too heavy"), since "too" says the property is more
// than the action allows.
func (f *Frame) favoursFailure(predicate string, r Role) bool {
	p, ok := f.properties[predicate]
	if !ok {
		return false
	}
	for _, e := range f.Explains {
		if e.Role == r && e.Dim == p.dim {
			return e.Sign*p.pole < 0
		}
	}
	return false
}

// Predicates lists the words of the frame's dimensions, sorted as loaded:
// every predicate some sentence of the frame can say of "it".
func (f *Frame) Predicates() []string { return slices.Clone(f.predicates) }

// Dimensions lists the dimensions the frame explains its outcome by.
func (f *Frame) Dimensions(r Role) []string {
	var out []string
	for _, e := range f.Explains {
		if e.Role == r {
			out = append(out, e.Dim)
		}
	}
	return out
}

// DimensionOf returns the dimension a predicate belongs to in this frame.
func (f *Frame) DimensionOf(predicate string) (string, bool) {
	p, ok := f.properties[predicate]
	return p.dim, ok
}

// describes reports the roles whose dimensions include predicate's, with or
// without any negation or outcome: the roles a sentence of f can say it of.
func (f *Frame) describes(predicate string) (roles [2]bool) {
	p, ok := f.properties[predicate]
	if !ok {
		return roles
	}
	return f.describesDimension(p.dim)
}

// describesDimension reports the roles the frame explains its outcome by
// dimension dim for.
func (f *Frame) describesDimension(dim string) (roles [2]bool) {
	for _, e := range f.Explains {
		if e.Dim == dim {
			roles[e.Role] = true
		}
	}
	return roles
}

// parseExplanations reads "hunger +", "size -" for one role.
func parseExplanations(r Role, items []string) ([]Explanation, error) {
	var out []Explanation
	for _, item := range items {
		name, sign, ok := strings.Cut(item, " ")
		if !ok || (sign != "+" && sign != "-") {
			return nil, fmt.Errorf("%q: want a dimension and + or - (\"hunger +\")", item)
		}
		s := 1
		if sign == "-" {
			s = -1
		}
		out = append(out, Explanation{Role: r, Dim: name, Sign: s})
	}
	return out, nil
}
