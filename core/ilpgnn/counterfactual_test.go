package ilpgnn

import (
	"math"
	"slices"
	"testing"

	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
)

// without returns p's model on p's graph less the edges from i to each of
// ci and from j to each of cj, with the same H^r and S̃: the oracle of the
// counterfactuals, which remove edges from the graph the selection sees.
func without(t *testing.T, p *Predictor, i int, ci []int32, j int, cj []int32) *Predictor {
	t.Helper()
	gone := map[graph.Edge]bool{}
	for _, side := range []struct {
		n  int
		cs []int32
	}{{i, ci}, {j, cj}} {
		for _, c := range side.cs {
			gone[graph.Edge{U: int32(min(side.n, int(c))), V: int32(max(side.n, int(c)))}] = true
		}
	}
	var keep []graph.Edge
	for _, e := range p.Inputs.Graph.Edges() {
		if !gone[e] {
			keep = append(keep, e)
		}
	}
	g, err := p.Inputs.Graph.WithEdges(keep)
	if err != nil {
		t.Fatal(err)
	}
	in := *p.Inputs
	in.Graph = g
	return PredictorFrom(p.Model, &in, p.Hr)
}

// subsets returns every m-element subset of s (all of s when m ≥ len(s)).
func subsets(s []int32, m int) [][]int32 {
	if m >= len(s) {
		return [][]int32{slices.Clone(s)}
	}
	if m == 0 {
		return [][]int32{nil}
	}
	var out [][]int32
	for _, rest := range subsets(s[1:], m-1) {
		out = append(out, append([]int32{s[0]}, rest...))
	}
	return append(out, subsets(s[1:], m)...)
}

// candidatesOf returns the neighbours of i after the pair's target masking.
func candidatesOf(p *Predictor, i, j int) []int32 {
	return maskedNeighbors(p.Inputs.Graph.Neighbors(i), p.Model.masked(p.Inputs, i, j), j)
}

// TestLeaveOneOutAndRandomRemoval checks, against graphs with the edges
// really removed: each selected neighbour's ProbWithout, bit for bit; its
// Attribution, β b_c h^r_c · h_j recomputed in float64 from the reported
// weights, and that each side's terms and h^r_i · h_j add up to the logit;
// and that ProbRandomRemoved lies between the least and the greatest p of
// every removal of as many neighbours as were selected.
func TestLeaveOneOutAndRandomRemoval(t *testing.T) {
	g := testGraph(t, 25, 2, 4, 8)
	cfg := smallConfig()
	m, in := testModel(t, g, cfg)
	p := NewPredictor(m, in)
	p.Seed = 3
	d := cfg.Hidden
	// h returns h_n = h^r_n + β Σ b_c h^r_c over side s's selection.
	h := func(s explain.Side) []float64 {
		out := make([]float64, d)
		for k := range d {
			out[k] = float64(p.Hr[s.Node*d+k])
		}
		for _, n := range s.Selected() {
			for k := range d {
				out[k] += cfg.Beta * n.Weight * float64(p.Hr[n.Node*d+k])
			}
		}
		return out
	}
	dot := func(a []float32, b []float64) (s float64) {
		for k := range b {
			s += float64(a[k]) * b[k]
		}
		return s
	}
	checked, bounded := 0, 0
	for i := 0; i < 25; i++ {
		for j := i + 1; j < 25; j++ {
			e, err := p.Explain(i, j)
			if err != nil {
				t.Fatal(err)
			}
			if e.RandomDraws != RandomDraws {
				t.Fatalf("(%d,%d): %d random draws", i, j, e.RandomDraws)
			}
			logit := math.Log(e.Prob / (1 - e.Prob))
			for _, side := range []struct {
				s, other explain.Side
				n, o     int
			}{{e.I, e.J, i, j}, {e.J, e.I, j, i}} {
				hOther := h(side.other)
				sum := dot(p.Hr[side.n*d:side.n*d+d], hOther)
				for _, n := range side.s.Neighbors {
					if !n.Selected {
						if n.ProbWithout != 0 || n.Attribution != 0 {
							t.Fatalf("(%d,%d): unselected %d has %v, %v", i, j, n.Node, n.ProbWithout, n.Attribution)
						}
						continue
					}
					want := without(t, p, side.n, []int32{int32(n.Node)}, side.o, nil).Prob(i, j)
					if n.ProbWithout != want {
						t.Fatalf("(%d,%d) neighbour %d of %d: ProbWithout %v, the graph without the edge gives %v", i, j, n.Node, side.n, n.ProbWithout, want)
					}
					term := cfg.Beta * n.Weight * dot(p.Hr[n.Node*d:n.Node*d+d], hOther)
					if math.Abs(n.Attribution-term) > 1e-5*max(1, math.Abs(term)) {
						t.Fatalf("(%d,%d) neighbour %d: attribution %v, want %v", i, j, n.Node, n.Attribution, term)
					}
					sum += n.Attribution
					checked++
				}
				if e.Prob < 0.999 && e.Prob > 0.001 && math.Abs(sum-logit) > 1e-3*max(1, math.Abs(logit)) {
					t.Fatalf("(%d,%d) side %d: h^r·h and the terms add to %v, the logit is %v", i, j, side.n, sum, logit)
				}
			}
			// Every removal of as many random neighbours as were selected.
			ni, nj := candidatesOf(p, i, j), candidatesOf(p, j, i)
			si, sj := subsets(ni, len(e.I.Selected())), subsets(nj, len(e.J.Selected()))
			if len(si)*len(sj) > 200 {
				continue
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, a := range si {
				for _, b := range sj {
					pr := without(t, p, i, a, j, b).Prob(i, j)
					lo, hi = min(lo, pr), max(hi, pr)
				}
			}
			if !(e.ProbRandomRemoved >= lo-1e-12 && e.ProbRandomRemoved <= hi+1e-12) {
				t.Fatalf("(%d,%d): ProbRandomRemoved %v outside [%v, %v]", i, j, e.ProbRandomRemoved, lo, hi)
			}
			if len(si) == 1 && len(sj) == 1 && math.Abs(e.ProbRandomRemoved-e.ProbRemoved) > 1e-12 {
				t.Fatalf("(%d,%d): every neighbour selected, yet ProbRandomRemoved %v != ProbRemoved %v", i, j, e.ProbRandomRemoved, e.ProbRemoved)
			}
			bounded++
		}
	}
	if checked < 100 || bounded < 100 {
		t.Fatalf("only %d neighbours and %d random removals checked", checked, bounded)
	}
}

// TestRandomRemovalSeeded: the random removal depends on the seed and the
// pair only, and in a stream of its own (ProbRandom does not change when
// it is drawn).
func TestRandomRemovalSeeded(t *testing.T) {
	g := testGraph(t, 30, 4, 4, 5)
	m, in := testModel(t, g, smallConfig())
	p, q := NewPredictor(m, in), NewPredictor(m, in)
	p.Seed, q.Seed = 1, 2
	differ := 0
	for i := range 10 {
		a, err := p.Explain(i, i+10)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := p.Explain(i, i+10)
		if a.ProbRandomRemoved != b.ProbRandomRemoved || a.ProbRandom != b.ProbRandom {
			t.Fatalf("(%d,%d): two explanations differ", i, i+10)
		}
		c, _ := q.Explain(i, i+10)
		if c.ProbRandomRemoved != a.ProbRandomRemoved {
			differ++
		}
	}
	if differ == 0 {
		t.Error("seeds 1 and 2 drew the same random removals for 10 pairs")
	}
}

// TestLogitsWithoutRandom: removing none changes nothing, removing every
// neighbour leaves h^r_i · h^r_j, and removing one of each end gives the
// logit of one of the graphs with one such edge pair removed.
func TestLogitsWithoutRandom(t *testing.T) {
	g := testGraph(t, 20, 2, 4, 6)
	cfg := smallConfig()
	m, in := testModel(t, g, cfg)
	p := NewPredictor(m, in)
	p.Seed = 9
	var pairs []graph.Edge
	for i := range 20 {
		pairs = append(pairs, graph.Edge{U: int32(i), V: int32((i*7 + 3) % 20)})
	}
	pairs = slices.DeleteFunc(pairs, func(e graph.Edge) bool { return e.U == e.V })
	full, none := p.Logits(pairs), p.LogitsWithout(pairs, 1000)
	zero, all := p.LogitsWithoutRandom(pairs, 0, 0), p.LogitsWithoutRandom(pairs, 1000, 4)
	one, again := p.LogitsWithoutRandom(pairs, 1, 2), p.LogitsWithoutRandom(pairs, 1, 2)
	if !slices.Equal(zero, full) || !slices.Equal(all, none) || !slices.Equal(one, again) {
		t.Fatalf("m=0 %v vs %v; m=all %v vs %v; repeated %v vs %v", zero, full, all, none, one, again)
	}
	for k, e := range pairs {
		i, j := int(e.U), int(e.V)
		found := false
		for _, a := range subsets(candidatesOf(p, i, j), 1) {
			for _, b := range subsets(candidatesOf(p, j, i), 1) {
				q := without(t, p, i, a, j, b)
				if q.Logits([]graph.Edge{e})[0] == one[k] {
					found = true
				}
			}
		}
		if !found {
			t.Fatalf("%v: logit %v after one random removal per end is none of the graphs'", e, one[k])
		}
	}
}
