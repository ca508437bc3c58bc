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

// leanStep records g's training step on tp and runs Backward, returning
// the loss read before Backward (a lean tape releases it).
func leanStep(g *epochGraph, tp *Tape) float32 {
	for _, p := range []*Var{g.w1, g.b1, g.w2, g.b2} {
		p.ZeroGrad()
	}
	h1 := Dropout(tp, ReLU(tp, AddBias(tp, SpMM(tp, g.adj, MatMul(tp, g.x, g.w1)), g.b1)), 0.5, g.rng)
	h2 := AddBias(tp, SpMM(tp, g.adj, MatMul(tp, h1, g.w2)), g.b2)
	logits := RowDot(tp, GatherRows(tp, h2, g.src), GatherRows(tp, h2, g.dst))
	loss := BCEWithLogits(tp, logits, g.labels)
	v := loss.Value[0]
	tp.Backward(loss)
	return v
}

// pooled is the number of floats a tape holds after Reset: everything it
// ever allocated, since it allocates only when its pool has nothing to hand
// out.
func pooled(tp *Tape) int {
	tp.Reset()
	n := 0
	for _, l := range tp.free {
		for _, b := range l {
			n += cap(b)
		}
	}
	return n
}

// TestLeanTapeSameGradients: a lean tape gives bit-identical losses and
// weight gradients to an ordinary one, step after step (its released
// buffers are handed out again), while allocating less in all.
func TestLeanTapeSameGradients(t *testing.T) {
	a, b := newEpochGraph(300, 16, 32, 16, 200), newEpochGraph(300, 16, 32, 16, 200)
	plain, lean := NewTape(), NewTape()
	lean.SetLean(true)
	for step := range 3 {
		plain.Reset()
		lean.Reset()
		la, lb := leanStep(a, plain), leanStep(b, lean)
		if la != lb {
			t.Fatalf("step %d: loss %v on a lean tape, %v on an ordinary one", step, lb, la)
		}
		pa, pb := []*Var{a.w1, a.b1, a.w2, a.b2}, []*Var{b.w1, b.b1, b.w2, b.b2}
		for k := range pa {
			for i := range pa[k].Grad {
				if pa[k].Grad[i] != pb[k].Grad[i] {
					t.Fatalf("step %d: weight %d gradient %d is %v on a lean tape, %v on an ordinary one", step, k, i, pb[k].Grad[i], pa[k].Grad[i])
				}
			}
		}
	}
	np, nl := pooled(plain), pooled(lean)
	t.Logf("floats allocated: ordinary tape %d, lean %d", np, nl)
	if nl >= np {
		t.Errorf("a lean tape allocated %d floats, an ordinary one %d", nl, np)
	}
}
