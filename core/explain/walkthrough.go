package explain

import (
	"cmp"
	"fmt"
	"slices"
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
func (e *Explanation) Walkthrough() []Step {
	i, j := printable.Name(e.I.ID), printable.Name(e.J.ID)
	m := e.Model
	steps := make([]Step, 0, len(StepKeys))
	add := func(key, title string, parts ...string) {
		steps = append(steps, Step{Key: key, Title: title, Text: strings.Join(nonEmpty(parts), " ")})
	}

	scaled := "each side scaled so that its closest neighbour has 1"
	if !m.StructureScaled {
		scaled = "as the diffusion gives it, unscaled"
	}
	add(StepStructure, "Structure",
		"Structure is personalised PageRank (PPR): how often a random walk that keeps restarting at one node passes through another, so nodes that many short paths join score high.",
		fmt.Sprintf("Here it is measured from %s to each neighbour of %s, and from %s to each neighbour of %s, %s.", j, i, i, j, scaled),
		sideStructure(e.I, j), sideStructure(e.J, i))

	learnt := func(n Neighbor) float64 { return n.Learnt }
	features := "Features compare what the nodes hold (a paper's words, a product's description): sigmoid(h_c · h_other) of their representations, from 0 (unlike) through 0.5 (no signal) to 1 (alike)."
	var anchor string
	if m.Anchor != 0 {
		anchor = fmt.Sprintf("The model mixes two encoders: %s of the score from the trained one and %s from the same encoder as it started, untrained, which keeps the score from drifting to whatever training found convenient.",
			fixed2(1-m.Anchor), fixed2(m.Anchor))
	}
	add(StepFeatures, "Features", features, anchor,
		sideTopFeatures(e.I, j, m.Anchor, learnt),
		sideTopFeatures(e.J, i, m.Anchor, learnt))

	add(StepScores, "Scores",
		fmt.Sprintf("Each neighbour's score mixes the two: s = α·structure + (1 − α)·features, with α = %s.", fixed2(m.Alpha)),
		sideTop(e.I, j, "the best scored against", func(n Neighbor) float64 { return n.Score }),
		sideTop(e.J, i, "the best scored against", func(n Neighbor) float64 { return n.Score }))

	add(StepSelection, "Selection",
		fmt.Sprintf("Each side keeps at most K = %d neighbours: common neighbours of %s and %s first, then the best scores.", m.K, i, j),
		selection(e.I), selection(e.J))

	add(StepAggregation, "Aggregation",
		fmt.Sprintf("The kept neighbours get weights b = softmax(s/τ) with τ = %s, and each node's representation becomes h = h^r + β·Σ b·h^r_c with β = %s: its own plus its neighbours' pull.", fixed3(m.Tau), fixed2(m.Beta)),
		aggregation(e.I), aggregation(e.J))

	add(StepPrediction, "Prediction", prediction(e, i, j))

	add(StepWhatIf, "What if", e.Removal,
		fmt.Sprintf("With %d random neighbours of each side in place of the selected ones, p would be %s.", m.K, FormatProb(e.ProbRandom, ProbDigits)))
	return steps
}

// sideStructure is sideTop for structure, which says so when no
// neighbour of s is within the diffusion's reach of other.
func sideStructure(s Side, other string) string {
	structure := func(n Neighbor) float64 { return n.Structure }
	if top := topBy(s.Neighbors, structure); len(top) > 0 && top[0].Structure == 0 {
		if len(s.Neighbors) == 1 {
			return fmt.Sprintf("The one neighbour of %s is not within the diffusion's reach of %s (0).", printable.Name(s.ID), other)
		}
		return fmt.Sprintf("None of the %s of %s is within the diffusion's reach of %s (all 0): structure does not tell them apart.", neighbourCount(len(s.Neighbors)), printable.Name(s.ID), other)
	}
	return sideTop(s, other, "the closest to", structure)
}

// sideTop names up to three of s's neighbours with the highest value,
// against other: "Of 12 neighbours of 3, the closest to 40: 7 (1.000), ...".
func sideTop(s Side, other, what string, value func(Neighbor) float64) string {
	top := topBy(s.Neighbors, value)
	if len(top) == 0 {
		return fmt.Sprintf("%s has no neighbours.", printable.Name(s.ID))
	}
	list := make([]string, len(top))
	for k, n := range top {
		list[k] = fmt.Sprintf("%s (%s)", printable.Name(n.ID), fixed3(value(n)))
	}
	return fmt.Sprintf("Of the %s of %s, %s %s: %s.", neighbourCount(len(s.Neighbors)), printable.Name(s.ID), what, other, strings.Join(list, ", "))
}

// sideTopFeatures is sideTop for features, with the learnt and untrained
// parts beside the mix when the model has an anchor.
func sideTopFeatures(s Side, other string, anchor float64, learnt func(Neighbor) float64) string {
	if anchor == 0 {
		return sideTop(s, other, "the most alike to", learnt)
	}
	top := topBy(s.Neighbors, func(n Neighbor) float64 { return n.Features })
	if len(top) == 0 {
		return fmt.Sprintf("%s has no neighbours.", printable.Name(s.ID))
	}
	list := make([]string, len(top))
	for k, n := range top {
		list[k] = fmt.Sprintf("%s (%s: trained %s, untrained %s)", printable.Name(n.ID), fixed3(n.Features), fixed3(n.Learnt), fixed3(n.Untrained))
	}
	return fmt.Sprintf("Of the %s of %s, the most alike to %s: %s.", neighbourCount(len(s.Neighbors)), printable.Name(s.ID), other, strings.Join(list, "; "))
}

// topBy returns up to three neighbours of nbrs by descending value, ties
// by rank.
func topBy(nbrs []Neighbor, value func(Neighbor) float64) []Neighbor {
	out := slices.Clone(nbrs)
	slices.SortStableFunc(out, func(a, b Neighbor) int { return cmp.Compare(value(b), value(a)) })
	return out[:min(3, len(out))]
}

// selection says which of s's neighbours the model kept and what it left.
func selection(s Side) string {
	sel := s.Selected()
	if len(s.Neighbors) == 0 {
		return fmt.Sprintf("%s has no neighbours to select.", printable.Name(s.ID))
	}
	slices.SortStableFunc(sel, func(a, b Neighbor) int { return cmp.Compare(a.Rank, b.Rank) })
	names := make([]string, len(sel))
	common := 0
	for k, n := range sel {
		names[k] = printable.Name(n.ID)
		if n.Common {
			names[k] += " (common)"
			common++
		}
	}
	outside := 0
	for _, n := range s.Neighbors {
		if n.Outside {
			outside++
		}
	}
	left := len(s.Neighbors) - len(sel)
	var b strings.Builder
	kept := strings.Join(names, ", ")
	if len(sel) == 0 {
		kept = "none"
	}
	fmt.Fprintf(&b, "%s keeps %s of its %s", printable.Name(s.ID), kept, neighbourCount(len(s.Neighbors)))
	switch {
	case left == 0:
		b.WriteString(", all of them.")
	case outside > 0:
		fmt.Fprintf(&b, "; %s left out, %d of them beyond the bound on candidates and never scored.", areCount(left), outside)
	default:
		fmt.Fprintf(&b, "; %s left out.", areCount(left))
	}
	return b.String()
}

// aggregation says how far each kept neighbour of s moves its node.
func aggregation(s Side) string {
	sel := s.Selected()
	if len(sel) == 0 {
		return fmt.Sprintf("%s has no kept neighbour: h is its own h^r (length %s).", printable.Name(s.ID), fixed3(s.Norm))
	}
	list := make([]string, len(sel))
	for k, n := range sel {
		list[k] = fmt.Sprintf("%s (b %s, moves it by %s)", printable.Name(n.ID), fixed3(n.Weight), fixed3(n.Shift))
	}
	return fmt.Sprintf("%s's own h^r has length %s; %s.", printable.Name(s.ID), fixed3(s.Norm), strings.Join(list, ", "))
}

// prediction is the step from the two representations to p.
func prediction(e *Explanation, i, j string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The logit is h_%s · h_%s = %s; seen from %s, it is its own term %s", i, j, fixed3(e.Logit), i, signed3(e.I.Own))
	for _, n := range e.I.Selected() {
		fmt.Fprintf(&b, " and %s's %s", printable.Name(n.ID), signed3(n.Attribution))
	}
	b.WriteString(".")
	m := e.Model
	if m.Temperature == 1 && m.Bias == 0 {
		fmt.Fprintf(&b, " The model is not calibrated, so p = sigmoid(logit) %s.", ProbIs(e.Prob, ProbDigits))
	} else {
		fmt.Fprintf(&b, " Calibration on held-out pairs maps it to p = sigmoid(logit / T + c) with T = %s and c = %s: p %s.", fixed3(m.Temperature), signed3(m.Bias), ProbIs(e.Prob, ProbDigits))
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
	return fmt.Sprintf("%d are", n)
}

func neighbourCount(n int) string {
	if n == 1 {
		return "one neighbour"
	}
	return fmt.Sprintf("%d neighbours", n)
}

func nonEmpty(parts []string) []string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func fixed2(v float64) string  { return fmt.Sprintf("%.2f", v) }
func fixed3(v float64) string  { return fmt.Sprintf("%.3f", v) }
func signed3(v float64) string { return fmt.Sprintf("%+.3f", v) }
