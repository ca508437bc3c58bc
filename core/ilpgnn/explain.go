package ilpgnn

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"ilpgnn/core/graph"
)

// Neighbor is one candidate neighbour c of a node i in an explanation of the
// pair (i, j).
type Neighbor struct {
	Node      int     `json:"node"`
	ID        string  `json:"id"`
	Structure float64 `json:"structure"` // s_ST(i, c, j)
	Features  float64 `json:"features"`  // s_NO(i, c, j)
	Score     float64 `json:"score"`     // s(i, c, j) = α s_ST + (1-α) s_NO
	Common    bool    `json:"common"`    // c is a neighbour of j too
	Selected  bool    `json:"selected"`  // c ∈ N^r(i|j)
	Weight    float64 `json:"weight"`    // b_ic (eq 6); 0 when not selected
	Rank      int     `json:"rank"`      // 1-based rank by descending score
	// Outside says the bound on candidates (Config.Candidates) left c out:
	// the model neither scored nor could select it. Such neighbours rank
	// after every candidate, in the bound's order (common neighbours
	// first, then by s_ST, ties by node id); their scores are shown for
	// information only.
	Outside bool `json:"outside,omitempty"`
}

// Side is the explanation of one end of a pair: the node's neighbours
// scored against the other end, best score first (those outside the bound
// on candidates last).
type Side struct {
	Node      int        `json:"node"`
	ID        string     `json:"id"`
	Neighbors []Neighbor `json:"neighbors"`
}

// Selected returns the neighbours in N^r, in selection order.
func (s Side) Selected() []Neighbor {
	var out []Neighbor
	for _, n := range s.Neighbors {
		if n.Selected {
			out = append(out, n)
		}
	}
	slices.SortStableFunc(out, func(a, b Neighbor) int { return cmp.Compare(b.Weight, a.Weight) })
	return out
}

// Explanation is why the model gives the pair (i, j) its probability
// (SPEC §6).
type Explanation struct {
	I Side `json:"i"` // neighbours of i scored against j
	J Side `json:"j"` // neighbours of j scored against i
	// Prob is p_ij (eq 8).
	Prob float64 `json:"prob"`
	// Linked says (i, j) is an edge of the graph; Masked that target-edge
	// masking removed it from both neighbourhoods for this pair.
	Linked bool `json:"linked"`
	Masked bool `json:"masked"`
	// ProbRandom is p_ij with K random spare neighbours of each side in
	// place of the selected ones (eq 9-10); ProbRemoved is p_ij after the
	// selected neighbours are removed and the model selects again from what
	// remains (the fidelity deletion of sec. 5.3).
	ProbRandom  float64 `json:"prob_random"`
	ProbRemoved float64 `json:"prob_removed"`
	// Reading is the explanation in one sentence, in the user's node ids.
	Reading string `json:"reading"`
}

// Explain explains p_ij for nodes i and j (dense indices).
func (p *Predictor) Explain(i, j int) (*Explanation, error) {
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
	e := &Explanation{
		I:      p.side(i, ci, sc.bound[0], ki),
		J:      p.side(j, cj, sc.bound[1], kj),
		Prob:   float64(sigmoid(sc.logit(i, j, selI, selJ))),
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
	e.ProbRandom = float64(sigmoid(sc.logit(i, j, ri, rj)))

	// Counterfactual 2: the selected neighbours removed, selection redone.
	remI, remJ := nodesOf(selI), nodesOf(selJ)
	slices.Sort(remI)
	slices.Sort(remJ)
	c2i, k2i := sc.side(0, i, j, mask, remI, remJ)
	c2j, k2j := sc.side(1, j, i, mask, remJ, remI)
	e.ProbRemoved = float64(sigmoid(sc.logit(i, j, c2i[:k2i], c2j[:k2j])))

	e.Reading = e.reading(p.Model.Config.K)
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
func (p *Predictor) side(i int, cands []Candidate, bound, k int) Side {
	ids := p.Inputs.Graph.IDs
	w := softmaxWeights(nil, cands[:k], p.Model.Config.Tau)
	out := Side{Node: i, ID: ids[i], Neighbors: make([]Neighbor, len(cands))}
	for n, c := range cands {
		out.Neighbors[n] = Neighbor{Node: int(c.Node), ID: ids[c.Node], Structure: float64(c.ST),
			Features: float64(c.NO), Score: float64(c.S), Common: c.Common, Selected: n < k, Outside: n >= bound}
		if n < k {
			out.Neighbors[n].Weight = float64(w[n])
		}
	}
	// rankCandidates' order on the float64 copies (the conversion keeps
	// the order, NaNs and signed zeros included).
	slices.SortFunc(out.Neighbors, func(a, b Neighbor) int {
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

// reading renders the explanation in the paper's words (SPEC §6).
func (e *Explanation) reading(k int) string {
	var b strings.Builder
	if e.Prob >= 0.5 {
		fmt.Fprintf(&b, "%s is suggested to %s (p = %.2f) because ", e.J.ID, e.I.ID, e.Prob)
		b.WriteString(clause(e.I, e.J.ID, "are similar to"))
		b.WriteString(" and ")
		b.WriteString(clause(e.J, e.I.ID, "are similar to"))
	} else {
		fmt.Fprintf(&b, "%s is not suggested to %s (p = %.2f): ", e.J.ID, e.I.ID, e.Prob)
		b.WriteString(clause(e.I, e.J.ID, "are only weakly similar to"))
		b.WriteString(" and ")
		b.WriteString(clause(e.J, e.I.ID, "are only weakly similar to"))
	}
	if e.Masked {
		b.WriteString(" (their own link was set aside)")
	}
	b.WriteString(".")
	return b.String()
}

func clause(s Side, other, verb string) string {
	sel := s.Selected()
	if len(sel) == 0 {
		return fmt.Sprintf("%s has no neighbours to speak for it", s.ID)
	}
	names := make([]string, len(sel))
	var st, no float64
	for k, n := range sel {
		names[k] = n.ID
		st += n.Structure
		no += n.Features
	}
	noun := "neighbours"
	if len(sel) == 1 {
		noun = "neighbour"
		verb = strings.Replace(verb, "are", "is", 1)
	}
	return fmt.Sprintf("%s's %s %s %s %s (structure %.2f, features %.2f)", s.ID, noun,
		strings.Join(names, ", "), verb, other, st/float64(len(sel)), no/float64(len(sel)))
}

// Suggestion is a candidate new link for a node, with its explanation.
type Suggestion struct {
	Node        int          `json:"node"`
	ID          string       `json:"id"`
	Prob        float64      `json:"prob"`
	Explanation *Explanation `json:"explanation"`
}

// Suggest scores every node j that is not i and not a neighbour of i, and
// returns the n most probable links with their explanations, most probable
// first (ties by node id).
func (p *Predictor) Suggest(i, n int) ([]Suggestion, error) {
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
	out := make([]Suggestion, 0, min(n, len(cands)))
	for _, c := range cands[:min(n, len(cands))] {
		e, err := p.Explain(i, c.j)
		if err != nil {
			return nil, err
		}
		out = append(out, Suggestion{Node: c.j, ID: g.IDs[c.j], Prob: e.Prob, Explanation: e})
	}
	return out, nil
}

type graphPair struct {
	j     int
	logit float32
}
