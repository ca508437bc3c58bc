package gnnexplainer

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

var kinds = []gnn.Kind{gnn.GAE, gnn.VGAE, gnn.GAT}

// randomGraph returns a graph of n nodes and about 3n random edges with
// dense features of dimension d in [-1, 1].
func randomGraph(t testing.TB, n, d int, seed uint64) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	var edges []graph.Edge
	for len(edges) < 3*n {
		i, j := rng.IntN(n), rng.IntN(n)
		if i != j {
			edges = append(edges, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	x := &f32.CSR{Rows: n, Cols: d, Indptr: make([]int32, n+1)}
	for i := range n {
		for c := range d {
			x.Indices = append(x.Indices, int32(c))
			x.Values = append(x.Values, float32(2*rng.Float64()-1))
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// smallModel returns a kind model with random weights for g.
func smallModel(t testing.TB, kind gnn.Kind, g *graph.Graph, seed uint64) *gnn.Model {
	t.Helper()
	cfg := gnn.DefaultConfig(kind)
	cfg.Hidden, cfg.Out = 8, 6
	if kind == gnn.GAT {
		cfg.Heads, cfg.OutHeads = 2, 2
	}
	m, err := gnn.New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(seed, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if kind == gnn.GAT {
		// Non-zero biases, so that a forward that forgot one shows.
		for _, b := range []*autograd.Var{m.Layer1.Bias, m.Layer2.Bias} {
			for k := range b.Value {
				b.Value[k] = 0.1 * float32(k%5-2)
			}
		}
	}
	return m
}

func closeEnough(a, b float32) bool {
	return math.Abs(float64(a)-float64(b)) <= 1e-5*math.Max(1, math.Abs(float64(b)))
}

// TestUnmaskedIsModel: on the computation subgraph, the forward with
// every mask at +∞ (σ = 1) and the forward without a mask give the
// model's own logits; LogitWithout matches the model run on the graph
// with those edges deleted (degrees renormalised, attention re-taken).
func TestUnmaskedIsModel(t *testing.T) {
	g := randomGraph(t, 40, 5, 1)
	var pairs []graph.Edge
	for i := 0; i < 40; i += 3 {
		pairs = append(pairs, graph.Edge{U: int32(i), V: int32((i*7 + 5) % 40)})
	}
	pairs = append(pairs, g.Edges()[:5]...)
	for _, kind := range kinds {
		m := smallModel(t, kind, g, 2)
		e, err := New(m, g, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		want := m.Logits(g, pairs)
		for k, p := range pairs {
			s := e.subgraph(int(p.U), int(p.V), nil)
			inf := make([]float32, s.masks)
			for q := range inf {
				inf[q] = float32(math.Inf(1))
			}
			sig := autograd.Sigmoid(nil, autograd.Const(s.masks, 1, inf))
			if got := e.forward(nil, s, sig).Value[0]; !closeEnough(got, want[k]) {
				t.Errorf("%v %v: masked forward at σ = 1 gives %v, model %v", kind, p, got, want[k])
			}
			if got := e.LogitWithout(int(p.U), int(p.V), nil); !closeEnough(got, want[k]) {
				t.Errorf("%v %v: unmasked forward gives %v, model %v", kind, p, got, want[k])
			}
		}
		// Deleting edges: the first two neighbours of each end.
		for _, p := range pairs[:6] {
			var rm []graph.Edge
			for _, n := range []int32{p.U, p.V} {
				for _, c := range g.Neighbors(int(n))[:min(2, g.Degree(int(n)))] {
					rm = append(rm, graph.Edge{U: min(n, c), V: max(n, c)})
				}
			}
			var keep []graph.Edge
			for _, ed := range g.Edges() {
				if !slices.Contains(rm, ed) {
					keep = append(keep, ed)
				}
			}
			cut, err := g.WithEdges(keep)
			if err != nil {
				t.Fatal(err)
			}
			want := m.Logits(cut, []graph.Edge{p})[0]
			if got := e.LogitWithout(int(p.U), int(p.V), rm); !closeEnough(got, want) {
				t.Errorf("%v %v without %v: %v, model on the cut graph %v", kind, p, rm, got, want)
			}
		}
	}
}

// TestObjectiveGradient checks the gradient of the explainer's objective
// with respect to the mask logits against central finite differences
// (float32 forward, so the step and tolerances of autograd's checks).
func TestObjectiveGradient(t *testing.T) {
	g := randomGraph(t, 30, 4, 5)
	for _, kind := range kinds {
		m := smallModel(t, kind, g, 6)
		e, _ := New(m, g, DefaultConfig())
		s := e.subgraph(3, 17, nil)
		rng := rand.New(rand.NewPCG(7, 7))
		mask := autograd.NewParam(s.masks, 1)
		for k := range mask.Value {
			mask.Value[k] = float32(rng.NormFloat64())
		}
		for _, label := range []float32{0, 1} {
			tp := autograd.NewTape()
			mask.ZeroGrad()
			tp.Backward(e.objective(tp, s, mask, label))
			grad := slices.Clone(mask.Grad)
			loss := func() float64 { return float64(e.objective(nil, s, mask, label).Value[0]) }
			const h = 1e-2
			var gmax float64
			for k, v := range mask.Value {
				mask.Value[k] = v + h
				lp := loss()
				mask.Value[k] = v - h
				lm := loss()
				mask.Value[k] = v
				fd := (lp - lm) / (float64(v+h) - float64(v-h))
				gk := float64(grad[k])
				gmax = max(gmax, math.Abs(gk))
				if math.Abs(gk-fd) > 2e-4+2e-3*max(math.Abs(gk), math.Abs(fd)) {
					t.Fatalf("%v label %v mask %d: gradient %.6g, finite difference %.6g", kind, label, k, gk, fd)
				}
			}
			if gmax < 1e-3 {
				t.Fatalf("%v: gradient all but zero (%g)", kind, gmax)
			}
		}
	}
}

// TestSingleSupport: in a hand-made GAE (and VGAE, whose μ it is), i = 0
// has neighbours 2, 3, 4 and j = 1 has neighbour 5. z is one-dimensional,
// z = Ã·ReLU(Ã·X)·(1, −1)ᵀ: node 2 carries the first feature that z_j
// shares, nodes 3 and 4 the second, which pulls z_i the other way. Only
// neighbour 2 supports the link, and the explainer must rank it first.
func TestSingleSupport(t *testing.T) {
	x := &f32.CSR{Rows: 6, Cols: 2, Indptr: []int32{0, 0, 1, 2, 3, 4, 5},
		Indices: []int32{0, 0, 1, 1, 0}, Values: []float32{1, 3, 0.5, 0.5, 1}}
	g, err := graph.New(6, []graph.Edge{{U: 0, V: 2}, {U: 0, V: 3}, {U: 0, V: 4}, {U: 1, V: 5}}, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []gnn.Kind{gnn.GAE, gnn.VGAE} {
		cfg := gnn.DefaultConfig(kind)
		cfg.Hidden, cfg.Out = 2, 1
		m, err := gnn.New(cfg, 2, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		copy(m.W1.Value, []float32{1, 0, 0, 1})
		copy(m.W2.Value, []float32{1, -1})
		e, err := New(m, g, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		ex, err := e.Explain(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Label != 1 || ex.Logit <= 0 {
			t.Fatalf("%v: the hand-made link has logit %v", kind, ex.Logit)
		}
		if got := ex.SideI.Ranked; got[0] != 2 {
			t.Errorf("%v: ranked %v (masks %v of %v), want 2 first", kind, got, ex.SideI.Mask, ex.SideI.Neighbors)
		}
		if got := e.Ranker()(0, 1); !slices.Equal(got, ex.SideI.Ranked) {
			t.Errorf("%v: Ranker %v, Explain %v", kind, got, ex.SideI.Ranked)
		}
		if ex.MaskedLogit <= 0 || ex.Nodes != 6 || ex.Edges != 8 {
			t.Errorf("%v: masked logit %v, subgraph %d nodes, %d edges", kind, ex.MaskedLogit, ex.Nodes, ex.Edges)
		}
	}
}

// TestDeterministic: the same explanations, bit for bit, with 1 and 4
// CPUs, asked in either order and either orientation, and cached answers
// equal fresh ones.
func TestDeterministic(t *testing.T) {
	g := randomGraph(t, 60, 6, 9)
	pairs := [][2]int{{0, 1}, {5, 40}, {33, 12}, {59, 2}}
	run := func(kind gnn.Kind, procs int, reverse bool) []Explanation {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		cfg := DefaultConfig()
		cfg.Seed, cfg.Epochs = 3, 30
		e, err := New(smallModel(t, kind, g, 4), g, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []Explanation
		for k := range pairs {
			p := pairs[k]
			if reverse {
				p = pairs[len(pairs)-1-k]
				// Ask the other orientation first, then the one compared.
				if _, err := e.Explain(p[1], p[0]); err != nil {
					t.Fatal(err)
				}
			}
			ex, err := e.Explain(p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, ex)
		}
		if reverse {
			slices.Reverse(out)
		}
		return out
	}
	bits := func(v []float32) []uint32 {
		var b []uint32
		for _, f := range v {
			b = append(b, math.Float32bits(f))
		}
		return b
	}
	for _, kind := range []gnn.Kind{gnn.GAE, gnn.GAT} {
		a, b := run(kind, 1, false), run(kind, 4, true)
		for k := range a {
			x, y := a[k], b[k]
			if x.I != y.I || !slices.Equal(bits(x.SideI.Mask), bits(y.SideI.Mask)) || !slices.Equal(bits(x.SideJ.Reverse), bits(y.SideJ.Reverse)) ||
				math.Float32bits(x.MaskedLogit) != math.Float32bits(y.MaskedLogit) || x.Loss != y.Loss {
				t.Errorf("%v pair %v: explanations differ:\n%+v\n%+v", kind, pairs[k], x, y)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	g := randomGraph(t, 10, 3, 1)
	m := smallModel(t, gnn.GAE, g, 1)
	e, _ := New(m, g, DefaultConfig())
	for _, p := range [][2]int{{1, 1}, {-1, 2}, {2, 10}} {
		if _, err := e.Explain(p[0], p[1]); err == nil {
			t.Errorf("Explain%v: no error", p)
		}
	}
	if r := e.Ranker()(3, 3); r != nil {
		t.Errorf("Ranker(3, 3) = %v", r)
	}
	bad := DefaultConfig()
	bad.LR = math.NaN()
	if _, err := New(m, g, bad); err == nil {
		t.Error("NaN learning rate accepted")
	}
	other := randomGraph(t, 10, 4, 1)
	if _, err := New(m, other, DefaultConfig()); err == nil {
		t.Error("feature dimension mismatch accepted")
	}
}
