package ilpgnn

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
)

// boundOracle returns the nodes of cands in the bound's order, by a plain
// sort on explicit keys: common neighbours first, then s_ST descending with
// NaNs last and ±0 equal, then node id.
func boundOracle(cands []Candidate) []int32 {
	type key struct {
		common bool
		nan    bool
		st     float64
		node   int32
	}
	keys := make([]key, len(cands))
	for k, c := range cands {
		v := float64(c.ST)
		keys[k] = key{c.Common, math.IsNaN(v), v, c.Node}
		if keys[k].nan || v == 0 {
			keys[k].st = 0 // NaNs are ordered by nan; ±0 compare equal
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		switch {
		case a.common != b.common:
			if a.common {
				return -1
			}
			return 1
		case a.nan != b.nan:
			if b.nan {
				return -1
			}
			return 1
		case a.st > b.st:
			return -1
		case a.st < b.st:
			return 1
		}
		return int(a.node) - int(b.node)
	})
	out := make([]int32, len(keys))
	for k, x := range keys {
		out[k] = x.node
	}
	return out
}

// TestSelectBound: the first c candidates after selectBound are, as a set,
// the first c of the oracle's full sort, and the whole list is a
// permutation of the input, for lists with many tied, signed-zero and NaN
// scores, of every length up to 300 and every c.
func TestSelectBound(t *testing.T) {
	values := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), 0.25, 0.5, 1}
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n := 2 + r.IntN(300)
		cands := make([]Candidate, n)
		for k := range cands {
			st := values[r.IntN(len(values))]
			if trial%2 == 0 {
				st = r.Float32() // mostly distinct scores
			}
			cands[k] = Candidate{Node: int32(3*k + r.IntN(3)), ST: st, Common: r.IntN(4) == 0}
		}
		r.Shuffle(n, func(a, b int) { cands[a], cands[b] = cands[b], cands[a] })
		want := boundOracle(cands)
		for _, c := range []int{1, 2, n / 3, n / 2, n - 1} {
			if c < 1 || c >= n {
				continue
			}
			got := slices.Clone(cands)
			selectBound(got, c)
			gotNodes := nodesOf(got)
			head := slices.Clone(gotNodes[:c])
			slices.Sort(head)
			wantHead := slices.Clone(want[:c])
			slices.Sort(wantHead)
			if !slices.Equal(head, wantHead) {
				t.Fatalf("n %d c %d: kept %v, want %v", n, c, head, wantHead)
			}
			all := slices.Clone(gotNodes)
			slices.Sort(all)
			wantAll := slices.Clone(want)
			slices.Sort(wantAll)
			if !slices.Equal(all, wantAll) {
				t.Fatalf("n %d c %d: not a permutation", n, c)
			}
		}
	}
}

// hubGraph is testGraph with three hubs linked to half the nodes, so that
// the bound has sides to cut.
func hubGraph(t testing.TB, seed uint64) *graph.Graph {
	t.Helper()
	base := testGraph(t, 40, 2, 5, seed)
	edges := base.Edges()
	for h := range 3 {
		for v := h + 3; v < 40; v += 2 {
			edges = append(edges, graph.Edge{U: int32(h), V: int32(v)})
		}
	}
	g, err := graph.New(40, edges, base.Features, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCandidatesBound checks every pair of a graph with hubs against a
// brute-force computation: the neighbours within the bound are the C best
// by the oracle's order on S̃[c, j] (read entry by entry with Similarity.At);
// N^r is selected among them by docs/model.md §4's rule on scores recomputed in
// float64; an explanation and Ranked list the candidates by score and the
// rest after them in the bound's order; and prediction, training's batch
// and explanation give the same p_ij.
func TestCandidatesBound(t *testing.T) {
	g := hubGraph(t, 8)
	const C = 4
	for _, scale := range []StructureScale{ScaleMax, ScalePaper} {
		cfg := smallConfig()
		cfg.Candidates, cfg.Structure = C, scale
		m, in := testModel(t, g, cfg)
		h0 := startEmbeddings(t, g, cfg, in)
		p := NewPredictor(m, in)
		var pairs []graph.Edge
		cut := 0
		for i := range 40 {
			for j := range 40 {
				if i == j {
					continue
				}
				pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
				mask := g.HasEdge(i, j)
				score := wantScores(cfg, p, h0, i, j, mask)
				var all []Candidate
				for _, c := range g.Neighbors(i) {
					if mask && int(c) == j {
						continue
					}
					all = append(all, Candidate{Node: c, ST: in.Sim.At(int(c), j), Common: g.HasEdge(int(c), j) && !(mask && int(c) == i)})
				}
				order := boundOracle(all)
				kept := order[:min(C, len(order))]
				if len(order) > C {
					cut++
				}
				// N^r among the kept: common first, then by score, ties by id.
				byScore := slices.Clone(kept)
				common := func(c int32) bool { return g.HasEdge(int(c), j) }
				slices.SortFunc(byScore, func(a, b int32) int {
					switch {
					case common(a) != common(b):
						if common(a) {
							return -1
						}
						return 1
					case score[a] > score[b]:
						return -1
					case score[a] < score[b]:
						return 1
					}
					return int(a) - int(b)
				})
				wantSel := slices.Clone(byScore[:min(cfg.K, len(byScore))])
				slices.Sort(wantSel)

				e, err := p.Explain(i, j)
				if err != nil {
					t.Fatal(err)
				}
				var gotKept, gotSel []int32
				var outside []int32
				for _, n := range e.I.Neighbors {
					if math.Abs(n.Score-score[int32(n.Node)]) > 1e-5 {
						t.Fatalf("%v (%d,%d): neighbour %d scores %v, want %v", scale, i, j, n.Node, n.Score, score[int32(n.Node)])
					}
					if n.Outside {
						outside = append(outside, int32(n.Node))
						if n.Selected {
							t.Fatalf("%v (%d,%d): neighbour %d outside the bound is selected", scale, i, j, n.Node)
						}
						continue
					}
					if len(outside) > 0 {
						t.Fatalf("%v (%d,%d): candidate %d ranked after a neighbour outside the bound", scale, i, j, n.Node)
					}
					gotKept = append(gotKept, int32(n.Node))
					if n.Selected {
						gotSel = append(gotSel, int32(n.Node))
					}
				}
				sortedKept := slices.Sorted(slices.Values(gotKept))
				wantKept := slices.Sorted(slices.Values(kept))
				slices.Sort(gotSel)
				if !slices.Equal(sortedKept, wantKept) || !slices.Equal(gotSel, wantSel) {
					t.Fatalf("%v (%d,%d): candidates %v selected %v, want %v and %v", scale, i, j, sortedKept, gotSel, wantKept, wantSel)
				}
				if want := order[len(kept):]; !slices.Equal(outside, want) {
					t.Fatalf("%v (%d,%d): outside the bound ranked %v, want %v", scale, i, j, outside, want)
				}
				// Ranked lists the explanation's order.
				var explained []int32
				for _, n := range e.I.Neighbors {
					explained = append(explained, int32(n.Node))
				}
				if ranked := p.RankedNodes(i, j); !slices.Equal(ranked, explained) {
					t.Fatalf("%v (%d,%d): Ranked %v, explanation %v", scale, i, j, ranked, explained)
				}
				if i == 0 && !strings.Contains(e.Reading, g.IDs[j]) {
					t.Fatalf("reading %q does not name %s", e.Reading, g.IDs[j])
				}
			}
		}
		if cut < 100 {
			t.Fatalf("only %d sides cut by the bound: the test graph has too few hubs", cut)
		}
		lazy := p.Logits(pairs)
		for k, e := range pairs {
			ex, err := p.Explain(int(e.U), int(e.V))
			if err != nil {
				t.Fatal(err)
			}
			if want := float64(sigmoid(lazy[k])); ex.Prob != want {
				t.Fatalf("%v %v: Logits gives p = %v, Explain %v", scale, e, want, ex.Prob)
			}
		}
		// Training's batch selects the same neighbours.
		hr := m.Encode(nil, in, 0, nil)
		obj := Objective{Lambda: 0.3, Delta: 0.5, Relaxed: true}
		b := trainingBatch(t, m, in, hr.Value, obj)
		got := m.Loss(nil, hr, b, obj).Logits.Value
		want := PredictorFrom(m, in, hr.Value).Logits(b.Pairs)
		for k := range want {
			if math.Abs(float64(got[k]-want[k])) > 1e-4*(1+math.Abs(float64(want[k]))) {
				t.Fatalf("%v pair %d %v: batch logit %v, predictor %v", scale, k, b.Pairs[k], got[k], want[k])
			}
		}
		// Fidelity's deletion: nothing removed is the model, everything
		// removed (more than the bound) leaves h^r_i · h^r_j.
		none := p.LogitsWithout(pairs, 0)
		bare := p.LogitsWithout(pairs, 1000)
		d := cfg.Hidden
		for k, e := range pairs {
			i, j := int(e.U), int(e.V)
			if math.Float32bits(none[k]) != math.Float32bits(lazy[k]) {
				t.Fatalf("%v %v: removing nothing changed the logit from %v to %v", scale, e, lazy[k], none[k])
			}
			var dot float32
			for c := range d {
				dot += p.Hr[i*d+c] * p.Hr[j*d+c]
			}
			if math.Abs(float64(bare[k]-dot)) > 1e-5 {
				t.Fatalf("%v %v: removing every neighbour gives %v, want %v", scale, e, bare[k], dot)
			}
		}
	}
}

// TestCandidatesAtMaxDegree: a bound no side reaches changes nothing: the
// logits are bit-identical to those without a bound, and so are the
// explanations and training's batch.
func TestCandidatesAtMaxDegree(t *testing.T) {
	g := hubGraph(t, 9)
	maxDeg := 0
	for i := range g.NumNodes() {
		maxDeg = max(maxDeg, g.Degree(i))
	}
	var pairs []graph.Edge
	for i := range 40 {
		for j := i + 1; j < 40; j++ {
			pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	run := func(c int) ([]float32, []float32, []*explain.Explanation) {
		cfg := smallConfig()
		cfg.Candidates = c
		m, in := testModel(t, g, cfg)
		p := NewPredictor(m, in)
		var ex []*explain.Explanation
		for _, e := range pairs[:200] {
			x, err := p.Explain(int(e.U), int(e.V))
			if err != nil {
				t.Fatal(err)
			}
			ex = append(ex, x)
		}
		hr := m.Encode(nil, in, 0, nil)
		obj := Objective{Lambda: 0.3, Delta: 0.5}
		b := trainingBatch(t, m, in, hr.Value, obj)
		l := m.Loss(nil, hr, b, obj)
		return p.Logits(pairs), append(slices.Clone(l.Logits.Value), l.Total.Value...), ex
	}
	base, baseLoss, baseEx := run(0)
	for _, c := range []int{maxDeg, maxDeg + 5} {
		got, loss, ex := run(c)
		for k := range base {
			if math.Float32bits(got[k]) != math.Float32bits(base[k]) {
				t.Fatalf("C %d (max degree %d) %v: logit %v, without a bound %v", c, maxDeg, pairs[k], got[k], base[k])
			}
		}
		for k := range baseLoss {
			if math.Float32bits(loss[k]) != math.Float32bits(baseLoss[k]) {
				t.Fatalf("C %d: batch value %d is %v, without a bound %v", c, k, loss[k], baseLoss[k])
			}
		}
		if !reflect.DeepEqual(ex, baseEx) {
			t.Fatalf("C %d: explanations differ from those without a bound", c)
		}
	}
	// And a bound below the hubs' degree does change them (the test above
	// compares something).
	if got, _, _ := run(smallConfig().K); slices.Equal(got, base) {
		t.Fatal("a bound of K on a graph with hubs changed no logit")
	}
}

// TestCandidatesValidate: a negative bound, or one below K, is refused
// with its value; 0 and K are accepted.
func TestCandidatesValidate(t *testing.T) {
	c := DefaultConfig()
	for _, bad := range []int{-1, c.K - 1} {
		c.Candidates = bad
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), "candidates") || !strings.Contains(err.Error(), "got "+strconv.Itoa(bad)) {
			t.Fatalf("candidates %d: error %v, want one naming candidates and the value", bad, err)
		}
	}
	for _, ok := range []int{0, c.K, 64} {
		c.Candidates = ok
		if err := c.Validate(); err != nil {
			t.Fatalf("candidates %d: %v", ok, err)
		}
	}
}
