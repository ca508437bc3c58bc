package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"ilpgnn/core/detmath"
)

// TestActivationGradCheck checks LeakyReLU, Exp and ELU against finite
// differences with the tolerances of gradcheck_test.go. Inputs are drawn
// from ±[0.1, 1], so the step of 1e-2 never crosses the kink at 0.
func TestActivationGradCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	x := param(r, 4, 5, 0.1, 1)
	y := param(r, 3, 4, 0.1, 1)
	z := param(r, 5, 3, 0.1, 1)
	w := param(r, 3, 2, 0.1, 1)
	cases := []gradCase{
		{"leakyrelu", []*Var{x}, func(t *Tape) *Var { return LeakyReLU(t, x, 0.2) }},
		{"exp", []*Var{y}, func(t *Tape) *Var { return Exp(t, y) }},
		{"elu", []*Var{z}, func(t *Tape) *Var { return ELU(t, z) }},
		// Composed, so that the gradient reaches the ops through others.
		{"elu(leakyrelu(w)·exp(w))", []*Var{w}, func(t *Tape) *Var {
			return ELU(t, Mul(t, LeakyReLU(t, w, 0.1), Exp(t, w)))
		}},
	}
	for _, c := range cases {
		maxErr, err := gradCheck(c.f, c.inputs)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		t.Logf("%s: max |g - fd| = %.2g", c.name, maxErr)
	}
}

// TestActivationForward checks values, including both sides of 0, and
// that a nil tape (inference) gives the same values.
func TestActivationForward(t *testing.T) {
	in := []float32{-2, -0.5, 0, 0.25, 3}
	a := Const(1, len(in), in)
	for _, c := range []struct {
		name string
		f    func(*Tape, *Var) *Var
		want func(float64) float64
	}{
		{"leakyrelu", func(t *Tape, a *Var) *Var { return LeakyReLU(t, a, 0.2) }, func(x float64) float64 {
			if x > 0 {
				return x
			}
			return 0.2 * x
		}},
		{"exp", Exp, math.Exp},
		{"elu", ELU, func(x float64) float64 {
			if x > 0 {
				return x
			}
			return math.Exp(x) - 1
		}},
	} {
		for _, tp := range []*Tape{nil, NewTape()} {
			out := c.f(tp, a)
			for i, x := range in {
				if got, want := float64(out.Value[i]), c.want(float64(x)); math.Abs(got-want) > 1e-6*max(1, math.Abs(want)) {
					t.Errorf("%s(%g) = %g, want %g", c.name, x, got, want)
				}
			}
		}
	}
	// Exp uses detmath, bit for bit.
	if got, want := Exp(nil, a).Value[4], float32(detmath.Exp(3)); got != want {
		t.Errorf("Exp(3) = %v, want detmath's %v", got, want)
	}
}

// TestActivationKinkGradient checks the gradient at and around 0, where
// finite differences cannot: LeakyReLU has slope at x <= 0 and ELU has 1
// at x = 0 from the left (e^0).
func TestActivationKinkGradient(t *testing.T) {
	x := NewParam(1, 3)
	copy(x.Value, []float32{-1, 0, 1})
	tp := NewTape()
	tp.Backward(Sum(tp, LeakyReLU(tp, x, 0.2)))
	if want := []float32{0.2, 0.2, 1}; !activationEqual(x.Grad, want) {
		t.Errorf("LeakyReLU gradient %v, want %v", x.Grad, want)
	}
	x.ZeroGrad()
	tp.Reset()
	tp.Backward(Sum(tp, ELU(tp, x)))
	if want := []float32{float32(math.Exp(-1)), 1, 1}; math.Abs(float64(x.Grad[0]-want[0])) > 1e-6 || x.Grad[1] != 1 || x.Grad[2] != 1 {
		t.Errorf("ELU gradient %v, want %v", x.Grad, want)
	}
}

func TestLeakyReLUPanicsOnBadSlope(t *testing.T) {
	for _, s := range []float32{0, 1, -0.1, float32(math.NaN())} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("slope %g: no panic", s)
				}
			}()
			LeakyReLU(nil, Const(1, 1, []float32{1}), s)
		}()
	}
}

func activationEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
