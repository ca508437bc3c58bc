package diffusion_test

import (
	"fmt"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/graph"
)

// ExampleNew computes S̃ for a path 0-1-2-3 beside an isolated node 4 and
// reads s_ST(i, c, j) = S̃[c, j] for the neighbours c of i = 2 and the
// target j = 0, as the model does, by push (the default) and exactly.
func ExampleNew() {
	g, err := graph.New(5, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}}, nil, nil)
	if err != nil {
		panic(err)
	}
	push, err := diffusion.New(g, diffusion.DefaultOptions())
	if err != nil {
		panic(err)
	}
	opt := diffusion.DefaultOptions()
	opt.Method = diffusion.Exact
	exact, err := diffusion.New(g, opt)
	if err != nil {
		panic(err)
	}

	i, j := 2, 0
	cands := g.Neighbors(i) // sorted ascending, as Gather requires
	s := make([]float32, len(cands))
	push.Gather(s, j, cands)
	for k, c := range cands {
		fmt.Printf("s_ST(%d, %d, %d) = %.4f (exact %.4f)\n", i, c, j, s[k], exact.At(int(c), j))
	}
	fmt.Printf("isolated node: S̃[4,4] = %.4f\n", push.At(4, 4))
	// Output:
	// s_ST(2, 1, 0) = 0.3195 (exact 0.3196)
	// s_ST(2, 3, 0) = 0.1860 (exact 0.1861)
	// isolated node: S̃[4,4] = 1.0000
}

// ExamplePushColumn approximates the PPR vector personalised on node 0 of
// a triangle, where S = γ I + (1-γ) J/3 exactly: column 0 is
// (0.3667, 0.3167, 0.3167). The residual is the column's L1 error.
func ExamplePushColumn() {
	g, err := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 2}}, nil, nil)
	if err != nil {
		panic(err)
	}
	nodes, p, residual := diffusion.PushColumn(g, 0, 0.05, 1e-6)
	for k, u := range nodes {
		fmt.Printf("S[%d,0] ≈ %.4f\n", u, p[k])
	}
	fmt.Printf("L1 error %.1e\n", residual)
	// Output:
	// S[0,0] ≈ 0.3667
	// S[1,0] ≈ 0.3167
	// S[2,0] ≈ 0.3167
	// L1 error 4.4e-06
}
