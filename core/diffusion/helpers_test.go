package diffusion

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ilpgnn/core/graph"
)

// datasetsDir returns $ILPGNN_DATASETS, or the first shared/datasets found
// walking up from the working directory, or "" when there is none.
func datasetsDir() string {
	if d := os.Getenv("ILPGNN_DATASETS"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		cand := filepath.Join(dir, "shared", "datasets")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

var cora struct {
	once sync.Once
	g    *graph.Graph
	err  error
}

// loadCora parses cora.cites into a graph, ids numbered by first
// appearance, skipping the test when the datasets are absent. This is a
// private stand-in for core/load, enough for diffusion (no features).
func loadCora(tb testing.TB) *graph.Graph {
	tb.Helper()
	dir := datasetsDir()
	path := filepath.Join(dir, "cora", "cora.cites")
	if _, err := os.Stat(path); dir == "" || err != nil {
		tb.Skip("cora.cites not found: set ILPGNN_DATASETS")
	}
	cora.once.Do(func() {
		f, err := os.Open(path)
		if err != nil {
			cora.err = err
			return
		}
		defer f.Close()
		id := map[string]int32{}
		node := func(s string) int32 {
			v, ok := id[s]
			if !ok {
				v = int32(len(id))
				id[s] = v
			}
			return v
		}
		var edges []graph.Edge
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) != 2 {
				continue
			}
			edges = append(edges, graph.Edge{U: node(fs[0]), V: node(fs[1])})
		}
		if cora.err = sc.Err(); cora.err != nil {
			return
		}
		cora.g, cora.err = graph.New(len(id), edges, nil, nil)
	})
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
