package autograd

import (
	"fmt"

	"ilpgnn/core/f32"
)

// The fused ops below read rows of their inputs by index instead of taking
// gathered copies. The pair-specific part of ILP-GNN touches ~10^5
// (neighbour, target) rows per epoch on Cora; gathering them first moves
// tens of megabytes per op, while the indexed inputs (N x d) stay in cache.

// GatherDot returns the n×1 column out[k] = a[ia[k],:]·b[ib[k],:], for a and
// b with the same number of columns and len(ia) == len(ib) == n. It equals
// RowDot(GatherRows(a, ia), GatherRows(b, ib)) without the copies. a and b
// may be the same Var. ia and ib are kept, not copied, until Backward.
func GatherDot(t *Tape, a, b *Var, ia, ib []int32) *Var {
	if a.Cols != b.Cols || len(ia) != len(ib) {
		panic(fmt.Sprintf("autograd: GatherDot: %v and %v with %d and %d indices", a, b, len(ia), len(ib)))
	}
	checkIndex("GatherDot", a, ia)
	checkIndex("GatherDot", b, ib)
	d := a.Cols
	out := t.result("gatherdot", len(ia), 1, false, gatherDotBackward, a, b)
	out.ints, out.ints2 = ia, ib
	parallelFor(len(ia), d, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			out.Value[k] = f32.Dot(a.Value[int(ia[k])*d:int(ia[k])*d+d], b.Value[int(ib[k])*d:int(ib[k])*d+d]) // C[k] = A[ia[k]]·B[ib[k]]
		}
	})
	return out
}

func gatherDotBackward(out *Var) {
	a, b, d, ia, ib := out.a, out.b, out.a.Cols, out.ints, out.ints2
	// a and b may be the same Var: updates to one gradient interleave in k
	// order, as in the serial loop, whichever goroutine owns the row.
	rows := max(a.Rows, b.Rows)
	scatterOwners(rows, 2*len(ia), d, func(lo, hi int) {
		for k, g := range out.Grad {
			if r := int(ia[k]); r >= lo && r < hi {
				axpy(g, b.Value[int(ib[k])*d:int(ib[k])*d+d], rowOf(a.Grad, r, d)) // dA[ia[k]] += dC[k]·B[ib[k]]
			}
			if r := int(ib[k]); r >= lo && r < hi {
				axpy(g, a.Value[int(ia[k])*d:int(ia[k])*d+d], rowOf(b.Grad, r, d)) // dB[ib[k]] += dC[k]·A[ia[k]]
			}
		}
	})
}

// SegmentGatherSum returns, for w n×1, a N×d and idx of length n, the
// (len(offsets)-1)×d matrix out[s,:] = Σ_{k∈[offsets[s], offsets[s+1])}
// w[k]·a[idx[k],:]. It equals SegmentWeightedSum(w, GatherRows(a, idx),
// offsets) without the copy. idx and offsets are kept until Backward.
func SegmentGatherSum(t *Tape, w, a *Var, idx, offsets []int32) *Var {
	if w.Cols != 1 || w.Rows != len(idx) {
		panic(fmt.Sprintf("autograd: SegmentGatherSum: weights %v for %d indices", w, len(idx)))
	}
	checkIndex("SegmentGatherSum", a, idx)
	checkOffsets("SegmentGatherSum", offsets, len(idx))
	d := a.Cols
	out := t.result("seggathersum", len(offsets)-1, d, true, segmentGatherSumBackward, w, a)
	out.ints, out.ints2 = offsets, idx
	parallelFor(len(offsets)-1, d*max(1, len(idx)/max(1, len(offsets)-1)), func(lo, hi int) {
		for s := lo; s < hi; s++ {
			o := out.Value[s*d : s*d+d]
			for k := offsets[s]; k < offsets[s+1]; k++ {
				r := int(idx[k]) * d
				f32.Axpy(w.Value[k], a.Value[r:r+d], o) // out[s] += w[k]·A[idx[k]]
			}
		}
	})
	return out
}

func segmentGatherSumBackward(out *Var) {
	w, a, d, offsets, idx := out.a, out.b, out.Cols, out.ints, out.ints2
	if w.Grad != nil {
		parallelFor(len(offsets)-1, d*max(1, len(idx)/max(1, len(offsets)-1)), func(lo, hi int) {
			for s := lo; s < hi; s++ {
				g := out.Grad[s*d : s*d+d]
				for k := offsets[s]; k < offsets[s+1]; k++ {
					r := int(idx[k]) * d
					w.Grad[k] += f32.Dot(g, a.Value[r:r+d]) // dw[k] += dout[s]·A[idx[k]]
				}
			}
		})
	}
	if a.Grad == nil {
		return
	}
	scatterOwners(a.Rows, len(idx), d, func(lo, hi int) {
		for s := 0; s+1 < len(offsets); s++ {
			g := out.Grad[s*d : s*d+d]
			for k := offsets[s]; k < offsets[s+1]; k++ {
				if r := int(idx[k]); r >= lo && r < hi {
					f32.Axpy(w.Value[k], g, a.Grad[r*d:r*d+d]) // dA[idx[k]] += w[k]·dout[s]
				}
			}
		}
	})
}

func checkIndex(op string, a *Var, idx []int32) {
	for _, r := range idx {
		if r < 0 || int(r) >= a.Rows {
			panic(fmt.Sprintf("autograd: %s: index %d out of range for %v", op, r, a))
		}
	}
}

// GatherSegmentSum returns the len(centre)×d matrix
//
//	out[s,:] = a[centre[s],:] + beta · Σ_{k∈[offsets[s], offsets[s+1])} w[k]·a[idx[k],:]
//
// for w n×1, a N×d and idx of length n: a node's own row plus a weighted sum
// of other rows, as in ILP-GNN's pair-specific aggregation (eq 7). It equals
// Add(GatherRows(a, centre), Scale(SegmentGatherSum(w, a, idx, offsets),
// beta)) in value, without the three intermediate len(centre)×d matrices
// and their gradients. centre, idx and offsets are kept until Backward.
func GatherSegmentSum(t *Tape, a *Var, centre []int32, w *Var, idx, offsets []int32, beta float32) *Var {
	if w.Cols != 1 || w.Rows != len(idx) || len(offsets) != len(centre)+1 {
		panic(fmt.Sprintf("autograd: GatherSegmentSum: weights %v for %d indices, %d offsets for %d centres",
			w, len(idx), len(offsets), len(centre)))
	}
	checkIndex("GatherSegmentSum", a, centre)
	checkIndex("GatherSegmentSum", a, idx)
	checkOffsets("GatherSegmentSum", offsets, len(idx))
	d := a.Cols
	out := t.result("gathersegsum", len(centre), d, false, gatherSegmentSumBackward, w, a)
	out.ints, out.ints2, out.ints3, out.scalar = offsets, idx, centre, beta
	parallelFor(len(centre), d*(1+len(idx)/max(1, len(centre))), func(lo, hi int) {
		for s := lo; s < hi; s++ {
			segmentRow(out.Value[s*d:s*d+d], a.Value, centre, w.Value, idx, offsets, beta, s)
		}
	})
	return out
}

// segmentRow sets o to row s of GatherSegmentSum's result:
// A[centre[s]] + β·Σ_k w[k]·A[idx[k]].
func segmentRow(o, a []float32, centre []int32, w []float32, idx, offsets []int32, beta float32, s int) {
	d := len(o)
	clear(o)
	for k := offsets[s]; k < offsets[s+1]; k++ {
		r := int(idx[k]) * d
		f32.Axpy(w[k], a[r:r+d], o) // agg = Σ w[k]·A[idx[k]]
	}
	addScaled(o, a[int(centre[s])*d:int(centre[s])*d+d], beta) // C[s] = A[centre[s]] + β·agg
}

// GatherSegmentDot returns the n×1 column out[k] = h[k]·h[n+k] for the 2n
// rows h = GatherSegmentSum(a, centre, w, idx, offsets, beta) (len(centre)
// = 2n): the logits of ILP-GNN's pairs, whose two ends are segments k and
// n+k. It equals GatherDot(h, h, 0..n-1, n..2n-1) bit for bit, in value
// and in gradient, without h's gradient: the unfused pair keeps h and dh,
// 2n·d floats each (~200 MB apiece for an Amazon Photo epoch), and streams
// through them five times; here h is written once (each pair's dot taken
// while its rows are in cache), read once by the backward pass, and the
// gradient rows live in a small buffer chunk by chunk. centre, idx and
// offsets are kept until Backward.
func GatherSegmentDot(t *Tape, a *Var, centre []int32, w *Var, idx, offsets []int32, beta float32) *Var {
	if w.Cols != 1 || w.Rows != len(idx) || len(offsets) != len(centre)+1 || len(centre)%2 != 0 {
		panic(fmt.Sprintf("autograd: GatherSegmentDot: weights %v for %d indices, %d offsets for %d centres (want an even number)",
			w, len(idx), len(offsets), len(centre)))
	}
	checkIndex("GatherSegmentDot", a, centre)
	checkIndex("GatherSegmentDot", a, idx)
	checkOffsets("GatherSegmentDot", offsets, len(idx))
	d, n := a.Cols, len(centre)/2
	out := t.result("gathersegdot", n, 1, false, gatherSegmentDotBackward, w, a)
	out.ints, out.ints2, out.ints3, out.scalar = offsets, idx, centre, beta
	h := t.scratch(2 * n * d)
	out.floats = h
	parallelFor(n, d*(2+len(idx)/max(1, n)), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			h0, h1 := h[k*d:k*d+d], h[(n+k)*d:(n+k)*d+d]
			segmentRow(h0, a.Value, centre, w.Value, idx, offsets, beta, k)
			segmentRow(h1, a.Value, centre, w.Value, idx, offsets, beta, n+k)
			out.Value[k] = f32.Dot(h0, h1) // C[k] = h[k]·h[n+k]
		}
	})
	return out
}

// segDotChunk is how many segments gatherSegmentDotBackward treats at a
// time: their gradient rows (two each) stay within a few megabytes.
const segDotChunk = 2048

// gatherSegmentDotBackward runs, chunk by chunk of segments, the backward
// steps of GatherDot(h, h, …) and GatherSegmentSum in their order, with h
// saved by the forward pass: dh[s] = 0 + dC·h[partner] (the gradient of a
// fresh h is zero), dagg = β·dh[s],
// dw[k] += dagg·A[idx[k]], then dA[centre[s]] += dh[s] and dA[idx[k]] +=
// w[k]·dagg with the segments in order, so every row of dA receives its
// updates in the unfused order.
func gatherSegmentDotBackward(out *Var) {
	w, a, d, beta := out.a, out.b, out.b.Cols, out.scalar
	offsets, idx, centre := out.ints, out.ints2, out.ints3
	n, segs, hs := out.Rows, len(out.ints3), out.floats
	chunk := min(segDotChunk, segs)
	dh, dagg := make([]float32, chunk*d), make([]float32, chunk*d)
	for c0 := 0; c0 < segs; c0 += chunk {
		c1 := min(c0+chunk, segs)
		entries := int(offsets[c1] - offsets[c0])
		parallelFor(c1-c0, d*(2+entries/max(1, c1-c0)), func(lo, hi int) {
			for s := c0 + lo; s < c0+hi; s++ {
				k, partner := s, s+n
				if s >= n {
					k, partner = s-n, s-n
				}
				h := hs[partner*d : partner*d+d]
				g, ga := dh[(s-c0)*d:(s-c0+1)*d], dagg[(s-c0)*d:(s-c0+1)*d]
				clear(g)
				f32.Axpy(out.Grad[k], h, g) // dh[s] = 0 + dC[k]·h[partner]
				f32.Scale(ga, beta, g)      // dagg = β·dh[s]
				if w.Grad != nil {
					for e := offsets[s]; e < offsets[s+1]; e++ {
						r := int(idx[e]) * d
						w.Grad[e] += f32.Dot(ga, a.Value[r:r+d]) // dw[e] += dagg·A[idx[e]]
					}
				}
			}
		})
		if a.Grad == nil {
			continue
		}
		scatterOwners(a.Rows, entries+c1-c0, d, func(lo, hi int) {
			for s := c0; s < c1; s++ {
				if c := int(centre[s]); c >= lo && c < hi {
					f32.Axpy(1, dh[(s-c0)*d:(s-c0+1)*d], a.Grad[c*d:c*d+d]) // dA[centre[s]] += dh[s]
				}
				ga := dagg[(s-c0)*d : (s-c0+1)*d]
				for e := offsets[s]; e < offsets[s+1]; e++ {
					if r := int(idx[e]); r >= lo && r < hi {
						f32.Axpy(w.Value[e], ga, a.Grad[r*d:r*d+d]) // dA[idx[e]] += w[e]·dagg
					}
				}
			}
		})
	}
}

// addScaled sets o = c + β·o elementwise (β·o rounded to float32 first). It
// is a function of its own, not a loop in GatherSegmentSum's closure, for
// WebAssembly, where a loop in a large function runs slowly (see f32's
// madd2); out of line it takes less than half the time there (measured:
// docs/autograd.md).
//
//go:noinline
func addScaled(o, c []float32, beta float32) {
	c = c[:len(o)]
	for j := range o {
		o[j] = c[j] + float32(beta*o[j])
	}
}

func gatherSegmentSumBackward(out *Var) {
	w, a, d, beta := out.a, out.b, out.Cols, out.scalar
	offsets, idx, centre := out.ints, out.ints2, out.ints3
	if a.Grad == nil {
		parallelFor(len(centre), d*(1+len(idx)/max(1, len(centre))), func(lo, hi int) {
			dagg := make([]float32, d)
			for s := lo; s < hi; s++ {
				f32.Scale(dagg, beta, out.Grad[s*d:s*d+d]) // dagg = β·dC[s]
				for k := offsets[s]; k < offsets[s+1]; k++ {
					r := int(idx[k]) * d
					w.Grad[k] += f32.Dot(dagg, a.Value[r:r+d]) // dw[k] += dagg·A[idx[k]]
				}
			}
		})
		return
	}
	// One pass for both gradients: the goroutine that owns row idx[k] of
	// dA also computes dw[k], which reads the same row of A, so each
	// segment's dagg is computed once per goroutine that needs it and each
	// dw[k] (one term) by exactly one goroutine.
	wg := w.Grad
	scatterOwners(a.Rows, len(idx)+len(centre), d, func(lo, hi int) {
		dagg := make([]float32, d)
		for s, c := range centre {
			g := out.Grad[s*d : s*d+d]
			if int(c) >= lo && int(c) < hi {
				f32.Axpy(1, g, a.Grad[int(c)*d:int(c)*d+d]) // dA[centre[s]] += dC[s]
			}
			scaled := false
			for k := offsets[s]; k < offsets[s+1]; k++ {
				r := int(idx[k])
				if r < lo || r >= hi {
					continue
				}
				if !scaled {
					f32.Scale(dagg, beta, g) // dagg = β·dC[s]
					scaled = true
				}
				if wg != nil {
					wg[k] += f32.Dot(dagg, a.Value[r*d:r*d+d]) // dw[k] += dagg·A[idx[k]]
				}
				f32.Axpy(w.Value[k], dagg, a.Grad[r*d:r*d+d]) // dA[idx[k]] += w[k]·dagg
			}
		}
	})
}
