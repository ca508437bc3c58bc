package ilpgnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/diffusion"
	"ilpgnn/core/explain"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// testGraph returns a random graph on n nodes where each node links to deg
// others, with dense random features of dimension d0 (stored sparse).
func testGraph(t testing.TB, n, deg, d0 int, seed uint64) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		for k := 0; k < deg; k++ {
			j := rng.IntN(n)
			edges = append(edges, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	x := &f32.CSR{Rows: n, Cols: d0, Indptr: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		for c := 0; c < d0; c++ {
			if rng.Float64() < 0.6 {
				x.Indices = append(x.Indices, int32(c))
				x.Values = append(x.Values, float32(rng.NormFloat64()))
			}
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func testModel(t testing.TB, g *graph.Graph, cfg Config) (*Model, *Inputs) {
	t.Helper()
	m, err := New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	in, err := Prepare(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m, in
}

// wantScores returns s(i, c, j) = α s_ST + (1-α) s_NO (eq 5) for every
// candidate c of i (all of N(i) but j when masked), computed in float64
// from S̃ entry by entry, with cfg's scaling, and from p's embeddings;
// with an anchor, s_NO = (1-ρ)σ(h^r_j·h^r_c) + ρσ(h^0_j·h^0_c) from the
// start's embeddings h0.
func wantScores(cfg Config, p *Predictor, h0 []float32, i, j int, masked bool) map[int32]float64 {
	st := map[int32]float64{}
	hi := 0.0
	for _, c := range p.Inputs.Graph.Neighbors(i) {
		if masked && int(c) == j {
			continue
		}
		st[c] = float64(p.Inputs.Sim.At(int(c), j))
		hi = max(hi, st[c])
	}
	d := cfg.Hidden
	score := map[int32]float64{}
	for c, v := range st {
		if cfg.Structure == ScaleMax && hi > 0 {
			v /= hi
		}
		var dot, dot0 float64
		for k := range d {
			dot += float64(p.Hr[j*d+k]) * float64(p.Hr[int(c)*d+k])
			if cfg.Anchor != 0 {
				dot0 += float64(h0[j*d+k]) * float64(h0[int(c)*d+k])
			}
		}
		no := 1 / (1 + math.Exp(-dot))
		if cfg.Anchor != 0 {
			no = (1-cfg.Anchor)*no + cfg.Anchor/(1+math.Exp(-dot0))
		}
		score[c] = cfg.Alpha*v + (1-cfg.Alpha)*no
	}
	return score
}

// startEmbeddings returns H^r of the model testModel draws for cfg, with
// no anchor and its isometric shift fitted to in: the oracle of the
// anchor's H^0.
func startEmbeddings(t testing.TB, g *graph.Graph, cfg Config, in *Inputs) []float32 {
	t.Helper()
	cfg.Anchor = 0
	m, _ := testModel(t, g, cfg)
	m.FitIsometricBias(in)
	return m.Encode(nil, in, 0, nil).Value
}

// nudge adds uniform noise of the given size to every weight of m, as
// training would move them.
func nudge(m *Model, size float64, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	for _, p := range m.Params() {
		for k := range p.Value {
			p.Value[k] += float32(size * (2*rng.Float64() - 1))
		}
	}
}

func smallConfig() Config {
	c := DefaultConfig()
	c.Hidden = 6
	c.K = 2
	c.Diffusion.Method = diffusion.Exact
	return c
}

// TestGCNAdjacency compares Ã with D̂^-1/2 (A+I) D̂^-1/2 computed entry by
// entry in float64.
func TestGCNAdjacency(t *testing.T) {
	g := testGraph(t, 15, 2, 3, 1)
	a := gcnAdjacency(g)
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 15; i++ {
		for j := 0; j < 15; j++ {
			var want float64
			if i == j || g.HasEdge(i, j) {
				want = 1 / math.Sqrt(float64((g.Degree(i)+1)*(g.Degree(j)+1)))
			}
			if got := float64(a.At(i, j)); math.Abs(got-want) > 1e-6 {
				t.Fatalf("Ã[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}

// TestSelection re-derives N^r(i|j) for every pair of a small graph from
// scores computed independently in float64 (S̃ from Similarity.At, s_NO from
// the embeddings), and checks the rule of docs/model.md §4: common neighbours first
// by descending score, then the rest, K in all, ties by id, target masked.
//
// With an anchor the weights are moved first, as training would, and the
// start's embeddings of the oracle come from a second model drawn from the
// same seed without one.
func TestSelection(t *testing.T) {
	g := testGraph(t, 20, 3, 4, 2)
	for _, c := range []struct {
		mask   bool
		scale  StructureScale
		anchor float64
	}{{true, ScaleMax, 0}, {false, ScaleMax, 0}, {true, ScalePaper, 0}, {true, ScaleMax, 0.6}} {
		mask := c.mask
		cfg := smallConfig()
		cfg.MaskTarget, cfg.Structure, cfg.Anchor = mask, c.scale, c.anchor
		m, in := testModel(t, g, cfg)
		var h0 []float32
		if c.anchor != 0 {
			h0 = startEmbeddings(t, g, cfg, in)
			nudge(m, 0.3, 5)
		}
		p := NewPredictor(m, in)
		for i := 0; i < 20; i++ {
			for j := 0; j < 20; j++ {
				if i == j {
					continue
				}
				e, err := p.Explain(i, j)
				if err != nil {
					t.Fatal(err)
				}
				type cand struct {
					c      int
					s      float64
					common bool
				}
				var cs []cand
				linked := g.HasEdge(i, j)
				score := wantScores(cfg, p, h0, i, j, mask && linked)
				for _, c := range g.Neighbors(i) {
					if mask && linked && int(c) == j {
						continue
					}
					cs = append(cs, cand{int(c), score[c], g.HasEdge(int(c), j)})
				}
				if len(cs) != len(e.I.Neighbors) {
					t.Fatalf("mask=%v (%d,%d): %d candidates, want %d", mask, i, j, len(e.I.Neighbors), len(cs))
				}
				// Expected selection, by brute force.
				var want []int
				for _, common := range []bool{true, false} {
					var group []cand
					for _, c := range cs {
						if c.common == common {
							group = append(group, c)
						}
					}
					slices.SortFunc(group, func(a, b cand) int {
						if a.s != b.s {
							if a.s > b.s {
								return -1
							}
							return 1
						}
						return a.c - b.c
					})
					for _, c := range group {
						if len(want) < cfg.K {
							want = append(want, c.c)
						}
					}
				}
				var got []int
				for _, n := range e.I.Neighbors {
					if n.Selected {
						got = append(got, n.Node)
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("mask=%v N^r(%d|%d) = %v, want %v", mask, i, j, got, want)
				}
				for _, n := range e.I.Neighbors {
					var ref cand
					for _, c := range cs {
						if c.c == n.Node {
							ref = c
						}
					}
					if math.Abs(n.Score-ref.s) > 1e-5 || n.Common != ref.common {
						t.Fatalf("(%d,%d) neighbour %d: score %v common %v, want %v %v", i, j, n.Node, n.Score, n.Common, ref.s, ref.common)
					}
				}
			}
		}
	}
}

// TestMasking: for a linked pair, masking removes each end from the other's
// candidates; without masking the other end is a candidate.
func TestMasking(t *testing.T) {
	g := testGraph(t, 20, 3, 4, 3)
	e0 := g.Edges()[0]
	i, j := int(e0.U), int(e0.V)
	for _, c := range []struct {
		mask  bool
		scale StructureScale
	}{{true, ScaleMax}, {false, ScaleMax}, {true, ScalePaper}} {
		mask := c.mask
		cfg := smallConfig()
		cfg.MaskTarget, cfg.Structure = mask, c.scale
		m, in := testModel(t, g, cfg)
		e, err := NewPredictor(m, in).Explain(i, j)
		if err != nil {
			t.Fatal(err)
		}
		has := slices.ContainsFunc(e.I.Neighbors, func(n explain.Neighbor) bool { return n.Node == j })
		has2 := slices.ContainsFunc(e.J.Neighbors, func(n explain.Neighbor) bool { return n.Node == i })
		if has == mask || has2 == mask || e.Masked != mask || !e.Linked {
			t.Errorf("mask=%v: j among i's candidates %v, i among j's %v, Masked %v", mask, has, has2, e.Masked)
		}
	}
}

// trainingBatch builds the batch of the first epoch on g: every edge as a
// positive, and as many random non-edges.
func trainingBatch(t testing.TB, m *Model, in *Inputs, hr []float32, obj Objective) *Batch {
	g := in.Graph
	pairs := g.Edges()
	P := len(pairs)
	rng := rand.New(rand.NewPCG(5, 5))
	for len(pairs) < 2*P {
		i, j := rng.IntN(g.NumNodes()), rng.IntN(g.NumNodes())
		if i != j && !g.HasEdge(i, j) {
			pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	var b Batch
	m.Build(&b, in, hr, pairs, labels, obj, 11)
	return &b
}

// TestBatchMatchesPredictor: the batched tape forward and the per-pair
// inference path give the same logits, with and without an anchor.
func TestBatchMatchesPredictor(t *testing.T) {
	g := testGraph(t, 30, 3, 5, 4)
	for _, c := range []struct{ beta, anchor float64 }{{0, 0}, {1, 0}, {0.5, 0}, {0.5, 0.5}} {
		beta := c.beta
		cfg := smallConfig()
		cfg.Beta, cfg.Anchor = beta, c.anchor
		cfg.Tau = 0.3
		m, in := testModel(t, g, cfg)
		nudge(m, 0.2, 3) // so that H^r is not the anchor's H^0
		hr := m.Encode(nil, in, 0, nil)
		obj := Objective{Lambda: 0.3, Delta: 0.5}
		b := trainingBatch(t, m, in, hr.Value, obj)
		got := m.Loss(nil, hr, b, obj).Logits.Value
		want := PredictorFrom(m, in, hr.Value).Logits(b.Pairs)
		for k := range want {
			if math.Abs(float64(got[k]-want[k])) > 1e-4*(1+math.Abs(float64(want[k]))) {
				t.Fatalf("beta %v pair %d %v: batch logit %v, predictor %v", beta, k, b.Pairs[k], got[k], want[k])
			}
		}
	}
}

// TestLossGradient checks every weight's gradient of the whole ILP-GNN loss
// (eq 13, both explanation losses active) against central finite
// differences, with the discrete selection held fixed. float32 forward,
// h = 4e-3: tolerance 2e-3 absolute + 3% relative, which a wrong sign, a
// missing factor or a transposed product would exceed.
func TestLossGradient(t *testing.T) {
	g := testGraph(t, 14, 4, 5, 6)
	// Both starts; the isometric one with a full-size GCN branch, because
	// a shrunken branch puts pre-activations within the finite-difference
	// step of the ReLU's kink.
	for _, relaxed := range []bool{false, true} {
		cfg := smallConfig()
		cfg.Tau = 0.5
		if relaxed {
			cfg.Init = InitGlorot
			cfg.Anchor = 0.4 // a constant of the loss: no gradient flows into it
		} else {
			cfg.IsometricBranch = 1
		}
		m, in := testModel(t, g, cfg)
		obj := Objective{Lambda: 0.7, Delta: 0.5, Relaxed: relaxed, NegMean: relaxed}
		hr0 := m.Encode(nil, in, 0, nil)
		b := trainingBatch(t, m, in, hr0.Value, obj)
		if b.ContributingPositives() == 0 {
			t.Fatalf("relaxed=%v: no positive feeds L^p_dis; the test graph is too sparse", relaxed)
		}
		loss := func() float64 {
			return float64(m.Loss(nil, m.Encode(nil, in, 0, nil), b, obj).Total.Value[0])
		}
		tape := autograd.NewTape()
		for _, p := range m.Params() {
			p.ZeroGrad()
		}
		l := m.Loss(tape, m.Encode(tape, in, 0, nil), b, obj)
		if l.Pos.Value[0] == 0 || l.Neg.Value[0] == 0 {
			t.Fatalf("relaxed=%v: an explanation loss is zero (pos %v, neg %v)", relaxed, l.Pos.Value[0], l.Neg.Value[0])
		}
		tape.Backward(l.Total)
		const h = 4e-3
		for pi, p := range m.Params() {
			for k := range p.Value {
				orig := p.Value[k]
				p.Value[k] = orig + h
				up := loss()
				p.Value[k] = orig - h
				down := loss()
				p.Value[k] = orig
				fd := (up - down) / (2 * h)
				an := float64(p.Grad[k])
				if math.Abs(fd-an) > 2e-3+0.03*math.Abs(fd) {
					t.Errorf("relaxed=%v %s[%d]: analytic %v, finite difference %v", relaxed, ParamNames()[pi], k, an, fd)
				}
			}
		}
	}
}

// TestExplanationFields checks the invariants of an explanation and the
// counterfactual with every neighbour removed against a direct computation.
func TestExplanationFields(t *testing.T) {
	g := testGraph(t, 25, 2, 4, 8)
	cfg := smallConfig()
	m, in := testModel(t, g, cfg)
	p := NewPredictor(m, in)
	d := cfg.Hidden
	for i := 0; i < 25; i++ {
		for j := i + 1; j < 25; j++ {
			e, err := p.Explain(i, j)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(e.Prob-p.Prob(i, j)) > 1e-6 {
				t.Fatalf("(%d,%d): Prob %v, Predictor.Prob %v", i, j, e.Prob, p.Prob(i, j))
			}
			for _, s := range []explain.Side{e.I, e.J} {
				var sum float64
				nsel := 0
				for r, n := range s.Neighbors {
					if n.Rank != r+1 || (r > 0 && n.Score > s.Neighbors[r-1].Score) {
						t.Fatalf("(%d,%d) side %d: ranks out of order", i, j, s.Node)
					}
					if n.Selected {
						sum += n.Weight
						nsel++
					}
				}
				if nsel != min(cfg.K, len(s.Neighbors)) || (nsel > 0 && math.Abs(sum-1) > 1e-5) {
					t.Fatalf("(%d,%d) side %d: %d selected with weights summing to %v", i, j, s.Node, nsel, sum)
				}
			}
			// When every neighbour of both ends is selected, removing them
			// leaves h = h^r: p = sigmoid(h^r_i · h^r_j).
			if len(e.I.Neighbors) <= cfg.K && len(e.J.Neighbors) <= cfg.K {
				var dot float64
				for k := 0; k < d; k++ {
					dot += float64(p.Hr[i*d+k]) * float64(p.Hr[j*d+k])
				}
				if want := 1 / (1 + math.Exp(-dot)); math.Abs(e.ProbRemoved-want) > 1e-5 {
					t.Fatalf("(%d,%d): ProbRemoved %v, want %v", i, j, e.ProbRemoved, want)
				}
			}
			if e.Reading == "" || !containsAll(e.Reading, g.IDs[i], g.IDs[j]) {
				t.Fatalf("(%d,%d): reading %q does not name both nodes", i, j, e.Reading)
			}
		}
	}
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// TestSuggest: suggestions are non-neighbours, sorted by probability, and
// their probabilities match Prob.
func TestSuggest(t *testing.T) {
	g := testGraph(t, 25, 2, 4, 9)
	m, in := testModel(t, g, smallConfig())
	p := NewPredictor(m, in)
	s, err := p.Suggest(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 5 {
		t.Fatalf("%d suggestions, want 5", len(s))
	}
	// Brute force: the best non-neighbour by Prob.
	best, bestP := -1, -1.0
	for j := 0; j < 25; j++ {
		if j != 3 && !g.HasEdge(3, j) {
			if pr := p.Prob(3, j); pr > bestP {
				best, bestP = j, pr
			}
		}
	}
	if s[0].Node != best {
		t.Errorf("top suggestion %d, brute force %d", s[0].Node, best)
	}
	for k, x := range s {
		if g.HasEdge(3, x.Node) || x.Node == 3 {
			t.Errorf("suggestion %d is already a neighbour", x.Node)
		}
		if k > 0 && x.Prob > s[k-1].Prob {
			t.Errorf("suggestions not sorted at %d", k)
		}
	}
	if _, err := p.Suggest(99, 5); err == nil {
		t.Error("Suggest(99) on 25 nodes: no error")
	}
}

// TestRankedAndDeletion: Ranked orders every neighbour by the score s of
// eq 5, recomputed here in float64; deleting no neighbour leaves the logits
// as they are, and deleting all of them leaves h^r_i · h^r_j (docs/model.md §7).
func TestRankedAndDeletion(t *testing.T) {
	g := testGraph(t, 30, 3, 5, 4)
	cfg := smallConfig()
	m, in := testModel(t, g, cfg)
	h0 := startEmbeddings(t, g, cfg, in)
	p := NewPredictor(m, in)
	d := cfg.Hidden
	var pairs []graph.Edge
	for i := 0; i < 30; i++ {
		for j := i + 1; j < 30; j += 3 {
			pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
			ranked := p.Ranked(i, j)
			want := wantScores(cfg, p, h0, i, j, g.HasEdge(i, j))
			if len(ranked) != len(want) {
				t.Fatalf("(%d,%d): %d ranked, want %d", i, j, len(ranked), len(want))
			}
			for k, c := range ranked {
				if math.Abs(float64(c.S)-want[c.Node]) > 1e-5 {
					t.Fatalf("(%d,%d): neighbour %d scores %v, want %v", i, j, c.Node, c.S, want[c.Node])
				}
				if k > 0 && (c.S > ranked[k-1].S || c.S == ranked[k-1].S && c.Node < ranked[k-1].Node) {
					t.Fatalf("(%d,%d): rank %d out of order: %+v after %+v", i, j, k, c, ranked[k-1])
				}
			}
		}
	}
	full := p.Logits(pairs)
	none := p.LogitsWithout(pairs, 0)
	bare := p.LogitsWithout(pairs, 1000)
	for k, e := range pairs {
		if math.Float32bits(full[k]) != math.Float32bits(none[k]) {
			t.Fatalf("%v: removing 0 neighbours changed the logit from %v to %v", e, full[k], none[k])
		}
		i, j := int(e.U), int(e.V)
		if want := f32.Dot(p.Hr[i*d:i*d+d], p.Hr[j*d:j*d+d]); bare[k] != want {
			t.Fatalf("%v: removing every neighbour gives %v, want h_i·h_j = %v", e, bare[k], want)
		}
	}
}

// TestLazyScoring: training and prediction skip the feature score of
// neighbours that cannot be selected (K common neighbours fill the
// selection); the logits must equal those of full scoring, as Explain does.
func TestLazyScoring(t *testing.T) {
	g := testGraph(t, 25, 7, 5, 6) // dense enough for K = 3 common neighbours
	cfg := smallConfig()
	m, in := testModel(t, g, cfg)
	p := NewPredictor(m, in)
	var pairs []graph.Edge
	rich := 0
	for i := 0; i < 25; i++ {
		for j := i + 1; j < 25; j++ {
			pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
			common := 0
			for _, c := range g.Neighbors(i) {
				if int(c) != j && g.HasEdge(int(c), j) {
					common++
				}
			}
			if common >= cfg.K {
				rich++
			}
		}
	}
	if rich < 10 {
		t.Fatalf("only %d pairs with %d common neighbours: the test graph is too sparse", rich, cfg.K)
	}
	lazy := p.Logits(pairs)
	for k, e := range pairs {
		ex, err := p.Explain(int(e.U), int(e.V))
		if err != nil {
			t.Fatal(err)
		}
		if want := float64(sigmoid(lazy[k])); ex.Prob != want {
			t.Fatalf("%v: lazy logit gives p = %v, full scoring %v", e, want, ex.Prob)
		}
	}
}

// TestSelectFirst: the first k candidates after selectFirst are the first k
// of a full sort in selection order, and the rest is a permutation of the
// others, for lists with tied scores, on both the one-pass and the sorting
// path.
func TestSelectFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for trial := 0; trial < 500; trial++ {
		n := r.IntN(40)
		cands := make([]Candidate, n)
		for k := range cands {
			cands[k] = Candidate{Node: int32(r.IntN(1000)), S: float32(r.IntN(5)) / 4, Common: r.IntN(4) == 0}
			for slices.ContainsFunc(cands[:k], func(c Candidate) bool { return c.Node == cands[k].Node }) {
				cands[k].Node = int32(r.IntN(1000)) // node ids are distinct in a neighbourhood
			}
		}
		k := min(r.IntN(20), n)
		for o, order := range map[SelectionOrder]func(a, b Candidate) int{OrderCommonFirst: selectionOrder, OrderScore: scoreOrder} {
			want := slices.Clone(cands)
			slices.SortFunc(want, order)
			got := slices.Clone(cands)
			selectFirst(got, k, o)
			if !slices.Equal(got[:k], want[:k]) {
				t.Fatalf("n=%d k=%d %v: first %v, want %v", n, k, o, got[:k], want[:k])
			}
			rest, wantRest := slices.Clone(got[k:]), slices.Clone(want[k:])
			slices.SortFunc(rest, order)
			if !slices.Equal(rest, wantRest) {
				t.Fatalf("n=%d k=%d %v: the others are not the remaining candidates", n, k, o)
			}
		}
	}
}

// TestIsometricInit checks that an isometric start makes H^m·H^m the cosine
// of the raw features when d ≥ d0, computed in float64 from the features,
// and a scaled orthonormal projection with a linear ReLU when d < d0.
func TestIsometricInit(t *testing.T) {
	rows := func(g *graph.Graph) [][]float64 {
		x := make([][]float64, g.NumNodes())
		for i := range x {
			x[i] = make([]float64, g.FeatureDim())
			for p := g.Features.Indptr[i]; p < g.Features.Indptr[i+1]; p++ {
				x[i][g.Features.Indices[p]] = float64(g.Features.Values[p])
			}
		}
		return x
	}
	dot := func(a, b []float64) float64 {
		var s float64
		for k := range a {
			s += a[k] * b[k]
		}
		return s
	}
	t.Run("wide", func(t *testing.T) {
		g := testGraph(t, 30, 3, 8, 1)
		cfg := smallConfig()
		cfg.Hidden, cfg.Init, cfg.IsometricBranch = 12, InitIsometric, 0
		m, in := testModel(t, g, cfg)
		hr := m.Encode(nil, in, 0, nil)
		x := rows(g)
		d := cfg.Hidden
		for i := range x {
			for j := range i {
				ni, nj := math.Sqrt(dot(x[i], x[i])), math.Sqrt(dot(x[j], x[j]))
				if ni == 0 || nj == 0 {
					continue
				}
				var got float64
				for k := range d {
					got += float64(hr.Value[i*d+k]) * float64(hr.Value[j*d+k])
				}
				if want := dot(x[i], x[j]) / (ni * nj); math.Abs(got-want) > 1e-5 {
					t.Fatalf("h%d·h%d = %g, cosine of the features %g", i, j, got, want)
				}
			}
		}
	})
	t.Run("narrow", func(t *testing.T) {
		g := testGraph(t, 30, 3, 20, 2)
		cfg := smallConfig()
		cfg.Hidden, cfg.Init, cfg.IsometricBranch = 6, InitIsometric, 0.5
		m, in := testModel(t, g, cfg)
		d0, d := 20, 6
		for a := range d {
			for b := range d {
				var s float64
				for i := range d0 {
					s += float64(m.W1.Value[i*d+a]) * float64(m.W1.Value[i*d+b])
				}
				want := 0.0
				if a == b {
					want = float64(d0) / float64(d)
				}
				if math.Abs(s-want) > 1e-5 {
					t.Fatalf("(W1ᵀW1)[%d,%d] = %g, want %g", a, b, s, want)
				}
			}
		}
		limit := 0.5 * math.Sqrt(6/float64(d+d0+d))
		for _, w := range [][]float32{m.Wh.Value, m.Wx.Value} {
			for _, v := range w {
				if math.Abs(float64(v)) > limit {
					t.Fatalf("GCN branch weight %g beyond the scaled Glorot limit %g", v, limit)
				}
			}
		}
		linear := func(stage string) (lowest float64) {
			// H^m = X̂ W1: the ReLU is linear at the start.
			h1 := autograd.ReLU(nil, autograd.AddBias(nil, autograd.SpMM(nil, in.Features, m.W1), m.B1))
			hm := autograd.AddBias(nil, autograd.MatMul(nil, h1, m.W2), m.B2)
			x := in.Features.A
			lowest = math.Inf(1)
			for i := range g.NumNodes() {
				for c := range d {
					var want float64
					for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
						want += float64(x.Values[p]) * float64(m.W1.Value[int(x.Indices[p])*d+c])
					}
					if got := float64(hm.Value[i*d+c]); math.Abs(got-want) > 1e-5 {
						t.Fatalf("%s: H^m[%d,%d] = %g, X̂W1 gives %g", stage, i, c, got, want)
					}
					lowest = min(lowest, want+float64(m.B1.Value[c]))
				}
			}
			return lowest
		}
		linear("as drawn")
		worst := m.B1.Value[0]
		m.FitIsometricBias(in)
		// Fitted, the shift is as small as the features allow: the lowest
		// pre-activation sits at zero (up to the rounding margin).
		if lowest := linear("fitted"); lowest < 0 || lowest > 1e-3*float64(worst) {
			t.Fatalf("lowest pre-activation after fitting %g, want just above 0", lowest)
		}
		if b := m.B1.Value[0]; !(b < worst) || m.B2.Value[0] != -b {
			t.Fatalf("fitted b1 %g (worst case %g), b2 %g", b, worst, m.B2.Value[0])
		}
	})
	t.Run("glorot untouched", func(t *testing.T) {
		g := testGraph(t, 20, 3, 8, 3)
		cfg := smallConfig()
		cfg.Init = InitGlorot
		m, in := testModel(t, g, cfg)
		before := slices.Clone(m.B1.Value)
		m.FitIsometricBias(in)
		if !slices.Equal(before, m.B1.Value) {
			t.Fatal("FitIsometricBias changed a Glorot model")
		}
	})
}

// TestExplainSelfPairNamesID: the error for a node paired with itself names
// the node by the user's id, not by its dense index.
func TestExplainSelfPairNamesID(t *testing.T) {
	base := testGraph(t, 8, 2, 3, 5)
	var edges []graph.Edge
	for i := range base.NumNodes() {
		for _, j := range base.Neighbors(i) {
			edges = append(edges, graph.Edge{U: int32(i), V: j})
		}
	}
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	g, err := graph.New(8, edges, base.Features, ids)
	if err != nil {
		t.Fatal(err)
	}
	m, in := testModel(t, g, smallConfig())
	_, err = NewPredictor(m, in).Explain(3, 3)
	if err == nil || err.Error() != `ilpgnn: cannot explain a pair of node "d" with itself` {
		t.Errorf("Explain(3, 3): %v", err)
	}
}

// TestExplainOverflowIsAnError: weights that are finite but overflow the
// score give an error naming the pair, never p = NaN.
func TestExplainOverflowIsAnError(t *testing.T) {
	g := testGraph(t, 8, 2, 3, 5)
	m, in := testModel(t, g, smallConfig())
	p := NewPredictor(m, in)
	if e, err := p.Explain(0, 1); err != nil || math.IsNaN(e.Prob) {
		t.Fatalf("before: Explain(0, 1) = %v, %v", e, err)
	}
	for _, w := range m.Params() {
		for k := range w.Value {
			w.Value[k] = float32(1-2*(k%2)) * 3e38 // +Inf - Inf somewhere
		}
	}
	p = NewPredictor(m, in)
	_, err := p.Explain(0, 1)
	if err == nil || err.Error() != `ilpgnn: the model's score for "0" and "1" is not a number: its weights overflow` {
		t.Fatalf("Explain(0, 1) with 3e38 weights: %v", err)
	}
}

// TestExplainNaNIsAnError: NaN weights give an error that says they are
// not numbers, not that they overflow.
func TestExplainNaNIsAnError(t *testing.T) {
	g := testGraph(t, 8, 2, 3, 5)
	m, in := testModel(t, g, smallConfig())
	for _, w := range m.Params() {
		for k := range w.Value {
			w.Value[k] = float32(math.NaN())
		}
	}
	_, err := NewPredictor(m, in).Explain(0, 1)
	if err == nil || err.Error() != `ilpgnn: the model's score for "0" and "1" is not a number: its weights are not numbers (NaN)` {
		t.Fatalf("Explain(0, 1) with NaN weights: %v", err)
	}
}

// TestAnchorValidate: an anchor weight outside [0, 1], or not a number, is
// refused with its value; 0, 0.5 and 1 are accepted.
func TestAnchorValidate(t *testing.T) {
	c := DefaultConfig()
	for _, bad := range []float64{-0.1, 1.5, math.NaN()} {
		c.Anchor = bad
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("anchor must be between 0 and 1 (got %g)", bad)) {
			t.Errorf("anchor %v: error %v", bad, err)
		}
	}
	for _, ok := range []float64{0, 0.5, 1} {
		c.Anchor = ok
		if err := c.Validate(); err != nil {
			t.Errorf("anchor %v: %v", ok, err)
		}
	}
}
