package walkpool

import (
	"context"
	"flag"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/autograd/gradtest"
	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
)

// communities is a graph of groups of size nodes, dense inside (prob pIn)
// and sparse across (pOut), with random sparse features that lean
// towards the node's group: links are predictable from both structure and
// features.
func communities(t *testing.T, groups, size int, pIn, pOut float64, seed uint64) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 77))
	n := groups * size
	var edges []graph.Edge
	for u := range n {
		for v := u + 1; v < n; v++ {
			p := pOut
			if u/size == v/size {
				p = pIn
			}
			if r.Float64() < p {
				edges = append(edges, graph.Edge{U: int32(u), V: int32(v)})
			}
		}
	}
	const dim = 12
	x := &f32.CSR{Rows: n, Cols: dim, Indptr: []int32{0}}
	for u := range n {
		cols := []int32{int32(u / size % dim)}
		if c := int32(r.IntN(dim)); c != cols[0] {
			cols = append(cols, c)
		}
		slices.Sort(cols)
		for _, c := range cols {
			x.Indices = append(x.Indices, c)
			x.Values = append(x.Values, 0.5+float32(r.Float64()))
		}
		x.Indptr = append(x.Indptr, int32(len(x.Indices)))
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// tinyConfig is a small model covering every parameter kind.
func tinyConfig() Config {
	c := DefaultConfig()
	c.Hidden, c.AttnDim, c.MLPHidden, c.MaxLabel, c.WalkLen = 4, 4, 6, 4, 3
	c.PairProduct = true
	c.Fit.Seed = 5
	return c
}

// TestLossGradient checks the gradient of Loss with respect to every
// parameter. The model has hundreds of ReLU units, and at most points one
// of them has its kink inside the finite difference's step, which bends
// the quotient by a few percent while the gradient is right (it converges
// as the step shrinks); so the MLPs' ReLU is swapped for Softplus here
// and the GCN runs tanh (ReLU's own backward is checked in autograd; the
// GCN's ReLU option changes nothing else).
func TestLossGradient(t *testing.T) {
	g := communities(t, 2, 6, 0.6, 0.1, 1)
	for _, act := range []string{"tanh"} {
		cfg := tinyConfig()
		cfg.Dropout, cfg.Activation = 0, act
		m, err := New(g, cfg)
		if err != nil {
			t.Fatal(err)
		}
		m.hiddenAct = autograd.Softplus
		// Weights scaled up from Glorot's so that the scores, and with
		// them every parameter's gradient, are far from zero.
		for h := range m.Q {
			for _, w := range []*autograd.Var{m.Q[h].W2, m.K[h].W2} {
				for i := range w.Value {
					w.Value[i] *= 3
				}
			}
		}
		for i := range m.C2.Value {
			m.C2.Value[i] *= 4
		}
		pairs := []graph.Edge{{U: 0, V: 1}, {U: 2, V: 9}, {U: 7, V: 8}, {U: 3, V: 11}}
		labels := []float32{1, 0, 1, 0}
		if _, err := gradtest.Check(func(tp *autograd.Tape) *autograd.Var {
			// Scaled so that no parameter's gradient is below the
			// check's floor for a vacuous check (1e-2).
			return autograd.Scale(tp, m.Loss(tp, pairs, labels, nil), 20)
		}, m.Params(), 20); err != nil {
			t.Errorf("%s: %v", act, err)
		}
	}
}

// TestNoLeakage scores edges of g with the model on g and with the model
// on g without that edge: the logits must agree bit for bit, since the
// target is never in its own subgraph.
func TestNoLeakage(t *testing.T) {
	g := communities(t, 3, 8, 0.5, 0.08, 2)
	cfg := tinyConfig()
	cfg.MaxPerHop = 4 // the node sampling must not see the target either
	m, err := New(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	all := g.Edges()
	for k := 0; k < len(all); k += 7 {
		e := all[k]
		rest := slices.Delete(slices.Clone(all), k, k+1)
		g2, err := g.WithEdges(rest)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := New(g2, cfg)
		if err != nil {
			t.Fatal(err)
		}
		a, b := m.Logits([]graph.Edge{e})[0], m2.Logits([]graph.Edge{e})[0]
		if a != b {
			t.Errorf("edge %v: logit %g with the edge in the graph, %g without", e, a, b)
		}
	}
}

// TestLogitsIndependentOfBatching scores pairs all at once, one by one and
// reversed: the model is symmetric in x and y (every feature is), so
// orientation changes only the order of float32 sums.
func TestLogitsIndependentOfBatching(t *testing.T) {
	g := communities(t, 3, 10, 0.5, 0.05, 3)
	cfg := tinyConfig()
	cfg.MaxPerHop = 5
	m, err := New(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	var pairs, reversed []graph.Edge
	for len(pairs) < 150 { // more than one chunk of logitChunk
		u, v := r.IntN(g.NumNodes()), r.IntN(g.NumNodes())
		if u != v {
			pairs = append(pairs, graph.Edge{U: int32(u), V: int32(v)})
			reversed = append(reversed, graph.Edge{U: int32(v), V: int32(u)})
		}
	}
	all := m.Logits(pairs)
	rev := m.Logits(reversed)
	for k, p := range pairs {
		one := m.Logits([]graph.Edge{p})[0]
		if one != all[k] {
			t.Errorf("pair %v: %g alone, %g in a batch", p, one, all[k])
		}
		if math.Abs(float64(rev[k]-all[k])) > 1e-5 {
			t.Errorf("pair %v: %g, reversed %g", p, all[k], rev[k])
		}
	}
}

func smallSplit(t *testing.T) *split.Split {
	sp, err := split.New(communities(t, 6, 12, 0.5, 0.01, 4), 1, 0.1, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestRunDeterministicAndLearns(t *testing.T) {
	sp := smallSplit(t)
	cfg := DefaultConfig()
	cfg.Hops, cfg.Fit.Epochs, cfg.Fit.Patience, cfg.Fit.LR, cfg.Fit.Seed = 1, 10, 10, 0.01, 7
	a, err := pairfit.Fit(context.Background(), sp, cfg.Fit, cfg.Build, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.TestAUC < 0.8 {
		t.Errorf("test AUC %.3f on planted communities, want ≥ 0.8", a.TestAUC)
	}
	b, err := pairfit.Fit(context.Background(), sp, cfg.Fit, cfg.Build, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.TestAUC != b.TestAUC || a.ValAUC != b.ValAUC || a.BestEpoch != b.BestEpoch {
		t.Errorf("same seed: test %v vs %v, val %v vs %v", a.TestAUC, b.TestAUC, a.ValAUC, b.ValAUC)
	}
	pa, pb := a.Model.Params(), b.Model.Params()
	for i := range pa {
		if !slices.Equal(pa[i].Value, pb[i].Value) {
			t.Fatalf("same seed: parameter %d differs", i)
		}
	}
}

func TestCancel(t *testing.T) {
	sp := smallSplit(t)
	cfg := DefaultConfig()
	cfg.Hops, cfg.Fit.Epochs = 1, 5
	ctx, cancel := context.WithCancel(context.Background())
	res, err := pairfit.Fit(ctx, sp, cfg.Fit, cfg.Build, func(p loop.Progress) {
		if p.Batch == 2 {
			cancel()
		}
	})
	if err != context.Canceled || res == nil || res.Epochs != 0 {
		t.Fatalf("cancelled in epoch 1: err %v, result %v", err, res)
	}
}

func TestConfigValidateAndFlags(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Hops = 0 }, "(got 0)"},
		{func(c *Config) { c.WalkLen = 1 }, "(got 1)"},
		{func(c *Config) { c.Activation = "elu" }, `"elu"`},
		{func(c *Config) { c.Norm = "none" }, `"none"`},
		{func(c *Config) { c.Dropout = 1 }, "(got 1)"},
		{func(c *Config) { c.Fit.LR = -1 }, "(got -1)"},
	}
	for _, b := range bad {
		c := DefaultConfig()
		b.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), b.want) || !strings.HasPrefix(err.Error(), "walkpool: ") {
			t.Errorf("error %v, want one quoting %s", err, b.want)
		}
	}
	c := DefaultConfig()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	c.RegisterFlags(fs)
	if err := fs.Parse([]string{"-walk-len", "6", "-heads", "3", "-lr", "0.01", "-pair-product"}); err != nil {
		t.Fatal(err)
	}
	if c.WalkLen != 6 || c.Heads != 3 || c.Fit.LR != 0.01 || !c.PairProduct {
		t.Errorf("flags not bound: %+v", c)
	}
	for _, name := range []string{"seed", "model", "data"} {
		if fs.Lookup(name) != nil {
			t.Errorf("flag %q registered", name)
		}
	}
}
