package explain

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"ilpgnn/core/printable"
)

// ProbDigits are the decimals every probability is written with, as a
// percentage, in the command line's text, the card and the app alike.
const ProbDigits = 1

// FormatProb writes the probability p as a percentage with digits
// decimals ("94.6%"), except that a p that would print as 0% or 100% is
// written "< 0.1%" or "> 99.9%" (for digits 1): a probability from a
// finite logit is neither, and a model is never that sure of a link.
func FormatProb(p float64, digits int) string {
	if math.IsNaN(p) {
		return "NaN"
	}
	pct := func(v float64) string { return strconv.FormatFloat(v, 'f', digits, 64) + "%" }
	step := math.Pow(10, -float64(digits)) // the last place shown, in percent
	switch s := pct(100 * p); s {
	case pct(0):
		return "< " + pct(step)
	case pct(100):
		return "> " + pct(100-step)
	default:
		return s
	}
}

// ProbIs is "= " and FormatProb(p, digits), or FormatProb alone where it
// is a bound ("< 0.1%"): the way to write "p = ..." in a sentence.
func ProbIs(p float64, digits int) string {
	s := FormatProb(p, digits)
	if s[0] == '<' || s[0] == '>' {
		return s
	}
	return "= " + s
}

// read renders the explanation in the paper's words (docs/model.md §6).
func (e *Explanation) read() string {
	var b strings.Builder
	i, j := printable.Listed(e.I.ID), printable.Listed(e.J.ID)
	if e.Prob >= 0.5 {
		fmt.Fprintf(&b, "%s is suggested to %s (p %s) because ", j, i, ProbIs(e.Prob, ProbDigits))
	} else {
		fmt.Fprintf(&b, "%s is not suggested to %s (p %s): ", j, i, ProbIs(e.Prob, ProbDigits))
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
	s := clause(e.I, printable.Listed(e.J.ID), verb) + " and " + clause(e.J, printable.Listed(e.I.ID), verb)
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
		return fmt.Sprintf("%s has no neighbours to speak for it", printable.Listed(s.ID))
	}
	names := make([]string, len(sel))
	var st, no float64
	for k, n := range sel {
		names[k] = printable.Listed(n.ID)
		st += n.Structure
		no += n.Features
	}
	noun := "neighbours"
	if len(sel) == 1 {
		noun = "neighbour"
		verb = strings.Replace(verb, "are", "is", 1)
	}
	return fmt.Sprintf("%s's %s %s %s %s (structure %.2f, features %.2f)", printable.Listed(s.ID), noun,
		strings.Join(names, ", "), verb, other, st/float64(len(sel)), no/float64(len(sel)))
}
