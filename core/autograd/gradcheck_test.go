package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"ilpgnn/core/f32"
)

// Finite-difference gradient checks, one coordinate at a time (as gonum's
// diff/fd.Gradient does), for every op and for a whole model.
//
// The forward runs in float32, so the central difference uses a large step
// h = 1e-2 and compares in float64:
//
//	|g - fd| <= atol + rtol·max(|g|, |fd|),  atol = 2e-4, rtol = 2e-3.
//
// Why this is tight enough and not too tight: with inputs and weights of
// size ~1, float32 rounding of the forward moves the loss by ~1e-7·|terms|,
// i.e. ~1e-5 in fd for terms of size ~10; the truncation error h²/6·f'''
// is ~2e-5 for these smooth ops (0 for linear and quadratic ones). The
// logged worst error is 2.2e-5 (AddConst, whose constants reach 12) and
// ~1e-5 or less for the others. A wrong sign (error 2|g|), a missing factor
// of 2 (error |g|) or a transposed operand is caught on every coordinate
// with |g| > ~2e-4, and each check also fails if an input's gradient is all
// but zero, so it cannot pass vacuously. TestGradCheckCatchesBugs runs the
// checker on deliberately broken ops.

const (
	fdStep = 1e-2
	fdAtol = 2e-4
	fdRtol = 2e-3
)

// weighted records loss = Σ_i w[i]·out[i] (a test-only op, so that a check's
// reduction does not rely on the ops under test); dout += dloss·w.
func weighted(t *Tape, out *Var, w []float32) *Var {
	l := t.result("weighted", 1, 1, false, func(l *Var) {
		f32.Axpy(l.Grad[0], l.floats, l.a.Grad) // dout += dL·w
	}, out, nil)
	l.floats = w
	l.Value[0] = float32(dot64(w, out.Value))
	return l
}

func dot64(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// gradCheck compares the gradients Backward gives for inputs against central
// finite differences of loss = Σ w·f(inputs), w a fixed random weighting. It
// returns the first mismatch (or vacuous input) as an error and the largest
// |g - fd| seen. f must be deterministic (reseed any rng inside f).
func gradCheck(f func(t *Tape) *Var, inputs []*Var) (maxErr float64, err error) {
	tp := NewTape()
	out := f(tp)
	r := rand.New(rand.NewPCG(42, uint64(len(out.Value))))
	w := make([]float32, len(out.Value))
	for i := range w {
		w[i] = r.Float32()*2 - 1
	}
	loss := weighted(tp, out, w)
	for _, in := range inputs {
		in.ZeroGrad()
	}
	tp.Backward(loss)
	grads := make([][]float32, len(inputs))
	for j, in := range inputs {
		grads[j] = append([]float32(nil), in.Grad...)
	}
	tp.Reset()
	eval := func() float64 {
		s := dot64(w, f(tp).Value)
		tp.Reset()
		return s
	}
	for j, in := range inputs {
		var gmax float64
		for i, v := range in.Value {
			in.Value[i] = v + fdStep
			lp := eval()
			in.Value[i] = v - fdStep
			lm := eval()
			in.Value[i] = v
			fd := (lp - lm) / (float64(v+fdStep) - float64(v-fdStep))
			g := float64(grads[j][i])
			e := math.Abs(g - fd)
			maxErr = max(maxErr, e)
			gmax = max(gmax, math.Abs(g))
			if e > fdAtol+fdRtol*max(math.Abs(g), math.Abs(fd)) || math.IsNaN(g) {
				return maxErr, fmt.Errorf("input %d (%v) coordinate %d: analytic %.6g, finite difference %.6g", j, in, i, g, fd)
			}
		}
		if len(in.Value) > 0 && gmax < 1e-2 {
			return maxErr, fmt.Errorf("input %d (%v): gradient all but zero (max %.3g); the check is vacuous", j, in, gmax)
		}
	}
	return maxErr, nil
}

// param returns a rows×cols parameter with entries uniform in ±[lo, hi].
func param(r *rand.Rand, rows, cols int, lo, hi float32) *Var {
	p := NewParam(rows, cols)
	for i := range p.Value {
		v := lo + (hi-lo)*r.Float32()
		if r.IntN(2) == 0 {
			v = -v
		}
		p.Value[i] = v
	}
	return p
}

func randConst(r *rand.Rand, rows, cols int) *Var {
	v := make([]float32, rows*cols)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return Const(rows, cols, v)
}

// testSparse is a 4×3 sparse matrix with an empty row and an empty column
// pattern that makes a transposition visible.
func testSparse() *Sparse {
	return NewSparse(&f32.CSR{Rows: 4, Cols: 3,
		Indptr:  []int32{0, 2, 2, 3, 6},
		Indices: []int32{0, 2, 1, 0, 1, 2},
		Values:  []float32{0.5, -1.25, 2, 0.75, -0.5, 1.5},
	})
}

type gradCase struct {
	name   string
	inputs []*Var
	f      func(t *Tape) *Var
}

func gradCases() []gradCase {
	r := rand.New(rand.NewPCG(7, 7))
	a34, b45 := param(r, 3, 4, 0.1, 1), param(r, 4, 5, 0.1, 1)
	cb45 := randConst(r, 4, 5)
	x, y := param(r, 3, 4, 0.1, 1), param(r, 3, 4, 0.1, 1)
	sq := param(r, 3, 2, 0.1, 1)
	bias := param(r, 1, 4, 0.1, 1)
	sp, b35 := testSparse(), param(r, 3, 5, 0.1, 1)
	c12 := []float32{1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12}
	relu := param(r, 4, 3, 0.1, 1) // |x| >= 0.1 ≫ h: no kink inside the step
	sig := param(r, 2, 5, 0, 3)
	drop := param(r, 5, 4, 0.1, 1)
	g := param(r, 4, 3, 0.1, 1)
	idx := []int32{2, 0, 2, 3, 2}
	soft := param(r, 7, 1, 0, 2)
	offs := []int32{0, 3, 3, 4, 7}
	ww, rows := param(r, 7, 1, 0.1, 1), param(r, 7, 3, 0.1, 1)
	woffs := []int32{0, 2, 2, 5, 7}
	s := param(r, 3, 3, 0.1, 1)
	z := param(r, 2, 4, 0, 3)
	labels := []float32{1, 0, 0, 1, 1, 0, 0.3, 1}
	cc1, cc2 := param(r, 3, 2, 0.1, 1), param(r, 3, 3, 0.1, 1)
	cr1, cr2 := param(r, 2, 3, 0.1, 1), param(r, 4, 3, 0.1, 1)
	return []gradCase{
		{"MatMul", []*Var{a34, b45}, func(t *Tape) *Var { return MatMul(t, a34, b45) }},
		{"MatMul/const b", []*Var{a34}, func(t *Tape) *Var { return MatMul(t, a34, cb45) }},
		{"SpMM", []*Var{b35}, func(t *Tape) *Var { return SpMM(t, sp, b35) }},
		{"Add", []*Var{x, y}, func(t *Tape) *Var { return Add(t, x, y) }},
		{"Sub", []*Var{x, y}, func(t *Tape) *Var { return Sub(t, x, y) }},
		{"Mul", []*Var{x, y}, func(t *Tape) *Var { return Mul(t, x, y) }},
		{"Mul/same input", []*Var{sq}, func(t *Tape) *Var { return Mul(t, sq, sq) }},
		{"AddBias", []*Var{x, bias}, func(t *Tape) *Var { return AddBias(t, x, bias) }},
		{"Scale", []*Var{x}, func(t *Tape) *Var { return Scale(t, x, -1.75) }},
		{"AddConst", []*Var{x}, func(t *Tape) *Var { return AddConst(t, x, c12) }},
		{"AddScalar", []*Var{x}, func(t *Tape) *Var { return AddScalar(t, x, 0.5) }},
		{"ReLU", []*Var{relu}, func(t *Tape) *Var { return ReLU(t, relu) }},
		{"Sigmoid", []*Var{sig}, func(t *Tape) *Var { return Sigmoid(t, sig) }},
		{"Square", []*Var{x}, func(t *Tape) *Var { return Square(t, x) }},
		{"Dropout", []*Var{drop}, func(t *Tape) *Var {
			return Dropout(t, drop, 0.4, rand.New(rand.NewPCG(3, 4)))
		}},
		{"GatherRows", []*Var{g}, func(t *Tape) *Var { return GatherRows(t, g, idx) }},
		{"RowDot", []*Var{x, y}, func(t *Tape) *Var { return RowDot(t, x, y) }},
		{"SegmentSoftmax", []*Var{soft}, func(t *Tape) *Var { return SegmentSoftmax(t, soft, offs) }},
		{"SegmentWeightedSum", []*Var{ww, rows}, func(t *Tape) *Var {
			return SegmentWeightedSum(t, ww, rows, woffs)
		}},
		{"Sum", []*Var{s}, func(t *Tape) *Var { return Sum(t, s) }},
		{"Mean", []*Var{s}, func(t *Tape) *Var { return Mean(t, s) }},
		{"BCEWithLogits", []*Var{z}, func(t *Tape) *Var { return BCEWithLogits(t, z, labels) }},
		{"ConcatCols", []*Var{cc1, cc2}, func(t *Tape) *Var { return ConcatCols(t, cc1, cc2) }},
		{"ConcatRows", []*Var{cr1, cr2}, func(t *Tape) *Var { return ConcatRows(t, cr1, cr2) }},
		{"GatherDot", []*Var{g, rows}, func(t *Tape) *Var {
			return GatherDot(t, g, rows, idx, []int32{6, 0, 0, 3, 5})
		}},
		{"GatherDot/same input", []*Var{g}, func(t *Tape) *Var {
			return GatherDot(t, g, g, idx, []int32{1, 0, 2, 3, 0})
		}},
		{"SegmentGatherSum", []*Var{ww, g}, func(t *Tape) *Var {
			return SegmentGatherSum(t, ww, g, []int32{0, 3, 1, 1, 2, 0, 3}, woffs)
		}},
		{"GatherSegmentSum", []*Var{ww, g}, func(t *Tape) *Var {
			return GatherSegmentSum(t, g, []int32{2, 2, 0, 1}, ww, []int32{0, 3, 1, 1, 2, 0, 3}, woffs, 0.6)
		}},
		{"GatherSegmentDot", []*Var{ww, g}, func(t *Tape) *Var {
			return GatherSegmentDot(t, g, []int32{2, 2, 0, 1}, ww, []int32{0, 3, 1, 1, 2, 0, 3}, woffs, 0.6)
		}},
		{"Chain", []*Var{soft, rows}, func(t *Tape) *Var {
			// Attention-style: softmax weights over a segment, then pooled rows.
			return SegmentWeightedSum(t, SegmentSoftmax(t, soft, woffs), rows, woffs)
		}},
	}
}

func TestGradCheck(t *testing.T) {
	for i, c := range gradCases() {
		maxErr, err := gradCheck(c.f, c.inputs)
		if err != nil {
			t.Errorf("case %d %s: %v", i, c.name, err)
			continue
		}
		t.Logf("case %d %s: max |g - fd| = %.2g", i, c.name, maxErr)
	}
}

// TestGradCheckCatchesBugs runs gradCheck on ops with a deliberately broken
// backward step; each must be reported.
func TestGradCheckCatchesBugs(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	x := param(r, 3, 4, 0.1, 1)
	a, b := param(r, 3, 3, 0.1, 1), param(r, 3, 3, 0.1, 1)
	broken := func(name string, back func(*Var)) func(t *Tape) *Var {
		return func(t *Tape) *Var {
			out := t.result(name, x.Rows, x.Cols, false, back, x, nil)
			f32.Mul(out.Value, x.Value, x.Value) // out = x²
			return out
		}
	}
	for i, c := range []struct {
		name   string
		inputs []*Var
		f      func(t *Tape) *Var
	}{
		{"square/wrong sign", []*Var{x}, broken("neg", func(o *Var) {
			for i, v := range o.a.Value {
				o.a.Grad[i] -= 2 * v * o.Grad[i]
			}
		})},
		{"square/missing factor 2", []*Var{x}, broken("half", func(o *Var) { f32.MulAdd(o.a.Grad, o.a.Value, o.Grad) })},
		{"square/no gradient", []*Var{x}, broken("none", func(*Var) {})},
		{"matmul/transposed", []*Var{a, b}, func(t *Tape) *Var {
			out := t.result("mmT", 3, 3, false, func(c *Var) {
				f32.MatMulAddTN(c.a.Grad, c.Grad, c.b.Value, 3, 3, 3) // wrong: dCᵀ·B
				f32.MatMulAddTN(c.b.Grad, c.a.Value, c.Grad, 3, 3, 3)
			}, a, b)
			f32.MatMul(out.Value, a.Value, b.Value, 3, 3, 3)
			return out
		}},
	} {
		if _, err := gradCheck(c.f, c.inputs); err == nil {
			t.Errorf("case %d %s: gradCheck passed a broken backward", i, c.name)
		} else {
			t.Logf("case %d %s: caught: %v", i, c.name, err)
		}
	}
}

// TestCompositeGradCheck checks end to end a GCN-style link predictor: two
// layers (SpMM, MatMul, AddBias, ReLU, Dropout), GatherRows of the pair
// endpoints, RowDot scores and BCEWithLogits, for every parameter.
func TestCompositeGradCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	const n, f, h, d = 6, 5, 4, 3
	adj := NewSparse(&f32.CSR{Rows: n, Cols: n,
		Indptr:  []int32{0, 2, 4, 6, 8, 10, 13},
		Indices: []int32{0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 0, 4, 5},
		Values:  []float32{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.3, 0.3, 0.4},
	})
	x := randConst(r, n, f)
	w1, b1 := param(r, f, h, 0.1, 1), param(r, 1, h, 0.1, 0.5)
	w2, b2 := param(r, h, d, 0.1, 1), param(r, 1, d, 0.1, 0.5)
	src := []int32{0, 1, 2, 3, 5, 4, 0}
	dst := []int32{1, 2, 3, 4, 0, 4, 5}
	labels := []float32{1, 1, 0, 1, 0, 0, 1}
	preact := func(t *Tape) *Var { return AddBias(t, SpMM(t, adj, MatMul(t, x, w1)), b1) }
	model := func(t *Tape) *Var {
		h1 := Dropout(t, ReLU(t, preact(t)), 0.25, rand.New(rand.NewPCG(5, 6)))
		h2 := AddBias(t, SpMM(t, adj, MatMul(t, h1, w2)), b2)
		return BCEWithLogits(t, RowDot(t, GatherRows(t, h2, src), GatherRows(t, h2, dst)), labels)
	}

	// A step of fdStep in one coordinate of w1 or b1 moves each
	// pre-activation by at most fdStep·max(1, |A·X|); no pre-activation may
	// be that close to the ReLU kink.
	ax := SpMM(nil, adj, x)
	bound := 1.0
	for _, v := range ax.Value {
		bound = max(bound, math.Abs(float64(v)))
	}
	bound *= fdStep
	for i, v := range preact(nil).Value {
		if math.Abs(float64(v)) <= bound {
			t.Fatalf("pre-activation %d = %v within %v of the ReLU kink; pick another seed", i, v, bound)
		}
	}

	maxErr, err := gradCheck(model, []*Var{w1, b1, w2, b2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("max |g - fd| = %.2g", maxErr)
}
