package autograd

import (
	"fmt"
	"math"

	"ilpgnn/core/detmath"
)

// Sum returns the 1×1 sum of all elements of a (accumulated in float64).
func Sum(t *Tape, a *Var) *Var {
	out := t.result("sum", 1, 1, false, sumBackward, a, nil)
	var s float64
	for _, x := range a.Value {
		s += float64(x)
	}
	out.Value[0] = float32(s) // s = Σ A
	return out
}

func sumBackward(out *Var) {
	g := out.Grad[0]
	for i := range out.a.Grad {
		out.a.Grad[i] += g // dA += ds
	}
}

// Mean returns the 1×1 mean of all elements of a (accumulated in float64).
// The mean of an empty matrix is 0, with no gradient.
func Mean(t *Tape, a *Var) *Var {
	out := t.result("mean", 1, 1, false, meanBackward, a, nil)
	var s float64
	for _, x := range a.Value {
		s += float64(x)
	}
	if n := len(a.Value); n > 0 {
		out.Value[0] = float32(s / float64(n)) // μ = Σ A / n
	} else {
		out.Value[0] = 0
	}
	return out
}

func meanBackward(out *Var) {
	if len(out.a.Grad) == 0 {
		return
	}
	g := out.Grad[0] / float32(len(out.a.Grad))
	for i := range out.a.Grad {
		out.a.Grad[i] += g // dA += dμ / n
	}
}

// BCEWithLogits returns the 1×1 mean binary cross-entropy of sigmoid(z)
// against labels y over the n = len(logits.Value) elements, in the
// numerically stable form
//
//	L = (1/n) Σ_i max(z_i, 0) - z_i·y_i + log(1 + exp(-|z_i|))
//
// accumulated in float64 (0 when n == 0). labels is kept, not copied, until
// Backward. It panics if len(labels) != n.
func BCEWithLogits(t *Tape, logits *Var, labels []float32) *Var {
	if len(labels) != len(logits.Value) {
		panic(fmt.Sprintf("autograd: BCEWithLogits: %d labels for %v", len(labels), logits))
	}
	out := t.result("bce", 1, 1, false, bceBackward, logits, nil)
	out.floats = labels
	var s float64
	for i, z := range logits.Value {
		z, y := float64(z), float64(labels[i])
		s += max(z, 0) - z*y + math.Log1p(detmath.Exp(-math.Abs(z)))
	}
	if n := len(labels); n > 0 {
		s /= float64(n)
	}
	out.Value[0] = float32(s)
	return out
}

func bceBackward(out *Var) {
	z, g := out.a.Value, out.a.Grad
	if len(g) == 0 {
		return
	}
	c := out.Grad[0] / float32(len(g))
	for i, y := range out.floats {
		g[i] += c * (sigmoid(z[i]) - y) // dz += dL·(σ(z) - y)/n
	}
}
