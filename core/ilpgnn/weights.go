package ilpgnn

import "ilpgnn/core/graph"

// Selected is one neighbour c in N^r(i|j), the set the model aggregates
// for the pair (i, j), with its weight.
type Selected struct {
	Node      int32
	Structure float64 // s_ST(i, c, j)
	Features  float64 // s_NO(i, c, j)
	Score     float64 // s(i, c, j)
	Common    bool    // c is a neighbour of j too
	Weight    float64 // b_ic (eq 6)
}

// Selection is what the model aggregates for one pair: the selected
// neighbours of each end, in selection order (common neighbours first,
// then by descending score), and p_ij.
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
		out[k] = Selection{
			I:    p.selected(ci[:ki]),
			J:    p.selected(cj[:kj]),
			Prob: p.prob(sc.logit(i, j, ci[:ki], cj[:kj])),
		}
	})
	return out
}

// selected copies the selected candidates sel with their softmax weights.
func (p *Predictor) selected(sel []Candidate) []Selected {
	w := softmaxWeights(nil, sel, p.Model.Config.Tau)
	out := make([]Selected, len(sel))
	for n, c := range sel {
		out[n] = Selected{Node: c.Node, Structure: float64(c.ST), Features: float64(c.NO), Score: float64(c.S),
			Common: c.Common, Weight: float64(w[n])}
	}
	return out
}
