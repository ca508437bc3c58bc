package seal

import (
	"context"
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/autograd/gradtest"
	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/baselines/subgraph"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
)

// planted returns a graph of n nodes in groups of size n/groups: most of
// its deg·n/2 edges join nodes of the same group, so links close
// triangles, which enclosing subgraphs show (common neighbours); each
// node has a few sparse binary features, one of them marking its group.
func planted(t testing.TB, n, groups, deg int, seed uint64) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	group := func(i int) int { return i * groups / n }
	var edges []graph.Edge
	for len(edges) < deg*n/2 {
		i, j := rng.IntN(n), rng.IntN(n)
		if i != j && (group(i) == group(j) || rng.Float64() < 0.02) {
			edges = append(edges, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	const d0 = 12
	x := &f32.CSR{Rows: n, Cols: d0, Indptr: make([]int32, n+1)}
	for i := range n {
		cols := []int32{int32(group(i) % d0)}
		for range 2 {
			cols = append(cols, int32(rng.IntN(d0)))
		}
		slices.Sort(cols)
		cols = slices.Compact(cols)
		for _, c := range cols {
			x.Indices = append(x.Indices, c)
			x.Values = append(x.Values, 1+float32(c%3))
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// tinyConfig is a small DGCNN for tests: every part present, few weights.
func tinyConfig() Config {
	c := DefaultConfig()
	c.UseFeatures = true
	c.Hops, c.MaxPerHop, c.MaxLabel = 2, 6, 4
	c.Hidden, c.Layers, c.K = 4, 2, 10
	c.Conv1, c.Conv2, c.Dense = 3, 4, 8
	c.Fit.Seed = 5
	return c
}

// pairsOf returns the first k links of g and k non-links, with labels.
func pairsOf(g *graph.Graph, k int, seed uint64) ([]graph.Edge, []float32) {
	rng := rand.New(rand.NewPCG(seed, 2))
	var pairs []graph.Edge
	var labels []float32
	for _, e := range g.Edges()[:k] {
		pairs, labels = append(pairs, e), append(labels, 1)
	}
	for len(pairs) < 2*k {
		u, v := rng.IntN(g.NumNodes()), rng.IntN(g.NumNodes())
		if u != v && !g.HasEdge(u, v) {
			pairs, labels = append(pairs, graph.Edge{U: int32(u), V: int32(v)}), append(labels, 0)
		}
	}
	return pairs, labels
}

// The loss's gradient with respect to every weight matches central finite
// differences (dropout off). The SortPooling order is pinned to that of
// the unperturbed weights (it gets no gradient, as in the reference, and
// near-tied nodes would swap under the check's steps), and the biases are
// drawn away from zero so that the zero rows padding small subgraphs do
// not sit on ReLU's kink.
func TestLossGradient(t *testing.T) {
	g := planted(t, 40, 4, 4, 3)
	cfg := tinyConfig()
	cfg.Dropout = 0
	m, err := New(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.pinOrder = true
	rng := rand.New(rand.NewPCG(8, 8))
	for _, b := range append(m.GraphB, m.Conv1B, m.Conv2B, m.DenseB, m.OutB) {
		for i := range b.Value {
			b.Value[i] = 0.1 + 0.2*rng.Float32()
		}
	}
	pairs, labels := pairsOf(g, 1, 1)
	// Both cases of SortPooling: one subgraph cut to k, one padded.
	b, err := m.extract(pairs)
	if err != nil {
		t.Fatal(err)
	}
	if s0, s1 := b.Offsets[1], b.Offsets[2]-b.Offsets[1]; max(s0, s1) <= int32(m.K) || min(s0, s1) >= int32(m.K) {
		t.Fatalf("subgraphs of %d and %d nodes for k %d: want one of each side", s0, s1, m.K)
	}
	f := func(tp *autograd.Tape) *autograd.Var { return m.Loss(tp, pairs, labels, nil) }
	if _, err := gradtest.Check(f, m.Params(), 20); err != nil {
		t.Fatal(err)
	}
}

// No leakage: a link scores the same on g as on g without it, for each
// link one at a time (removing several at once would change the others'
// subgraphs legitimately), with MaxPerHop sampling on.
func TestNoLeakage(t *testing.T) {
	g := planted(t, 60, 4, 6, 4)
	cfg := tinyConfig()
	m, err := New(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	edges := g.Edges()
	links := edges[:12]
	got := m.Logits(links)
	for k, e := range links {
		rest := slices.Delete(slices.Clone(edges), k, k+1)
		h, err := g.WithEdges(rest)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := New(h, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range m.Params() {
			if !slices.Equal(p.Value, m2.Params()[i].Value) {
				t.Fatalf("weights %d differ between the two graphs", i)
			}
		}
		want := m2.Logits([]graph.Edge{e})[0]
		if got[k] != want {
			t.Errorf("link %v: logit %v with the link in the graph, %v without", e, got[k], want)
		}
	}
	// Sanity: the check can fail: a model that saw the link would score
	// differently; removing a different edge near the pair changes it.
	e := links[0]
	var other int
	for k, f := range edges {
		if f != e && (f.U == e.U || f.V == e.U || f.U == e.V || f.V == e.V) {
			other = k
			break
		}
	}
	h, _ := g.WithEdges(slices.Delete(slices.Clone(edges), other, other+1))
	m3, _ := New(h, cfg)
	if m3.Logits([]graph.Edge{e})[0] == got[0] {
		t.Errorf("removing edge %v next to %v did not change its logit", edges[other], e)
	}
}

// Logits depend neither on the batch nor on the order or orientation of
// the pairs: all at once (several chunks), one by one, reversed, and
// reversed orientation give the same values, bit for bit.
func TestLogitsIndependentOfBatching(t *testing.T) {
	g := planted(t, 80, 4, 5, 6)
	m, err := New(g, tinyConfig())
	if err != nil {
		t.Fatal(err)
	}
	pairs, _ := pairsOf(g, 70, 3) // 140 pairs: three chunks
	all := m.Logits(pairs)
	rev := slices.Clone(pairs)
	slices.Reverse(rev)
	back := m.Logits(rev)
	flipped := make([]graph.Edge, len(pairs))
	for k, p := range pairs {
		flipped[k] = graph.Edge{U: p.V, V: p.U}
	}
	flip := m.Logits(flipped)
	for k, p := range pairs {
		one := m.Logits([]graph.Edge{p})[0]
		if one != all[k] || back[len(pairs)-1-k] != all[k] || flip[k] != all[k] {
			t.Fatalf("pair %v: %v in the batch, %v alone, %v reversed order, %v reversed orientation",
				p, all[k], one, back[len(pairs)-1-k], flip[k])
		}
	}
	if slices.Min(all) == slices.Max(all) {
		t.Fatal("all logits equal: nothing was compared")
	}
}

// Two runs of one seed give the same weights and AUCs.
func TestDeterministic(t *testing.T) {
	g := planted(t, 80, 4, 6, 7)
	sp, err := split.New(g, 1, 0.1, 0.15)
	if err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig()
	cfg.Fit.Epochs, cfg.Fit.BatchSize = 3, 16
	a, err := pairfit.Fit(context.Background(), sp, cfg.Fit, cfg.Build, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := pairfit.Fit(context.Background(), sp, cfg.Fit, cfg.Build, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range a.Model.Params() {
		if !slices.Equal(p.Value, b.Model.Params()[i].Value) {
			t.Fatalf("weights %d differ between two runs of one seed", i)
		}
	}
	if a.TestAUC != b.TestAUC || a.ValAUC != b.ValAUC || a.BestEpoch != b.BestEpoch || a.Model.K != b.Model.K {
		t.Errorf("two runs of one seed: test %v / %v, val %v / %v", a.TestAUC, b.TestAUC, a.ValAUC, b.ValAUC)
	}
}

// It learns: on a planted-group graph SEAL beats common neighbours (0.74
// test AUC on this split; SEAL reaches 0.84) by a clear margin.
func TestLearns(t *testing.T) {
	g := planted(t, 160, 8, 8, 7)
	sp, err := split.New(g, 1, 0.1, 0.15)
	if err != nil {
		t.Fatal(err)
	}
	_, cn := heuristic.SplitAUC(sp, heuristic.CommonNeighbours)
	cfg := tinyConfig()
	cfg.Hops, cfg.MaxPerHop = 1, 0
	cfg.Fit.LR, cfg.Fit.Epochs, cfg.Fit.Patience, cfg.Fit.BatchSize = 0.01, 20, 20, 32
	res, err := pairfit.Fit(context.Background(), sp, cfg.Fit, cfg.Build, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TestAUC < 0.8 || res.TestAUC < cn+0.05 {
		t.Errorf("test AUC %.3f after %d epochs, want ≥ 0.8 and ≥ common neighbours' %.3f + 0.05", res.TestAUC, res.Epochs, cn)
	}
}

// SortPooling by hand: rows of each subgraph by key descending, ties by
// row, cut to k or padded with the pad row.
func TestSortPoolIndexByHand(t *testing.T) {
	key := []float32{0.3, 0.9, 0.3, -0.1, 0.2, 0.5, 0.4, 0.6, -0.5, 0.7, 0.1}
	offsets := []int32{0, 4, 5, 11}
	got := sortPoolIndex(key, offsets, 4, 11)
	want := []int32{
		1, 0, 2, 3, // 0.9, then the tie 0.3 at rows 0 and 2 in row order, -0.1
		4, 11, 11, 11, // one node, three pads
		9, 7, 5, 6, // the top 4 of 0.5 0.4 0.6 -0.5 0.7 0.1
	}
	if !slices.Equal(got, want) {
		t.Errorf("sortPoolIndex = %v, want %v", got, want)
	}
}

// The whole pooled block of a model equals the hand-sorted rows: the
// gathered rows of the forward pass are the concatenated convolution
// outputs in key order, with zero rows past a small subgraph's end.
func TestSortPoolGathersRows(t *testing.T) {
	z := autograd.Const(3, 2, []float32{1, 0.2, 2, -0.4, 3, 0.7})
	zp := autograd.ConcatRows(nil, z, autograd.Const(1, 2, make([]float32, 2)))
	key := []float32{0.2, -0.4, 0.7} // the last column
	got := autograd.GatherRows(nil, zp, sortPoolIndex(key, []int32{0, 3}, 4, 3)).Value
	want := []float32{3, 0.7, 1, 0.2, 2, -0.4, 0, 0}
	if !slices.Equal(got, want) {
		t.Errorf("pooled rows %v, want %v", got, want)
	}
}

// k by the 60th-percentile rule, by hand.
func TestChooseK(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		want  int
	}{
		// 20 sizes: the 12th smallest is 24.
		{[]int{40, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38}, 24},
		// 10 sizes: the 6th smallest, 13, rounded up to 14.
		{[]int{50, 13, 11, 12, 90, 17, 9, 12, 16, 3}, 14},
		// small subgraphs: at least 10.
		{[]int{3, 4, 5, 6, 7}, 10},
		{[]int{30}, 30},
		{nil, 10},
	} {
		if got := ChooseK(c.sizes); got != c.want {
			t.Errorf("ChooseK(%v) = %d, want %d", c.sizes, got, c.want)
		}
	}
}

// The model's k on a graph is ChooseK of the sizes of its sample, as
// recomputed here from subgraph.Extract on the same pairs.
func TestModelK(t *testing.T) {
	g := planted(t, 120, 6, 6, 9)
	cfg := tinyConfig()
	cfg.K, cfg.MaxPerHop = 0, 0
	m, err := New(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sizes, err := m.sampleSizes(newRand(cfg.Fit.Seed, streamK))
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 2*g.NumEdges() {
		t.Fatalf("%d sizes for %d links (fewer than the sample size)", len(sizes), g.NumEdges())
	}
	// Links come first: each one's size is that of its own extraction.
	links := map[int]bool{}
	for _, e := range g.Edges() {
		sub, err := subgraph.Extract(g, int(e.U), int(e.V), subgraph.Options{Hops: cfg.Hops})
		if err != nil {
			t.Fatal(err)
		}
		links[len(sub.Nodes)] = true
	}
	for _, s := range sizes[:g.NumEdges()] {
		if !links[s] {
			t.Fatalf("sampled link subgraph of %d nodes, no link has one", s)
		}
	}
	if m.K != ChooseK(sizes) || m.K < minK || m.K%2 != 0 {
		t.Errorf("k = %d, ChooseK of the sample = %d", m.K, ChooseK(sizes))
	}
	if want := (m.K/2 - Kernel2 + 1) * cfg.Conv2; m.DenseW.Rows != want {
		t.Errorf("dense layer has %d inputs, want %d for k %d", m.DenseW.Rows, want, m.K)
	}
}

// The node input of a tiny batch against one built by hand: label
// one-hot (labels above MaxLabel in the last slot, 0 in its own), then the
// node's features shifted right.
func TestNodeInputByHand(t *testing.T) {
	// Features of 4 nodes, 3 columns: node 0 (1 at col 0, 2 at col 2),
	// node 1 none, node 2 (5 at col 1), node 3 (0.5 at cols 0, 1, 2).
	feats := &f32.CSR{Rows: 4, Cols: 3, Indptr: []int32{0, 2, 2, 3, 6},
		Indices: []int32{0, 2, 1, 0, 1, 2}, Values: []float32{1, 2, 5, 0.5, 0.5, 0.5}}
	b := &subgraph.Batch{
		Nodes:   []int32{2, 0, 1, 3, 0},
		Labels:  []int32{1, 1, 0, 7, 2},
		Offsets: []int32{0, 2, 5},
	}
	x := nodeInput(b, feats, 3) // label slots 0..3, features at 4..6
	if err := x.Validate(); err != nil {
		t.Fatal(err)
	}
	want := [][]float32{
		{0, 1, 0, 0, 0, 5, 0},       // node 2, label 1
		{0, 1, 0, 0, 1, 0, 2},       // node 0, label 1
		{1, 0, 0, 0, 0, 0, 0},       // node 1, label 0, no features
		{0, 0, 0, 1, 0.5, 0.5, 0.5}, // node 3, label 7 capped to 3
		{0, 0, 1, 0, 1, 0, 2},       // node 0 again, label 2
	}
	if x.Rows != 5 || x.Cols != 7 {
		t.Fatalf("input is %dx%d, want 5x7", x.Rows, x.Cols)
	}
	for r, row := range want {
		for c, v := range row {
			if got := x.At(r, c); got != v {
				t.Errorf("input[%d][%d] = %v, want %v", r, c, got, v)
			}
		}
	}
	if x.NNZ() != 5+2+1+3+2 {
		t.Errorf("%d stored entries, want 13", x.NNZ())
	}
}

// D̃⁻¹ Ã of a two-block batch by hand.
func TestNormalizedAdjacencyByHand(t *testing.T) {
	// Block 0: nodes 0, 1, 2 with edges 0-2, 1-2; block 1: nodes 3, 4
	// with no edge (the target is never one).
	b := &subgraph.Batch{
		Nodes:       []int32{0, 1, 2, 3, 4},
		Offsets:     []int32{0, 3, 5},
		Edges:       []graph.Edge{{U: 0, V: 2}, {U: 1, V: 2}},
		EdgeOffsets: []int32{0, 2, 2},
	}
	a := normalizedAdjacency(b, false)
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	want := [][]float32{
		{0.5, 0, 0.5, 0, 0},
		{0, 0.5, 0.5, 0, 0},
		{1. / 3, 1. / 3, 1. / 3, 0, 0},
		{0, 0, 0, 1, 0},
		{0, 0, 0, 0, 1},
	}
	for r, row := range want {
		for c, v := range row {
			if got := a.At(r, c); got != v {
				t.Errorf("Ã[%d][%d] = %v, want %v", r, c, got, v)
			}
		}
	}
	// Symmetric: closed degrees 2, 2, 3, 1, 1.
	s := normalizedAdjacency(b, true)
	r6 := float32(1 / math.Sqrt(6))
	want = [][]float32{
		{0.5, 0, r6, 0, 0},
		{0, 0.5, r6, 0, 0},
		{r6, r6, 1. / 3, 0, 0},
		{0, 0, 0, 1, 0},
		{0, 0, 0, 0, 1},
	}
	for r, row := range want {
		for c, v := range row {
			if got := s.At(r, c); math.Abs(float64(got-v)) > 1e-7 {
				t.Errorf("symmetric Ã[%d][%d] = %v, want %v", r, c, got, v)
			}
		}
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default: %v", err)
	}
	for _, c := range []struct {
		change func(*Config)
		quote  string
	}{
		{func(c *Config) { c.Hops = 0 }, "got 0"},
		{func(c *Config) { c.MaxPerHop = -1 }, "got -1"},
		{func(c *Config) { c.MaxLabel = 0 }, "got 0"},
		{func(c *Config) { c.Hidden = 0 }, "got 0"},
		{func(c *Config) { c.Layers = 0 }, "got 0"},
		{func(c *Config) { c.K = 8 }, "got 8"},
		{func(c *Config) { c.K = 13 }, "got 13"},
		{func(c *Config) { c.Conv1 = 0 }, "got 0"},
		{func(c *Config) { c.Conv2 = -2 }, "got -2"},
		{func(c *Config) { c.Dense = 0 }, "got 0"},
		{func(c *Config) { c.Dropout = 1 }, "got 1"},
		{func(c *Config) { c.Fit.LR = 0 }, "got 0"},
		{func(c *Config) { c.Fit.BatchSize = 0 }, "got 0"},
	} {
		cfg := DefaultConfig()
		c.change(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), "seal: ") || !strings.Contains(err.Error(), c.quote) {
			t.Errorf("%+v: error %v, want one quoting %q", cfg, err, c.quote)
		}
	}
	if _, err := New(planted(t, 20, 2, 3, 1), Config{}); err == nil {
		t.Error("New accepted the zero Config")
	}
}

func TestRegisterFlags(t *testing.T) {
	cfg := DefaultConfig()
	fs := flag.NewFlagSet("seal", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	for _, name := range []string{"seed", "model", "data"} {
		if fs.Lookup(name) != nil {
			t.Errorf("flag %q is the command line's", name)
		}
	}
	err := fs.Parse([]string{"-hops", "1", "-max-per-hop", "40", "-max-label", "12", "-hidden", "16", "-layers", "2",
		"-k", "20", "-sym-norm", "-conv1", "8", "-conv2", "12", "-dense", "64", "-dropout", "0.3", "-normalize-features", "-features",
		"-lr", "0.002", "-epochs", "7", "-batch-size", "50", "-pairs-per-epoch", "1000"})
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Hops, want.MaxPerHop, want.MaxLabel, want.Hidden, want.Layers = 1, 40, 12, 16, 2
	want.K, want.Conv1, want.Conv2, want.Dense, want.Dropout, want.NormalizeFeatures = 20, 8, 12, 64, 0.3, true
	want.UseFeatures, want.SymmetricNorm = true, true
	want.Fit.LR, want.Fit.Epochs, want.Fit.BatchSize, want.Fit.PairsPerEpoch = 0.002, 7, 50, 1000
	if cfg != want {
		t.Errorf("parsed %+v, want %+v", cfg, want)
	}
}

// A cancelled run returns the result so far with ctx's error.
func TestCancel(t *testing.T) {
	g := planted(t, 60, 4, 5, 2)
	sp, err := split.New(g, 1, 0.1, 0.15)
	if err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig()
	cfg.Fit.BatchSize = 8
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	batches := 0
	res, err := pairfit.Fit(ctx, sp, cfg.Fit, cfg.Build, func(p loop.Progress) {
		if batches++; p.Epoch == 2 && p.Batch == 1 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || res == nil || res.Model == nil {
		t.Fatalf("err %v, result %v: want the result so far and context.Canceled", err, res)
	}
	if res.Epochs != 1 {
		t.Errorf("cancelled in epoch 2 with %d epochs done, want 1", res.Epochs)
	}
}
