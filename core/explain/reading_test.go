package explain

import (
	"math"
	"testing"
)

func TestFormatProb(t *testing.T) {
	for _, tc := range []struct {
		p      float64
		places int
		want   string
		is     string
	}{
		{0.9458, 1, "94.6%", "= 94.6%"},
		{0.9458, 2, "94.58%", "= 94.58%"},
		{0.9994, 1, "99.9%", "= 99.9%"},
		{0.99951, 1, "> 99.9%", "> 99.9%"}, // would print 100.0%
		{1, 1, "> 99.9%", "> 99.9%"},
		{0.0004, 1, "< 0.1%", "< 0.1%"},
		{0, 2, "< 0.01%", "< 0.01%"},
		{0.0006, 1, "0.1%", "= 0.1%"},
		{0.5, 1, "50.0%", "= 50.0%"},
		{math.NaN(), 1, "NaN", "= NaN"},
	} {
		if got := FormatProb(tc.p, tc.places); got != tc.want {
			t.Errorf("FormatProb(%v, %d) = %q, want %q", tc.p, tc.places, got, tc.want)
		}
		if got := ProbIs(tc.p, tc.places); got != tc.is {
			t.Errorf("ProbIs(%v, %d) = %q, want %q", tc.p, tc.places, got, tc.is)
		}
	}
}

// TestReadingEscapesNames: a neighbour or end whose id carries terminal
// escapes or a line break is written escaped in the reading and the
// counterfactual, which the command line prints as they are.
func TestReadingEscapesNames(t *testing.T) {
	e := &Explanation{
		I:    Side{Node: 0, ID: "\x1b]0;PWNED\a\x1b[31mRED", Neighbors: []Neighbor{{Node: 2, ID: "n\nforged line", Rank: 1, Selected: true, Weight: 1}}},
		J:    Side{Node: 1, ID: "j", Neighbors: []Neighbor{{Node: 3, ID: "k", Rank: 1, Selected: true, Weight: 1}}},
		Prob: 0.999999, ProbRemoved: 0.5, ProbRandomRemoved: 0.7, RandomDraws: 3,
	}
	want := `j is suggested to \x1b]0;PWNED\a\x1b[31mRED (p > 99.9%) because \x1b]0;PWNED\a\x1b[31mRED's neighbour n\nforged line is similar to j (structure 0.00, features 0.00) and j's neighbour k is similar to \x1b]0;PWNED\a\x1b[31mRED (structure 0.00, features 0.00).`
	if got := e.read(); got != want {
		t.Errorf("reading:\n got %q\nwant %q", got, want)
	}
	wantCF := `Removing the selected neighbour of \x1b]0;PWNED\a\x1b[31mRED and the one of j lowers p from > 99.9% to 50.0%; removing as many random neighbours lowers it to 70.0% (mean of 3 draws).`
	if got := e.Counterfactual(); got != wantCF {
		t.Errorf("counterfactual:\n got %q\nwant %q", got, wantCF)
	}
}

// TestReadingQuotesCommaNames: an id that holds a comma is quoted in the
// reading, the counterfactual and the walk-through, so that a list of
// three neighbours does not read as four (issue 49).
func TestReadingQuotesCommaNames(t *testing.T) {
	e := &Explanation{
		I: Side{Node: 0, ID: "Brujon", Neighbors: []Neighbor{
			{Node: 2, ID: "Gueulemer", Rank: 1, Selected: true, Weight: 0.5},
			{Node: 3, ID: "Claquesous, Thenardier", Rank: 2, Selected: true, Weight: 0.3},
			{Node: 4, ID: "Jondrette", Rank: 3, Selected: true, Weight: 0.2},
		}},
		J:    Side{Node: 1, ID: "Valjean, Jean", Neighbors: []Neighbor{{Node: 5, ID: "Javert, Inspector", Rank: 1, Selected: true, Weight: 1}}},
		Prob: 0.9, ProbRemoved: 0.5, ProbRandomRemoved: 0.7, RandomDraws: 3,
	}
	want := `“Valjean, Jean” is suggested to Brujon (p = 90.0%) because Brujon's neighbours Gueulemer, “Claquesous, Thenardier”, Jondrette are similar to “Valjean, Jean” (structure 0.00, features 0.00) and “Valjean, Jean”'s neighbour “Javert, Inspector” is similar to Brujon (structure 0.00, features 0.00).`
	if got := e.read(); got != want {
		t.Errorf("reading:\n got %q\nwant %q", got, want)
	}
	wantCF := `Removing the 3 selected neighbours of Brujon and the one of “Valjean, Jean” lowers p from 90.0% to 50.0%; removing as many random neighbours lowers it to 70.0% (mean of 3 draws).`
	if got := e.Counterfactual(); got != wantCF {
		t.Errorf("counterfactual:\n got %q\nwant %q", got, wantCF)
	}
}
