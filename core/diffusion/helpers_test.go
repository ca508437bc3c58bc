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

// coraSubNodes is the size of coraSub: large enough to hold Cora's biggest
// hub (degree 168) with its neighbourhood and a long tail of low degrees,
// small enough that its dense exact S (O(N³)) and the pushes at ε = 1e-5
// checked against it entry by entry take a fraction of full Cora's time.
const coraSubNodes = 600

var coraSubG struct {
	once sync.Once
	g    *graph.Graph
	err  error
}

// coraSub returns the subgraph of Cora induced by the first coraSubNodes
// nodes of a breadth-first search from its highest-degree node (ties: the
// lowest index), relabelled in that order (once per test binary): a
// connected piece of the real graph, hub included, for the tests that
// compare against the dense exact S. It skips like loadCora.
func coraSub(tb testing.TB) *graph.Graph {
	tb.Helper()
	g := loadCora(tb)
	coraSubG.once.Do(func() {
		hub := 0
		for u := range g.NumNodes() {
			if g.Degree(u) > g.Degree(hub) {
				hub = u
			}
		}
		id := make([]int32, g.NumNodes()) // new index + 1, 0 outside
		id[hub] = 1
		order := []int32{int32(hub)}
		for head := 0; head < len(order) && len(order) < coraSubNodes; head++ {
			for _, w := range g.Neighbors(int(order[head])) {
				if id[w] == 0 && len(order) < coraSubNodes {
					order = append(order, w)
					id[w] = int32(len(order))
				}
			}
		}
		var edges []graph.Edge
		for a, u := range order {
			for _, w := range g.Neighbors(int(u)) {
				if b := id[w] - 1; b > int32(a) {
					edges = append(edges, graph.Edge{U: int32(a), V: b})
				}
			}
		}
		coraSubG.g, coraSubG.err = graph.New(len(order), edges, nil, nil)
	})
	if coraSubG.err != nil {
		tb.Fatal(coraSubG.err)
	}
	if n := coraSubG.g.NumNodes(); n != coraSubNodes {
		tb.Fatalf("cora subgraph: %d nodes, want %d", n, coraSubNodes)
	}
	return coraSubG.g
}

var coraExact struct {
	once sync.Once
	s    *mat.Dense
}

// coraExactS returns coraSub and its ExactPPR(·, 0.05), computed once per
// test binary.
func coraExactS(tb testing.TB) (*graph.Graph, *mat.Dense) {
	g := coraSub(tb)
	coraExact.once.Do(func() { coraExact.s = ExactPPR(g, 0.05) })
	return g, coraExact.s
}

var coraDefault struct {
	once sync.Once
	sim  *Similarity
	err  error
}

// coraDefaultSim returns Cora and New(cora, DefaultOptions()), computed
// once per test binary (at the binary's GOMAXPROCS) for the tests that only
// read it.
func coraDefaultSim(tb testing.TB) (*graph.Graph, *Similarity) {
	tb.Helper()
	g := loadCora(tb)
	coraDefault.once.Do(func() { coraDefault.sim, coraDefault.err = New(g, DefaultOptions()) })
	if coraDefault.err != nil {
		tb.Fatal(coraDefault.err)
	}
	return g, coraDefault.sim
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
