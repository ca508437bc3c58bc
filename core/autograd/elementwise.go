package autograd

import (
	"fmt"
	"math"

	"ilpgnn/core/detmath"
	"ilpgnn/core/f32"
)

// Add returns a + b (same shape).
func Add(t *Tape, a, b *Var) *Var {
	sameShape("Add", a, b)
	c := t.result("add", a.Rows, a.Cols, false, addBackward, a, b)
	each3(f32.Add, c.Value, a.Value, b.Value) // C = A + B
	return c
}

func addBackward(c *Var) {
	accumulate(c.a.Grad, 1, c.Grad) // dA += dC
	accumulate(c.b.Grad, 1, c.Grad) // dB += dC
}

// Sub returns a - b (same shape).
func Sub(t *Tape, a, b *Var) *Var {
	sameShape("Sub", a, b)
	c := t.result("sub", a.Rows, a.Cols, false, subBackward, a, b)
	each3(f32.Sub, c.Value, a.Value, b.Value) // C = A - B
	return c
}

func subBackward(c *Var) {
	accumulate(c.a.Grad, 1, c.Grad)  // dA += dC
	accumulate(c.b.Grad, -1, c.Grad) // dB -= dC
}

// Mul returns the elementwise product a ⊙ b (same shape).
func Mul(t *Tape, a, b *Var) *Var {
	sameShape("Mul", a, b)
	c := t.result("mul", a.Rows, a.Cols, false, mulBackward, a, b)
	each3(f32.Mul, c.Value, a.Value, b.Value) // C = A ⊙ B
	return c
}

func mulBackward(c *Var) {
	if c.a.needsGrad() {
		each3(f32.MulAdd, c.a.Grad, c.Grad, c.b.Value) // dA += dC ⊙ B
	}
	if c.b.needsGrad() {
		each3(f32.MulAdd, c.b.Grad, c.Grad, c.a.Value) // dB += dC ⊙ A
	}
}

// AddBias returns a + bias broadcast over rows: out[r,j] = a[r,j] + bias[j],
// for a m×n and bias 1×n.
func AddBias(t *Tape, a, bias *Var) *Var {
	if bias.Rows != 1 || bias.Cols != a.Cols {
		panic(fmt.Sprintf("autograd: AddBias: bias %v for %v, want 1x%d", bias, a, a.Cols))
	}
	c := t.result("addbias", a.Rows, a.Cols, false, addBiasBackward, a, bias)
	n := a.Cols
	if pieces(a.Rows, n) > 1 {
		parallelFor(a.Rows, n, func(lo, hi int) { addBiasRows(c.Value, a.Value, bias.Value, lo, hi) })
	} else {
		addBiasRows(c.Value, a.Value, bias.Value, 0, a.Rows)
	}
	return c
}

// addBiasRows sets rows [lo, hi) of dst to those of a plus bias.
func addBiasRows(dst, a, bias []float32, lo, hi int) {
	n := len(bias)
	for r := lo; r < hi; r++ {
		f32.Add(dst[r*n:r*n+n], a[r*n:r*n+n], bias) // C[r,:] = A[r,:] + bias
	}
}

func addBiasBackward(c *Var) {
	accumulate(c.a.Grad, 1, c.Grad) // dA += dC
	if g := c.b.Grad; g != nil {
		n := c.Cols
		for r := 0; r < c.Rows; r++ {
			f32.Axpy(1, c.Grad[r*n:r*n+n], g) // dbias += Σ_r dC[r,:]
		}
	}
}

// Scale returns c·a.
func Scale(t *Tape, a *Var, c float32) *Var {
	out := t.result("scale", a.Rows, a.Cols, false, scaleBackward, a, nil)
	out.scalar = c
	eachScalar(f32.Scale, out.Value, c, a.Value) // C = c·A
	return out
}

func scaleBackward(out *Var) {
	accumulate(out.a.Grad, out.scalar, out.Grad) // dA += c·dC
}

// AddConst returns a + c for a constant c with len(c) == len(a.Value); c is
// read once and not kept.
func AddConst(t *Tape, a *Var, c []float32) *Var {
	if len(c) != len(a.Value) {
		panic(fmt.Sprintf("autograd: AddConst: len(c) = %d for %v", len(c), a))
	}
	out := t.result("addconst", a.Rows, a.Cols, false, passBackward, a, nil)
	each3(f32.Add, out.Value, a.Value, c) // C = A + c
	return out
}

// AddScalar returns a + c elementwise.
func AddScalar(t *Tape, a *Var, c float32) *Var {
	out := t.result("addscalar", a.Rows, a.Cols, false, passBackward, a, nil)
	eachScalar(addScalar, out.Value, c, a.Value) // C = A + c
	return out
}

func passBackward(out *Var) {
	accumulate(out.a.Grad, 1, out.Grad) // dA += dC
}

// ReLU returns max(a, 0) elementwise.
func ReLU(t *Tape, a *Var) *Var {
	out := t.result("relu", a.Rows, a.Cols, false, reluBackward, a, nil)
	each2(relu, out.Value, a.Value) // C = max(A, 0)
	return out
}

// relu sets dst = max(x, 0). It spells max out without a float compare:
// Go's float max is inline natively (MAXSS) but a call to runtime.fmax32
// under wasm, and a plain branch on v <= 0 mispredicts on half the inputs.
// Clearing every bit when the sign bit is set maps negatives and -0 to +0
// and keeps the rest, as max does; the NaN test (never taken in practice)
// keeps a NaN a NaN. It runs at least twice as fast as either under wasm
// and about as fast as max natively (measured: docs/autograd.md).
func relu(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		b := math.Float32bits(v)
		b &^= uint32(int32(b) >> 31)
		if v != v {
			b = math.Float32bits(v)
		}
		dst[i] = math.Float32frombits(b)
	}
}

func reluBackward(out *Var) {
	each3(reluGrad, out.a.Grad, out.Value, out.Grad) // dA += dC·[A > 0]
}

func reluGrad(g, y, dc []float32) {
	for i, v := range y {
		if v > 0 {
			g[i] += dc[i]
		}
	}
}

// Sigmoid returns σ(a) = 1/(1+e^{-a}) elementwise, computed without overflow.
func Sigmoid(t *Tape, a *Var) *Var {
	out := t.result("sigmoid", a.Rows, a.Cols, false, sigmoidBackward, a, nil)
	each2(sigmoids, out.Value, a.Value) // C = σ(A)
	return out
}

func sigmoids(dst, x []float32) {
	for i, v := range x {
		dst[i] = sigmoid(v)
	}
}

func sigmoidBackward(out *Var) {
	each3(sigmoidGrad, out.a.Grad, out.Value, out.Grad) // dA += dC·σ(A)(1-σ(A))
}

func sigmoidGrad(g, s, dc []float32) {
	for i, v := range s {
		g[i] += dc[i] * v * (1 - v)
	}
}

// sigmoid returns 1/(1+e^{-x}), evaluating e^{-|x|} only, so it never
// overflows.
func sigmoid(x float32) float32 {
	e := detmath.Exp(-math.Abs(float64(x)))
	if x >= 0 {
		return float32(1 / (1 + e))
	}
	return float32(e / (1 + e))
}

// Square returns a² elementwise.
func Square(t *Tape, a *Var) *Var {
	out := t.result("square", a.Rows, a.Cols, false, squareBackward, a, nil)
	each3(f32.Mul, out.Value, a.Value, a.Value) // C = A ⊙ A
	return out
}

func squareBackward(out *Var) {
	each3(squareGrad, out.a.Grad, out.a.Value, out.Grad) // dA += 2A ⊙ dC
}

func squareGrad(g, x, dc []float32) {
	for i, v := range x {
		g[i] += 2 * v * dc[i]
	}
}

func addScalar(dst []float32, c float32, x []float32) {
	for i, v := range x {
		dst[i] = v + c
	}
}
