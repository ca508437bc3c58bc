package randgraph

import (
	"fmt"
	"math/rand/v2"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Planted is a planted-partition graph named "planted", for tests that
// need a graph a model can learn: 4 groups of n/4 nodes, 3n edges drawn
// with 97% within groups, and 16 features per node, a noisy one-hot of the
// group. Scoring pairs by "same group" alone gives AUC ≈ 0.97·0.75 +
// (0.97·0.25 + 0.03·0.75)/2 ≈ 0.86 (a positive is in-group w.p. 0.97, a
// random negative w.p. 0.25). Everything is drawn from a PCG seeded with
// seed, so the same n and seed give the same graph.
func Planted(n int, seed uint64) (*graph.Graph, error) {
	if n < 4 {
		return nil, fmt.Errorf("randgraph: a planted partition needs at least 4 nodes (got %d)", n)
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	group := func(i int) int { return i * 4 / n }
	var edges []graph.Edge
	for len(edges) < 3*n {
		i, j := rng.IntN(n), rng.IntN(n)
		if group(i) == group(j) || rng.Float64() < 0.01 {
			edges = append(edges, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	const d0 = 16
	x := &f32.CSR{Rows: n, Cols: d0, Indptr: make([]int32, n+1)}
	for i := range n {
		for c := range d0 {
			v := 0.3 * rng.NormFloat64()
			if c/4 == group(i) {
				v += 1
			}
			x.Indices = append(x.Indices, int32(c))
			x.Values = append(x.Values, float32(v))
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		return nil, fmt.Errorf("randgraph: planted partition: %w", err)
	}
	g.Name = "planted"
	return g, nil
}
