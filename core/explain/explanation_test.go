package explain

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/graph"
)

// valid is a hand-made explanation of (a, b): a's neighbours c (selected,
// common) and d; b's neighbour c (selected).
func valid() *Explanation {
	return &Explanation{
		I: Side{Node: 0, ID: "a", Neighbors: []Neighbor{
			{Node: 2, ID: "c", Structure: 0.8, Features: 0.6, Score: 0.7, Common: true, Selected: true, Weight: 1, Rank: 1},
			{Node: 3, ID: "d", Structure: 0.1, Features: 0.2, Score: 0.15, Rank: 2},
		}},
		J: Side{Node: 1, ID: "b", Neighbors: []Neighbor{
			{Node: 2, ID: "c", Structure: 0.4, Features: 0.5, Score: 0.45, Common: true, Selected: true, Weight: 1, Rank: 1},
		}},
		Prob: 0.75, ProbRandom: 0.5, ProbRemoved: 0.25,
	}
}

func TestFinish(t *testing.T) {
	e := valid()
	if err := e.Finish(); err != nil {
		t.Fatal(err)
	}
	want := "b is suggested to a (p = 75.0%) because a's neighbour c is similar to b (structure 0.80, features 0.60) and b's neighbour c is similar to a (structure 0.40, features 0.50)."
	if e.Reading != want {
		t.Errorf("reading\n%q, want\n%q", e.Reading, want)
	}
	// Finish writes the counterfactual sentence too, for clients that
	// cannot call Counterfactual.
	if want := "Removing the selected neighbour of a and the one of b lowers p from 75.0% to 25.0%."; e.Removal != want {
		t.Errorf("removal\n%q, want\n%q", e.Removal, want)
	}
	e = valid()
	e.Prob, e.Masked = 0.25, true
	e.J.Neighbors[0].Selected, e.J.Neighbors[0].Weight = false, 0
	if err := e.Finish(); err != nil {
		t.Fatal(err)
	}
	want = "b is not suggested to a (p = 25.0%): a's neighbour c is only weakly similar to b (structure 0.80, features 0.60) and b has no neighbours to speak for it (their own link was set aside)."
	if e.Reading != want {
		t.Errorf("reading\n%q, want\n%q", e.Reading, want)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(e *Explanation)
		want  string
	}{
		{"same ends", func(e *Explanation) { e.J.Node = 0 }, "both ends"},
		{"prob NaN", func(e *Explanation) { e.Prob = math.NaN() }, "prob of (a, b) is NaN"},
		{"prob above 1", func(e *Explanation) { e.ProbRemoved = 1.5 }, "prob_removed"},
		{"random removed below 0", func(e *Explanation) { e.ProbRandomRemoved = -0.1 }, "prob_random_removed of (a, b) is -0.1"},
		{"negative draws", func(e *Explanation) { e.RandomDraws = -1 }, "random_draws of (a, b) is -1"},
		{"prob without NaN", func(e *Explanation) { e.J.Neighbors[0].ProbWithout = math.NaN() }, "side b: neighbour c has prob_without NaN"},
		{"prob without above 1", func(e *Explanation) { e.I.Neighbors[0].ProbWithout = 2 }, "prob_without 2, not a probability"},
		{"attribution infinite", func(e *Explanation) { e.I.Neighbors[0].Attribution = math.Inf(-1) }, "attribution -Inf"},
		{"rank order", func(e *Explanation) { e.I.Neighbors[1].Rank = 3 }, "rank 3 at place 2"},
		{"self", func(e *Explanation) { e.I.Neighbors[1].Node = 0 }, "its own neighbour"},
		{"twice", func(e *Explanation) { e.I.Neighbors[1].Node = 2 }, "appears twice"},
		{"negative weight", func(e *Explanation) { e.I.Neighbors[1].Weight = -0.1 }, "weight -0.1"},
		{"weights sum", func(e *Explanation) { e.I.Neighbors[1].Selected, e.I.Neighbors[1].Weight = true, 0.5 }, "sum to 1.5"},
	} {
		e := valid()
		tc.spoil(e)
		err := e.Finish()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if e.Reading != "" {
			t.Errorf("%s: an invalid explanation got a reading", tc.name)
		}
	}
}

func TestRanks(t *testing.T) {
	rank := func(i, j int) []int32 { return []int32{int32(i + 10), int32(j + 20), 7} }
	ex := Ranks("test", rank)
	r, err := ex.Explain(1, 2, 2)
	if err != nil || ex.Method() != "test" || r.Weighted || !slices.Equal(r.I, []Ranked{{Node: 11}, {Node: 22}}) || !slices.Equal(r.J, []Ranked{{Node: 12}, {Node: 21}}) {
		t.Errorf("Explain: %+v, %v", r, err)
	}
	dup := Ranks("dup", func(int, int) []int32 { return []int32{4, 4} })
	if _, err := dup.Explain(0, 1, 5); err == nil || !strings.Contains(err.Error(), "ranks node 4 twice") {
		t.Errorf("a ranking naming a node twice: %v", err)
	}
}

// cutter scores pair k as its index minus the number of edges removed,
// so removing neighbours of the positives lowers them below negatives.
type cutter struct{}

func (cutter) LogitWithout(i, j int, removed []graph.Edge) float32 {
	return float32(i) - 10*float32(len(removed))
}

func TestFidelity(t *testing.T) {
	// Two positives (logits 3, 4) and two negatives (1, 2): AUC 1. Each
	// m lowers the positives by m; the AUCs, ties counting half, by hand:
	logits := func(m int) []float32 { return []float32{3 - float32(m), 4 - float32(m), 1, 2} }
	var steps []int
	full, cut, err := Fidelity(context.Background(), 2, 3, logits, func(m int) { steps = append(steps, m) })
	// m=1: 2,3 vs 1,2: (2>1)+(2=2: ½)+(3>1)+(3>2) = 3.5/4; m=2: 1,2 vs 1,2: ½+0+1+½ = 2/4;
	// m=3: 0,1 vs 1,2: 0+0+½+0 = 0.5/4.
	if err != nil || full != 1 || !slices.Equal(cut, []float64{0.875, 0.5, 0.125}) || !slices.Equal(steps, []int{1, 2, 3}) {
		t.Errorf("Fidelity: %v %v %v %v", full, cut, steps, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, cut, err := Fidelity(ctx, 2, 3, logits, nil); !errors.Is(err, context.Canceled) || len(cut) != 0 {
		t.Errorf("cancelled: %v %v", cut, err)
	}
	// LogitsWithout removes the top m of each end's ranking: with m = 2
	// and rankings of three nodes, four edges per pair.
	pairs := []graph.Edge{{U: 5, V: 6}, {U: 7, V: 8}}
	rank := func(i, j int) []int32 { return []int32{1, 2, 3} }
	if got := LogitsWithout(rank, cutter{}, pairs, 2); !slices.Equal(got, []float32{5 - 40, 7 - 40}) {
		t.Errorf("LogitsWithout: %v", got)
	}
	if got := LogitsWithout(rank, cutter{}, pairs, 0); !slices.Equal(got, []float32{5, 7}) {
		t.Errorf("LogitsWithout m=0: %v", got)
	}
}
