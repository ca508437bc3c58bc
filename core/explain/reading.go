package explain

import (
	"fmt"
	"strings"
)

// read renders the explanation in the paper's words (SPEC §6).
func (e *Explanation) read() string {
	var b strings.Builder
	if e.Prob >= 0.5 {
		fmt.Fprintf(&b, "%s is suggested to %s (p = %.2f) because ", e.J.ID, e.I.ID, e.Prob)
	} else {
		fmt.Fprintf(&b, "%s is not suggested to %s (p = %.2f): ", e.J.ID, e.I.ID, e.Prob)
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
	s := clause(e.I, e.J.ID, verb) + " and " + clause(e.J, e.I.ID, verb)
	if e.Masked {
		s += " (their own link was set aside)"
	}
	return s
}

// clause says which of s's selected neighbours speak for the link to
// other, with their mean structure and feature scores.
func clause(s Side, other, verb string) string {
	sel := s.Selected()
	if len(sel) == 0 {
		return fmt.Sprintf("%s has no neighbours to speak for it", s.ID)
	}
	names := make([]string, len(sel))
	var st, no float64
	for k, n := range sel {
		names[k] = n.ID
		st += n.Structure
		no += n.Features
	}
	noun := "neighbours"
	if len(sel) == 1 {
		noun = "neighbour"
		verb = strings.Replace(verb, "are", "is", 1)
	}
	return fmt.Sprintf("%s's %s %s %s %s (structure %.2f, features %.2f)", s.ID, noun,
		strings.Join(names, ", "), verb, other, st/float64(len(sel)), no/float64(len(sel)))
}
