package autograd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSoftplus: values against float64 log1p(exp), no overflow at ±1e4,
// and the gradient against finite differences.
func TestSoftplus(t *testing.T) {
	x := Const(1, 6, []float32{-1e4, -20, -0.5, 0, 3, 1e4})
	got := Softplus(nil, x).Value
	for k, v := range x.Value {
		f := float64(v)
		want := math.Max(f, 0) + math.Log1p(math.Exp(-math.Abs(f)))
		if math.Abs(float64(got[k])-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("softplus(%v) = %v, want %v", v, got[k], want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	a := param(r, 3, 4, 0.1, 3)
	if _, err := gradCheck(func(tp *Tape) *Var { return Softplus(tp, a) }, []*Var{a}); err != nil {
		t.Fatal(err)
	}
}
