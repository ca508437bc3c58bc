package diffusion

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ilpgnn/core/graph"
	"ilpgnn/core/internal/datasets"
)

// powerSeries returns S = Σ_k γ(1-γ)^k T^k summed in float64 until a term's
// largest entry is below 1e-17: an oracle independent of the LU solve.
func powerSeries(g *graph.Graph, gamma float64) *mat.Dense {
	n := g.NumNodes()
	t := mat.NewDense(n, n, nil)
	for u := 0; u < n; u++ {
		w := 1 / float64(g.Degree(u)+1)
		t.Set(u, u, w)
		for _, c := range g.Neighbors(u) {
			t.Set(int(c), u, w)
		}
	}
	s := mat.NewDense(n, n, nil)
	term := mat.NewDense(n, n, nil) // γ(1-γ)^k T^k
	for i := 0; i < n; i++ {
		term.Set(i, i, gamma)
	}
	for k := 0; k < 100000 && mat.Max(term) > 1e-17; k++ {
		s.Add(s, term)
		term.Mul(t, term)
		term.Scale(1-gamma, term)
	}
	return s
}

// TestExactPPR checks ExactPPR against closed forms and the power series.
// Oracles: for a complete graph K_n every T^k (k ≥ 1) is J/n, so
// S = γ I + (1-γ) J/n exactly; otherwise powerSeries. Tolerance 1e-12.
func TestExactPPR(t *testing.T) {
	const gamma = 0.05
	complete := func(n int) *mat.Dense {
		s := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := (1 - gamma) / float64(n)
				if i == j {
					v += gamma
				}
				s.Set(i, j, v)
			}
		}
		return s
	}
	for k, tc := range []struct {
		name string
		g    *graph.Graph
		want *mat.Dense // nil: powerSeries
	}{
		// 1. K2: S = [[0.525, 0.475], [0.475, 0.525]].
		{"K2", mustGraph(t, 2, [2]int32{0, 1}), mat.NewDense(2, 2, []float64{0.525, 0.475, 0.475, 0.525})},
		// 2. K3: diagonal 0.05 + 0.95/3, off-diagonal 0.95/3.
		{"K3", mustGraph(t, 3, [2]int32{0, 1}, [2]int32{1, 2}, [2]int32{0, 2}), complete(3)},
		// 3. The 3-node path 0-1-2.
		{"path3", mustGraph(t, 3, [2]int32{0, 1}, [2]int32{1, 2}), nil},
		// 4. An edge and an isolated node: column 2 is e_2.
		{"isolated", mustGraph(t, 3, [2]int32{0, 1}), mat.NewDense(3, 3, []float64{0.525, 0.475, 0, 0.475, 0.525, 0, 0, 0, 1})},
		// 5. A star, centre 0 and 5 leaves.
		{"star", mustGraph(t, 6, [2]int32{0, 1}, [2]int32{0, 2}, [2]int32{0, 3}, [2]int32{0, 4}, [2]int32{0, 5}), nil},
		// 6. A random graph, 40 nodes, 80 pairs.
		{"random40", randomGraph(t, 40, 80, 6), nil},
	} {
		want := tc.want
		if want == nil {
			want = powerSeries(tc.g, gamma)
		}
		got := ExactPPR(tc.g, gamma)
		if !mat.EqualApprox(got, want, 1e-12) {
			t.Errorf("%d. %s: ExactPPR =\n%v\nwant\n%v", k+1, tc.name, mat.Formatted(got), mat.Formatted(want))
		}
		checkPPRProperties(t, tc.name, tc.g, got, 1e-12)
	}
}

// checkPPRProperties checks that S ≥ 0, its columns sum to 1, and S D̂ is
// symmetric (S[c,u](deg u+1) = S[u,c](deg c+1)), to tol.
func checkPPRProperties(t *testing.T, name string, g *graph.Graph, s *mat.Dense, tol float64) {
	t.Helper()
	n := g.NumNodes()
	for v := 0; v < n; v++ {
		sum := 0.0
		for c := 0; c < n; c++ {
			x := s.At(c, v)
			if x < -tol {
				t.Fatalf("%s: S[%d, %d] = %g < 0", name, c, v, x)
			}
			sum += x
			a, b := x*float64(g.Degree(v)+1), s.At(v, c)*float64(g.Degree(c)+1)
			if math.Abs(a-b) > tol {
				t.Fatalf("%s: S D̂ not symmetric at (%d, %d): %g vs %g", name, c, v, a, b)
			}
		}
		if math.Abs(sum-1) > tol {
			t.Fatalf("%s: column %d sums to %.17g, want 1", name, v, sum)
		}
	}
}

// TestExactPPRCora checks the PPR properties of the solve on a 600-node
// piece of Cora with its largest hub (coraSub; tolerance 1e-12) and that
// the empty graph gives an empty matrix.
func TestExactPPRCora(t *testing.T) {
	t.Parallel()
	if r, c := ExactPPR(mustGraph(t, 0), 0.05).Dims(); r != 0 || c != 0 {
		t.Errorf("empty graph: ExactPPR is %dx%d, want 0x0", r, c)
	}
	if testing.Short() {
		t.Skip("short: skipping the Cora solve")
	}
	g, s := coraExactS(t)
	checkPPRProperties(t, "cora600", g, s, 1e-12)
}

// TestPushBound checks forward push against ExactPPR column by column, on
// the bound derived in Pusher.Push: for every source v and node c,
// 0 ≤ S[c,v] - p[c] ≤ ε·(deg(c)+1); the column's L1 error equals the
// returned residual; residual ≤ min(1, ε·Σ_u(deg(u)+1)). Rounding
// tolerance 1e-12.
func TestPushBound(t *testing.T) {
	t.Parallel()
	type tc struct {
		name string
		g    *graph.Graph
		s    *mat.Dense
		eps  []float64
	}
	cases := []tc{
		// 1-3. Random graphs: sparse, dense, with isolated nodes.
		{name: "random50x60", g: randomGraph(t, 50, 60, 1), eps: []float64{1e-2, 1e-3, 1e-5}},
		{name: "random60x600", g: randomGraph(t, 60, 600, 2), eps: []float64{1e-2, 1e-3, 1e-5}},
		{name: "random200x150", g: randomGraph(t, 200, 150, 3), eps: []float64{1e-3, 1e-4, 1e-6}},
		// 4. A star with a hub of degree 300 (ε·(deg+1) > 1 at ε = 1e-2: the
		// source is still pushed once).
		{name: "star301", g: star(t, 301), eps: []float64{1e-2, 1e-4}},
	}
	if !testing.Short() {
		g, s := coraExactS(t)
		// 5. A 600-node piece of Cora with its largest hub (coraSub).
		cases = append(cases, tc{name: "cora600", g: g, s: s, eps: []float64{1e-4, 1e-5}})
	}
	const tol = 1e-12
	for k, c := range cases {
		s := c.s
		if s == nil {
			s = ExactPPR(c.g, 0.05)
		}
		n := c.g.NumNodes()
		vol := float64(len(c.g.Indices) + n) // Σ_u (deg(u)+1)
		for _, eps := range c.eps {
			ps := NewPusher(c.g, 0.05, eps)
			col := make([]float64, n)
			for v := 0; v < n; v++ {
				clear(col)
				nodes, p, resid := ps.Push(v)
				for x, u := range nodes {
					col[u] = p[x]
				}
				l1 := 0.0
				for u := 0; u < n; u++ {
					e := s.At(u, v) - col[u]
					if e < -tol || e > eps*float64(c.g.Degree(u)+1)+tol {
						t.Fatalf("%d. %s ε=%g: S[%d,%d] - p = %g outside [0, %g]", k+1, c.name, eps, u, v, e, eps*float64(c.g.Degree(u)+1))
					}
					l1 += e
				}
				if math.Abs(l1-resid) > 1e-10 || resid > min(1, eps*vol)+tol {
					t.Fatalf("%d. %s ε=%g column %d: L1 error %g, residual %g, bound %g", k+1, c.name, eps, v, l1, resid, min(1, eps*vol))
				}
			}
		}
	}
}

// star returns a star on n nodes with centre 0.
func star(t testing.TB, n int) *graph.Graph {
	edges := make([][2]int32, n-1)
	for i := range edges {
		edges[i] = [2]int32{0, int32(i + 1)}
	}
	return mustGraph(t, n, edges...)
}

// TestPushColumn checks that PushColumn returns sorted nodes and the same
// values as a reused Pusher (exact equality: the same arithmetic).
func TestPushColumn(t *testing.T) {
	g := randomGraph(t, 300, 900, 4)
	ps := NewPusher(g, 0.05, 1e-4)
	for _, v := range []int{0, 7, 299, 7} {
		nodes, p, resid := PushColumn(g, v, 0.05, 1e-4)
		if !slices.IsSorted(nodes) {
			t.Fatalf("source %d: nodes not sorted", v)
		}
		n2, p2, r2 := ps.Push(v)
		want := map[int32]float64{}
		for x, u := range n2 {
			want[u] = p2[x]
		}
		if len(want) != len(nodes) || resid != r2 {
			t.Fatalf("source %d: %d nodes residual %g, Pusher %d nodes residual %g", v, len(nodes), resid, len(want), r2)
		}
		for x, u := range nodes {
			if want[u] != p[x] {
				t.Fatalf("source %d node %d: %g, Pusher %g", v, u, p[x], want[u])
			}
		}
	}
}

// refTopK returns the top-k of a dense column by sorting (value
// descending, then row ascending), positive entries only: an oracle
// independent of the heap.
func refTopK(col []float64, k int) map[int]bool {
	var idx []int
	for c, v := range col {
		if v > 0 {
			idx = append(idx, c)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case col[a] > col[b]:
			return -1
		case col[a] < col[b]:
			return 1
		}
		return a - b
	})
	if k > 0 && len(idx) > k {
		idx = idx[:k]
	}
	keep := map[int]bool{}
	for _, c := range idx {
		keep[c] = true
	}
	return keep
}

// refNormalise returns D_S^-1/2 sp D_S^-1/2 computed with gonum, D_S being
// the row sums of full (an inverse square root of 0 taken as 0).
func refNormalise(sp, full *mat.Dense) *mat.Dense {
	n, _ := sp.Dims()
	d := make([]float64, n)
	for c := 0; c < n; c++ {
		if rs := mat.Sum(full.RowView(c)); rs > 0 {
			d[c] = 1 / math.Sqrt(rs)
		}
	}
	dd := mat.NewDiagDense(n, d)
	var out mat.Dense
	out.Mul(dd, sp)
	out.Mul(&out, dd)
	return &out
}

// TestSparsifyNormalise checks both paths of New against a direct
// computation: keep the refTopK entries of each column of S (exact S for
// Exact; the push estimate for Push), then refNormalise with gonum, with
// D_S the row sums of the sparsified S (SparsifiedRowSums) or of the exact
// S (FullRowSums). Tolerance: relative 1e-6 (float32 storage; RowSums is
// exact to 1e-12).
func TestSparsifyNormalise(t *testing.T) {
	t.Parallel()
	for k, tc := range []struct {
		name string
		g    *graph.Graph
		opt  Options
	}{
		// 1-2. Exact, with and without sparsification.
		{"random80/exact/k=5", randomGraph(t, 80, 200, 5), Options{Gamma: 0.05, TopK: 5, Method: Exact, Normalization: SparsifiedRowSums}},
		{"random80/exact/k=0", randomGraph(t, 80, 200, 5), Options{Gamma: 0.05, TopK: 0, Method: Exact, Normalization: SparsifiedRowSums}},
		// 3-4. Push.
		{"random80/push/k=8", randomGraph(t, 80, 200, 5), Options{Gamma: 0.05, Epsilon: 1e-4, TopK: 8, Normalization: SparsifiedRowSums}},
		{"random300/push/k=16", randomGraph(t, 300, 1500, 7), Options{Gamma: 0.2, Epsilon: 1e-5, TopK: 16, Normalization: SparsifiedRowSums}},
		// 5. A star whose leaves keep only the centre at k = 1, so every
		// leaf row sums to 0: the guard leaves those entries 0.
		{"star/exact/k=1", star(t, 20), Options{Gamma: 0.05, TopK: 1, Method: Exact, Normalization: SparsifiedRowSums}},
		// 6. Ties: the 6 leaves of a star get bit-identical pushes in the
		// centre's column; k = 3 keeps the centre and leaves 1, 2.
		{"star7/push/k=3", star(t, 7), Options{Gamma: 0.05, Epsilon: 1e-6, TopK: 3, Normalization: SparsifiedRowSums}},
		// 7-9. The same with D_S from the full S.
		{"random80/exact/k=5/full", randomGraph(t, 80, 200, 5), Options{Gamma: 0.05, TopK: 5, Method: Exact}},
		{"random300/push/k=16/full", randomGraph(t, 300, 1500, 7), Options{Gamma: 0.2, Epsilon: 1e-5, TopK: 16}},
		{"star/push/k=1/full", star(t, 20), Options{Gamma: 0.05, Epsilon: 1e-4, TopK: 1}},
	} {
		n := tc.g.NumNodes()
		exact := ExactPPR(tc.g, tc.opt.Gamma)
		s := exact
		if tc.opt.Method == Push {
			s = mat.NewDense(n, n, nil)
			for v := 0; v < n; v++ {
				nodes, p, _ := PushColumn(tc.g, v, tc.opt.Gamma, tc.opt.Epsilon)
				for x, c := range nodes {
					s.Set(int(c), v, p[x])
				}
			}
		}
		sp := mat.NewDense(n, n, nil)
		for v := 0; v < n; v++ {
			col := mat.Col(nil, v, s)
			for c := range refTopK(col, tc.opt.TopK) {
				sp.Set(c, v, col[c])
			}
		}
		full := sp
		if tc.opt.Normalization == FullRowSums {
			full = exact
		}
		want := refNormalise(sp, full)
		sim, err := New(tc.g, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		got := sim.Dense()
		for v := 0; v < n; v++ {
			rows, _ := sim.Column(v)
			if tc.opt.TopK > 0 && len(rows) > tc.opt.TopK {
				t.Errorf("%d. %s: column %d keeps %d > k entries", k+1, tc.name, v, len(rows))
			}
			for c := 0; c < n; c++ {
				a, b := got.At(c, v), want.At(c, v)
				if math.IsNaN(a) || math.Abs(a-b) > 1e-6*math.Abs(b) {
					t.Fatalf("%d. %s: S̃[%d,%d] = %g, want %g", k+1, tc.name, c, v, a, b)
				}
			}
		}
		switch tc.name {
		case "star/exact/k=1":
			if sim.NNZ() != 1 || sim.At(0, 0) == 0 {
				t.Errorf("%d. %s: nnz %d, S̃[0,0] = %g; want only the centre's diagonal", k+1, tc.name, sim.NNZ(), sim.At(0, 0))
			}
		case "star7/push/k=3":
			if rows, _ := sim.Column(0); !slices.Equal(rows, []int32{0, 1, 2}) {
				t.Errorf("%d. %s: column 0 keeps %v, want [0 1 2]", k+1, tc.name, rows)
			}
		}
	}
}

// TestPushMatchesExact checks New(Push) against S̃ of the exact S with no
// sparsification, on a random graph and a 600-node piece of Cora with its
// largest hub (coraSub), entry by entry, within the
// bound that follows from the push bound 0 ≤ S - P ≤ a_c = ε·(deg(c)+1)
// (Pusher.Push), widened by 1e-6 relative for the float32 storage:
//
//   - FullRowSums (D exact): S̃[c,j] - a_c/sqrt(D_c D_j) ≤ S̃^P[c,j] ≤ S̃[c,j];
//   - SparsifiedRowSums: the push row sums obey 0 ≤ D_c - D^P_c ≤ b_c = N·a_c,
//     so S̃[c,j] - a_c/sqrt(D_c D_j) ≤ S̃^P[c,j] ≤ S[c,j]/sqrt((D_c-b_c)(D_j-b_j)).
func TestPushMatchesExact(t *testing.T) {
	t.Parallel()
	type tc struct {
		name string
		g    *graph.Graph
		s    *mat.Dense
		eps  float64
	}
	cases := []tc{{name: "random300", g: randomGraph(t, 300, 900, 11), eps: 1e-6}} // 1.
	if !testing.Short() {
		g, s := coraExactS(t)
		cases = append(cases, tc{name: "cora600", g: g, s: s, eps: 1e-5}) // 2.
	}
	for k, c := range cases {
		s := c.s
		if s == nil {
			s = ExactPPR(c.g, 0.05)
		}
		n := c.g.NumNodes()
		d := make([]float64, n)
		for i := range d {
			d[i] = mat.Sum(s.RowView(i))
		}
		want := fromDense(s, 0, FullRowSums, nil).Dense()
		for _, z := range []Normalization{FullRowSums, SparsifiedRowSums} {
			sim, err := New(c.g, Options{Gamma: 0.05, Epsilon: c.eps, Normalization: z})
			if err != nil {
				t.Fatal(err)
			}
			got := sim.Dense()
			for i := 0; i < n; i++ {
				a := c.eps * float64(c.g.Degree(i)+1)
				for j := 0; j < n; j++ {
					lo := want.At(i, j) - a/math.Sqrt(d[i]*d[j])
					hi := want.At(i, j)
					if z == SparsifiedRowSums {
						bi, bj := float64(n)*a, float64(n)*c.eps*float64(c.g.Degree(j)+1)
						hi = s.At(i, j) / math.Sqrt((d[i]-bi)*(d[j]-bj))
					}
					if v := got.At(i, j); v < lo-1e-6*math.Abs(lo) || v > hi+1e-6*hi || math.IsNaN(hi) {
						t.Fatalf("%d. %s %v: S̃^P[%d,%d] = %g outside [%g, %g] (exact %g)", k+1, c.name, z, i, j, v, lo, hi, want.At(i, j))
					}
				}
			}
		}
	}
}

// TestRowSums checks RowSums against the row sums of ExactPPR (relative
// 1e-10) and Σ_c d[c] = N (1e-9), on graphs with isolated nodes and hubs.
func TestRowSums(t *testing.T) {
	for k, g := range []*graph.Graph{
		mustGraph(t, 0),                 // 1.
		mustGraph(t, 3, [2]int32{0, 1}), // 2.
		star(t, 50),                     // 3.
		randomGraph(t, 200, 150, 12),    // 4.
		randomGraph(t, 300, 3000, 13),   // 5.
	} {
		for _, gamma := range []float64{0.05, 0.5} {
			got := RowSums(g, gamma)
			s := ExactPPR(g, gamma)
			sum := 0.0
			for c, v := range got {
				want := mat.Sum(s.RowView(c))
				if math.Abs(v-want) > 1e-10*want {
					t.Fatalf("%d. γ=%g: row %d sums to %.15g, want %.15g", k+1, gamma, c, v, want)
				}
				sum += v
			}
			if n := float64(g.NumNodes()); math.Abs(sum-n) > 1e-9*max(n, 1) {
				t.Errorf("%d. γ=%g: Σ d = %.15g, want %v", k+1, gamma, sum, n)
			}
		}
	}
}

// TestGather checks Gather against At (exact equality) for random sorted
// candidate lists with repeats, on Cora with the default options (the
// shared coraDefaultSim) and on a graph with isolated nodes.
func TestGather(t *testing.T) {
	graphs := []*graph.Graph{mustGraph(t, 5, [2]int32{0, 1}, [2]int32{1, 2}), randomGraph(t, 500, 400, 8)}
	if datasets.Dir() != "" {
		g, _ := coraDefaultSim(t)
		graphs = append(graphs, g)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for k, g := range graphs {
		var sim *Similarity
		if k == 2 {
			_, sim = coraDefaultSim(t)
		} else {
			var err error
			if sim, err = New(g, DefaultOptions()); err != nil {
				t.Fatal(err)
			}
		}
		n := g.NumNodes()
		for trial := 0; trial < 2000; trial++ {
			j := rng.IntN(n)
			cands := make([]int32, rng.IntN(12))
			for x := range cands {
				cands[x] = int32(rng.IntN(n))
			}
			if trial%3 == 0 { // the model's case: the neighbours of some i
				cands = slices.Clone(g.Neighbors(rng.IntN(n)))
			}
			slices.Sort(cands)
			dst := make([]float32, len(cands))
			for x := range dst {
				dst[x] = -1 // guard: every slot must be written
			}
			sim.Gather(dst, j, cands)
			for x, c := range cands {
				if want := sim.At(int(c), j); dst[x] != want {
					t.Fatalf("%d. Gather(j=%d)[%d] (c=%d) = %g, At = %g", k+1, j, x, c, dst[x], want)
				}
			}
		}
	}
}

// TestGatherPanics checks the documented panics.
func TestGatherPanics(t *testing.T) {
	sim, err := New(randomGraph(t, 10, 20, 1), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for k, tc := range []struct {
		dst   []float32
		cands []int32
		want  string
	}{
		{make([]float32, 2), []int32{1, 2, 3}, "diffusion: Gather len(dst)"},              // 1.
		{make([]float32, 3), []int32{1, 3, 2}, "diffusion: Gather candidates not sorted"}, // 2.
	} {
		func() {
			defer func() {
				r, _ := recover().(string)
				if !strings.HasPrefix(r, tc.want) {
					t.Errorf("%d. panic %q, want prefix %q", k+1, r, tc.want)
				}
			}()
			sim.Gather(tc.dst, 0, tc.cands)
		}()
	}
}

// TestDegenerate checks graphs with known answers, for both methods: no
// nodes; only isolated nodes (S = I, so S̃ = I); a node of degree 0 beside
// edges (its column and row hold only S̃[u,u] = 1). Tolerance 1e-6.
func TestDegenerate(t *testing.T) {
	for _, m := range []Method{Push, Exact} {
		opt := DefaultOptions()
		opt.Method = m
		// 1. No nodes.
		sim, err := New(mustGraph(t, 0), opt)
		if err != nil || sim.N() != 0 || sim.NNZ() != 0 {
			t.Fatalf("1. %v empty graph: %v, %v", m, sim, err)
		}
		if r, _ := sim.Dense().Dims(); r != 0 {
			t.Fatalf("1. %v empty graph: Dense has %d rows", m, r)
		}
		// 2. Only isolated nodes.
		sim, err = New(mustGraph(t, 4), opt)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(sim.Dense(), eye(4), 1e-6) {
			t.Errorf("2. %v isolated nodes: S̃ =\n%v\nwant I", m, mat.Formatted(sim.Dense()))
		}
		// 3. Node 3 of degree 0 beside a triangle.
		g := mustGraph(t, 5, [2]int32{0, 1}, [2]int32{1, 2}, [2]int32{0, 2}, [2]int32{2, 4})
		sim, err = New(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float32, 5)
		sim.Gather(dst, 3, []int32{0, 1, 2, 3, 4})
		if !slices.Equal(dst, []float32{0, 0, 0, 1, 0}) {
			t.Errorf("3. %v: column of the isolated node = %v, want e_3", m, dst)
		}
		for j := 0; j < 5; j++ {
			if want := float32(0); j == 3 {
				if v := sim.At(3, j); math.Abs(float64(v-1)) > 1e-6 {
					t.Errorf("3. %v: S̃[3,3] = %g, want 1", m, v)
				}
			} else if v := sim.At(3, j); v != want {
				t.Errorf("3. %v: S̃[3,%d] = %g, want 0", m, j, v)
			}
		}
	}
}

func eye(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		d.Set(i, i, 1)
	}
	return d
}

// TestDeterminism checks that New gives identical bytes whatever
// GOMAXPROCS (1, 2, 4) and from one call to the next: on a random graph
// computed at 1, 2, 2 and 4; on Cora, the shared coraDefaultSim (computed
// at the binary's GOMAXPROCS) against one call at GOMAXPROCS 1 (at 4 where
// the binary runs with 1).
func TestDeterminism(t *testing.T) {
	type tc struct {
		g     *graph.Graph
		ref   *Similarity // nil: the first call's
		procs []int
	}
	cases := []tc{{g: randomGraph(t, 500, 2500, 9), procs: []int{1, 2, 2, 4}}}
	if datasets.Dir() != "" {
		g, sim := coraDefaultSim(t)
		other := 1
		if runtime.GOMAXPROCS(0) == 1 {
			other = 4
		}
		cases = append(cases, tc{g: g, ref: sim, procs: []int{other}})
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for k, c := range cases {
		g, ref := c.g, c.ref
		for _, procs := range c.procs {
			runtime.GOMAXPROCS(procs)
			sim, err := New(g, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = sim
				continue
			}
			bits := func(v []float32) []uint32 {
				out := make([]uint32, len(v))
				for x, f := range v {
					out[x] = math.Float32bits(f)
				}
				return out
			}
			if !slices.Equal(sim.t.Indptr, ref.t.Indptr) || !slices.Equal(sim.t.Indices, ref.t.Indices) ||
				!slices.Equal(bits(sim.t.Values), bits(ref.t.Values)) {
				t.Errorf("%d. GOMAXPROCS=%d: result differs from the first call's", k+1, procs)
			}
		}
		if err := ref.t.Validate(); err != nil {
			t.Errorf("%d. stored S̃ᵀ invalid: %v", k+1, err)
		}
	}
}

// TestValidate checks that each bad option is reported with its value.
func TestValidate(t *testing.T) {
	if err := DefaultOptions().Validate(); err != nil {
		t.Fatalf("DefaultOptions: %v", err)
	}
	mod := func(f func(*Options)) Options { o := DefaultOptions(); f(&o); return o }
	// 9. An unknown Normalization.
	if err := mod(func(o *Options) { o.Normalization = 5 }).Validate(); err == nil || !strings.Contains(err.Error(), "unknown Normalization 5") {
		t.Errorf("9. Normalization 5: error %v", err)
	}
	for k, tc := range []struct {
		opt  Options
		want string // "" for valid
	}{
		{mod(func(o *Options) { o.Gamma = 0 }), "(got 0)"},                             // 1.
		{mod(func(o *Options) { o.Gamma = 1.1 }), "(got 1.1)"},                         // 2.
		{mod(func(o *Options) { o.Gamma = math.NaN() }), "(got NaN)"},                  // 3.
		{mod(func(o *Options) { o.Epsilon = 0 }), "Epsilon must be in (0, 1) (got 0)"}, // 4.
		{mod(func(o *Options) { o.Epsilon = -1; o.Method = Exact }), ""},               // 5. ε unused by Exact
		{mod(func(o *Options) { o.TopK = -3 }), "(got -3)"},                            // 6.
		{mod(func(o *Options) { o.TopK = 0 }), ""},                                     // 7.
		{mod(func(o *Options) { o.Method = 7 }), "unknown Method 7"},                   // 8.
	} {
		err := tc.opt.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%d. %+v: unexpected error %v", k+1, tc.opt, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%d. %+v: error %v, want one containing %q", k+1, tc.opt, err, tc.want)
		}
		if tc.want != "" {
			if _, err := New(mustGraph(t, 2, [2]int32{0, 1}), tc.opt); err == nil {
				t.Errorf("%d. New accepted %+v", k+1, tc.opt)
			}
		}
	}
}

// TestProgress checks the progress contract: at most ~100 calls, done
// non-decreasing, the last call (total, total). Push runs at ε = 1e-3: the
// contract does not depend on ε, and n = 2500 columns at the default ε
// took seconds.
func TestProgress(t *testing.T) {
	for k, n := range []int{1, 37, 2500} {
		g := randomGraph(t, n, 3*n, uint64(n))
		for _, m := range []Method{Push, Exact} {
			if m == Exact && n > 100 {
				continue
			}
			var calls [][2]int
			opt := DefaultOptions()
			opt.Method = m
			opt.Epsilon = 1e-3
			if _, err := NewWithProgress(g, opt, func(done, total int) { calls = append(calls, [2]int{done, total}) }); err != nil {
				t.Fatal(err)
			}
			if len(calls) == 0 || len(calls) > 101 || calls[len(calls)-1] != [2]int{n, n} {
				t.Fatalf("%d. n=%d %v: %d calls, last %v", k+1, n, m, len(calls), calls[len(calls)-1:])
			}
			for x := 1; x < len(calls); x++ {
				if calls[x][0] < calls[x-1][0] {
					t.Fatalf("%d. n=%d %v: done decreased: %v", k+1, n, m, calls)
				}
			}
		}
	}
}
