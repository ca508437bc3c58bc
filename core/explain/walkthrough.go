package explain

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"ilpgnn/core/printable"
)

// The steps of a walk-through, in order: the keys Step.Key takes.
const (
	StepStructure   = "structure"
	StepFeatures    = "features"
	StepScores      = "scores"
	StepSelection   = "selection"
	StepAggregation = "aggregation"
	StepPrediction  = "prediction"
	StepWhatIf      = "whatif"
)

// StepKeys are the walk-through's steps in order.
var StepKeys = [...]string{StepStructure, StepFeatures, StepScores, StepSelection, StepAggregation, StepPrediction, StepWhatIf}

// Step is one step of how the model reached a pair's probability: what the
// model computes there, in one to three sentences with this pair's numbers.
type Step struct {
	Key   string `json:"key"` // one of StepKeys
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Walkthrough tells how the model reached e.Prob, in the order it
// computes: each neighbour's structure and feature scores, their mix,
// the selection, the weighted aggregation, the logit and its
// calibration, and the counterfactuals. Every number it states is a
// field of e, rounded for reading; the app, the card and the command
// line show these same steps.
//
// The sentences are joined with + and strconv rather than fmt: the
// embeddable card carries this code, and its WebAssembly has a size
// budget (wasm/card/README.md).
func (e *Explanation) Walkthrough() []Step {
	i, j := printable.Listed(e.I.ID), printable.Listed(e.J.ID)
	m := e.Model
	byStructure := func(n Neighbor) float64 { return n.Structure }
	byFeatures := func(n Neighbor) float64 { return n.Features }
	byLearnt := func(n Neighbor) float64 { return n.Learnt }
	byScore := func(n Neighbor) float64 { return n.Score }

	scaled := "each side scaled so that its closest neighbour has 1"
	if !m.StructureScaled {
		scaled = "as the diffusion gives it, unscaled"
	}
	structure := "Structure is personalised PageRank (PPR): how often a random walk that keeps restarting at one node passes through another, so nodes that many short paths join score high. " +
		"Here it is measured from " + j + " to each neighbour of " + i + ", and from " + i + " to each neighbour of " + j + ", " + scaled + ". " +
		sideStructure(e.I, j, byStructure) + " " + sideStructure(e.J, i, byStructure)

	features := "Features compare what the nodes hold (a paper's words, a product's description): sigmoid(h_c · h_other) of their representations, from 0 (unlike) through 0.5 (no signal) to 1 (alike). "
	if m.Anchor != 0 {
		features += "The model mixes two encoders: " + fixed(1-m.Anchor, 2) + " of the score from the trained one and " + fixed(m.Anchor, 2) +
			" from the same encoder as it started, untrained, which keeps the score from drifting to whatever training found convenient. " +
			sideTop(e.I, j, "the most alike to", byFeatures, true) + " " + sideTop(e.J, i, "the most alike to", byFeatures, true)
	} else {
		features += sideTop(e.I, j, "the most alike to", byLearnt, false) + " " + sideTop(e.J, i, "the most alike to", byLearnt, false)
	}

	scores := "Each neighbour's score mixes the two: s = α·structure + (1 − α)·features, with α = " + fixed(m.Alpha, 2) + ". " +
		sideTop(e.I, j, "the best scored against", byScore, false) + " " + sideTop(e.J, i, "the best scored against", byScore, false)

	k := strconv.Itoa(m.K)
	selected := "Each side keeps at most K = " + k + " neighbours: common neighbours of " + i + " and " + j + " first, then the best scores. " +
		selection(e.I) + " " + selection(e.J)

	aggregation := "The kept neighbours get weights b = softmax(s/τ) with τ = " + fixed(m.Tau, 3) +
		", and each node's representation becomes h = h^r + β·Σ b·h^r_c with β = " + fixed(m.Beta, 2) + ": its own plus its neighbours' pull. " +
		aggregation(e.I) + " " + aggregation(e.J)

	whatIf := e.Removal + " With " + k + " random neighbours of each side in place of the selected ones, p would be " + FormatProb(e.ProbRandom, ProbDigits) + "."

	return []Step{
		{StepStructure, "Structure", structure},
		{StepFeatures, "Features", features},
		{StepScores, "Scores", scores},
		{StepSelection, "Selection", selected},
		{StepAggregation, "Aggregation", aggregation},
		{StepPrediction, "Prediction", prediction(e, i, j)},
		{StepWhatIf, "What if", whatIf},
	}
}

// sideStructure is sideTop for structure, which says so when no
// neighbour of s is within the diffusion's reach of other.
func sideStructure(s Side, other string, value func(Neighbor) float64) string {
	if top := topBy(s.Neighbors, value); len(top) > 0 && top[0].Structure == 0 {
		if len(s.Neighbors) == 1 {
			return "The one neighbour of " + printable.Listed(s.ID) + " is not within the diffusion's reach of " + other + " (0)."
		}
		return "None of the " + neighbourCount(len(s.Neighbors)) + " of " + printable.Listed(s.ID) + " is within the diffusion's reach of " + other + " (all 0): structure does not tell them apart."
	}
	return sideTop(s, other, "the closest to", value, false)
}

// sideTop names up to three of s's neighbours with the highest value,
// against other: "Of the 12 neighbours of 3, the closest to 40: 7
// (1.000), ...". With parts, each also shows its trained and untrained
// feature scores.
func sideTop(s Side, other, what string, value func(Neighbor) float64, parts bool) string {
	top := topBy(s.Neighbors, value)
	if len(top) == 0 {
		return printable.Listed(s.ID) + " has no neighbours."
	}
	var b strings.Builder
	b.WriteString("Of the " + neighbourCount(len(s.Neighbors)) + " of " + printable.Listed(s.ID) + ", " + what + " " + other + ": ")
	for k, n := range top {
		switch {
		case k > 0 && parts:
			b.WriteString("; ")
		case k > 0:
			b.WriteString(", ")
		}
		b.WriteString(printable.Listed(n.ID) + " (" + fixed(value(n), 3))
		if parts {
			b.WriteString(": trained " + fixed(n.Learnt, 3) + ", untrained " + fixed(n.Untrained, 3))
		}
		b.WriteString(")")
	}
	b.WriteString(".")
	return b.String()
}

// topBy returns up to three neighbours of nbrs by descending value, ties
// by rank.
func topBy(nbrs []Neighbor, value func(Neighbor) float64) []Neighbor {
	out := slices.Clone(nbrs)
	slices.SortFunc(out, byRank(value))
	return out[:min(3, len(out))]
}

// byRank orders neighbours by descending value, ties by rank: a stable
// sort of a side's neighbours (kept in rank order) without a second sort
// routine in the card's WebAssembly.
func byRank(value func(Neighbor) float64) func(a, b Neighbor) int {
	return func(a, b Neighbor) int {
		if c := cmp.Compare(value(b), value(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.Rank, b.Rank)
	}
}

// selection says which of s's neighbours the model kept and what it left.
func selection(s Side) string {
	if len(s.Neighbors) == 0 {
		return printable.Listed(s.ID) + " has no neighbours to select."
	}
	var kept []string
	left, outside := 0, 0
	for _, n := range s.Neighbors { // in rank order
		switch {
		case n.Selected && n.Common:
			kept = append(kept, printable.Listed(n.ID)+" (common)")
		case n.Selected:
			kept = append(kept, printable.Listed(n.ID))
		default:
			left++
		}
		if n.Outside {
			outside++
		}
	}
	names := strings.Join(kept, ", ")
	if len(kept) == 0 {
		names = "none"
	}
	out := printable.Listed(s.ID) + " keeps " + names + " of its " + neighbourCount(len(s.Neighbors))
	switch {
	case left == 0:
		return out + ", all of them."
	case outside > 0:
		return out + "; " + areCount(left) + " left out, " + strconv.Itoa(outside) + " of them beyond the bound on candidates and never scored."
	}
	return out + "; " + areCount(left) + " left out."
}

// aggregation says how far each kept neighbour of s moves its node.
func aggregation(s Side) string {
	sel := s.Selected()
	if len(sel) == 0 {
		return printable.Listed(s.ID) + " has no kept neighbour: h is its own h^r (length " + fixed(s.Norm, 3) + ")."
	}
	list := make([]string, len(sel))
	for k, n := range sel {
		list[k] = printable.Listed(n.ID) + " (b " + fixed(n.Weight, 3) + ", moves it by " + fixed(n.Shift, 3) + ")"
	}
	return printable.Listed(s.ID) + "'s own h^r has length " + fixed(s.Norm, 3) + "; " + strings.Join(list, ", ") + "."
}

// prediction is the step from the two representations to p.
func prediction(e *Explanation, i, j string) string {
	var b strings.Builder
	b.WriteString("The logit is h_" + i + " · h_" + j + " = " + fixed(e.Logit, 3) + "; seen from " + i + ", it is its own term " + signed(e.I.Own))
	for _, n := range e.I.Selected() {
		b.WriteString(" and " + printable.Listed(n.ID) + "'s " + signed(n.Attribution))
	}
	b.WriteString(".")
	m := e.Model
	if m.Temperature == 1 && m.Bias == 0 {
		b.WriteString(" The model is not calibrated, so p = sigmoid(logit) " + ProbIs(e.Prob, ProbDigits) + ".")
	} else {
		b.WriteString(" Calibration on held-out pairs maps it to p = sigmoid(logit / T + c) with T = " + fixed(m.Temperature, 3) + " and c = " + signed(m.Bias) + ": p " + ProbIs(e.Prob, ProbDigits) + ".")
	}
	if e.Prob >= 0.5 {
		b.WriteString(" Above 50%, so the model predicts a link.")
	} else {
		b.WriteString(" Below 50%, so the model predicts no link.")
	}
	return b.String()
}

// areCount is "1 is" or "n are".
func areCount(n int) string {
	if n == 1 {
		return "1 is"
	}
	return strconv.Itoa(n) + " are"
}

func neighbourCount(n int) string {
	if n == 1 {
		return "one neighbour"
	}
	return strconv.Itoa(n) + " neighbours"
}

// fixed writes v with digits decimals, as %.Nf does.
func fixed(v float64, digits int) string { return strconv.FormatFloat(v, 'f', digits, 64) }

// signed writes v with three decimals and its sign, as %+.3f does.
func signed(v float64) string {
	s := fixed(v, 3)
	if s[0] != '-' {
		s = "+" + s
	}
	return s
}
