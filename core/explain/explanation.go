package explain

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Neighbor is one candidate neighbour c of a node i in an explanation of the
// pair (i, j).
type Neighbor struct {
	Node      int     `json:"node"`
	ID        string  `json:"id"`
	Structure float64 `json:"structure"` // s_ST(i, c, j)
	Features  float64 `json:"features"`  // s_NO(i, c, j)
	// Learnt is sigmoid(h^r_c · h^r_j), the trained encoder's part of
	// Features; Untrained is sigmoid(h^0_c · h^0_j), the untrained
	// start's (0 when the model has no anchor, Terms.Anchor = 0).
	// Features = (1-ρ) Learnt + ρ Untrained.
	Learnt    float64 `json:"learnt"`
	Untrained float64 `json:"untrained"`
	Score     float64 `json:"score"`    // s(i, c, j) = α s_ST + (1-α) s_NO
	Common    bool    `json:"common"`   // c is a neighbour of j too
	Selected  bool    `json:"selected"` // c ∈ N^r(i|j)
	Weight    float64 `json:"weight"`   // b_ic (eq 6); 0 when not selected
	// Shift is how far the neighbour moves its node's representation
	// (eq 7): the length of β b_ic h^r_c, to set beside Side.Norm; 0 when
	// not selected.
	Shift float64 `json:"shift"`
	Rank  int     `json:"rank"` // 1-based rank by descending score
	// Attribution is the number shown for a selected neighbour (0 for the
	// others): its term in the pair's logit h_i · h_j (which calibration maps to p), β b_c h^r_c · h
	// with h the other end's representation (eq 7-8), in logit units and
	// signed: positive pushes p up, negative down. A side's terms plus
	// h^r_i · h add up to the logit. Chosen by measurement
	// (docs/attribution.md): it orders like the drop in p when the neighbour
	// alone is removed (Spearman 0.75 on Cora, 0.72 on synth:medium).
	Attribution float64 `json:"attribution"`
	// ProbWithout is p_ij after this selected neighbour alone is removed
	// and the model selects again (0 for neighbours not selected).
	ProbWithout float64 `json:"prob_without"`
	// Outside says the bound on candidates (ILP-GNN's Config.Candidates)
	// left c out: the model neither scored nor could select it. Such
	// neighbours rank after every candidate, in the bound's order (common
	// neighbours first, then by s_ST, ties by node id); their scores are
	// shown for information only.
	Outside bool `json:"outside,omitempty"`
}

// Side is the explanation of one end of a pair: the node's neighbours
// scored against the other end, best score first (those outside the bound
// on candidates last).
type Side struct {
	Node int    `json:"node"`
	ID   string `json:"id"`
	// Norm is the length of the node's own representation h^r_i.
	Norm float64 `json:"norm"`
	// Own is the node's own term in the logit, h^r_i · h with h the other
	// end's aggregated representation: Own and the selected neighbours'
	// attributions (as terms, the default) add up to the logit.
	Own       float64    `json:"own"`
	Neighbors []Neighbor `json:"neighbors"`
}

// Terms are the settings of the model that explained a pair, as its
// walk-through names them.
type Terms struct {
	Alpha  float64 `json:"alpha"`  // α: structure's share of the score (eq 5)
	Anchor float64 `json:"anchor"` // ρ: the untrained encoder's share of features
	K      int     `json:"k"`      // neighbours selected per side, at most
	// StructureScaled says each side's structure scores are divided by
	// their largest, so that the closest neighbour has 1.
	StructureScaled bool    `json:"structure_scaled"`
	Tau             float64 `json:"tau"`  // τ of the softmax weights (eq 6)
	Beta            float64 `json:"beta"` // β: how much the neighbours add (eq 7)
	// Temperature and Bias map the logit to p = sigmoid(logit/T + c);
	// 1 and 0 when the model is not calibrated.
	Temperature float64 `json:"temperature"`
	Bias        float64 `json:"bias"`
}

// Selected returns the neighbours in N^r, by descending weight (ties in
// rank order).
func (s Side) Selected() []Neighbor {
	var out []Neighbor
	for _, n := range s.Neighbors {
		if n.Selected {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, byRank(func(n Neighbor) float64 { return n.Weight }))
	return out
}

// Explanation is why a model gives the pair (i, j) its probability
// (docs/model.md §6). Build one with Finish, which checks it and writes its
// Reading.
type Explanation struct {
	I Side `json:"i"` // neighbours of i scored against j
	J Side `json:"j"` // neighbours of j scored against i
	// Model holds the settings the walk-through names.
	Model Terms `json:"model"`
	// Logit is h_i · h_j (eq 8), which calibration maps to Prob.
	Logit float64 `json:"logit"`
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
	// ProbRandomRemoved is p_ij after as many random neighbours of each
	// side as were selected are removed instead, the model selecting again;
	// the mean over RandomDraws draws. It is what ProbRemoved is compared
	// with: removing the reasons should lower p more than removing any.
	ProbRandomRemoved float64 `json:"prob_random_removed"`
	RandomDraws       int     `json:"random_draws"`
	// Reading is the explanation in one sentence, in the user's node ids.
	Reading string `json:"reading"`
	// Removal is Counterfactual's sentence: what removing the selected
	// neighbours does to p, beside removing as many random ones.
	Removal string `json:"removal"`
	// Steps walk through how the model reached Prob (Walkthrough).
	Steps []Step `json:"steps"`
}

// Suggestion is a candidate new link for a node, with its explanation.
type Suggestion struct {
	Node        int          `json:"node"`
	ID          string       `json:"id"`
	Prob        float64      `json:"prob"`
	Explanation *Explanation `json:"explanation"`
	// TieNote, on the first suggestion of a list only, says that the
	// leading suggestions' probabilities cannot be told apart (TieNote);
	// "" when they can.
	TieNote string `json:"tie_note,omitempty"`
}

// Finish checks e and writes its Reading. An explanation is valid when
// both ends are different nodes, each side's ranks run 1, 2, ... in
// order, no neighbour appears twice on a side or is the side's own node,
// the selected neighbours' weights are finite, non-negative and sum to 1
// (when any is selected), every probability (the neighbours' ProbWithout
// too) is in [0, 1], and the attributions are finite.
func (e *Explanation) Finish() error {
	if err := e.Validate(); err != nil {
		return err
	}
	e.Reading = e.read()
	e.Removal = e.Counterfactual()
	e.Steps = e.Walkthrough()
	return nil
}

// Validate reports the first way e breaks the invariants Finish states.
func (e *Explanation) Validate() error {
	if e.I.Node == e.J.Node {
		return fmt.Errorf("explain: both ends are node %q", e.I.ID)
	}
	if e.RandomDraws < 0 {
		return fmt.Errorf("explain: random_draws of (%s, %s) is %d", e.I.ID, e.J.ID, e.RandomDraws)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"prob", e.Prob}, {"prob_random", e.ProbRandom}, {"prob_removed", e.ProbRemoved}, {"prob_random_removed", e.ProbRandomRemoved}} {
		if !(p.v >= 0 && p.v <= 1) {
			return fmt.Errorf("explain: %s of (%s, %s) is %v, not a probability", p.name, e.I.ID, e.J.ID, p.v)
		}
	}
	for _, s := range []Side{e.I, e.J} {
		if err := s.validate(); err != nil {
			return fmt.Errorf("explain: side %s: %w", s.ID, err)
		}
	}
	return nil
}

func (s Side) validate() error {
	seen := make(map[int]bool, len(s.Neighbors))
	var sum float64
	selected := 0
	for k, n := range s.Neighbors {
		switch {
		case n.Rank != k+1:
			return fmt.Errorf("neighbour %s has rank %d at place %d", n.ID, n.Rank, k+1)
		case n.Node == s.Node:
			return fmt.Errorf("the node is its own neighbour")
		case seen[n.Node]:
			return fmt.Errorf("neighbour %s appears twice", n.ID)
		case !(n.Weight >= 0) || math.IsInf(n.Weight, 1):
			return fmt.Errorf("neighbour %s has weight %v", n.ID, n.Weight)
		case !(n.ProbWithout >= 0 && n.ProbWithout <= 1):
			return fmt.Errorf("neighbour %s has prob_without %v, not a probability", n.ID, n.ProbWithout)
		case math.IsNaN(n.Attribution) || math.IsInf(n.Attribution, 0):
			return fmt.Errorf("neighbour %s has attribution %v", n.ID, n.Attribution)
		}
		seen[n.Node] = true
		if n.Selected {
			selected++
			sum += n.Weight
		}
	}
	if selected > 0 && math.Abs(sum-1) > 1e-4 {
		return errors.New("the selected neighbours' weights sum to " + fmt.Sprint(sum) + ", not 1")
	}
	return nil
}
