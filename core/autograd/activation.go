package autograd

import (
	"fmt"

	"ilpgnn/core/detmath"
)

// Activations the GNN baselines need (package gnn): LeakyReLU for graph
// attention scores, Exp for VGAE's standard deviation and ELU between GAT
// layers. Exponentials go through detmath.Exp so that native and
// WebAssembly builds compute the same bits.

// LeakyReLU returns x for x > 0 and slope·x otherwise, elementwise. It
// panics unless 0 < slope < 1, which keeps the sign of the output equal to
// the sign of the input (the backward step reads it from the output).
func LeakyReLU(t *Tape, a *Var, slope float32) *Var {
	if !(slope > 0 && slope < 1) {
		panic(fmt.Sprintf("autograd: LeakyReLU: slope %g not in (0, 1)", slope))
	}
	out := t.result("leakyrelu", a.Rows, a.Cols, false, leakyReLUBackward, a, nil)
	out.scalar = slope
	eachScalar(leakyReLU, out.Value, slope, a.Value) // C = A>0 ? A : slope·A
	return out
}

func leakyReLU(dst []float32, slope float32, x []float32) {
	for i, v := range x {
		if v > 0 {
			dst[i] = v
		} else {
			dst[i] = slope * v
		}
	}
}

func leakyReLUBackward(out *Var) {
	// dA += dC · (C > 0 ? 1 : slope); C > 0 exactly when A > 0.
	g, y, dc, slope := out.a.Grad, out.Value, out.Grad, out.scalar
	for i, v := range y {
		if v > 0 {
			g[i] += dc[i]
		} else {
			g[i] += slope * dc[i]
		}
	}
}

// Exp returns e^a elementwise (detmath.Exp, rounded to float32).
func Exp(t *Tape, a *Var) *Var {
	out := t.result("exp", a.Rows, a.Cols, false, expBackward, a, nil)
	each2(exps, out.Value, a.Value) // C = e^A
	return out
}

func exps(dst, x []float32) {
	for i, v := range x {
		dst[i] = float32(detmath.Exp(float64(v)))
	}
}

func expBackward(out *Var) {
	each3(mulAddInto, out.a.Grad, out.Value, out.Grad) // dA += e^A ⊙ dC
}

func mulAddInto(g, y, dc []float32) {
	for i, v := range y {
		g[i] += v * dc[i]
	}
}

// ELU returns x for x > 0 and e^x - 1 otherwise, elementwise (Clevert et
// al. 2016, α = 1), the activation between GAT layers.
func ELU(t *Tape, a *Var) *Var {
	out := t.result("elu", a.Rows, a.Cols, false, eluBackward, a, nil)
	each2(elus, out.Value, a.Value)
	return out
}

func elus(dst, x []float32) {
	for i, v := range x {
		if v > 0 {
			dst[i] = v
		} else {
			dst[i] = float32(detmath.Exp(float64(v)) - 1)
		}
	}
}

func eluBackward(out *Var) {
	each3(eluGrad, out.a.Grad, out.Value, out.Grad) // dA += dC · (C > 0 ? 1 : C+1)
}

func eluGrad(g, y, dc []float32) {
	for i, v := range y {
		if v > 0 {
			g[i] += dc[i]
		} else {
			g[i] += (v + 1) * dc[i]
		}
	}
}
