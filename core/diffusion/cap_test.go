package diffusion

import (
	"math"
	"slices"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/internal/randgraph"
)

// TestWorkCapBelowChangesNothing checks that a cap no column reaches
// leaves S̃ bit-for-bit as without a cap: on Cora with the default cap
// (MaxWork 0, the shared coraDefaultSim) against no cap (MaxWork -1), and
// on a power-law graph with
// the cap set to exactly its largest column's work, while one unit less
// stops that column.
func TestWorkCapBelowChangesNothing(t *testing.T) {
	t.Run("powerlaw", func(t *testing.T) {
		g, err := randgraph.PowerLaw(1500, 3, 0, 5)
		if err != nil {
			t.Fatal(err)
		}
		opt := DefaultOptions()
		opt.Epsilon = 2e-4 // quicker; the cap is set explicitly
		ps := NewPusher(g, opt.Gamma, opt.Epsilon)
		var most int64
		for v := range g.NumNodes() {
			ps.Push(v)
			most = max(most, ps.Work())
		}
		opt.MaxWork = -1
		free := mustNew(t, g, opt)
		opt.MaxWork = most
		atMax := mustNew(t, g, opt)
		if !sameSimilarity(atMax, free) || atMax.CappedColumns() != 0 {
			t.Fatalf("cap %d (the largest column's work): S̃ differs or %d columns capped", most, atMax.CappedColumns())
		}
		opt.MaxWork = most - 1
		below := mustNew(t, g, opt)
		if below.CappedColumns() == 0 {
			t.Fatalf("cap %d: no column capped", most-1)
		}
	})
	t.Run("cora", func(t *testing.T) {
		g, def := coraDefaultSim(t)
		opt := DefaultOptions()
		opt.MaxWork = -1
		if free := mustNew(t, g, opt); !sameSimilarity(def, free) || def.CappedColumns() != 0 {
			t.Fatalf("Cora: the default cap changed S̃ (%d columns capped)", def.CappedColumns())
		}
	})
}

// TestWorkCapHolds checks, on a power-law graph with hubs against the exact
// S, that a capped column's work stays within the cap (the Pusher's own
// counter), and that the stated bound holds with the tolerance it reports:
// 0 ≤ S[c, v] - p[c] ≤ min(ε'·(deg(c)+1), residual) for every c, ε' ≥ ε,
// and ε' > ε only on columns that were stopped.
func TestWorkCapHolds(t *testing.T) {
	t.Parallel()
	g, err := randgraph.PowerLaw(400, 3, 0, 9)
	if err != nil {
		t.Fatal(err)
	}
	s := ExactPPR(g, 0.05)
	const eps = 1e-5
	free := NewPusher(g, 0.05, eps)
	works := make([]int64, g.NumNodes())
	maxDeg := 0
	for v := range g.NumNodes() {
		free.Push(v)
		works[v] = free.Work()
		maxDeg = max(maxDeg, g.Degree(v))
	}
	slices.Sort(works)
	limit := works[len(works)/2] // about half the columns stop
	if int64(maxDeg+1) > limit {
		t.Fatalf("max degree %d, cap %d: the cap must exceed a hub's single push", maxDeg, limit)
	}
	ps := newPusher(g, newLayout(g), 0.05, eps, limit)
	const tol = 1e-12
	col := make([]float64, g.NumNodes())
	stopped := 0
	for v := range g.NumNodes() {
		free.Push(v)
		clear(col)
		nodes, p, resid := ps.Push(v)
		for k, c := range nodes {
			col[c] = p[k]
		}
		if ps.Work() > limit {
			t.Fatalf("source %d: work %d over the cap %d", v, ps.Work(), limit)
		}
		e := ps.Tolerance()
		if e < eps || (e > eps) != (free.Work() > limit) {
			t.Fatalf("source %d: tolerance %g (ε %g), uncapped work %d, cap %d", v, e, eps, free.Work(), limit)
		}
		if e > eps {
			stopped++
		}
		l1 := 0.0
		for c := range col {
			d := s.At(c, v) - col[c]
			if d < -tol || d > min(e*float64(g.Degree(c)+1), resid)+tol {
				t.Fatalf("source %d row %d: S - p = %g outside [0, min(%g, %g)]", v, c, d, e*float64(g.Degree(c)+1), resid)
			}
			l1 += d
		}
		if math.Abs(l1-resid) > 1e-9 {
			t.Fatalf("source %d: L1 error %g, residual %g", v, l1, resid)
		}
	}
	if stopped == 0 || stopped == g.NumNodes() {
		t.Fatalf("%d of %d columns stopped: want some of each", stopped, g.NumNodes())
	}
	t.Logf("%d of %d columns stopped by the cap", stopped, g.NumNodes())
}

func mustNew(t *testing.T, g *graph.Graph, opt Options) *Similarity {
	t.Helper()
	s, err := New(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameSimilarity reports whether a and b store the same entries, bit for
// bit.
func sameSimilarity(a, b *Similarity) bool {
	return slices.Equal(a.t.Indptr, b.t.Indptr) && slices.Equal(a.t.Indices, b.t.Indices) &&
		slices.EqualFunc(a.t.Values, b.t.Values, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}
