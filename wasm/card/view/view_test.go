package view

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/explain"
)

// explanation is a hand-made explanation of (a, b): a selected x (weight
// 0.7) and the common neighbour c (0.3); b selected c (0.6) and y (0.4),
// and did not select z.
func explanation() *explain.Explanation {
	return &explain.Explanation{
		I: explain.Side{ID: "a", Neighbors: []explain.Neighbor{
			{ID: "x", Selected: true, Weight: 0.7, Attribution: 0.123456, ProbWithout: 0.5},
			{ID: "c", Selected: true, Common: true, Weight: 0.3, Attribution: -0.01, ProbWithout: 0.61},
		}},
		J: explain.Side{ID: "b", Neighbors: []explain.Neighbor{
			{ID: "c", Selected: true, Common: true, Weight: 0.6},
			{ID: "y", Selected: true, Weight: 0.4},
			{ID: "z"},
		}},
		Prob: 0.912345678, Linked: true, Masked: true,
		ProbRandom: 0.7, ProbRemoved: 0.2, ProbRandomRemoved: 0.6, RandomDraws: 10,
		Reading: "reading", Removal: "removal",
	}
}

func TestNew(t *testing.T) {
	e := explanation()
	e.Steps = e.Walkthrough()
	v := New(e)
	if v.Prob.Text != "91.2%" || v.Prob.Exact != "0.912345678" {
		t.Errorf("prob %+v", v.Prob)
	}
	if v.Status != "linked in the graph; the link itself is hidden from the model" {
		t.Errorf("status %q", v.Status)
	}
	a, b := v.Sides[0], v.Sides[1]
	if a.Node != "a" || a.Other != "b" || b.Node != "b" || b.Other != "a" || b.Candidates != 3 {
		t.Errorf("sides %+v %+v", a, b)
	}
	// Heaviest first; z, not selected, is not a row.
	if len(a.Rows) != 2 || a.Rows[0].ID != "x" || a.Rows[1].ID != "c" || !a.Rows[1].Common || len(b.Rows) != 2 || b.Rows[0].ID != "c" {
		t.Fatalf("rows %+v %+v", a.Rows, b.Rows)
	}
	if r := a.Rows[0]; r.Weight.Text != "0.700" || r.Attribution.Text != "+0.123" || r.Attribution.Exact != "0.123456" || r.ProbWithout.Text != "50.0%" {
		t.Errorf("row %+v", r)
	}
	if r := a.Rows[1]; r.Attribution.Text != "−0.010" || r.ProbWithout.Text != "61.0%" {
		t.Errorf("row %+v", r)
	}
	if len(v.Steps) != len(explain.StepKeys) || v.Steps[5].Key != explain.StepPrediction || v.Steps[5].Text == "" {
		t.Errorf("steps %+v", v.Steps)
	}
	if c := v.Counterfactuals; len(c) != 3 || c[1].Key != "prob_removed" || c[1].Value.Exact != "0.2" || c[2].Label != "p with as many random neighbours removed (mean of 10 draws)" {
		t.Errorf("counterfactuals %+v", c)
	}
	// Every exact number reads back as the value it stands for.
	for _, want := range []float64{0.912345678, 0.123456} {
		s := strconv.FormatFloat(want, 'g', -1, 64)
		if got, _ := strconv.ParseFloat(s, 64); got != want {
			t.Errorf("%s reads back as %v", s, got)
		}
	}
}

func TestDrawing(t *testing.T) {
	d := New(explanation()).Drawing
	at := map[string]Node{}
	for _, n := range d.Nodes {
		if _, dup := at[n.ID]; dup {
			t.Fatalf("%s drawn twice", n.ID)
		}
		if n.X < 10 || n.X > d.Width-10 || n.Y < 10 || n.Y > d.Height-10 {
			t.Errorf("%s at (%g, %g) outside the %gx%g box", n.ID, n.X, n.Y, d.Width, d.Height)
		}
		at[n.ID] = n
	}
	if len(at) != 5 {
		t.Fatalf("%d nodes drawn, want a, b, x, c, y", len(at))
	}
	a, b, c, x, y := at["a"], at["b"], at["c"], at["x"], at["y"]
	if a.Role != RoleEnd || b.Role != RoleEnd || c.Role != RoleCommon || x.Role != RoleSelected {
		t.Errorf("roles %v", at)
	}
	// The common neighbour between the ends, each end's own on its outer side.
	if !(a.X < c.X && c.X < b.X) || !(x.X < a.X) || !(y.X > b.X) {
		t.Errorf("places: a %g, c %g, b %g, x %g, y %g", a.X, c.X, b.X, x.X, y.X)
	}
	// The pair's link, then one edge per selection (c twice: by a and by b).
	if len(d.Edges) != 5 || !d.Edges[0].Pair {
		t.Fatalf("edges %+v", d.Edges)
	}
	// Width grows with the weight: a-x (0.7) is wider than a-c (0.3).
	if d.Edges[1].Width <= d.Edges[2].Width {
		t.Errorf("widths %g, %g", d.Edges[1].Width, d.Edges[2].Width)
	}
}

// TestPercent checks the card's p against the page's (format.ts
// probability, whose unit test pins the same cases): one decimal, and a
// bound where the percentage would round to 0 or 100.
func TestPercent(t *testing.T) {
	for k, c := range []struct {
		p    float64
		want string
	}{
		{0.912345678, "91.2%"},
		{0.5, "50.0%"},
		{0.99949, "99.9%"},
		{0.9995, "> 99.9%"},
		{1, "> 99.9%"},
		{0.00049, "< 0.1%"},
		{0, "< 0.1%"},
		{0.0005, "0.1%"},
		{math.NaN(), "–"},
	} {
		if got := Percent(c.p); got != c.want {
			t.Errorf("%d: Percent(%v) = %q, want %q", k+1, c.p, got, c.want)
		}
	}
}

// TestSigned checks that no attribution reads "-0.000" and every other
// keeps its sign.
func TestSigned(t *testing.T) {
	for k := -5000; k <= 5000; k++ {
		v := float64(k) / 1e6
		s := signed(v).Text
		if strings.HasPrefix(s, "-") {
			t.Fatalf("signed(%v) = %q has a hyphen", v, s)
		}
		abs, err := strconv.ParseFloat(strings.TrimLeft(s, "+−"), 64)
		// Within half the last place shown of the value itself.
		if err != nil || math.Abs(abs-math.Abs(v)) > 0.0005+1e-12 {
			t.Fatalf("signed(%v) = %q", v, s)
		}
		if s != "0.000" && strings.HasPrefix(s, "−") != (v < 0) {
			t.Fatalf("signed(%v) = %q: wrong sign", v, s)
		}
	}
}

// TestDrawingFits: however many common neighbours stack above and below
// the pair, and however long an id, every disc and label lies inside the
// box.
func TestDrawingFits(t *testing.T) {
	for _, commons := range []int{0, 1, 4, 6} {
		e := &explain.Explanation{I: explain.Side{ID: "Valjean, Jean"}, J: explain.Side{ID: "b"}}
		for k := range commons {
			n := explain.Neighbor{ID: "c" + strconv.Itoa(k), Selected: true, Common: true, Weight: 0.2}
			e.I.Neighbors = append(e.I.Neighbors, n)
			e.J.Neighbors = append(e.J.Neighbors, n)
		}
		for k := range 3 {
			e.I.Neighbors = append(e.I.Neighbors, explain.Neighbor{ID: "Mademoiselle Gillenormand " + strconv.Itoa(k), Selected: true, Weight: 0.2})
		}
		d := New(e).Drawing
		for _, n := range d.Nodes {
			half := labelCharWidth * float64(len(n.ID)) / 2
			if n.Y-Radius(n.Role) < 0 || n.LabelY+labelDescent > d.Height || n.X-half < 0 || n.X+half > d.Width {
				t.Errorf("%d commons: %s at (%g, %g), label at %g, outside the %gx%g box", commons, n.ID, n.X, n.Y, n.LabelY, d.Width, d.Height)
			}
		}
		for _, ed := range d.Edges {
			if ed.Y1 < 0 || ed.Y2 > d.Height || ed.Y2 < 0 || ed.X1 < 0 || ed.X2 > d.Width {
				t.Errorf("%d commons: edge %+v outside the box", commons, ed)
			}
		}
	}
}
