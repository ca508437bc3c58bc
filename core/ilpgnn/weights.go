package ilpgnn

import (
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Selected is one neighbour c in N^r(i|j), the set the model aggregates
// for the pair (i, j), with its weight.
type Selected struct {
	Node      int32
	Structure float64 // s_ST(i, c, j)
	Features  float64 // s_NO(i, c, j), with the start's share when anchored
	Score     float64 // s(i, c, j)
	Common    bool    // c is a neighbour of j too
	Weight    float64 // b_ic (eq 6)
	// Attribution is c's term in the pair's logit, β b_ic h^r_c · h_j,
	// Explain's attribution.
	Attribution float64
}

// Selection is what the model aggregates for one pair: the selected
// neighbours of each end, in selection order (Config.Order), and p_ij.
type Selection struct {
	I, J []Selected
	Prob float64
}

// Selections returns, for every pair (i, j) of distinct nodes, the
// neighbours the model selects on each side with their weights, and p_ij:
// the selected neighbours of Explain(i, j), with the same values, without
// Explain's counterfactuals and reading. It runs in parallel; the result
// does not depend on the number of CPUs.
func (p *Predictor) Selections(pairs []graph.Edge) []Selection {
	out := make([]Selection, len(pairs))
	p.eachPair(len(pairs), 64, func(sc *scorer, k int) {
		// Lazy scoring leaves unset only the feature scores of candidates
		// that cannot be selected.
		sc.lazy = true
		i, j := int(pairs[k].U), int(pairs[k].V)
		mask := p.Model.masked(p.Inputs, i, j)
		ci, ki := sc.side(0, i, j, mask, nil, nil)
		cj, kj := sc.side(1, j, i, mask, nil, nil)
		selI, selJ := ci[:ki], cj[:kj]
		out[k] = Selection{
			I:    p.selected(sc, selI, j, selJ),
			J:    p.selected(sc, selJ, i, selI),
			Prob: p.prob(sc.logit(i, j, selI, selJ)),
		}
	})
	return out
}

// selected copies the selected candidates sel of one end with their
// softmax weights and their terms in the logit against the other end j,
// whose selection is other.
func (p *Predictor) selected(sc *scorer, sel []Candidate, j int, other []Candidate) []Selected {
	w := softmaxWeights(nil, sel, p.Model.Config.Tau)
	out := make([]Selected, len(sel))
	if len(sel) == 0 {
		return out
	}
	hOther := make([]float32, len(sc.hj))
	sc.embed(hOther, j, other)
	beta := float32(p.Model.Config.Beta)
	for n, c := range sel {
		out[n] = Selected{Node: c.Node, Structure: float64(c.ST), Features: p.Model.Config.features(c.Anchor, c.NO), Score: float64(c.S),
			Common: c.Common, Weight: float64(w[n]), Attribution: float64(beta * w[n] * f32.Dot(sc.row(c.Node), hOther))}
	}
	return out
}
