package autograd

import (
	"fmt"

	"ilpgnn/core/detmath"
)

// Ops of the subgraph link predictors (SEAL's DGCNN, WalkPooling): Tanh,
// a free Reshape, pairwise max pooling along rows, and Custom for ops
// whose forward and backward are computed outside the package.

// Tanh returns tanh(a) elementwise, as 1 − 2/(e^{2a}+1) with detmath.Exp.
func Tanh(t *Tape, a *Var) *Var {
	out := t.result("tanh", a.Rows, a.Cols, false, tanhBackward, a, nil)
	each2(tanhs, out.Value, a.Value)
	return out
}

func tanhs(dst, x []float32) {
	for i, v := range x {
		switch {
		case v > 20:
			dst[i] = 1
		case v < -20:
			dst[i] = -1
		default:
			dst[i] = float32(1 - 2/(detmath.Exp(2*float64(v))+1))
		}
	}
}

func tanhBackward(out *Var) {
	each3(tanhGrad, out.a.Grad, out.Value, out.Grad) // dA += dC·(1 − C²)
}

func tanhGrad(g, y, dc []float32) {
	for i, v := range y {
		g[i] += (1 - v*v) * dc[i]
	}
}

// Reshape returns a's values read as a rows×cols matrix (row-major order
// unchanged). It panics unless rows·cols equals a's size.
func Reshape(t *Tape, a *Var, rows, cols int) *Var {
	if rows*cols != a.Rows*a.Cols || rows < 0 || cols < 0 {
		panic(fmt.Sprintf("autograd: Reshape: %v to %dx%d", a, rows, cols))
	}
	out := t.result("reshape", rows, cols, false, reshapeBackward, a, nil)
	copy(out.Value, a.Value)
	return out
}

func reshapeBackward(out *Var) { axpy(1, out.Grad, out.a.Grad) }

// MaxPoolRows returns the elementwise maximum of consecutive pairs of rows:
// row r of the result is max(a[2r], a[2r+1]), so a has an even number of
// rows (DGCNN's max pooling of size and stride 2 along the sorted nodes,
// with the nodes of each subgraph laid out in consecutive rows). Ties send
// the gradient to the first row of the pair.
func MaxPoolRows(t *Tape, a *Var) *Var {
	if a.Rows%2 != 0 {
		panic(fmt.Sprintf("autograd: MaxPoolRows: %v has an odd number of rows", a))
	}
	n := a.Cols
	out := t.result("maxpoolrows", a.Rows/2, n, false, maxPoolRowsBackward, a, nil)
	for r := range out.Rows {
		top, bot, o := a.Value[2*r*n:2*r*n+n], a.Value[(2*r+1)*n:(2*r+2)*n], out.Value[r*n:r*n+n]
		for c := range o {
			o[c] = max(top[c], bot[c])
		}
	}
	return out
}

func maxPoolRowsBackward(out *Var) {
	n, a := out.Cols, out.a
	for r := range out.Rows {
		top := a.Value[2*r*n : 2*r*n+n]
		for c, g := range out.Grad[r*n : r*n+n] {
			if top[c] == out.Value[r*n+c] {
				a.Grad[2*r*n+c] += g
			} else {
				a.Grad[(2*r+1)*n+c] += g
			}
		}
	}
}

// Custom records an op whose value the caller computed from a: value holds
// its rows×cols result, and backward, run during Tape.Backward with the
// result's gradient, must add the gradient of a into ga. backward is not
// called when a needs no gradient. With a nil tape Custom only wraps value.
// value is not copied: it must not change until the result is used up.
func Custom(t *Tape, name string, a *Var, rows, cols int, value []float32, backward func(grad, ga []float32)) *Var {
	if len(value) != size("Custom", rows, cols) {
		panic(fmt.Sprintf("autograd: Custom %s: %d values for %dx%d", name, len(value), rows, cols))
	}
	if t == nil {
		return Const(rows, cols, value)
	}
	out := t.result(name, rows, cols, false, func(out *Var) { backward(out.Grad, out.a.Grad) }, a, nil)
	copy(out.Value, value)
	return out
}
