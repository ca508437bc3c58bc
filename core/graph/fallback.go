package graph

import (
	"math"
	"math/rand/v2"

	"ilpgnn/core/f32"
)

const (
	// OneHotMaxNodes is the largest graph that WithFallbackFeatures gives
	// one-hot id features; larger graphs get the structural fallback.
	OneHotMaxNodes = 4096

	// ProjectionDim is the width of the random projection of the adjacency
	// in the structural fallback features.
	ProjectionDim = 64

	// fallbackStream is the PCG stream of the projection's random matrix
	// (ASCII "fallback"), so that it never shares a stream with a split or a
	// sampler seeded with the same seed.
	fallbackStream = 0x6661_6c6c_6261_636b
)

// WithFallbackFeatures returns g with features made up for a graph that has
// none. A graph with at least one stored feature entry is returned unchanged
// (the same pointer): its nodes with an empty feature row, such as the 15
// papers that Citeseer's .cites mentions but its .content lacks, keep the
// empty row.
//
// Otherwise, when every feature row is empty (D = 0 included), it returns a
// shallow copy of g (sharing adjacency, ids and labels) whose features are:
//
//   - N <= OneHotMaxNodes: one-hot ids, X = I (N x N), so that the model
//     learns a free embedding per node, as GAE does on featureless graphs.
//   - N > OneHotMaxNodes: an identity matrix would make the first layer's
//     weight N x d, too large, so X is N x (1+ProjectionDim): column 0 is
//     log(1 + deg i), and columns 1..ProjectionDim are a sparse random
//     projection of i's adjacency row,
//     X[i, 1+k] = (1/√deg i) Σ_{j ∈ N(i)} R[j, k],
//     with R[j, k] ∈ {-√3, 0, +√3} drawn with probabilities 1/6, 2/3, 1/6
//     (Achlioptas 2003), so that each projected coordinate has unit variance
//     whatever the degree. R is drawn from a PCG generator seeded by seed;
//     the same seed gives the same features. Isolated nodes get an empty
//     row. Exact zeros are not stored.
//
// The copy's MadeUpFeatures says which of the two it got, and why.
func WithFallbackFeatures(g *Graph, seed uint64) *Graph {
	if g.Features != nil && g.Features.NNZ() > 0 {
		return g
	}
	h := *g
	n := g.NumNodes()
	// A file with feature columns whose values are all 0 is told apart
	// from one without any, so the reason given is true of the input.
	why := "the input has no numeric or categorical node attributes"
	if g.Features != nil && g.Features.Cols > 0 {
		why = "every node feature of the input is 0"
	}
	if n <= OneHotMaxNodes {
		x := &f32.CSR{Rows: n, Cols: n, Indptr: make([]int32, n+1),
			Indices: make([]int32, n), Values: make([]float32, n)}
		for i := 0; i < n; i++ {
			x.Indptr[i+1] = int32(i + 1)
			x.Indices[i] = int32(i)
			x.Values[i] = 1
		}
		h.Features = x
		h.MadeUpFeatures = "one-hot node ids (" + why + ")"
		return &h
	}
	h.Features = projectAdjacency(g, seed)
	h.MadeUpFeatures = "log degree and a random projection of the adjacency (" + why + ")"
	return &h
}

// projectAdjacency computes the structural fallback features described in
// WithFallbackFeatures.
func projectAdjacency(g *Graph, seed uint64) *f32.CSR {
	n := g.NumNodes()
	rng := rand.New(rand.NewPCG(seed, fallbackStream))
	r := make([]int8, n*ProjectionDim) // R / √3, entries in {-1, 0, 1}
	for i := range r {
		switch rng.IntN(6) {
		case 0:
			r[i] = 1
		case 1:
			r[i] = -1
		}
	}
	x := &f32.CSR{Rows: n, Cols: 1 + ProjectionDim, Indptr: make([]int32, n+1)}
	var acc [ProjectionDim]int32
	for i := 0; i < n; i++ {
		deg := g.Degree(i)
		if deg > 0 {
			x.Indices = append(x.Indices, 0)
			x.Values = append(x.Values, float32(math.Log1p(float64(deg))))
			acc = [ProjectionDim]int32{}
			for _, j := range g.Neighbors(i) {
				row := r[int(j)*ProjectionDim : (int(j)+1)*ProjectionDim]
				for k, v := range row {
					acc[k] += int32(v)
				}
			}
			scale := math.Sqrt(3 / float64(deg))
			for k, a := range acc {
				if a != 0 {
					x.Indices = append(x.Indices, int32(1+k))
					x.Values = append(x.Values, float32(float64(a)*scale))
				}
			}
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	return x
}
