package diffusion

import (
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ilpgnn/core/graph"
	"ilpgnn/core/internal/datasets"
	"ilpgnn/core/load"
)

var cora struct {
	once sync.Once
	g    *graph.Graph
	err  error
}

// loadCora loads Cora with core/load (once per test binary), skipping the
// test when the datasets are absent.
func loadCora(tb testing.TB) *graph.Graph {
	tb.Helper()
	path := datasets.Path(tb, "cora")
	cora.once.Do(func() { cora.g, cora.err = load.Path(path) })
	if cora.err != nil {
		tb.Fatal(cora.err)
	}
	if n, m := cora.g.NumNodes(), cora.g.NumEdges(); n != 2708 || m != 5278 {
		tb.Fatalf("cora: %d nodes, %d edges, want 2708, 5278", n, m)
	}
	return cora.g
}

var coraExact struct {
	once sync.Once
	s    *mat.Dense
}

// coraExactS returns ExactPPR(cora, 0.05), computed once per test binary.
func coraExactS(tb testing.TB) (*graph.Graph, *mat.Dense) {
	g := loadCora(tb)
	coraExact.once.Do(func() { coraExact.s = ExactPPR(g, 0.05) })
	return g, coraExact.s
}

// randomGraph returns a G(n, m)-like graph: m uniformly random pairs from a
// PCG seeded with seed (self-loops and repeats dropped, so slightly fewer
// than m edges).
func randomGraph(tb testing.TB, n, m int, seed uint64) *graph.Graph {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	edges := make([]graph.Edge, m)
	for k := range edges {
		edges[k] = graph.Edge{U: int32(rng.IntN(n)), V: int32(rng.IntN(n))}
	}
	g, err := graph.New(n, edges, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// mustGraph builds a graph from an edge list, failing the test on error.
func mustGraph(tb testing.TB, n int, edges ...[2]int32) *graph.Graph {
	tb.Helper()
	es := make([]graph.Edge, len(edges))
	for k, e := range edges {
		es[k] = graph.Edge{U: e[0], V: e[1]}
	}
	g, err := graph.New(n, es, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
