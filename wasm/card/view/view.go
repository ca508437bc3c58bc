// Package view turns an explanation into what the embeddable card shows:
// the texts, the numbers (rounded for reading, exact for checking) and the
// small drawing of the pair and its selected neighbours. It is pure Go, so
// that what the card says is tested natively; wasm/card puts it into the
// page.
package view

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"ilpgnn/core/explain"
)

// Number is a value as shown (Text) and exactly (Exact, the shortest
// decimal that reads back as the same float64: what `ilpgnn explain
// --json` prints), so that a test can compare the card with the command
// line bit for bit.
type Number struct {
	Text, Exact string
}

func num(v float64, format string) Number {
	return Number{Text: fmt.Sprintf(format, v), Exact: strconv.FormatFloat(v, 'g', -1, 64)}
}

// prob is the probability p as shown (Percent) and exactly.
func prob(p float64) Number {
	return Number{Text: Percent(p), Exact: strconv.FormatFloat(p, 'g', -1, 64)}
}

// signed is v as shown with three decimals and its sign ("+0.123",
// "−0.010" with a minus sign), "0.000" where it rounds to zero, so that
// nothing reads "-0.000"; and exactly.
func signed(v float64) Number {
	s := strconv.FormatFloat(math.Abs(v), 'f', 3, 64)
	switch {
	case s == "0.000", math.IsNaN(v):
	case v < 0:
		s = "−" + s
	default:
		s = "+" + s
	}
	return Number{Text: s, Exact: strconv.FormatFloat(v, 'g', -1, 64)}
}

// Percent writes a probability as the explorer page writes every p
// (frontend/src/app/format.ts probability): a percentage with one
// decimal, except that one that would read 0.0% or 100.0% reads "< 0.1%"
// or "> 99.9%" (a finite score never gives p = 0 or 1); "–" when p is
// not a number.
func Percent(p float64) string {
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return "–"
	}
	switch s := strconv.FormatFloat(100*p, 'f', 1, 64); s {
	case "0.0", "-0.0":
		return "< 0.1%"
	case "100.0":
		return "> 99.9%"
	default:
		return s + "%"
	}
}

// Row is a selected neighbour of one end.
type Row struct {
	ID     string
	Common bool // also a neighbour of the other end
	// Weight is b_c (eq 6), Attribution its term in the logit, ProbWithout
	// p with it alone removed.
	Weight, Attribution, ProbWithout Number
}

// Side is one end's selected neighbours, heaviest first.
type Side struct {
	Node, Other string
	Rows        []Row
	// Candidates is how many neighbours were scored.
	Candidates int
}

// Counterfactual is one "what if" of the explanation.
type Counterfactual struct {
	Key, Label string
	Value      Number
}

// View is everything a card shows for one pair.
type View struct {
	I, J            string
	Prob            Number
	Status          string // "", or that the pair is linked (and masked)
	Reading         string
	Removal         string
	Sides           [2]Side
	Counterfactuals []Counterfactual
	Drawing         Drawing
	// Steps are the walk-through of how the model decided, as the app and
	// `ilpgnn explain --steps` tell it.
	Steps []explain.Step
}

// New builds the view of e.
func New(e *explain.Explanation) *View {
	v := &View{I: e.I.ID, J: e.J.ID, Prob: prob(e.Prob), Reading: e.Reading, Removal: e.Removal, Steps: e.Steps}
	if e.Linked {
		v.Status = "linked in the graph"
		if e.Masked {
			v.Status += "; the link itself is hidden from the model"
		}
	}
	for k, s := range []explain.Side{e.I, e.J} {
		other := e.J.ID
		if k == 1 {
			other = e.I.ID
		}
		side := Side{Node: s.ID, Other: other, Candidates: len(s.Neighbors)}
		for _, n := range s.Selected() {
			side.Rows = append(side.Rows, Row{ID: n.ID, Common: n.Common,
				Weight: num(n.Weight, "%.3f"), Attribution: signed(n.Attribution), ProbWithout: prob(n.ProbWithout)})
		}
		v.Sides[k] = side
	}
	v.Counterfactuals = []Counterfactual{
		{"prob_random", "p with random neighbours in place of the selected ones", prob(e.ProbRandom)},
		{"prob_removed", "p with the selected neighbours removed", prob(e.ProbRemoved)},
		{"prob_random_removed", fmt.Sprintf("p with as many random neighbours removed (mean of %d draws)", e.RandomDraws), prob(e.ProbRandomRemoved)},
	}
	v.Drawing = draw(e)
	return v
}

// Drawing is the pair and its selected neighbours, in a Width x Height box.
type Drawing struct {
	Width, Height float64
	Nodes         []Node
	Edges         []Edge
}

// Roles of a drawn node.
const (
	RoleEnd      = "end"      // i or j
	RoleSelected = "selected" // selected by one end
	RoleCommon   = "common"   // a neighbour of both ends, selected by either
)

// Node is a drawn node, centred at (X, Y), its label's baseline at
// LabelY.
type Node struct {
	ID     string
	X, Y   float64
	LabelY float64
	Role   string
}

// Radius is the drawn radius of a node of role r.
func Radius(r string) float64 {
	if r == RoleEnd {
		return 11
	}
	return 7
}

// Edge joins (X1, Y1) and (X2, Y2). Width grows with the neighbour's
// weight b_c; Pair marks the link being explained (drawn dashed).
type Edge struct {
	X1, Y1, X2, Y2 float64
	Width          float64
	Pair           bool
}

// Drawing's box and places: the ends on a horizontal line, each end's
// selected neighbours fanned out on its outer side, the common ones
// between the ends.
const (
	width, minHeight = 360.0, 200.0
	endX             = 110.0
	fanRadius        = 72.0
	// A label's baseline under its node's centre, and how far its 11 px
	// text (the stylesheet's) reaches below that baseline.
	labelDY, labelDescent = 22.0, 4.0
	// An upper bound on the width of one character of that text, for
	// labels as long as names; an id's bytes stand for its characters (as
	// many or more).
	labelCharWidth = 7.0
	// Room between the box's edge and the outermost disc or label.
	margin = 6.0
)

func draw(e *explain.Explanation) Drawing {
	d := layout(e)
	// The box grows to hold every disc and label: the common neighbours
	// stack above and below the pair, as many rows as there are, and a
	// long id's label reaches past the fans.
	left, right := math.Inf(1), math.Inf(-1)
	top, bottom := math.Inf(1), math.Inf(-1)
	for _, n := range d.Nodes {
		half := max(Radius(n.Role), labelCharWidth*float64(len(n.ID))/2)
		left, right = min(left, n.X-half), max(right, n.X+half)
		top = min(top, n.Y-Radius(n.Role))
		bottom = max(bottom, n.Y+labelDY+labelDescent)
	}
	d.Width = max(width, right-left+2*margin)
	d.Height = max(minHeight, bottom-top+2*margin)
	dx := (d.Width-(right-left))/2 - left
	dy := (d.Height-(bottom-top))/2 - top
	for k := range d.Nodes {
		d.Nodes[k].X += dx
		d.Nodes[k].Y += dy
		d.Nodes[k].LabelY = d.Nodes[k].Y + labelDY
	}
	for k := range d.Edges {
		d.Edges[k].X1 += dx
		d.Edges[k].X2 += dx
		d.Edges[k].Y1 += dy
		d.Edges[k].Y2 += dy
	}
	return d
}

// layout places the nodes around a pair on y = 0.
func layout(e *explain.Explanation) Drawing {
	d := Drawing{Width: width}
	cy := 0.0
	ends := [2]Node{{ID: e.I.ID, X: endX, Y: cy, Role: RoleEnd}, {ID: e.J.ID, X: width - endX, Y: cy, Role: RoleEnd}}
	d.Edges = append(d.Edges, Edge{X1: ends[0].X, Y1: cy, X2: ends[1].X, Y2: cy, Width: 1.5, Pair: true})
	placed := map[string]int{} // id -> index in d.Nodes
	var commons []string
	for _, s := range []explain.Side{e.I, e.J} {
		for _, n := range s.Selected() {
			if n.Common && !slices.Contains(commons, n.ID) {
				commons = append(commons, n.ID)
			}
		}
	}
	// Common neighbours stack between the ends, above and below the pair.
	for k, id := range commons {
		y := cy - 46*float64(k/2+1)
		if k%2 == 1 {
			y = cy + 46*float64(k/2+1)
		}
		placed[id] = len(d.Nodes)
		d.Nodes = append(d.Nodes, Node{ID: id, X: width / 2, Y: y, Role: RoleCommon})
	}
	for k, s := range []explain.Side{e.I, e.J} {
		var own []explain.Neighbor
		for _, n := range s.Selected() {
			if !n.Common {
				own = append(own, n)
			}
		}
		dir := -1.0 // i fans out to the left, j to the right
		if k == 1 {
			dir = 1
		}
		for m, n := range own {
			// Spread over ±60° around the outward horizontal.
			a := 0.0
			if len(own) > 1 {
				a = (float64(m)/float64(len(own)-1) - 0.5) * (2 * math.Pi / 3)
			}
			placed[n.ID] = len(d.Nodes)
			d.Nodes = append(d.Nodes, Node{ID: n.ID, X: ends[k].X + dir*fanRadius*math.Cos(a), Y: cy + fanRadius*math.Sin(a), Role: RoleSelected})
		}
		for _, n := range s.Selected() {
			at := d.Nodes[placed[n.ID]]
			d.Edges = append(d.Edges, Edge{X1: ends[k].X, Y1: cy, X2: at.X, Y2: at.Y, Width: 1 + 5*n.Weight})
		}
	}
	d.Nodes = append(d.Nodes, ends[0], ends[1])
	return d
}
