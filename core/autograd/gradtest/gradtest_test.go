package gradtest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
)

func param(r *rand.Rand, rows, cols int) *autograd.Var {
	p := autograd.NewParam(rows, cols)
	for i := range p.Value {
		p.Value[i] = 0.2 + r.Float32()
		if r.IntN(2) == 0 {
			p.Value[i] = -p.Value[i]
		}
	}
	return p
}

// The ops added for the subgraph models, and Custom with a correct and a
// broken backward: the checker must pass the first and catch the second.
func TestSubgraphOps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	a, b := param(r, 6, 4), param(r, 4, 3)
	cases := map[string]func(tp *autograd.Tape) *autograd.Var{
		"tanh": func(tp *autograd.Tape) *autograd.Var { return autograd.Tanh(tp, autograd.MatMul(tp, a, b)) },
		"reshape": func(tp *autograd.Tape) *autograd.Var {
			return autograd.MatMul(tp, autograd.Reshape(tp, a, 12, 2), autograd.Reshape(tp, b, 2, 6))
		},
		"maxpoolrows": func(tp *autograd.Tape) *autograd.Var { return autograd.MaxPoolRows(tp, autograd.MatMul(tp, a, b)) },
		"custom square": func(tp *autograd.Tape) *autograd.Var {
			v := make([]float32, len(a.Value))
			for i, x := range a.Value {
				v[i] = x * x
			}
			return autograd.Custom(tp, "square", a, a.Rows, a.Cols, v, func(g, ga []float32) {
				for i := range g {
					ga[i] += 2 * a.Value[i] * g[i]
				}
			})
		},
	}
	for name, f := range cases {
		inputs := []*autograd.Var{a, b}
		if strings.HasPrefix(name, "custom") {
			inputs = inputs[:1]
		}
		if e, err := Check(f, inputs, 0); err != nil {
			t.Errorf("%s: %v", name, err)
		} else {
			t.Logf("%s: max error %.2g", name, e)
		}
	}
	broken := func(tp *autograd.Tape) *autograd.Var {
		v := make([]float32, len(a.Value))
		for i, x := range a.Value {
			v[i] = x * x
		}
		return autograd.Custom(tp, "square", a, a.Rows, a.Cols, v, func(g, ga []float32) {
			for i := range g {
				ga[i] += a.Value[i] * g[i] // missing factor 2
			}
		})
	}
	if _, err := Check(broken, []*autograd.Var{a}, 0); err == nil {
		t.Error("a backward missing a factor of 2 passed the check")
	}
}

// Tanh's values against math.Tanh, and MaxPoolRows against a hand case.
func TestValues(t *testing.T) {
	x := autograd.Const(1, 5, []float32{-30, -1, 0, 0.5, 25})
	want := []float32{-1, -0.7615942, 0, 0.46211717, 1}
	for i, v := range autograd.Tanh(nil, x).Value {
		if d := v - want[i]; d > 1e-6 || d < -1e-6 {
			t.Errorf("tanh(%g) = %g, want %g", x.Value[i], v, want[i])
		}
	}
	m := autograd.MaxPoolRows(nil, autograd.Const(4, 2, []float32{1, 5, 3, 2, -1, -4, -2, -3}))
	if got := m.Value; got[0] != 3 || got[1] != 5 || got[2] != -1 || got[3] != -3 {
		t.Errorf("MaxPoolRows = %v, want [3 5 -1 -3]", got)
	}
}
