package autograd

import (
	"math/rand/v2"
	"testing"
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
