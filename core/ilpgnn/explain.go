package ilpgnn

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"ilpgnn/core/explain"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Explain explains p_ij for nodes i and j (dense indices): each end's
// neighbours scored, the selected ones with their weight, attribution
// (p.Attribution) and p without them, and the counterfactuals (docs/model.md §6's
// two, and the random removal of as many neighbours as were selected).
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
	sc := p.newScorer()
	mask := p.Model.masked(p.Inputs, i, j)
	ci, ki := sc.side(0, i, j, mask, nil, nil)
	cj, kj := sc.side(1, j, i, mask, nil, nil)
	selI, selJ := slices.Clone(ci[:ki]), slices.Clone(cj[:kj])
	spareI, spareJ := slices.Clone(ci[ki:]), slices.Clone(cj[kj:])
	logit := sc.logit(i, j, selI, selJ)
	// h_i and h_j (eq 7), for each end's own term in the logit.
	hi, hj := slices.Clone(sc.hi), slices.Clone(sc.hj)
	e := &explain.Explanation{
		I:      p.side(sc, i, ci, sc.bound[0], ki, hj),
		J:      p.side(sc, j, cj, sc.bound[1], kj, hi),
		Model:  p.terms(),
		Logit:  float64(logit),
		Prob:   p.prob(logit),
		Linked: g.HasEdge(i, j),
		Masked: mask,
	}
	if math.IsNaN(e.Prob) {
		return nil, fmt.Errorf("ilpgnn: the model's score for %q and %q is not a number: %s", g.IDs[i], g.IDs[j], p.whyNaN())
	}

	p.counterfactuals(sc, e, i, j, mask, selI, selJ, spareI, spareJ)
	// Each selected neighbour alone removed, and its attribution.
	p.leaveOneOut(sc, &e.I, i, j, mask, selI, selJ, false)
	p.leaveOneOut(sc, &e.J, j, i, mask, selJ, selI, true)

	if err := e.Finish(); err != nil {
		return nil, fmt.Errorf("ilpgnn: %w", err)
	}
	return e, nil
}

// counterfactuals fills e's three counterfactuals for the pair (i, j),
// whose selections are selI and selJ and whose other neighbours are spareI
// and spareJ (shuffled here).
func (p *Predictor) counterfactuals(sc *scorer, e *explain.Explanation, i, j int, mask bool, selI, selJ, spareI, spareJ []Candidate) {
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
	e.ProbRemoved = p.prob(sc.logitWithout(i, j, mask, remI, remJ))

	// Counterfactual 3: as many random neighbours of each side as it has
	// selected removed instead, the model selecting again; the mean of
	// RandomDraws draws.
	e.RandomDraws = RandomDraws
	rr := p.randomRemoval(i, j, mask)
	var sum float64
	for range RandomDraws {
		remI, remJ := rr.draw(len(selI), len(selJ))
		sum += p.prob(sc.logitWithout(i, j, mask, remI, remJ))
	}
	e.ProbRandomRemoved = sum / RandomDraws
}

// logitWithout is the logit of (i, j) with remI removed from N(i) and remJ
// from N(j) (sorted node lists), the model selecting again on what remains.
func (sc *scorer) logitWithout(i, j int, mask bool, remI, remJ []int32) float32 {
	ci, ki := sc.side(0, i, j, mask, remI, remJ)
	cj, kj := sc.side(1, j, i, mask, remJ, remI)
	return sc.logit(i, j, ci[:ki], cj[:kj])
}

// RandomDraws is how many random removals Explain's ProbRandomRemoved
// averages over.
const RandomDraws = 10

// Streams of random numbers, one per use, so that no two uses of a pair's
// seed share draws: Explain's random removal and fidelity's.
const (
	streamRandomRemoved uint64 = 0x52414e44524d5631 // "RANDRMV1"
	streamFidelity      uint64 = 0x46494452414e4431 // "FIDRAND1"
)

// randomRemoval draws sets of uniformly random neighbours of both ends of
// a pair (of all their neighbours after target masking, selected or not).
type randomRemoval struct {
	rng        *rand.Rand
	nbrI, nbrJ []int32
}

// randomRemoval starts the draws for (i, j), from p.Seed and the pair in
// a stream of their own.
func (p *Predictor) randomRemoval(i, j int, mask bool) *randomRemoval {
	g := p.Inputs.Graph
	return &randomRemoval{
		rng:  rand.New(rand.NewPCG(p.Seed^streamRandomRemoved, uint64(i)<<32|uint64(uint32(j)))),
		nbrI: maskedNeighbors(g.Neighbors(i), mask, j),
		nbrJ: maskedNeighbors(g.Neighbors(j), mask, i),
	}
}

// draw returns mI random neighbours of i and mJ of j (fewer when there are
// fewer), each list sorted, as side's removal lists.
func (r *randomRemoval) draw(mI, mJ int) (remI, remJ []int32) {
	return r.pick(r.nbrI, mI), r.pick(r.nbrJ, mJ)
}

// pick shuffles the first m places of nbr (a partial Fisher-Yates) and
// returns a sorted copy of them.
func (r *randomRemoval) pick(nbr []int32, m int) []int32 {
	m = min(m, len(nbr))
	for a := range m {
		b := a + r.rng.IntN(len(nbr)-a)
		nbr[a], nbr[b] = nbr[b], nbr[a]
	}
	out := slices.Clone(nbr[:m])
	slices.Sort(out)
	return out
}

// maskedNeighbors copies nbr without j when mask is set.
func maskedNeighbors(nbr []int32, mask bool, j int) []int32 {
	out := make([]int32, 0, len(nbr))
	for _, c := range nbr {
		if !(mask && int(c) == j) {
			out = append(out, c)
		}
	}
	return out
}

// leaveOneOut fills, for each selected neighbour c of s (the side of node
// i against j, whose selection is sel while j's is other), ProbWithout:
// p_ij with c alone removed from N(i), the model selecting again on both
// sides (c is no longer common to j), and Attribution. swapped says s is
// the pair's second end, so that the logit is always taken as (first,
// second).
func (p *Predictor) leaveOneOut(sc *scorer, s *explain.Side, i, j int, mask bool, sel, other []Candidate, swapped bool) {
	if len(sel) == 0 {
		return
	}
	// h_j, the other end's aggregated representation, for the terms.
	hOther := make([]float32, len(sc.hj))
	sc.embed(hOther, j, other)
	w := softmaxWeights(nil, sel, p.Model.Config.Tau)
	beta := float32(p.Model.Config.Beta)
	full := sc.logit(i, j, sel, other)
	type loo struct {
		prob, attr float64
	}
	by := make(map[int]loo, len(sel))
	for k, c := range sel {
		rem := []int32{c.Node}
		ci, ki := sc.side(0, i, j, mask, rem, nil)
		cj, kj := sc.side(1, j, i, mask, nil, rem)
		var without float32
		if swapped {
			without = sc.logit(j, i, cj[:kj], ci[:ki])
		} else {
			without = sc.logit(i, j, ci[:ki], cj[:kj])
		}
		term := beta * w[k] * f32.Dot(sc.row(c.Node), hOther)
		var attr float64
		switch p.Attribution {
		case AttributionWeight:
			attr = float64(w[k])
		case AttributionTerm:
			attr = float64(term)
		case AttributionReplaced:
			attr = float64(term) - p.replacementTerm(sc, sel, ci[:ki], hOther)
		case AttributionOcclusion:
			attr = float64(full) - float64(without)
		}
		by[int(c.Node)] = loo{prob: p.prob(without), attr: attr}
	}
	for n := range s.Neighbors {
		if v, ok := by[s.Neighbors[n].Node]; ok {
			s.Neighbors[n].ProbWithout, s.Neighbors[n].Attribution = v.prob, v.attr
		}
	}
}

// replacementTerm is the term, in the logit, of the neighbours of the new
// selection after that were not in the old one before, with their new
// weights, against the other end's representation h (unchanged).
func (p *Predictor) replacementTerm(sc *scorer, before, after []Candidate, h []float32) float64 {
	w := softmaxWeights(nil, after, p.Model.Config.Tau)
	var t float64
	for k, c := range after {
		if !slices.ContainsFunc(before, func(b Candidate) bool { return b.Node == c.Node }) {
			t += p.Model.Config.Beta * float64(w[k]) * float64(f32.Dot(sc.row(c.Node), h))
		}
	}
	return t
}

// length is the Euclidean length of v, in float64.
func length(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func nodesOf(cs []Candidate) []int32 {
	out := make([]int32, len(cs))
	for k, c := range cs {
		out[k] = c.Node
	}
	return out
}

// terms are the model's settings as an explanation names them.
func (p *Predictor) terms() explain.Terms {
	c := p.Model.Config
	t := explain.Terms{Alpha: c.Alpha, Anchor: c.Anchor, K: c.K, StructureScaled: c.Structure == ScaleMax,
		Tau: c.Tau, Beta: c.Beta, Temperature: p.Temperature, Bias: p.Bias}
	if t.Temperature == 0 {
		t.Temperature = 1 // prob's reading of an unset temperature
	}
	return t
}

// side converts candidates as scorer.side leaves them (the first k
// selected, the first bound within the bound on candidates) to an
// explanation side in Ranked's order; hOther is the other end's h (eq 7).
func (p *Predictor) side(sc *scorer, i int, cands []Candidate, bound, k int, hOther []float32) explain.Side {
	ids := p.Inputs.Graph.IDs
	cfg := p.Model.Config
	w := softmaxWeights(nil, cands[:k], cfg.Tau)
	own := sc.row(int32(i))
	out := explain.Side{Node: i, ID: ids[i], Norm: length(own), Own: float64(f32.Dot(own, hOther)), Neighbors: make([]explain.Neighbor, len(cands))}
	for n, c := range cands {
		out.Neighbors[n] = explain.Neighbor{Node: int(c.Node), ID: ids[c.Node], Structure: float64(c.ST),
			Features: cfg.features(c.Anchor, c.NO), Learnt: float64(c.NO), Untrained: float64(c.Anchor),
			Score: float64(c.S), Common: c.Common, Selected: n < k, Outside: n >= bound}
		if n < k {
			out.Neighbors[n].Weight = float64(w[n])
			out.Neighbors[n].Shift = math.Abs(cfg.Beta*float64(w[n])) * length(sc.row(c.Node))
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
	return p.SuggestAmong(i, n, nil)
}

// SuggestAmong is Suggest over the nodes j for which among(j) is true (all
// of them when among is nil): the explanation card's bundle can hold the
// structure scores of some nodes only.
func (p *Predictor) SuggestAmong(i, n int, among func(j int) bool) ([]explain.Suggestion, error) {
	if err := p.checkNode(i); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("ilpgnn: number of suggestions must be at least 1 (got %d)", n)
	}
	g := p.Inputs.Graph
	var cands []graphPair
	for j := 0; j < g.NumNodes(); j++ {
		if j != i && !g.HasEdge(i, j) && (among == nil || among(j)) {
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
	out := make([]explain.Suggestion, 0, min(n, len(cands)))
	for _, c := range mostProbable(cands, n) {
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

// mostProbable returns the n candidates of the highest logits, highest
// first, ties by node id (NaN last, as cmp.Compare orders it). It keeps a
// list of n in order as it scans: n is small, and the embeddable card
// then carries no sort routine for this type.
func mostProbable(cands []graphPair, n int) []graphPair {
	before := func(a, b graphPair) bool {
		c := cmp.Compare(a.logit, b.logit)
		return c > 0 || c == 0 && a.j < b.j
	}
	top := make([]graphPair, 0, min(n, len(cands))+1)
	for _, c := range cands {
		k := len(top)
		for k > 0 && before(c, top[k-1]) {
			k--
		}
		if k >= n {
			continue
		}
		top = append(top, graphPair{})
		copy(top[k+1:], top[k:])
		top[k] = c
		top = top[:min(len(top), n)]
	}
	return top
}

// Attribution names the quantity Explain shows as a selected neighbour's
// Attribution. The zero value is the one chosen by measurement
// (docs/attribution.md); the others stay so that the comparison
// can be run again.
type Attribution int

const (
	// AttributionTerm is c's term in the logit, β b_c h^r_c · h_j.
	AttributionTerm Attribution = iota
	// AttributionWeight is b_c (eq 6).
	AttributionWeight
	// AttributionReplaced is the term less that of the neighbours that
	// replace c in the selection when c is removed.
	AttributionReplaced
	// AttributionOcclusion is the logit less the logit with c removed.
	AttributionOcclusion
)

// String names the kind as the comparison's table does.
func (a Attribution) String() string {
	switch a {
	case AttributionTerm:
		return "term"
	case AttributionWeight:
		return "weight"
	case AttributionReplaced:
		return "replaced"
	case AttributionOcclusion:
		return "occlusion"
	}
	return fmt.Sprintf("Attribution(%d)", int(a))
}

// whyNaN says why a score came out NaN, rather than print p = NaN: weights
// that are NaN themselves, else weights that overflow, infinite ones or
// finite ones whose products are (a checkpoint edited to hold 3e38, whose
// H^r is then NaN too). A predictor without weights (a bundle's) holds
// H^r as its weights.
func (p *Predictor) whyNaN() string {
	var vals [][]float32
	for _, w := range p.Model.Params() {
		if w != nil {
			vals = append(vals, w.Value)
		}
	}
	if len(vals) == 0 {
		vals = [][]float32{p.Hr}
	}
	for _, v := range vals {
		for _, x := range v {
			if x != x {
				return "its weights are not numbers (NaN)"
			}
		}
	}
	return "its weights overflow"
}
