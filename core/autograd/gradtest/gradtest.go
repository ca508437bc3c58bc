// Package gradtest checks gradients by central finite differences, for the
// tests of packages that build models on package autograd (the package's own
// ops are checked by its internal tests the same way).
package gradtest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"ilpgnn/core/autograd"
)

// Tolerances of Check: the forward runs in float32, so the step is large
// and the comparison loose enough for float32 rounding, yet a wrong sign,
// a missing factor or a dropped term fails on every coordinate whose
// gradient exceeds ~Atol.
const (
	Step = 1e-2
	Atol = 2e-4
	Rtol = 2e-3
)

// Check compares the gradients Backward gives for inputs against central
// finite differences of loss = Σ w·f(inputs), w a fixed random weighting of
// f's output. f must be deterministic. It checks at most maxCoords
// coordinates of each input (spread evenly; 0 means all) and fails when an
// input's gradient is all but zero, so a check cannot pass vacuously. It
// returns the largest |analytic − numeric| seen.
func Check(f func(t *autograd.Tape) *autograd.Var, inputs []*autograd.Var, maxCoords int) (maxErr float64, err error) {
	tp := autograd.NewTape()
	out := f(tp)
	r := rand.New(rand.NewPCG(42, uint64(len(out.Value))))
	w := make([]float32, len(out.Value))
	for i := range w {
		w[i] = r.Float32()*2 - 1
	}
	weighted := func(t *autograd.Tape, out *autograd.Var) *autograd.Var {
		return autograd.Sum(t, autograd.Mul(t, out, autograd.Const(out.Rows, out.Cols, w)))
	}
	for _, in := range inputs {
		in.ZeroGrad()
	}
	tp.Backward(weighted(tp, out))
	grads := make([][]float32, len(inputs))
	for j, in := range inputs {
		grads[j] = append([]float32(nil), in.Grad...)
	}
	tp.Reset()
	eval := func() float64 {
		v := f(tp).Value
		var s float64
		for i := range v {
			s += float64(w[i]) * float64(v[i])
		}
		tp.Reset()
		return s
	}
	for j, in := range inputs {
		var gmax float64
		stride := 1
		if maxCoords > 0 && len(in.Value) > maxCoords {
			stride = (len(in.Value) + maxCoords - 1) / maxCoords
		}
		for i := 0; i < len(in.Value); i += stride {
			v := in.Value[i]
			in.Value[i] = v + Step
			lp := eval()
			in.Value[i] = v - Step
			lm := eval()
			in.Value[i] = v
			fd := (lp - lm) / (float64(v+Step) - float64(v-Step))
			g := float64(grads[j][i])
			e := math.Abs(g - fd)
			maxErr = max(maxErr, e)
			gmax = max(gmax, math.Abs(g))
			if e > Atol+Rtol*max(math.Abs(g), math.Abs(fd)) || math.IsNaN(g) {
				return maxErr, fmt.Errorf("input %d (%v) coordinate %d: analytic %.6g, finite difference %.6g", j, in, i, g, fd)
			}
		}
		if len(in.Value) > 0 && gmax < 1e-2 {
			return maxErr, fmt.Errorf("input %d (%v): gradient all but zero (max %.3g); the check is vacuous", j, in, gmax)
		}
	}
	return maxErr, nil
}
