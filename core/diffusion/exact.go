package diffusion

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ilpgnn/core/graph"
)

// ExactPPR returns the dense N x N personalised-PageRank matrix (docs/model.md §2,
// eq 1)
//
//	S = Σ_k γ(1-γ)^k T^k = γ (I - (1-γ) T)^-1,   T = Â D̂^-1,  Â = A + I,
//
// by an LU factorisation of I - (1-γ) T and a solve against γ I. Column v of
// S is the PPR vector personalised on v; every column sums to 1 and every
// entry is ≥ 0. An isolated node's column is its unit vector.
//
// It costs O(N³) time and O(N²) memory (minutes and over a gigabyte at
// Amazon Photo's 7650 nodes: docs/diffusion.md), so it is meant for small graphs
// and as the oracle of the push path. A graph with no nodes gives an empty
// (zero-value) matrix. ExactPPR panics if gamma is not in (0, 1).
func ExactPPR(g *graph.Graph, gamma float64) *mat.Dense {
	if !(gamma > 0 && gamma < 1) {
		panic(fmt.Sprintf("diffusion: teleport %v outside (0, 1)", gamma))
	}
	n := g.NumNodes()
	if n == 0 {
		return &mat.Dense{}
	}
	// M = I - (1-γ) Â D̂^-1: column u holds -(1-γ)/(deg(u)+1) on u's
	// neighbours and 1 - (1-γ)/(deg(u)+1) on the diagonal.
	m := mat.NewDense(n, n, nil)
	for u := 0; u < n; u++ {
		w := (1 - gamma) / float64(g.Degree(u)+1)
		m.Set(u, u, 1-w)
		for _, c := range g.Neighbors(u) {
			m.Set(int(c), u, -w)
		}
	}
	var lu mat.LU
	lu.Factorize(m)
	rhs := make([]float64, n)
	for i := range rhs {
		rhs[i] = gamma
	}
	s := mat.NewDense(n, n, nil)
	// M is strictly column diagonally dominant (its off-diagonal column sum
	// is (1-γ) deg/(deg+1) < 1 - (1-γ)/(deg+1)), hence never singular: an
	// error here is a bug.
	if err := lu.SolveTo(s, false, mat.NewDiagDense(n, rhs)); err != nil {
		panic("diffusion: LU solve failed: " + err.Error())
	}
	return s
}
