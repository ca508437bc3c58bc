package explain

import (
	"math"
	"testing"
)

func TestSpearman(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		want float64
		ok   bool
	}{
		// By hand: ranks of x are 1, 2.5, 2.5, 4 and of y 1, 3, 2, 4; about
		// their mean 2.5, Σdx·dy = 4.5, Σdx² = 4.5, Σdy² = 5, so
		// ρ = 4.5/√22.5 = √0.9.
		{"ties", []float64{1, 2, 2, 4}, []float64{10, 30, 20, 40}, math.Sqrt(0.9), true},
		{"reversed", []float64{3, 1, 2}, []float64{-5, 7, 0}, -1, true},
		// Ranks 1, 2.5, 2.5 against 1, 3, 2: Σdx·dy = 1.5, Σdx² = 1.5,
		// Σdy² = 2, ρ = 1.5/√3.
		{"three with a tie", []float64{1, 2, 2}, []float64{0.1, 0.3, 0.2}, 1.5 / math.Sqrt(3), true},
		{"constant", []float64{1, 1, 1}, []float64{1, 2, 3}, 0, false},
		{"one value", []float64{1}, []float64{2}, 0, false},
		{"lengths differ", []float64{1, 2}, []float64{2}, 0, false},
	} {
		got, ok := Spearman(tc.x, tc.y)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: Spearman = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// nb is a neighbour for the faithfulness cases: selected ones carry an
// attribution and p without them.
func nb(node int, selected bool, attr, without float64) Neighbor {
	return Neighbor{Node: node, ID: "n", Selected: selected, Attribution: attr, ProbWithout: without}
}

func TestMeasureFaithfulness(t *testing.T) {
	pair := func(prob, removed, randomRemoved, random float64, i, j []Neighbor) *Explanation {
		return &Explanation{I: Side{Node: 0, Neighbors: i}, J: Side{Node: 1, Neighbors: j},
			Prob: prob, ProbRemoved: removed, ProbRandomRemoved: randomRemoved, ProbRandom: random}
	}
	outside := nb(9, false, 0, 0)
	outside.Outside = true
	es := []*Explanation{
		// A: drops 0.4, 0.3, 0.1 order like attributions 2, 1.5, 1 (ρ = 1);
		// beats random (0.3 < 0.5) and substitutes (0.3 < 0.35).
		pair(0.8, 0.3, 0.5, 0.35,
			[]Neighbor{nb(2, true, 2, 0.4), nb(3, true, 1.5, 0.5), nb(4, false, 0, 0)},
			[]Neighbor{nb(2, true, 1, 0.7)}),
		// B: no end has more than K = 2 candidates: left out.
		pair(0.8, 0.1, 0.9, 0.9,
			[]Neighbor{nb(2, true, 1, 0.5), nb(3, true, 2, 0.4)},
			[]Neighbor{nb(2, true, 1, 0.5), nb(4, true, 2, 0.1)}),
		// C: one selected neighbour, no correlation; ties with random
		// (not a win), beats substitutes.
		pair(0.9, 0.6, 0.6, 0.7,
			[]Neighbor{nb(2, true, 5, 0.6), nb(3, false, 0, 0), nb(4, false, 0, 0)}, nil),
		// D: three neighbours but one outside the bound: 2 candidates,
		// left out.
		pair(0.8, 0.1, 0.9, 0.9,
			[]Neighbor{nb(2, true, 1, 0.5), nb(3, true, 2, 0.4), outside},
			[]Neighbor{nb(2, true, 1, 0.5)}),
		// E: attributions 1, 2, 2 against drops 0.1, 0.3, 0.2 (ρ = 1.5/√3);
		// beats random only.
		pair(0.9, 0.1, 0.2, 0.05,
			[]Neighbor{nb(2, true, 1, 0.8), nb(3, true, 2, 0.6), nb(4, false, 0, 0)},
			[]Neighbor{nb(5, true, 2, 0.7)}),
		// F: constant attributions, no correlation; beats substitutes only.
		pair(0.9, 0.5, 0.4, 0.6,
			[]Neighbor{nb(2, true, 1, 0.8), nb(3, true, 1, 0.6), nb(4, false, 0, 0)}, nil),
	}
	got := MeasureFaithfulness(es, 2)
	want := Faithfulness{Pairs: 4, SelectedBeatsRandomShare: 0.5, SelectedBeatsSubstitutesShare: 0.75,
		AttributionSpearmanMean: (1 + 1.5/math.Sqrt(3)) / 2, SpearmanPairs: 2}
	if got.Pairs != want.Pairs || got.SpearmanPairs != want.SpearmanPairs ||
		got.SelectedBeatsRandomShare != want.SelectedBeatsRandomShare ||
		got.SelectedBeatsSubstitutesShare != want.SelectedBeatsSubstitutesShare ||
		math.Abs(got.AttributionSpearmanMean-want.AttributionSpearmanMean) > 1e-12 {
		t.Errorf("MeasureFaithfulness = %+v, want %+v", got, want)
	}
	if got := MeasureFaithfulness(es[1:2], 2); got != (Faithfulness{}) {
		t.Errorf("no pair with a choice: %+v, want zeros", got)
	}
}

func TestCounterfactual(t *testing.T) {
	sel := func(ids ...string) []Neighbor {
		var out []Neighbor
		for k, id := range ids {
			out = append(out, Neighbor{Node: 10 + k, ID: id, Selected: true, Weight: 1 / float64(len(ids)), Rank: k + 1})
		}
		return out
	}
	for _, tc := range []struct {
		name                  string
		i, j                  []Neighbor
		prob, removed, random float64
		draws                 int
		want                  string
	}{
		{"lowers both", sel("x", "y", "z"), sel("u", "v", "w"), 0.92, 0.85, 0.91, 10,
			"Removing the 3 selected neighbours of a and the 3 of b lowers p from 92.0% to 85.0%; removing as many random neighbours lowers it to 91.0% (mean of 10 draws)."},
		{"raises", sel("x"), nil, 0.30, 0.45, 0.28, 10,
			"Removing the selected neighbour of a raises p from 30.0% to 45.0%; removing as many random neighbours lowers it to 28.0% (mean of 10 draws)."},
		{"only j", nil, sel("u", "v"), 0.6, 0.5, 0.7, 1,
			"Removing the 2 selected neighbours of b lowers p from 60.0% to 50.0%; removing as many random neighbours raises it to 70.0% (one draw)."},
		{"leaves", sel("x"), sel("u"), 0.5, 0.5, 0.5, 10,
			"Removing the selected neighbour of a and the one of b leaves p at 50.0%; removing as many random neighbours leaves it at 50.0% (mean of 10 draws)."},
		// Near one, what reads the same leaves p where it is.
		{"near one", sel("x"), sel("u"), 0.9991, 0.9952, 0.9987, 10,
			"Removing the selected neighbour of a and the one of b lowers p from 99.9% to 99.5%; removing as many random neighbours leaves it at 99.9% (mean of 10 draws)."},
		{"nothing selected", nil, nil, 0.4, 0.4, 0.4, 10,
			"Neither a nor b has a selected neighbour: p = 40.0% rests on the two nodes alone."},
		{"no random draws", sel("x"), nil, 0.8, 0.6, 0, 0,
			"Removing the selected neighbour of a lowers p from 80.0% to 60.0%."},
	} {
		e := &Explanation{I: Side{Node: 0, ID: "a", Neighbors: tc.i}, J: Side{Node: 1, ID: "b", Neighbors: tc.j},
			Prob: tc.prob, ProbRemoved: tc.removed, ProbRandomRemoved: tc.random, RandomDraws: tc.draws}
		if got := e.Counterfactual(); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
