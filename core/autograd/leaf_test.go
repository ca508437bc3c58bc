package autograd

import (
	"math/rand/v2"
	"testing"
)

// TestLeafSplitsBackward records a loss in two pieces on two tapes over a
// leaf of the first tape's result h = X W, runs their backward steps into
// h.Grad, then the first tape's BackwardFrom(h): W.Grad must equal the
// gradient of the whole loss worked out by hand in float64,
// dL/dW = Xᵀ dL/dh with dL/dh[r] = 2·h[r]·(times r is gathered).
func TestLeafSplitsBackward(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	x := randConst(r, 5, 4)
	w := param(r, 4, 3, -1, 1)
	pieces := [][]int32{{0, 2, 2, 4}, {1, 2, 4}}

	enc := NewTape()
	h := MatMul(enc, x, w)
	var total float64
	for _, idx := range pieces {
		bt := NewTape()
		loss := Sum(bt, Square(bt, GatherRows(bt, h.Leaf(), idx)))
		total += float64(loss.Value[0])
		bt.Backward(loss)
	}
	enc.BackwardFrom(h)

	times := make([]float64, h.Rows)
	for _, idx := range pieces {
		for _, i := range idx {
			times[i]++
		}
	}
	var wantLoss float64
	dh := make([]float64, len(h.Value))
	for i := range h.Rows {
		for c := range h.Cols {
			v := float64(h.Value[i*h.Cols+c])
			wantLoss += times[i] * v * v
			dh[i*h.Cols+c] = 2 * v * times[i]
		}
	}
	want := make([]float64, len(w.Value))
	for k := range x.Cols {
		for c := range w.Cols {
			for i := range x.Rows {
				want[k*w.Cols+c] += float64(x.Value[i*x.Cols+k]) * dh[i*h.Cols+c]
			}
		}
	}
	closeTo(t, "loss", []float32{float32(total)}, []float64{wantLoss})
	closeTo(t, "dW", w.Grad, want)
}

// TestBackwardFromForeignVarPanics: BackwardFrom needs a result of its own
// tape; a leaf or another tape's result is a caller's mistake.
func TestBackwardFromForeignVarPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	w := param(r, 2, 2, -1, 1)
	a, b := NewTape(), NewTape()
	h := MatMul(a, w, w)
	for _, v := range []*Var{h.Leaf(), MatMul(b, w, w)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("BackwardFrom(%v) on another tape did not panic", v)
				}
			}()
			a.BackwardFrom(v)
		}()
	}
}
