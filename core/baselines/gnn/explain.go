package gnn

import (
	"fmt"

	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
)

// AttentionRanker returns GAT's attention as an explainer: for a pair
// (i, j) it ranks the neighbours c of i in g, except j, by the attention
// α_ic that i pays c in the second (last) layer, averaged over that
// layer's heads, highest first, ties by node id. The weights are those of
// evaluation mode (no dropout), computed once on g.
//
// Why the last layer: z_i = Σ_c α_ic W h_c + b, so α_ic is exactly the
// share of neighbour c's representation in the embedding that the decoder
// scores; first-layer coefficients act one hop further out, on h_c rather
// than on z_i, and are split over heads that see different projections.
// Averaging the second layer's heads matches how their outputs are
// combined (a mean). i's self loop is not a candidate: it is not a
// neighbour. j is excluded as in ILP-GNN's target masking (docs/model.md §4): when
// (i, j) is an edge of g the link must not explain itself. Attention does
// not depend on j otherwise, so GAT gives each node one ranking for all
// its pairs.
//
// It returns an error unless m is a GAT. The ranker is safe for
// concurrent use.
func (m *Model) AttentionRanker(g *graph.Graph) (explain.Ranker, error) {
	if m.Config.Kind != GAT {
		return nil, fmt.Errorf("gnn: attention ranker needs a GAT model (have %v)", m.Config.Kind)
	}
	if g.FeatureDim() != m.FeatureDim {
		return nil, fmt.Errorf("gnn: attention ranker: model expects %d features, graph has %d", m.FeatureDim, g.FeatureDim())
	}
	in := Prepare(g, m.Config)
	alpha := m.Attention(in)
	return func(i, j int) []int32 {
		lo, hi := in.Offsets[i], in.Offsets[i+1]
		nodes := make([]int32, 0, hi-lo)
		score := make([]float64, 0, hi-lo)
		for k := lo; k < hi; k++ {
			if c := in.Src[k]; int(c) != i && int(c) != j {
				nodes = append(nodes, c)
				score = append(score, float64(alpha[k]))
			}
		}
		return explain.ByScore(nodes, score)
	}, nil
}

// Attention returns the second-layer attention coefficients of a GAT in
// evaluation mode, averaged over the layer's heads: entry k is α_ic for
// the pair (in.Dst[k], in.Src[k]), self loops included, so the entries of
// each node sum to 1. It panics unless m is a GAT.
func (m *Model) Attention(in *Inputs) []float32 {
	if m.Config.Kind != GAT {
		panic(fmt.Sprintf("gnn: Attention of a %v model", m.Config.Kind))
	}
	f := m.encode(nil, in, 0, nil, nil)
	out := make([]float32, len(in.Src))
	for _, a := range f.Alpha {
		for k, v := range a.Value {
			out[k] += v
		}
	}
	if n := len(f.Alpha); n > 1 {
		for k := range out {
			out[k] /= float32(n)
		}
	}
	return out
}
