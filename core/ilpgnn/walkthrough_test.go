package ilpgnn

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"ilpgnn/core/explain"
)

// TestWalkthroughNumbers recomputes in float64, from H^r, the start's H^0
// (a second model drawn from the same seed) and the settings, every number
// the walk-through adds to an explanation: each neighbour's learnt and
// untrained feature scores and their mix, the score, each selected
// neighbour's shift, each end's length and own term, the logit, and p
// from the logit under the temperature and bias. It checks that the steps
// come in order and state the logit and p.
func TestWalkthroughNumbers(t *testing.T) {
	g := testGraph(t, 20, 3, 4, 5)
	cfg := smallConfig()
	cfg.Anchor = 0.4
	m, in := testModel(t, g, cfg)
	h0 := startEmbeddings(t, g, cfg, in)
	nudge(m, 0.3, 9)
	p := NewPredictor(m, in)
	p.Temperature, p.Bias = 1.7, -0.3
	d := cfg.Hidden
	row := func(h []float32, v int) []float64 {
		out := make([]float64, d)
		for k := range d {
			out[k] = float64(h[v*d+k])
		}
		return out
	}
	dot := func(a, b []float64) (s float64) {
		for k := range a {
			s += a[k] * b[k]
		}
		return s
	}
	sigmoid := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	near := func(got, want, tol float64) bool { return math.Abs(got-want) <= tol*max(1, math.Abs(want)) }
	// h returns h_v = h^r_v + β Σ b_c h^r_c over side s's selection.
	h := func(s explain.Side) []float64 {
		out := row(p.Hr, s.Node)
		for _, n := range s.Selected() {
			for k, x := range row(p.Hr, n.Node) {
				out[k] += cfg.Beta * n.Weight * x
			}
		}
		return out
	}
	checked := 0
	for i := 0; i < 20; i++ {
		for j := 0; j < 20; j++ {
			if i == j {
				continue
			}
			e, err := p.Explain(i, j)
			if err != nil {
				t.Fatal(err)
			}
			want := explain.Terms{Alpha: cfg.Alpha, Anchor: 0.4, K: cfg.K, StructureScaled: true, Tau: cfg.Tau, Beta: cfg.Beta, Temperature: 1.7, Bias: -0.3}
			if e.Model != want {
				t.Fatalf("terms %+v, want %+v", e.Model, want)
			}
			hi, hj := h(e.I), h(e.J)
			logit := dot(hi, hj)
			if !near(e.Logit, logit, 1e-4) {
				t.Fatalf("(%d,%d): logit %v, want %v", i, j, e.Logit, logit)
			}
			if !near(e.Prob, sigmoid(e.Logit/1.7-0.3), 1e-12) {
				t.Fatalf("(%d,%d): p %v from logit %v", i, j, e.Prob, e.Logit)
			}
			for _, side := range []struct {
				s      explain.Side
				hOther []float64
				other  int
			}{{e.I, hj, j}, {e.J, hi, i}} {
				own := row(p.Hr, side.s.Node)
				if !near(side.s.Norm, math.Sqrt(dot(own, own)), 1e-6) {
					t.Fatalf("(%d,%d) side %d: norm %v", i, j, side.s.Node, side.s.Norm)
				}
				if !near(side.s.Own, dot(own, side.hOther), 1e-4) {
					t.Fatalf("(%d,%d) side %d: own term %v, want %v", i, j, side.s.Node, side.s.Own, dot(own, side.hOther))
				}
				sum := side.s.Own
				for _, n := range side.s.Neighbors {
					learnt := sigmoid(dot(row(p.Hr, n.Node), row(p.Hr, side.other)))
					untrained := sigmoid(dot(row(h0, n.Node), row(h0, side.other)))
					features := 0.6*learnt + 0.4*untrained
					switch {
					case !near(n.Learnt, learnt, 1e-5):
						t.Fatalf("(%d,%d) neighbour %d: learnt %v, want %v", i, j, n.Node, n.Learnt, learnt)
					case !near(n.Untrained, untrained, 1e-5):
						t.Fatalf("(%d,%d) neighbour %d: untrained %v, want %v", i, j, n.Node, n.Untrained, untrained)
					case !near(n.Features, features, 1e-5):
						t.Fatalf("(%d,%d) neighbour %d: features %v, want %v", i, j, n.Node, n.Features, features)
					case !near(n.Score, cfg.Alpha*n.Structure+(1-cfg.Alpha)*features, 1e-5):
						t.Fatalf("(%d,%d) neighbour %d: score %v", i, j, n.Node, n.Score)
					}
					c := row(p.Hr, n.Node)
					shift := 0.0
					if n.Selected {
						shift = cfg.Beta * n.Weight * math.Sqrt(dot(c, c))
						sum += n.Attribution
						checked++
					}
					if !near(n.Shift, shift, 1e-5) {
						t.Fatalf("(%d,%d) neighbour %d: shift %v, want %v", i, j, n.Node, n.Shift, shift)
					}
				}
				if !near(sum, logit, 1e-4) {
					t.Fatalf("(%d,%d) side %d: own term and attributions add to %v, the logit is %v", i, j, side.s.Node, sum, logit)
				}
			}
			if len(e.Steps) != len(explain.StepKeys) {
				t.Fatalf("%d steps", len(e.Steps))
			}
			for k, s := range e.Steps {
				if s.Key != explain.StepKeys[k] || s.Title == "" || s.Text == "" {
					t.Fatalf("step %d: %+v", k, s)
				}
			}
			pred := e.Steps[5].Text
			for _, w := range []string{fmt.Sprintf("%.3f", e.Logit), "T = 1.700", "c = -0.300", explain.FormatProb(e.Prob, explain.ProbDigits)} {
				if !strings.Contains(pred, w) {
					t.Fatalf("(%d,%d): the prediction step %q does not state %q", i, j, pred, w)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no pair had a selected neighbour")
	}
}
