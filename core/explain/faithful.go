package explain

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"ilpgnn/core/printable"
)

// Spearman returns the Spearman rank correlation of x and y (equal
// lengths): the Pearson correlation of their ranks, tied values taking the
// average of the ranks they span. ok is false when it is undefined: fewer
// than two values, or either side constant.
func Spearman(x, y []float64) (rho float64, ok bool) {
	if len(x) != len(y) || len(x) < 2 {
		return 0, false
	}
	rx, ry := ranks(x), ranks(y)
	n := float64(len(x))
	mean := (n + 1) / 2 // the mean of any average ranks of n values
	var sxy, sxx, syy float64
	for k := range rx {
		dx, dy := rx[k]-mean, ry[k]-mean
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}

// ranks returns the 1-based ranks of v in increasing order, ties averaged.
func ranks(v []float64) []float64 {
	order := make([]int, len(v))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	r := make([]float64, len(v))
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && v[order[hi]] == v[order[lo]] {
			hi++
		}
		avg := float64(lo+hi+1) / 2 // ranks lo+1..hi
		for _, k := range order[lo:hi] {
			r[k] = avg
		}
		lo = hi
	}
	return r
}

// Faithfulness says how much explanations' selected neighbours carry their
// predictions, over a set of pairs (issue 18: the linked test pairs).
type Faithfulness struct {
	// Pairs is how many explanations had a choice to make: at least one
	// end with more than K candidates. The shares and the correlation are
	// over them.
	Pairs int `json:"pairs"`
	// SelectedBeatsRandomShare is the share of Pairs where removing the
	// selected neighbours lowers p more than removing as many random ones
	// (ProbRemoved < ProbRandomRemoved).
	SelectedBeatsRandomShare float64 `json:"selected_beats_random_share"`
	// SelectedBeatsSubstitutesShare is the share where removing the
	// selected neighbours lowers p more than putting K random substitutes
	// in their place (ProbRemoved < ProbRandom).
	SelectedBeatsSubstitutesShare float64 `json:"selected_beats_substitutes_share"`
	// AttributionSpearmanMean is the mean, over SpearmanPairs, of the
	// Spearman correlation between the selected neighbours' Attribution and
	// their drop Prob - ProbWithout. A pair enters when it has at least two
	// selected neighbours (both ends together) and neither list is
	// constant (a correlation is then undefined).
	AttributionSpearmanMean float64 `json:"attribution_spearman_mean"`
	SpearmanPairs           int     `json:"attribution_spearman_pairs"`
}

// MeasureFaithfulness computes Faithfulness over es for a model selecting
// k neighbours per end.
func MeasureFaithfulness(es []*Explanation, k int) Faithfulness {
	var f Faithfulness
	var random, subst int
	var rhoSum float64
	for _, e := range es {
		if candidates(e.I) <= k && candidates(e.J) <= k {
			continue
		}
		f.Pairs++
		if e.ProbRemoved < e.ProbRandomRemoved {
			random++
		}
		if e.ProbRemoved < e.ProbRandom {
			subst++
		}
		var attr, drop []float64
		for _, side := range [2]Side{e.I, e.J} {
			for _, n := range side.Neighbors {
				if n.Selected {
					attr = append(attr, n.Attribution)
					drop = append(drop, e.Prob-n.ProbWithout)
				}
			}
		}
		if rho, ok := Spearman(attr, drop); ok {
			rhoSum += rho
			f.SpearmanPairs++
		}
	}
	if f.Pairs > 0 {
		f.SelectedBeatsRandomShare = float64(random) / float64(f.Pairs)
		f.SelectedBeatsSubstitutesShare = float64(subst) / float64(f.Pairs)
	}
	if f.SpearmanPairs > 0 {
		f.AttributionSpearmanMean = rhoSum / float64(f.SpearmanPairs)
	}
	return f
}

// candidates counts the neighbours of s the model could select (those
// within the bound on candidates).
func candidates(s Side) int {
	n := 0
	for _, c := range s.Neighbors {
		if !c.Outside {
			n++
		}
	}
	return n
}

// Counterfactual says, for a reader, what removing the selected neighbours
// does to p and what removing as many random neighbours does, e.g.
// "Removing the 3 selected neighbours of a and the 3 of b lowers p from
// 92.0% to 85.0%; removing as many random neighbours lowers it to 91.0%
// (mean of 10 draws)." Probabilities are written as everywhere else
// (ProbDigits); where two read the same, p "leaves" rather than moves.
func (e *Explanation) Counterfactual() string {
	nI, nJ := len(e.I.Selected()), len(e.J.Selected())
	d := ProbDigits
	f := func(p float64) string { return FormatProb(p, d) }
	i, j := printable.Listed(e.I.ID), printable.Listed(e.J.ID)
	if nI+nJ == 0 {
		return fmt.Sprintf("Neither %s nor %s has a selected neighbour: p %s rests on the two nodes alone.", i, j, ProbIs(e.Prob, d))
	}
	var what string
	switch {
	case nI > 0 && nJ > 0:
		other := strconv.Itoa(nJ)
		if nJ == 1 {
			other = "one"
		}
		what = fmt.Sprintf("%s of %s and the %s of %s", selectedNoun(nI), i, other, j)
	case nI > 0:
		what = fmt.Sprintf("%s of %s", selectedNoun(nI), i)
	default:
		what = fmt.Sprintf("%s of %s", selectedNoun(nJ), j)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Removing %s %s p", what, verb(e.Prob, e.ProbRemoved, d))
	if f(e.Prob) == f(e.ProbRemoved) {
		fmt.Fprintf(&b, " at %s", f(e.Prob))
	} else {
		fmt.Fprintf(&b, " from %s to %s", f(e.Prob), f(e.ProbRemoved))
	}
	if e.RandomDraws > 0 {
		fmt.Fprintf(&b, "; removing as many random neighbours %s it ", verb(e.Prob, e.ProbRandomRemoved, d))
		if f(e.Prob) == f(e.ProbRandomRemoved) {
			b.WriteString("at ")
		} else {
			b.WriteString("to ")
		}
		b.WriteString(f(e.ProbRandomRemoved))
		if e.RandomDraws == 1 {
			b.WriteString(" (one draw)")
		} else {
			fmt.Fprintf(&b, " (mean of %d draws)", e.RandomDraws)
		}
	}
	b.WriteString(".")
	return b.String()
}

func selectedNoun(n int) string {
	if n == 1 {
		return "the selected neighbour"
	}
	return fmt.Sprintf("the %d selected neighbours", n)
}

// verb says how p moves from before to after, as shown with d decimals.
func verb(before, after float64, d int) string {
	switch b, a := FormatProb(before, d), FormatProb(after, d); {
	case a == b:
		return "leaves"
	case after < before:
		return "lowers"
	default:
		return "raises"
	}
}
