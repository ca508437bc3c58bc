package ilpgnn

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
)

// bruteCand is a candidate scored from scratch in float64.
type bruteCand struct {
	node   int32
	s      float64
	common bool
}

// bruteSelect selects N^r(i|j) by brute force: every neighbour of i (but j
// when the pair is masked) scored in float64 from S̃, the max scaling and a
// float64 dot product, sorted by descending s, ties by node id, common
// neighbours first when commonFirst. It returns every candidate in that
// order and how many are selected.
func bruteSelect(m *Model, in *Inputs, hr []float32, i, j int, commonFirst bool) ([]bruteCand, int) {
	g := in.Graph
	cfg := m.Config
	masked := cfg.MaskTarget && i != j && g.HasEdge(i, j)
	d := cfg.Hidden
	var out []bruteCand
	var st []float64
	hi := 0.0
	for _, c := range g.Neighbors(i) {
		if masked && int(c) == j {
			continue
		}
		v := float64(in.Sim.At(int(c), j))
		hi = math.Max(hi, v)
		st = append(st, v)
		out = append(out, bruteCand{node: c, common: g.HasEdge(int(c), j) && !(masked && int(c) == i)})
	}
	for n := range out {
		if cfg.Structure == ScaleMax && hi > 0 {
			st[n] /= hi
		}
		dot := 0.0
		for k := range d {
			dot += float64(hr[j*d+k]) * float64(hr[int(out[n].node)*d+k])
		}
		out[n].s = cfg.Alpha*st[n] + (1-cfg.Alpha)/(1+math.Exp(-dot))
	}
	slices.SortFunc(out, func(a, b bruteCand) int {
		if commonFirst && a.common != b.common {
			if a.common {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		return cmp.Compare(a.node, b.node)
	})
	return out, min(cfg.K, len(out))
}

// sameSelection reports whether the scorer's first k nodes are the brute
// force's, allowing a swap only between candidates whose float64 scores
// differ by less than float32 rounding can move them.
func sameSelection(got []Candidate, want []bruteCand, k int) bool {
	score := make(map[int32]float64, len(want))
	for _, c := range want {
		score[c.node] = c.s
	}
	for n := range k {
		if got[n].Node != want[n].node && math.Abs(score[got[n].Node]-want[n].s) > 1e-6 {
			return false
		}
	}
	return true
}

// TestSelectionOrderScoreBruteForce: under OrderScore every selection path
// (the eager and the lazy scorer, training's batch, Selections and
// Explain) takes for every ordered pair of a small graph the K neighbours
// that a brute-force sort of all candidates by s (recomputed in float64)
// puts first; and the graph has pairs where common-first selects otherwise,
// so the test tells the orders apart.
func TestSelectionOrderScoreBruteForce(t *testing.T) {
	g := testGraph(t, 50, 4, 5, 11)
	for _, k := range []int{2, 3} {
		cfg := smallConfig()
		cfg.K, cfg.Order = k, OrderScore
		m, in := testModel(t, g, cfg)
		hr := m.Encode(nil, in, 0, nil).Value
		p := PredictorFrom(m, in, hr)
		eager, lazy := m.newScorer(in, hr, m.AnchorEmbeddings(in)), m.newScorer(in, hr, m.AnchorEmbeddings(in))
		lazy.lazy = true
		var pairs []graph.Edge
		differ := 0
		for i := range g.NumNodes() {
			for j := range g.NumNodes() {
				if i != j {
					pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
				}
			}
		}
		// want[s·P+p] is side s of pair p's brute-force selection.
		P := len(pairs)
		want := make([][]int32, 2*P)
		for p, e := range pairs {
			for s, ends := range [2][2]int{{int(e.U), int(e.V)}, {int(e.V), int(e.U)}} {
				i, j := ends[0], ends[1]
				bf, kk := bruteSelect(m, in, hr, i, j, false)
				cf, _ := bruteSelect(m, in, hr, i, j, true)
				masked := m.masked(in, i, j)
				for name, sc := range map[string]*scorer{"eager": eager, "lazy": lazy} {
					got, kg := sc.side(0, i, j, masked, nil, nil)
					if kg != kk || !sameSelection(got, bf, kk) {
						t.Fatalf("K %d, %s scorer, (%d, %d): selects %v, brute force %v", k, name, i, j, got[:kg], bf[:kk])
					}
				}
				got, _ := eager.side(0, i, j, masked, nil, nil)
				want[s*P+p] = nodesOf(got[:kk])
				if !slices.EqualFunc(bf[:kk], cf[:kk], func(a, b bruteCand) bool { return a.node == b.node }) {
					differ++
				}
			}
		}
		if differ < 50 {
			t.Fatalf("K %d: only %d sides where common-first selects otherwise: the test would not tell the orders apart", k, differ)
		}

		// Training's batch (lazy, grouped by target) selects as the eager
		// scorer does, in the same order.
		var b Batch
		m.Build(&b, in, hr, pairs, make([]float32, P), Objective{Lambda: 0.1, Delta: 0.5}, 1)
		for seg := range 2 * P {
			got := b.sel.node[b.sel.offsets[seg]:b.sel.offsets[seg+1]]
			if !slices.Equal(got, want[seg]) {
				t.Fatalf("K %d: batch segment %d (pair %v) selects %v, eager scorer %v", k, seg, pairs[seg%P], got, want[seg])
			}
		}
		// The predictor's Selections and Explain select the same.
		sels := p.Selections(pairs)
		for q, e := range pairs {
			for s, side := range [2][]Selected{sels[q].I, sels[q].J} {
				got := make([]int32, len(side))
				for n, c := range side {
					got[n] = c.Node
				}
				if !slices.Equal(got, want[s*P+q]) {
					t.Fatalf("K %d: Selections(%v) side %d = %v, want %v", k, e, s, got, want[s*P+q])
				}
			}
			if q%25 != 0 {
				continue // Explain's counterfactuals cost more: a sample
			}
			ex, err := p.Explain(int(e.U), int(e.V))
			if err != nil {
				t.Fatal(err)
			}
			for s, side := range [2][]int32{selectedNodes(ex.I.Neighbors), selectedNodes(ex.J.Neighbors)} {
				w := slices.Clone(want[s*P+q])
				slices.Sort(w)
				if !slices.Equal(side, w) {
					t.Fatalf("K %d: Explain(%v) side %d selects %v, want %v", k, e, s, side, w)
				}
			}
		}
	}
}

// TestSelectionOrderScoreLogits: under OrderScore the lazy prediction
// (Logits) equals the eager one (Explain's p), pair by pair.
func TestSelectionOrderScoreLogits(t *testing.T) {
	g := testGraph(t, 40, 4, 5, 12)
	cfg := smallConfig()
	cfg.Order = OrderScore
	m, in := testModel(t, g, cfg)
	p := NewPredictor(m, in)
	var pairs []graph.Edge
	for i := 0; i < g.NumNodes(); i += 3 {
		for j := 1; j < g.NumNodes(); j += 5 {
			if i != j {
				pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
			}
		}
	}
	logits := p.Logits(pairs)
	for q, e := range pairs {
		ex, err := p.Explain(int(e.U), int(e.V))
		if err != nil {
			t.Fatal(err)
		}
		if want := float64(sigmoid(logits[q])); ex.Prob != want {
			t.Fatalf("%v: lazy logit gives p = %v, eager %v", e, want, ex.Prob)
		}
	}
}

func selectedNodes(ns []explain.Neighbor) []int32 {
	var out []int32
	for _, n := range ns {
		if n.Selected {
			out = append(out, int32(n.Node))
		}
	}
	slices.Sort(out)
	return out
}

// TestSelectionOrderConfig: the order's names round-trip through JSON,
// the default (common-first) is left out of it so that default checkpoints
// keep their bytes, and unknown values are refused with the value named.
func TestSelectionOrderConfig(t *testing.T) {
	def, err := json.Marshal(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(def), "Order") {
		t.Fatalf("the default config's JSON names the order: %s", def)
	}
	cfg := DefaultConfig()
	cfg.Order = OrderScore
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Order":"score"`) {
		t.Fatalf("JSON %s does not carry \"Order\":\"score\"", b)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Order != OrderScore {
		t.Fatalf("order after a round trip = %v, want score", back.Order)
	}
	bad := strings.Replace(string(b), `"Order":"score"`, `"Order":"scores"`, 1)
	if err := json.Unmarshal([]byte(bad), &back); err == nil || !strings.Contains(err.Error(), `"scores"`) {
		t.Fatalf("unknown order in JSON: error %v, want one naming \"scores\"", err)
	}
	cfg.Order = 7
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "selection order 7") {
		t.Fatalf("Validate of order 7: %v", err)
	}
	for _, o := range []SelectionOrder{OrderCommonFirst, OrderScore} {
		if got, err := ParseSelectionOrder(o.String()); err != nil || got != o {
			t.Fatalf("ParseSelectionOrder(%q) = %v, %v", o.String(), got, err)
		}
	}
}
