package ilpgnn_test

import (
	"fmt"
	"math/rand/v2"

	"ilpgnn/core/explain"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
)

// Explain a pair with an (untrained) model: with K = 1, each end selects
// the common neighbour first, whatever the scores.
func ExamplePredictor_Explain() {
	// c - b - a - d - e: b and d share one neighbour, a. One-hot features.
	ids := []string{"a", "b", "c", "d", "e"}
	x := &f32.CSR{Rows: 5, Cols: 5, Indptr: []int32{0, 1, 2, 3, 4, 5}, Indices: []int32{0, 1, 2, 3, 4}, Values: []float32{1, 1, 1, 1, 1}}
	g, err := graph.New(5, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 3}, {U: 3, V: 4}}, x, ids)
	if err != nil {
		panic(err)
	}
	cfg := ilpgnn.DefaultConfig()
	cfg.Hidden, cfg.K = 8, 1
	m, err := ilpgnn.New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	in, err := ilpgnn.Prepare(g, cfg)
	if err != nil {
		panic(err)
	}
	e, err := ilpgnn.NewPredictor(m, in).Explain(1, 3) // b and d: not linked
	if err != nil {
		panic(err)
	}
	for _, s := range []explain.Side{e.I, e.J} {
		sel := s.Selected()
		fmt.Printf("%s: %d candidates, selected %s (common neighbour: %v)\n", s.ID, len(s.Neighbors), sel[0].ID, sel[0].Common)
	}
	fmt.Println(e.Linked, e.Masked)
	// Output:
	// b: 2 candidates, selected a (common neighbour: true)
	// d: 2 candidates, selected a (common neighbour: true)
	// false false
}
