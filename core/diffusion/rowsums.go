package diffusion

import (
	"fmt"
	"math"

	"ilpgnn/core/detmath"
	"ilpgnn/core/graph"
)

// rowSumsTol bounds the per-degree error of RowSums: |d[c] - (S·1)[c]| ≤
// (deg(c)+1)·rowSumsTol.
const rowSumsTol = 1e-13

// RowSums returns the row sums of the full (un-sparsified) S of docs/model.md §2,
// eq 1: d = S·1, the solution of d = γ·1 + (1-γ)·T·d. With f = D̂^-1 d it
// iterates
//
//	f[c] ← (γ + (1-γ)·Σ_{u ∈ N(c) ∪ {c}} f[u]) / (deg(c)+1),   d = D̂ f,
//
// from f = D̂^-1·1. D̂^-1 Â is row-stochastic, so each sweep contracts the
// error of f by 1-γ in the max norm, and the start is within 1 of the
// answer (f*[c] = Σ_u S[u,c]/(deg(u)+1) ≤ 1). It stops after K sweeps with
// (1-γ)^K ≤ 1e-13, or earlier once a sweep moves f by at most
// 1e-13·γ/(1-γ), so that |d[c] - (S·1)[c]| ≤ (deg(c)+1)·1e-13 (d[c] ≥ γ).
// That is about 600 sweeps of O(N + |E|) at γ = 0.05, in a fixed order
// (deterministic). Σ_c d[c] = N up to rounding.
//
// RowSums panics if gamma is not in (0, 1).
func RowSums(g *graph.Graph, gamma float64) []float64 {
	if !(gamma > 0 && gamma < 1) {
		panic(fmt.Sprintf("diffusion: teleport %v outside (0, 1)", gamma))
	}
	n := g.NumNodes()
	f, next, inv := make([]float64, n), make([]float64, n), make([]float64, n)
	for c := range f {
		inv[c] = 1 / float64(g.Degree(c)+1)
		f[c] = inv[c]
	}
	sweeps := int(math.Ceil(detmath.Log(rowSumsTol) / math.Log1p(-gamma)))
	for range sweeps {
		delta := 0.0
		for c := range next {
			t := f[c]
			for _, u := range g.Neighbors(c) {
				t += f[u]
			}
			next[c] = (gamma + (1-gamma)*t) * inv[c]
			delta = max(delta, math.Abs(next[c]-f[c]))
		}
		f, next = next, f
		if delta*(1-gamma)/gamma <= rowSumsTol {
			break
		}
	}
	for c := range f {
		f[c] *= float64(g.Degree(c) + 1)
	}
	return f
}
