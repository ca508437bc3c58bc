// Package heuristic scores node pairs with the classic neighbourhood
// heuristics of link prediction, the baselines of the paper's table 1:
// Common Neighbours and Adamic-Adar (Liben-Nowell & Kleinberg 2007; Adamic
// & Adar 2003). They learn nothing: a pair's score is read off the graph
// it is given, which for evaluation is the training graph of a split.
package heuristic

import (
	"fmt"

	"ilpgnn/core/detmath"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/split"
)

// Method names a heuristic.
type Method int

const (
	// CommonNeighbours scores (i, j) by |N(i) ∩ N(j)|.
	CommonNeighbours Method = iota
	// AdamicAdar scores (i, j) by Σ over common neighbours z of
	// 1 / ln deg(z). A common neighbour has degree at least 2, so every
	// term is finite.
	AdamicAdar
)

// String returns the method's short name: cn or aa.
func (m Method) String() string {
	switch m {
	case CommonNeighbours:
		return "cn"
	case AdamicAdar:
		return "aa"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Scores returns the score of every pair on g. A pair with no common
// neighbour scores 0, as does a pair (i, i). Neighbour lists are sorted,
// so each pair costs O(deg(i) + deg(j)).
func Scores(g *graph.Graph, m Method, pairs []graph.Edge) []float32 {
	// 1/ln deg per node, computed once; detmath keeps the scores
	// identical natively and in the browser.
	var inv []float64
	if m == AdamicAdar {
		inv = make([]float64, g.NumNodes())
		for z := range inv {
			if d := g.Degree(z); d > 1 {
				inv[z] = 1 / detmath.Log(float64(d))
			}
		}
	}
	out := make([]float32, len(pairs))
	for k, p := range pairs {
		if p.U == p.V {
			continue
		}
		a, b := g.Neighbors(int(p.U)), g.Neighbors(int(p.V))
		var s float64
		for x, y := 0, 0; x < len(a) && y < len(b); {
			switch {
			case a[x] < b[y]:
				x++
			case a[x] > b[y]:
				y++
			default:
				if m == AdamicAdar {
					s += inv[a[x]]
				} else {
					s++
				}
				x++
				y++
			}
		}
		out[k] = float32(s)
	}
	return out
}

// SplitAUC scores a split's validation and test pairs on its training
// graph and returns the two AUCs: the heuristic's counterpart of training
// on a split.
func SplitAUC(sp *split.Split, m Method) (val, test float64) {
	auc := func(pos, neg []graph.Edge) float64 {
		return eval.AUC(Scores(sp.Train, m, pos), Scores(sp.Train, m, neg))
	}
	return auc(sp.ValPos, sp.ValNeg), auc(sp.TestPos, sp.TestNeg)
}

// SplitHits scores a split's test pairs on its training graph and returns
// their Hits@20, @50 and @100 (eval.HitsOf), reported beside SplitAUC's
// test AUC.
func SplitHits(sp *split.Split, m Method) eval.Hits {
	return eval.HitsOf(Scores(sp.Train, m, sp.TestPos), Scores(sp.Train, m, sp.TestNeg))
}
