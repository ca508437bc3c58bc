// Package randgraph generates random graphs: large ones for the scale
// measurements of the setup phases (issue 16: an ogbn-arxiv-sized graph),
// and small planted partitions that tests train models on.
package randgraph

import (
	"fmt"
	"math/rand/v2"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// PowerLaw returns a preferential-attachment graph (Barabási–Albert) on n
// nodes: node v ≥ m links to m earlier nodes, each drawn with probability
// proportional to its degree (a uniformly random endpoint of the edges so
// far; the first m nodes form a path to seed the list), so degrees follow
// a power law with exponent about 3 and the oldest nodes are hubs. Repeats
// are dropped by graph.New, so the graph has slightly fewer than m·n edges.
// With dim > 0 every node gets dim dense features uniform in [0, 1).
// Everything is drawn from a PCG seeded with seed.
func PowerLaw(n, m, dim int, seed uint64) (*graph.Graph, error) {
	if n <= m || m < 1 {
		return nil, fmt.Errorf("randgraph: need n > m >= 1 (got n %d, m %d)", n, m)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	edges := make([]graph.Edge, 0, m*n)
	ends := make([]int32, 0, 2*m*n) // every edge's two endpoints
	for v := 1; v < m; v++ {
		edges = append(edges, graph.Edge{U: int32(v - 1), V: int32(v)})
		ends = append(ends, int32(v-1), int32(v))
	}
	for v := m; v < n; v++ {
		k := len(ends) // draw from the edges before v's own
		for range m {
			u := ends[rng.IntN(k)]
			edges = append(edges, graph.Edge{U: u, V: int32(v)})
			ends = append(ends, u, int32(v))
		}
	}
	ends = nil
	var x *f32.CSR
	if dim > 0 {
		x = &f32.CSR{Rows: n, Cols: dim, Indptr: make([]int32, n+1),
			Indices: make([]int32, n*dim), Values: make([]float32, n*dim)}
		for i := range n {
			x.Indptr[i+1] = int32((i + 1) * dim)
			for c := range dim {
				x.Indices[i*dim+c] = int32(c)
				x.Values[i*dim+c] = rng.Float32()
			}
		}
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		return nil, fmt.Errorf("randgraph: %w", err)
	}
	return g, nil
}
