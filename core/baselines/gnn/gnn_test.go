package gnn

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/optim"
	"ilpgnn/core/split"
)

var kinds = []Kind{GAE, VGAE, GAT}

// planted returns a graph of n nodes in 10 planted groups: 97% of its 4n
// edges join nodes of the same group, and each feature column c (of d0)
// is a noisy indicator of group c mod 10. Scoring a pair by "same group"
// alone gives a test AUC of about 0.97·0.9 + (0.97·0.1 + 0.03·0.9)/2 ≈ 0.93
// against random negatives (a negative is in-group w.p. 0.1).
func planted(t testing.TB, n, d0 int, seed uint64) *graph.Graph {
	t.Helper()
	const groups = 10
	rng := rand.New(rand.NewPCG(seed, 1))
	group := func(i int) int { return i * groups / n }
	var edges []graph.Edge
	for len(edges) < 4*n {
		i, j := rng.IntN(n), rng.IntN(n)
		if group(i) == group(j) || rng.Float64() < 0.003 {
			edges = append(edges, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	x := &f32.CSR{Rows: n, Cols: d0, Indptr: make([]int32, n+1)}
	for i := range n {
		for c := range d0 {
			v := 0.5 * (2*rng.Float64() - 1)
			if c%groups == group(i) {
				v += 1
			}
			x.Indices = append(x.Indices, int32(c))
			x.Values = append(x.Values, float32(v))
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestKindText(t *testing.T) {
	for _, k := range kinds {
		b, err := k.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Kind
		if err := back.UnmarshalText(b); err != nil || back != k {
			t.Errorf("%v: round trip gave %v, %v", k, back, err)
		}
		if p, err := ParseKind(k.String()); err != nil || p != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.String(), p, err)
		}
	}
	if _, err := ParseKind("gcn"); err == nil {
		t.Error("ParseKind(gcn): no error")
	}
	if _, err := Kind(7).MarshalText(); err == nil {
		t.Error("Kind(7).MarshalText: no error")
	}
}

func TestConfigValidate(t *testing.T) {
	for _, k := range kinds {
		if err := DefaultConfig(k).Validate(); err != nil {
			t.Errorf("DefaultConfig(%v): %v", k, err)
		}
	}
	bad := []func(*Config){
		func(c *Config) { c.Kind = 9 },
		func(c *Config) { c.Hidden = 0 },
		func(c *Config) { c.Out = 0 },
		func(c *Config) { c.Heads = 0 },
		func(c *Config) { c.Heads = 3 }, // 128 % 3 != 0
		func(c *Config) { c.OutHeads = 0 },
		func(c *Config) { c.LR = 0 },
		func(c *Config) { c.LR = math.NaN() },
		func(c *Config) { c.WeightDecay = -1 },
		func(c *Config) { c.Dropout = 1 },
		func(c *Config) { c.Epochs = 0 },
		func(c *Config) { c.Patience = 0 },
		func(c *Config) { c.ValFrac = 0 },
		func(c *Config) { c.ValFrac, c.TestFrac = 0.5, 0.5 },
	}
	for n, f := range bad {
		c := DefaultConfig(GAT)
		f(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("case %d: %+v validates", n, c)
		}
	}
}

func TestRegisterFlags(t *testing.T) {
	c := DefaultConfig(GAT)
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	c.RegisterFlags(fs)
	args := []string{"-epochs", "7", "-patience", "3", "-lr", "0.02", "-weight-decay", "0.001", "-dropout", "0.25",
		"-hidden", "64", "-out", "32", "-heads", "4", "-out-heads", "2", "-normalize-features", "-val-frac", "0.1", "-test-frac", "0.2"}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	want := Config{Kind: GAT, Hidden: 64, Out: 32, Heads: 4, OutHeads: 2, NormalizeFeatures: true, LR: 0.02,
		WeightDecay: 0.001, Dropout: 0.25, Epochs: 7, Patience: 3, ValFrac: 0.1, TestFrac: 0.2}
	if c != want {
		t.Errorf("parsed %+v, want %+v", c, want)
	}
}

// tinyGraph is a random graph of 10 nodes and about 20 edges with dense
// features in ±[0.2, 1], for gradient checks.
func tinyGraph(t *testing.T) *graph.Graph {
	rng := rand.New(rand.NewPCG(8, 8))
	const n, d0 = 10, 5
	var edges []graph.Edge
	for range 22 {
		edges = append(edges, graph.Edge{U: int32(rng.IntN(n)), V: int32(rng.IntN(n))})
	}
	x := &f32.CSR{Rows: n, Cols: d0, Indptr: make([]int32, n+1)}
	for i := range n {
		for c := range d0 {
			v := 0.2 + 0.8*rng.Float32()
			if rng.IntN(2) == 0 {
				v = -v
			}
			x.Indices, x.Values = append(x.Indices, int32(c)), append(x.Values, v)
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// tinyConfig is a small model of kind k for gradient checks: GAT with two
// heads in each layer, so that both concatenation and averaging are used.
func tinyConfig(k Kind) Config {
	c := DefaultConfig(k)
	c.Hidden, c.Out = 6, 4
	if k == GAT {
		c.Heads, c.OutHeads = 2, 2
	}
	c.Dropout = 0.2
	return c
}

// TestLossGradient compares the gradient of the training loss (dropout
// on, VGAE noise on, both from reseeded generators so the function is
// fixed) with respect to every coordinate of every parameter against
// central finite differences, as core/autograd's gradcheck does (step
// 1e-2, |g - fd| <= 2e-4 + 5e-3·max(|g|, |fd|)).
//
// ReLU and LeakyReLU have kinks: a step of 1e-2 sometimes carries a
// pre-activation across 0, and the central difference then mixes two
// slopes. Such a coordinate is accepted when g matches the one-sided
// difference on the side that stays smooth (tolerance widened for its
// O(h) error); at most 10% of a model's coordinates may need this. A
// wrong gradient (sign, factor, transposition) fails both.
func TestLossGradient(t *testing.T) {
	const (
		h    = 1e-2
		atol = 2e-4
		rtol = 5e-3
	)
	g := tinyGraph(t)
	pairs := []graph.Edge{{U: 0, V: 1}, {U: 2, V: 3}, {U: 6, V: 7}, {U: 8, V: 4}, {U: 0, V: 9}, {U: 4, V: 5}, {U: 5, V: 6}, {U: 1, V: 3}}
	labels := []float32{1, 1, 1, 1, 0, 0, 0, 0}
	ia, ib := endpoints(pairs)
	for _, k := range kinds {
		t.Run(k.String(), func(t *testing.T) {
			cfg := tinyConfig(k)
			m, err := New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(6, 6)))
			if err != nil {
				t.Fatal(err)
			}
			if k == GAT {
				// Larger attention vectors spread each node's scores e_ic
				// over both sides of LeakyReLU's kink, where a_dst's
				// gradient is non-zero (see below).
				for _, l := range []*attentionLayer{m.Layer1, m.Layer2} {
					for h := range l.ADst {
						for i := range l.ADst[h].Value {
							l.ADst[h].Value[i] *= 4
							l.ASrc[h].Value[i] *= 4
						}
					}
				}
			}
			in := Prepare(g, cfg)
			tp := autograd.NewTape()
			eval := func() float64 {
				tp.Reset()
				l, _, _, _ := m.loss(tp, in, ia, ib, labels, float32(cfg.Dropout),
					rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(3, 4)))
				return float64(l.Value[0])
			}
			params := m.Params()
			names := m.ParamNames()
			for _, p := range params {
				p.ZeroGrad()
			}
			tp.Reset()
			l, _, kl, _ := m.loss(tp, in, ia, ib, labels, float32(cfg.Dropout), rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(3, 4)))
			if (kl != nil) != (k == VGAE) {
				t.Fatalf("KL term present %v for %v", kl != nil, k)
			}
			tp.Backward(l)
			total, kinked := 0, 0
			var maxErr float64
			for pi, p := range params {
				grad := slices.Clone(p.Grad)
				var gmax float64
				for i, v := range p.Value {
					l0 := eval()
					p.Value[i] = v + h
					lp := eval()
					p.Value[i] = v - h
					lm := eval()
					p.Value[i] = v
					gi := float64(grad[i])
					gmax = max(gmax, math.Abs(gi))
					total++
					fd := (lp - lm) / (2 * h)
					e := math.Abs(gi - fd)
					if e <= atol+rtol*max(math.Abs(gi), math.Abs(fd)) {
						maxErr = max(maxErr, e)
						continue
					}
					fwd, bwd := (lp-l0)/h, (l0-lm)/h
					tol := 10*atol + 0.05*math.Abs(gi)
					if math.Abs(gi-fwd) <= tol || math.Abs(gi-bwd) <= tol {
						t.Logf("kink %s[%d]: g %.6g central %.6g fwd %.6g bwd %.6g", names[pi], i, gi, fd, fwd, bwd)
						kinked++
						continue
					}
					t.Errorf("%s[%d]: analytic %.6g, central %.6g, forward %.6g, backward %.6g", names[pi], i, gi, fd, fwd, bwd)
				}
				// a_dst·Wh_i is the same for every neighbour c of i,
				// so the softmax cancels it except where LeakyReLU bends
				// some e_ic and not others: its gradient is small by
				// design.
				if vacuous := 1e-3 / (1 + 9*float64(btoi(strings.Contains(names[pi], "aDst")))); gmax < vacuous {
					t.Errorf("%s: gradient all but zero (max %.3g); the check is vacuous", names[pi], gmax)
				}
			}
			if kinked*10 > total {
				t.Errorf("%d of %d coordinates only matched one-sided differences", kinked, total)
			}
			t.Logf("%d coordinates, max |g - fd| %.2g, %d across a kink", total, maxErr, kinked)
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// quick returns a short training configuration of kind k.
func quick(k Kind, seed uint64) Config {
	c := DefaultConfig(k)
	c.Hidden, c.Out = 32, 16
	if k == GAT {
		c.Heads, c.OutHeads = 4, 1
	}
	c.Epochs, c.Patience = 60, 60
	c.LR = 0.01
	c.Seed = seed
	return c
}

// TestLearns: on two planted communities every kind reaches a high test
// AUC, and the kept epoch has the best validation AUC of the history.
func TestLearns(t *testing.T) {
	g := planted(t, 200, 16, 1)
	for _, k := range kinds {
		res, err := Run(context.Background(), g, quick(k, 2), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: test AUC %.4f, val AUC %.4f at epoch %d of %d", k, res.TestAUC, res.ValAUC, res.BestEpoch, res.Epochs)
		if res.TestAUC < 0.85 {
			t.Errorf("%v: test AUC %.4f, want >= 0.85", k, res.TestAUC)
		}
		for _, p := range res.History {
			if p.ValAUC > res.ValAUC {
				t.Errorf("%v: epoch %d val AUC %.4f beats the kept %.4f", k, p.Epoch, p.ValAUC, res.ValAUC)
			}
		}
		// The kept weights are those of BestEpoch: evaluating them again
		// gives its validation AUC.
		sp := res.Split
		val := append(slices.Clone(sp.ValPos), sp.ValNeg...)
		if got := aucOf(res.Model.Embed(sp.Train), val, len(sp.ValPos)); got != res.ValAUC {
			t.Errorf("%v: kept weights give val AUC %.6f, recorded %.6f", k, got, res.ValAUC)
		}
	}
}

// TestDeterministic: the same seed gives bit-identical weights and
// history, with GOMAXPROCS 1 and 2 (the graph is large enough for the
// kernels to split their work), dropout and VGAE noise on.
func TestDeterministic(t *testing.T) {
	g := planted(t, 700, 24, 4)
	sp, err := split.New(g, 1, 0.05, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, k := range kinds {
		cfg := DefaultConfig(k)
		cfg.Epochs, cfg.Dropout, cfg.Seed = 8, 0.3, 9
		var runs [][][]float32
		var hist [][]loop.Progress
		for _, procs := range []int{1, 2, 1} {
			runtime.GOMAXPROCS(procs)
			res, err := RunSplit(context.Background(), sp, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, autograd.Snapshot(res.Model.Params(), nil))
			for i := range res.History {
				res.History[i].Elapsed = 0
			}
			hist = append(hist, res.History)
		}
		for r := 1; r < len(runs); r++ {
			for p := range runs[0] {
				if !slices.Equal(runs[0][p], runs[r][p]) {
					t.Errorf("%v: run %d: parameter %d differs", k, r, p)
				}
			}
			if !slices.Equal(hist[0], hist[r]) {
				t.Errorf("%v: run %d: history differs", k, r)
			}
		}
		// A different seed gives different weights.
		cfg.Seed = 10
		res, err := RunSplit(context.Background(), sp, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(res.Model.Params()[0].Value, runs[0][0]) {
			t.Errorf("%v: seeds 9 and 10 give the same weights", k)
		}
	}
}

// TestCancel: a cancelled context stops the run and returns its error
// with a usable model.
func TestCancel(t *testing.T) {
	g := planted(t, 100, 8, 2)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Run(ctx, g, quick(GAE, 0), func(p loop.Progress) {
		if p.Epoch == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res == nil || res.Epochs != 3 || res.Model == nil || math.IsNaN(res.TestAUC) {
		t.Fatalf("result %+v", res)
	}
}

// denseGCN returns Ã = D̂^-1/2 (A+I) D̂^-1/2 of g as a dense float64
// matrix, from the definition.
func denseGCN(g *graph.Graph) [][]float64 {
	n := g.NumNodes()
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		a[i][i] = 1
		for _, c := range g.Neighbors(i) {
			a[i][c] = 1
		}
	}
	d := make([]float64, n)
	for i := range a {
		for _, v := range a[i] {
			d[i] += v
		}
	}
	for i := range a {
		for j := range a[i] {
			a[i][j] /= math.Sqrt(d[i] * d[j])
		}
	}
	return a
}

func denseX(g *graph.Graph) [][]float64 {
	x := g.Features
	out := make([][]float64, x.Rows)
	for i := range out {
		out[i] = make([]float64, x.Cols)
		for k := x.Indptr[i]; k < x.Indptr[i+1]; k++ {
			out[i][x.Indices[k]] = float64(x.Values[k])
		}
	}
	return out
}

func mm(a [][]float64, w *autograd.Var) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, w.Cols)
		for k, v := range a[i] {
			for c := range w.Cols {
				out[i][c] += v * float64(w.Value[k*w.Cols+c])
			}
		}
	}
	return out
}

func mmDense(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for k, v := range a[i] {
			for c := range b[k] {
				out[i][c] += v * b[k][c]
			}
		}
	}
	return out
}

func closeTo(t *testing.T, what string, got *autograd.Var, want [][]float64) {
	t.Helper()
	var worst float64
	for i := range want {
		for c, w := range want[i] {
			worst = max(worst, math.Abs(float64(got.Value[i*got.Cols+c])-w)/max(1, math.Abs(w)))
		}
	}
	if worst > 1e-5 {
		t.Errorf("%s: off by %.3g from the dense float64 computation", what, worst)
	}
}

// TestGCNEmbedding checks GAE's and VGAE's evaluation embeddings against
// Ã ReLU(Ã X W1) W2 computed densely in float64, and that VGAE at
// evaluation is μ: its log σ weights do not matter, while its training
// pass (noise on) gives other embeddings.
func TestGCNEmbedding(t *testing.T) {
	g := planted(t, 30, 6, 5)
	for _, k := range []Kind{GAE, VGAE} {
		cfg := tinyConfig(k)
		m, err := New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		a := denseGCN(g)
		h := mmDense(a, mm(denseX(g), m.W1))
		for i := range h {
			for c := range h[i] {
				h[i][c] = max(h[i][c], 0)
			}
		}
		want := mmDense(a, mm(h, m.W2))
		z := m.Embed(g)
		closeTo(t, k.String(), z, want)
		if k != VGAE {
			continue
		}
		for i := range m.WLogStd.Value {
			m.WLogStd.Value[i] *= 5
		}
		if z2 := m.Embed(g); !slices.Equal(z.Value, z2.Value) {
			t.Error("VGAE: evaluation embeddings depend on the log σ head")
		}
		in := Prepare(g, cfg)
		f := m.encode(autograd.NewTape(), in, 0, nil, rand.New(rand.NewPCG(1, 1)))
		if slices.Equal(f.Z.Value, z.Value) || !slices.Equal(f.Mu.Value, z.Value) {
			t.Error("VGAE: training pass should sample around μ and report μ")
		}
	}
}

// naiveGAT recomputes GAT's forward in float64 from its weights: the
// embeddings and the second layer's attention averaged over heads, per
// node as a map from neighbour (self included) to α.
func naiveGAT(g *graph.Graph, m *Model) (z [][]float64, alpha []map[int]float64) {
	n := g.NumNodes()
	nb := func(i int) []int { // N(i) ∪ {i}
		out := []int{i}
		for _, c := range g.Neighbors(i) {
			out = append(out, int(c))
		}
		return out
	}
	layer := func(x [][]float64, l *attentionLayer, concat bool) ([][]float64, []map[int]float64) {
		var outs [][][]float64
		att := make([]map[int]float64, n)
		for i := range att {
			att[i] = map[int]float64{}
		}
		for k := range l.W {
			wh := mm(x, l.W[k])
			dot := func(v []float64, a *autograd.Var) float64 {
				var s float64
				for c := range v {
					s += v[c] * float64(a.Value[c])
				}
				return s
			}
			out := make([][]float64, n)
			for i := range n {
				out[i] = make([]float64, len(wh[i]))
				cs := nb(i)
				e := make([]float64, len(cs))
				var mx = math.Inf(-1)
				for q, c := range cs {
					e[q] = dot(wh[i], l.ADst[k]) + dot(wh[c], l.ASrc[k])
					if e[q] < 0 {
						e[q] *= 0.2
					}
					mx = max(mx, e[q])
				}
				var sum float64
				for q := range e {
					e[q] = math.Exp(e[q] - mx)
					sum += e[q]
				}
				for q, c := range cs {
					a := e[q] / sum
					att[i][c] += a / float64(len(l.W))
					for d := range out[i] {
						out[i][d] += a * wh[c][d]
					}
				}
			}
			outs = append(outs, out)
		}
		res := make([][]float64, n)
		for i := range n {
			for k := range outs {
				if concat {
					res[i] = append(res[i], outs[k][i]...)
				} else if k == 0 {
					res[i] = slices.Clone(outs[0][i])
				} else {
					for d := range res[i] {
						res[i][d] += outs[k][i][d]
					}
				}
			}
			if !concat {
				for d := range res[i] {
					res[i][d] /= float64(len(outs))
				}
			}
			for d := range res[i] {
				res[i][d] += float64(l.Bias.Value[d])
			}
		}
		return res, att
	}
	h, _ := layer(denseX(g), m.Layer1, true)
	for i := range h {
		for d, v := range h[i] {
			if v <= 0 {
				h[i][d] = math.Exp(v) - 1
			}
		}
	}
	return layer(h, m.Layer2, false)
}

// TestAttentionRanker checks GAT's embeddings and attention against the
// float64 recomputation, and that the ranker returns exactly N(i) \ {j}
// ordered by that attention.
func TestAttentionRanker(t *testing.T) {
	g := planted(t, 40, 6, 6)
	cfg := tinyConfig(GAT)
	m, err := New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	// Non-zero biases, so that they are checked too.
	for _, b := range []*autograd.Var{m.Layer1.Bias, m.Layer2.Bias} {
		for i := range b.Value {
			b.Value[i] = 0.1 * float32(i%3-1)
		}
	}
	z, alpha := naiveGAT(g, m)
	closeTo(t, "GAT embeddings", m.Embed(g), z)
	rank, err := m.AttentionRanker(g)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i := range g.NumNodes() {
		nb := g.Neighbors(i)
		// j a neighbour (a training edge: j must be left out), j not a
		// neighbour, and j = i.
		js := []int{i, (i + 17) % g.NumNodes()}
		if len(nb) > 0 {
			js = append(js, int(nb[len(nb)/2]))
		}
		for _, j := range js {
			got := rank(i, j)
			var want []int32
			for _, c := range nb {
				if int(c) != j {
					want = append(want, c)
				}
			}
			if !slices.Equal(slices.Sorted(slices.Values(got)), want) {
				t.Fatalf("rank(%d, %d) = %v, want the neighbours %v", i, j, got, want)
			}
			for q := 1; q < len(got); q++ {
				a, b := alpha[i][int(got[q-1])], alpha[i][int(got[q])]
				if a < b-1e-6 {
					t.Errorf("rank(%d, %d): %d (α %.6f) before %d (α %.6f)", i, j, got[q-1], a, got[q], b)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no ordering checked")
	}
	// The attention itself matches too, and sums to 1 per node.
	in := Prepare(g, cfg)
	att := m.Attention(in)
	for i := range g.NumNodes() {
		var sum float64
		for k := in.Offsets[i]; k < in.Offsets[i+1]; k++ {
			want := alpha[i][int(in.Src[k])]
			if math.Abs(float64(att[k])-want) > 1e-5 {
				t.Errorf("α(%d, %d) = %.6f, want %.6f", i, in.Src[k], att[k], want)
			}
			sum += float64(att[k])
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("node %d: attention sums to %.6f", i, sum)
		}
	}
	// Only GAT explains.
	gae, _ := New(tinyConfig(GAE), g.FeatureDim(), rand.New(rand.NewPCG(2, 2)))
	if _, err := gae.AttentionRanker(g); err == nil {
		t.Error("GAE has an attention ranker")
	}
}

// TestLogitsMatchEmbed: Logits is the inner product of Embed's rows.
func TestLogitsMatchEmbed(t *testing.T) {
	g := planted(t, 30, 6, 7)
	for _, k := range kinds {
		m, err := New(tinyConfig(k), g.FeatureDim(), rand.New(rand.NewPCG(3, 3)))
		if err != nil {
			t.Fatal(err)
		}
		z := m.Embed(g)
		pairs := []graph.Edge{{U: 0, V: 5}, {U: 7, V: 7}, {U: 29, V: 1}}
		got := m.Logits(g, pairs)
		for n, e := range pairs {
			var s float64
			for d := range z.Cols {
				s += float64(z.Value[int(e.U)*z.Cols+d]) * float64(z.Value[int(e.V)*z.Cols+d])
			}
			if math.Abs(float64(got[n])-s) > 1e-5*max(1, math.Abs(s)) {
				t.Errorf("%v: logit %v = %g, want %g", k, e, got[n], s)
			}
		}
	}
}

func ExampleRunSplit() {
	// A small graph of two communities; real data comes from core/load.
	rng := rand.New(rand.NewPCG(1, 1))
	var edges []graph.Edge
	for len(edges) < 400 {
		i, j := rng.IntN(100), rng.IntN(100)
		if i/50 == j/50 {
			edges = append(edges, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	g, _ := graph.New(100, edges, nil, nil)
	g = graph.WithFallbackFeatures(g, 1) // one-hot ids
	sp, _ := split.New(g, 0, 0.05, 0.1)
	cfg := DefaultConfig(GAE)
	cfg.Epochs = 50
	res, err := RunSplit(context.Background(), sp, cfg, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Epochs, res.TestAUC > 0.7)
	// Output: 50 true
}

// TestDiverges: at an absurd learning rate every kind stops with
// optim.ErrDiverged naming the epoch after the last it reported, the same
// run capped one epoch earlier succeeds, and the kept weights are finite.
func TestDiverges(t *testing.T) {
	g := planted(t, 100, 8, 2)
	for _, k := range kinds {
		c := quick(k, 0)
		c.LR, c.Dropout = 1e30, 0
		res, err := Run(context.Background(), g, c, nil)
		if !errors.Is(err, optim.ErrDiverged) {
			t.Errorf("%v: err = %v, want ErrDiverged", k, err)
			continue
		}
		bad := len(res.History) + 1
		if !strings.Contains(err.Error(), fmt.Sprintf("epoch %d: ", bad)) {
			t.Errorf("%v: err %q does not name epoch %d", k, err, bad)
		}
		for _, p := range res.Model.Params() {
			if slices.ContainsFunc(p.Value, func(w float32) bool { return math.IsNaN(float64(w)) || math.IsInf(float64(w), 0) }) {
				t.Errorf("%v: a kept weight is not finite", k)
			}
		}
		if bad > 1 {
			c.Epochs = bad - 1
			if _, err := Run(context.Background(), g, c, nil); err != nil {
				t.Errorf("%v capped at %d epochs: %v", k, c.Epochs, err)
			}
		}
	}
	c := quick(GAE, 0)
	c.LR = math.Inf(1)
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "positive and finite") {
		t.Errorf("lr +Inf: %v", err)
	}
}
