package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"ilpgnn/core/f32"
)

// The reference implementations below are the backward passes as they were
// before they were made faster. The current ones must match them bit for
// bit: the recorded checkpoints (core/models/testdata) depend on every
// rounding.

func gatherSegmentSumBackwardRef(out *Var) {
	w, a, d, beta := out.a, out.b, out.Cols, out.scalar
	offsets, idx, centre := out.ints, out.ints2, out.ints3
	if w.Grad != nil {
		dagg := make([]float32, d)
		for s := range centre {
			f32.Scale(dagg, beta, out.Grad[s*d:s*d+d])
			for k := offsets[s]; k < offsets[s+1]; k++ {
				r := int(idx[k]) * d
				w.Grad[k] += f32.Dot(dagg, a.Value[r:r+d])
			}
		}
	}
	if a.Grad == nil {
		return
	}
	dagg := make([]float32, d)
	for s, c := range centre {
		g := out.Grad[s*d : s*d+d]
		f32.Axpy(1, g, a.Grad[int(c)*d:int(c)*d+d])
		f32.Scale(dagg, beta, g)
		for k := offsets[s]; k < offsets[s+1]; k++ {
			r := int(idx[k])
			f32.Axpy(w.Value[k], dagg, a.Grad[r*d:r*d+d])
		}
	}
}

// refCase is a pair-specific aggregation of random inputs shaped like
// ILP-GNN's (aggregate in core/ilpgnn): scores of (node, target) entries,
// a softmax per segment, the weighted sum of each segment's rows plus its
// centre's, and a dot product of two halves.
type refCase struct {
	a                          *Var // N x d, the embeddings
	node, target, centre, offs []int32
	wrt                        bool // whether the softmax weights need a gradient
	fused                      bool // GatherSegmentDot instead of GatherSegmentSum and GatherDot
}

func newRefCase(r *rand.Rand, rows, d, segs int, wrt bool) *refCase {
	c := &refCase{a: param(r, rows, d, -1, 1), wrt: wrt}
	c.offs = []int32{0}
	for range segs {
		n := r.IntN(6) // empty segments too
		for range n {
			c.node = append(c.node, int32(r.IntN(rows)))
			c.target = append(c.target, int32(r.IntN(rows)))
		}
		c.offs = append(c.offs, int32(len(c.node)))
		c.centre = append(c.centre, int32(r.IntN(rows)))
	}
	return c
}

// run records the case on a tape (lean or not), with ref the reference
// backward steps swapped in, and returns the output and the gradient of a.
func (c *refCase) run(procs int, lean, ref bool) (out, grad []float32) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	c.a.ZeroGrad()
	tp := NewTape()
	tp.SetLean(lean)
	var w *Var
	if c.wrt {
		s := Sigmoid(tp, GatherDot(tp, c.a, c.a, c.node, c.target))
		w = SegmentSoftmax(tp, Scale(tp, s, 2), c.offs)
	} else {
		w = Const(len(c.node), 1, make([]float32, len(c.node)))
		for k := range w.Value {
			w.Value[k] = float32(k%7) / 7
		}
	}
	var y *Var
	if c.fused && !ref {
		y = GatherSegmentDot(tp, c.a, c.centre, w, c.node, c.offs, 0.75)
	} else {
		h := GatherSegmentSum(tp, c.a, c.centre, w, c.node, c.offs, 0.75)
		if ref {
			h.backward = gatherSegmentSumBackwardRef
		}
		half := len(c.centre) / 2
		i0, i1 := make([]int32, half), make([]int32, half)
		for k := range half {
			i0[k], i1[k] = int32(k), int32(half+k)
		}
		y = GatherDot(tp, h, h, i0, i1)
	}
	out = append([]float32(nil), y.Value...)
	tp.Backward(Sum(tp, Square(tp, y)))
	return out, append([]float32(nil), c.a.Grad...)
}

// TestFastMatchesReference: the aggregation's values and gradients with
// the current backward steps, and with GatherSegmentDot in place of
// GatherSegmentSum and GatherDot, equal those of the reference ones bit
// for bit, with 1 and 2 goroutines, on a lean and a full tape, for rows
// with and without a tail beyond the kernels' blocks of eight, and for
// more segments than GatherSegmentDot's backward takes at a time.
func TestFastMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	for _, d := range []int{128, 37} {
		for _, wrt := range []bool{true, false} {
			c := newRefCase(r, 300, d, segDotChunk+1200, wrt)
			wantOut, wantGrad := c.run(1, false, true)
			for _, procs := range []int{1, 2} {
				for _, lean := range []bool{false, true} {
					for _, fused := range []bool{false, true} {
						c.fused = fused
						out, grad := c.run(procs, lean, false)
						name := fmt.Sprintf("d=%d wrt=%v procs=%d lean=%v fused=%v", d, wrt, procs, lean, fused)
						sameBitsT(t, name+" output", out, wantOut)
						sameBitsT(t, name+" gradient", grad, wantGrad)
					}
				}
			}
		}
	}
}

func sameBitsT(t *testing.T, name string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s [%d]: %v, reference %v", name, i, got[i], want[i])
		}
	}
}

// BenchmarkPairLogits times the forward and backward passes of the pair
// logits over random entries shaped like an Amazon Photo epoch's (7,650
// rows of 128, three neighbours per side, 2·10^5 pairs): unfused, GatherSegmentSum then GatherDot, each with its current
// backward, against GatherSegmentDot. Natively and under WebAssembly:
//
//	go test -run='^$' -bench=PairLogits ./core/autograd
//	GOOS=js GOARCH=wasm go test -run='^$' -bench=PairLogits -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/autograd
func BenchmarkPairLogits(b *testing.B) {
	r := rand.New(rand.NewPCG(16, 3))
	const rows, d, pairs, k = 7650, 128, 200000, 3
	a := param(r, rows, d, -1, 1)
	var node []int32
	offs, centre := []int32{0}, make([]int32, 2*pairs)
	for s := range centre {
		for range k {
			node = append(node, int32(r.IntN(rows)))
		}
		offs = append(offs, int32(len(node)))
		centre[s] = int32(r.IntN(rows))
	}
	w := param(r, len(node), 1, 0, 1)
	i0, i1 := make([]int32, pairs), make([]int32, pairs)
	for q := range pairs {
		i0[q], i1[q] = int32(q), int32(pairs+q)
	}
	tp := NewTape()
	tp.SetLean(true)
	for _, fused := range []bool{false, true} {
		b.Run(fmt.Sprintf("fused=%v", fused), func(b *testing.B) {
			for b.Loop() {
				tp.Reset()
				var y *Var
				if fused {
					y = GatherSegmentDot(tp, a, centre, w, node, offs, 0.75)
				} else {
					h := GatherSegmentSum(tp, a, centre, w, node, offs, 0.75)
					y = GatherDot(tp, h, h, i0, i1)
				}
				tp.Backward(Sum(tp, y))
			}
		})
	}
}
