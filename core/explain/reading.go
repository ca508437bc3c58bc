package explain

import (
	"fmt"
	"strconv"
	"strings"

	"ilpgnn/core/printable"
)

// FormatProb writes the probability p with places decimals, except that
// a p that would print as exactly 0 or 1 is written "< 0.01" or "> 0.99"
// (for places 2): a probability from a finite logit is neither, and a
// model is never that sure of a link.
func FormatProb(p float64, places int) string {
	s := strconv.FormatFloat(p, 'f', places, 64)
	if places < 1 {
		return s
	}
	switch s {
	case strconv.FormatFloat(0, 'f', places, 64):
		return "< 0." + strings.Repeat("0", places-1) + "1"
	case strconv.FormatFloat(1, 'f', places, 64):
		return "> 0." + strings.Repeat("9", places)
	}
	return s
}

// ProbIs is "= " and FormatProb(p, places), or FormatProb alone where it
// is a bound ("< 0.01"): the way to write "p = ..." in a sentence.
func ProbIs(p float64, places int) string {
	s := FormatProb(p, places)
	if s[0] == '<' || s[0] == '>' {
		return s
	}
	return "= " + s
}

// read renders the explanation in the paper's words (SPEC §6).
func (e *Explanation) read() string {
	var b strings.Builder
	i, j := printable.Name(e.I.ID), printable.Name(e.J.ID)
	if e.Prob >= 0.5 {
		fmt.Fprintf(&b, "%s is suggested to %s (p %s) because ", j, i, ProbIs(e.Prob, 2))
	} else {
		fmt.Fprintf(&b, "%s is not suggested to %s (p %s): ", j, i, ProbIs(e.Prob, 2))
	}
	b.WriteString(e.Reasons())
	b.WriteString(".")
	return b.String()
}

// Reasons is the Reading without its opening and p: which neighbours of
// each end speak for (or, below p = 0.5, only weakly for) the link, for
// a list that shows p in a column of its own.
func (e *Explanation) Reasons() string {
	verb := "are similar to"
	if e.Prob < 0.5 {
		verb = "are only weakly similar to"
	}
	s := clause(e.I, printable.Name(e.J.ID), verb) + " and " + clause(e.J, printable.Name(e.I.ID), verb)
	if e.Masked {
		s += " (their own link was set aside)"
	}
	return s
}

// clause says which of s's selected neighbours speak for the link to
// other (printable already), with their mean structure and feature
// scores.
func clause(s Side, other, verb string) string {
	sel := s.Selected()
	if len(sel) == 0 {
		return fmt.Sprintf("%s has no neighbours to speak for it", printable.Name(s.ID))
	}
	names := make([]string, len(sel))
	var st, no float64
	for k, n := range sel {
		names[k] = printable.Name(n.ID)
		st += n.Structure
		no += n.Features
	}
	noun := "neighbours"
	if len(sel) == 1 {
		noun = "neighbour"
		verb = strings.Replace(verb, "are", "is", 1)
	}
	return fmt.Sprintf("%s's %s %s %s %s (structure %.2f, features %.2f)", printable.Name(s.ID), noun,
		strings.Join(names, ", "), verb, other, st/float64(len(sel)), no/float64(len(sel)))
}
