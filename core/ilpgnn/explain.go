package ilpgnn

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
)

// Explain explains p_ij for nodes i and j (dense indices).
func (p *Predictor) Explain(i, j int) (*explain.Explanation, error) {
	if err := p.checkNode(i); err != nil {
		return nil, err
	}
	if err := p.checkNode(j); err != nil {
		return nil, err
	}
	g := p.Inputs.Graph
	if i == j {
		// The user's id: the dense index means nothing outside the engine.
		return nil, fmt.Errorf("ilpgnn: cannot explain a pair of node %q with itself", g.IDs[i])
	}
	sc := p.Model.newScorer(p.Inputs, p.Hr)
	mask := p.Model.masked(p.Inputs, i, j)
	ci, ki := sc.side(0, i, j, mask, nil, nil)
	cj, kj := sc.side(1, j, i, mask, nil, nil)
	selI, selJ := slices.Clone(ci[:ki]), slices.Clone(cj[:kj])
	spareI, spareJ := slices.Clone(ci[ki:]), slices.Clone(cj[kj:])
	e := &explain.Explanation{
		I:      p.side(i, ci, sc.bound[0], ki),
		J:      p.side(j, cj, sc.bound[1], kj),
		Prob:   p.prob(sc.logit(i, j, selI, selJ)),
		Linked: g.HasEdge(i, j),
		Masked: mask,
	}
	if math.IsNaN(e.Prob) {
		// Finite weights can still overflow (a checkpoint edited to hold
		// 3e38): say so rather than print p = NaN.
		return nil, fmt.Errorf("ilpgnn: the model's score for %q and %q is not a number: its weights overflow", g.IDs[i], g.IDs[j])
	}

	// Counterfactual 1: K random spare neighbours per side (min(K, spare);
	// a side with none keeps only h^r). Spare are all the neighbours not
	// selected, within the bound on candidates or not, as in training's
	// eq 10 (Build draws from the same list).
	rng := rand.New(rand.NewPCG(p.Seed, uint64(i)<<32|uint64(uint32(j))))
	K := p.Model.Config.K
	pick := func(spare []Candidate) []Candidate {
		rng.Shuffle(len(spare), func(a, b int) { spare[a], spare[b] = spare[b], spare[a] })
		return spare[:min(K, len(spare))]
	}
	ri, rj := pick(spareI), pick(spareJ)
	e.ProbRandom = p.prob(sc.logit(i, j, ri, rj))

	// Counterfactual 2: the selected neighbours removed, selection redone.
	remI, remJ := nodesOf(selI), nodesOf(selJ)
	slices.Sort(remI)
	slices.Sort(remJ)
	c2i, k2i := sc.side(0, i, j, mask, remI, remJ)
	c2j, k2j := sc.side(1, j, i, mask, remJ, remI)
	e.ProbRemoved = p.prob(sc.logit(i, j, c2i[:k2i], c2j[:k2j]))

	if err := e.Finish(); err != nil {
		return nil, fmt.Errorf("ilpgnn: %w", err)
	}
	return e, nil
}

func nodesOf(cs []Candidate) []int32 {
	out := make([]int32, len(cs))
	for k, c := range cs {
		out[k] = c.Node
	}
	return out
}

// side converts candidates as scorer.side leaves them (the first k
// selected, the first bound within the bound on candidates) to an
// explanation side in Ranked's order.
func (p *Predictor) side(i int, cands []Candidate, bound, k int) explain.Side {
	ids := p.Inputs.Graph.IDs
	w := softmaxWeights(nil, cands[:k], p.Model.Config.Tau)
	out := explain.Side{Node: i, ID: ids[i], Neighbors: make([]explain.Neighbor, len(cands))}
	for n, c := range cands {
		out.Neighbors[n] = explain.Neighbor{Node: int(c.Node), ID: ids[c.Node], Structure: float64(c.ST),
			Features: float64(c.NO), Score: float64(c.S), Common: c.Common, Selected: n < k, Outside: n >= bound}
		if n < k {
			out.Neighbors[n].Weight = float64(w[n])
		}
	}
	// rankCandidates' order on the float64 copies (the conversion keeps
	// the order, NaNs and signed zeros included).
	slices.SortFunc(out.Neighbors, func(a, b explain.Neighbor) int {
		switch {
		case a.Outside != b.Outside:
			if b.Outside {
				return -1
			}
			return 1
		case a.Outside && a.Common != b.Common:
			if a.Common {
				return -1
			}
			return 1
		case a.Outside:
			if c := cmp.Compare(b.Structure, a.Structure); c != 0 {
				return c
			}
		default:
			if c := cmp.Compare(b.Score, a.Score); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Node, b.Node)
	})
	for n := range out.Neighbors {
		out.Neighbors[n].Rank = n + 1
	}
	return out
}

// Suggest scores every node j that is not i and not a neighbour of i, and
// returns the n most probable links with their explanations, most probable
// first (ties by node id). The first carries the note of explain.TieNote
// when the leading probabilities differ by less than p.CalibrationError.
func (p *Predictor) Suggest(i, n int) ([]explain.Suggestion, error) {
	if err := p.checkNode(i); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("ilpgnn: number of suggestions must be at least 1 (got %d)", n)
	}
	g := p.Inputs.Graph
	var cands []graphPair
	for j := 0; j < g.NumNodes(); j++ {
		if j != i && !g.HasEdge(i, j) {
			cands = append(cands, graphPair{j: j})
		}
	}
	pairs := make([]graph.Edge, len(cands))
	for k, c := range cands {
		pairs[k] = graph.Edge{U: int32(i), V: int32(c.j)}
	}
	logits := p.Logits(pairs)
	for k := range cands {
		cands[k].logit = logits[k]
	}
	slices.SortFunc(cands, func(a, b graphPair) int {
		if c := cmp.Compare(b.logit, a.logit); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	out := make([]explain.Suggestion, 0, min(n, len(cands)))
	for _, c := range cands[:min(n, len(cands))] {
		e, err := p.Explain(i, c.j)
		if err != nil {
			return nil, err
		}
		out = append(out, explain.Suggestion{Node: c.j, ID: g.IDs[c.j], Prob: e.Prob, Explanation: e})
	}
	if len(out) > 0 {
		probs := make([]float64, len(out))
		for k, s := range out {
			probs[k] = s.Prob
		}
		out[0].TieNote = explain.TieNote(probs, p.CalibrationError)
	}
	return out, nil
}

type graphPair struct {
	j     int
	logit float32
}
