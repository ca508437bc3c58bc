package autograd

import (
	"fmt"
	"math"

	"ilpgnn/core/f32"
)

// Add returns a + b (same shape).
func Add(t *Tape, a, b *Var) *Var {
	sameShape("Add", a, b)
	c := t.result("add", a.Rows, a.Cols, false, addBackward, a, b)
	f32.Add(c.Value, a.Value, b.Value) // C = A + B
	return c
}

func addBackward(c *Var) {
	axpy(1, c.Grad, c.a.Grad) // dA += dC
	axpy(1, c.Grad, c.b.Grad) // dB += dC
}

// Sub returns a - b (same shape).
func Sub(t *Tape, a, b *Var) *Var {
	sameShape("Sub", a, b)
	c := t.result("sub", a.Rows, a.Cols, false, subBackward, a, b)
	f32.Sub(c.Value, a.Value, b.Value) // C = A - B
	return c
}

func subBackward(c *Var) {
	axpy(1, c.Grad, c.a.Grad)  // dA += dC
	axpy(-1, c.Grad, c.b.Grad) // dB -= dC
}

// Mul returns the elementwise product a ⊙ b (same shape).
func Mul(t *Tape, a, b *Var) *Var {
	sameShape("Mul", a, b)
	c := t.result("mul", a.Rows, a.Cols, false, mulBackward, a, b)
	f32.Mul(c.Value, a.Value, b.Value) // C = A ⊙ B
	return c
}

func mulBackward(c *Var) {
	if c.a.needsGrad() {
		f32.MulAdd(c.a.Grad, c.Grad, c.b.Value) // dA += dC ⊙ B
	}
	if c.b.needsGrad() {
		f32.MulAdd(c.b.Grad, c.Grad, c.a.Value) // dB += dC ⊙ A
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
	for r := 0; r < a.Rows; r++ {
		f32.Add(c.Value[r*n:r*n+n], a.Value[r*n:r*n+n], bias.Value) // C[r,:] = A[r,:] + bias
	}
	return c
}

func addBiasBackward(c *Var) {
	axpy(1, c.Grad, c.a.Grad) // dA += dC
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
	f32.Scale(out.Value, c, a.Value) // C = c·A
	return out
}

func scaleBackward(out *Var) {
	f32.Axpy(out.scalar, out.Grad, out.a.Grad) // dA += c·dC
}

// AddConst returns a + c for a constant c with len(c) == len(a.Value); c is
// read once and not kept.
func AddConst(t *Tape, a *Var, c []float32) *Var {
	if len(c) != len(a.Value) {
		panic(fmt.Sprintf("autograd: AddConst: len(c) = %d for %v", len(c), a))
	}
	out := t.result("addconst", a.Rows, a.Cols, false, passBackward, a, nil)
	f32.Add(out.Value, a.Value, c) // C = A + c
	return out
}

// AddScalar returns a + c elementwise.
func AddScalar(t *Tape, a *Var, c float32) *Var {
	out := t.result("addscalar", a.Rows, a.Cols, false, passBackward, a, nil)
	for i, x := range a.Value {
		out.Value[i] = x + c // C = A + c
	}
	return out
}

func passBackward(out *Var) {
	f32.Axpy(1, out.Grad, out.a.Grad) // dA += dC
}

// ReLU returns max(a, 0) elementwise.
func ReLU(t *Tape, a *Var) *Var {
	out := t.result("relu", a.Rows, a.Cols, false, reluBackward, a, nil)
	for i, x := range a.Value {
		out.Value[i] = max(x, 0) // C = max(A, 0)
	}
	return out
}

func reluBackward(out *Var) {
	g := out.a.Grad[:len(out.Value)]
	for i, y := range out.Value {
		if y > 0 {
			g[i] += out.Grad[i] // dA += dC·[A > 0]
		}
	}
}

// Sigmoid returns σ(a) = 1/(1+e^{-a}) elementwise, computed without overflow.
func Sigmoid(t *Tape, a *Var) *Var {
	out := t.result("sigmoid", a.Rows, a.Cols, false, sigmoidBackward, a, nil)
	for i, x := range a.Value {
		out.Value[i] = sigmoid(x) // C = σ(A)
	}
	return out
}

func sigmoidBackward(out *Var) {
	g := out.a.Grad[:len(out.Value)]
	for i, s := range out.Value {
		g[i] += out.Grad[i] * s * (1 - s) // dA += dC·σ(A)(1-σ(A))
	}
}

// sigmoid returns 1/(1+e^{-x}), evaluating e^{-|x|} only, so it never
// overflows.
func sigmoid(x float32) float32 {
	e := math.Exp(-math.Abs(float64(x)))
	if x >= 0 {
		return float32(1 / (1 + e))
	}
	return float32(e / (1 + e))
}

// Square returns a² elementwise.
func Square(t *Tape, a *Var) *Var {
	out := t.result("square", a.Rows, a.Cols, false, squareBackward, a, nil)
	f32.Mul(out.Value, a.Value, a.Value) // C = A ⊙ A
	return out
}

func squareBackward(out *Var) {
	g := out.a.Grad[:len(out.Value)]
	for i, x := range out.a.Value {
		g[i] += 2 * x * out.Grad[i] // dA += 2A ⊙ dC
	}
}
