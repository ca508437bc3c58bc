package autograd

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"ilpgnn/core/f32"
)

// TestFusedMatchUnfused: each fused op equals the composition it replaces,
// in value and in gradient.
func TestFusedMatchUnfused(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	a, b := param(r, 6, 5, -1, 1), param(r, 4, 5, -1, 1)
	w := param(r, 8, 1, -1, 1)
	ia := []int32{0, 5, 5, 2, 1, 0, 3, 4}
	ib := []int32{3, 0, 1, 1, 2, 3, 0, 0}
	offs := []int32{0, 3, 3, 8}
	for n, tc := range []struct {
		fused, plain func(*Tape) *Var
	}{
		{func(t *Tape) *Var { return GatherDot(t, a, b, ia, ib) },
			func(t *Tape) *Var { return RowDot(t, GatherRows(t, a, ia), GatherRows(t, b, ib)) }},
		{func(t *Tape) *Var { return SegmentGatherSum(t, w, a, ia, offs) },
			func(t *Tape) *Var { return SegmentWeightedSum(t, w, GatherRows(t, a, ia), offs) }},
		{func(t *Tape) *Var { return GatherSegmentSum(t, a, ib[:3], w, ia, offs, 0.7) },
			func(t *Tape) *Var {
				return Add(t, GatherRows(t, a, ib[:3]), Scale(t, SegmentWeightedSum(t, w, GatherRows(t, a, ia), offs), 0.7))
			}},
	} {
		run := func(f func(*Tape) *Var) (val, ga, gb, gw []float32) {
			for _, p := range []*Var{a, b, w} {
				p.ZeroGrad()
			}
			tp := NewTape()
			out := f(tp)
			tp.Backward(Sum(tp, Square(tp, out)))
			return append([]float32(nil), out.Value...), append([]float32(nil), a.Grad...),
				append([]float32(nil), b.Grad...), append([]float32(nil), w.Grad...)
		}
		v1, a1, b1, w1 := run(tc.fused)
		v2, a2, b2, w2 := run(tc.plain)
		for k, pair := range [][2][]float32{{v1, v2}, {a1, a2}, {b1, b2}, {w1, w2}} {
			for i := range pair[0] {
				if d := pair[0][i] - pair[1][i]; d > 1e-5 || d < -1e-5 {
					t.Fatalf("case %d, quantity %d [%d]: fused %v, unfused %v", n, k, i, pair[0][i], pair[1][i])
				}
			}
		}
	}
}

// TestParallelScatterDeterministic: the fused ops and GatherRows give
// bit-identical values and gradients with 1 and 2 goroutines, on inputs
// large enough to be split.
func TestParallelScatterDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	const rows, d, n = 300, 64, 4000
	a := param(r, rows, d, -1, 1)
	w := param(r, n, 1, -1, 1)
	ia, ib := make([]int32, n), make([]int32, n)
	for k := range ia {
		ia[k], ib[k] = int32(r.IntN(rows)), int32(r.IntN(rows))
	}
	offs := []int32{0}
	for int(offs[len(offs)-1]) < n {
		offs = append(offs, min(int32(n), offs[len(offs)-1]+int32(r.IntN(7))))
	}
	run := func(procs int) (out, ga, gw []float32) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		a.ZeroGrad()
		w.ZeroGrad()
		tp := NewTape()
		x := Add(tp, SegmentGatherSum(tp, w, a, ia, offs), GatherRows(tp, a, ia[:len(offs)-1]))
		x = Add(tp, x, GatherSegmentSum(tp, a, ib[:len(offs)-1], w, ia, offs, 0.5))
		y := GatherDot(tp, x, a, ia[:len(offs)-1], ib[:len(offs)-1])
		tp.Backward(Sum(tp, Square(tp, y)))
		return append([]float32(nil), y.Value...), append([]float32(nil), a.Grad...), append([]float32(nil), w.Grad...)
	}
	o1, a1, w1 := run(1)
	o2, a2, w2 := run(2)
	for k, pair := range [][2][]float32{{o1, o2}, {a1, a2}, {w1, w2}} {
		for i := range pair[0] {
			if math.Float32bits(pair[0][i]) != math.Float32bits(pair[1][i]) {
				t.Fatalf("quantity %d [%d]: %v with 1 goroutine, %v with 2", k, i, pair[0][i], pair[1][i])
			}
		}
	}
}

// TestElementwiseSplitDeterministic: elementwise ops on matrices large
// enough to be split over goroutines give bit-identical values and
// gradients with 1 and 2 goroutines.
func TestElementwiseSplitDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	const rows, d = 1100, 128 // 140800 elements: split at 2 CPUs
	a, b := param(r, rows, d, -1, 1), param(r, rows, d, -1, 1)
	bias := param(r, 1, d, -1, 1)
	c := randConst(r, rows, d)
	run := func(procs int) [][]float32 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, p := range []*Var{a, b, bias} {
			p.ZeroGrad()
		}
		tp := NewTape()
		x := ReLU(tp, AddBias(tp, Mul(tp, a, b), bias))
		y := Sigmoid(tp, Sub(tp, Scale(tp, x, 1.5), AddConst(tp, b, c.Value)))
		z := Square(tp, AddScalar(tp, Add(tp, y, a), -0.25))
		tp.Backward(Sum(tp, z))
		return [][]float32{append([]float32(nil), z.Value...), append([]float32(nil), a.Grad...),
			append([]float32(nil), b.Grad...), append([]float32(nil), bias.Grad...)}
	}
	one, two := run(1), run(2)
	for k := range one {
		for i := range one[k] {
			if math.Float32bits(one[k][i]) != math.Float32bits(two[k][i]) {
				t.Fatalf("quantity %d [%d]: %v with 1 goroutine, %v with 2", k, i, one[k][i], two[k][i])
			}
		}
	}
}

// TestSpMMBackwardTallFeatures: with a tall feature matrix, whose gradient
// dC outgrows the caches while Aᵀ·dC stays small, SpMM's backward walks A
// by rows; its gradient is still Aᵀ·dC over the transposed matrix, bit for
// bit.
func TestSpMMBackwardTallFeatures(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 3))
	const rows, cols, n = 20000, 64, 128 // dC 2.56M floats, Aᵀ·dC 8,192
	a := &f32.CSR{Rows: rows, Cols: cols, Indptr: make([]int32, rows+1)}
	for i := range rows {
		for c := range cols {
			if r.IntN(8) == 0 {
				a.Indices = append(a.Indices, int32(c))
				a.Values = append(a.Values, r.Float32()*2-1)
			}
		}
		a.Indptr[i+1] = int32(len(a.Indices))
	}
	sp := NewSparse(a)
	b := param(r, cols, n, -1, 1)
	tp := NewTape()
	out := SpMM(tp, sp, b)
	if !(len(out.Value) > rowWalkLeast && cols*n <= rowWalkMost) {
		t.Fatal("the shapes no longer take the walk by rows; resize the test")
	}
	tp.Backward(Sum(tp, Square(tp, out)))
	want := make([]float32, cols*n)
	f32.SpMMAdd(want, sp.A.Transpose(), out.Grad, n)
	for i := range want {
		if math.Float32bits(b.Grad[i]) != math.Float32bits(want[i]) {
			t.Fatalf("dB[%d] = %v, Aᵀ·dC gives %v", i, b.Grad[i], want[i])
		}
	}
}
