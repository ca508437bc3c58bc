package autograd

import (
	"fmt"
	"math/rand/v2"

	"ilpgnn/core/detmath"
	"ilpgnn/core/f32"
)

// Dropout zeroes each element of a with probability p and scales the kept
// ones by 1/(1-p) (inverted dropout, so the expectation is a). With p == 0 or
// a nil tape (inference) it returns a itself. The mask is drawn from rng,
// one Float32 per element in row-major order. Dropout panics unless
// 0 <= p < 1.
func Dropout(t *Tape, a *Var, p float32, rng *rand.Rand) *Var {
	if !(p >= 0 && p < 1) {
		panic(fmt.Sprintf("autograd: Dropout: p = %v, want 0 <= p < 1", p))
	}
	if p == 0 || t == nil {
		return a
	}
	out := t.result("dropout", a.Rows, a.Cols, false, dropoutBackward, a, nil)
	mask := t.scratch(len(a.Value))
	keep := 1 / (1 - p)
	for i := range mask {
		if rng.Float32() < p {
			mask[i] = 0
		} else {
			mask[i] = keep
		}
	}
	out.floats = mask
	each3(f32.Mul, out.Value, a.Value, mask) // C = A ⊙ M, M ∈ {0, 1/(1-p)}
	return out
}

func dropoutBackward(out *Var) {
	each3(f32.MulAdd, out.a.Grad, out.Grad, out.floats) // dA += dC ⊙ M
}

// GatherRows returns the rows of a named by idx: out[i,:] = a[idx[i],:], a
// len(idx)×a.Cols matrix. Indices may repeat. idx is kept, not copied, until
// Backward: do not modify it in between. GatherRows panics if an index is
// out of range.
func GatherRows(t *Tape, a *Var, idx []int32) *Var {
	n := a.Cols
	out := t.result("gather", len(idx), n, false, gatherBackward, a, nil)
	out.ints = idx
	for i, r := range idx {
		if r < 0 || int(r) >= a.Rows {
			panic(fmt.Sprintf("autograd: GatherRows: index %d out of range for %v", r, a))
		}
		copy(out.Value[i*n:i*n+n], a.Value[int(r)*n:int(r)*n+n]) // C[i,:] = A[idx[i],:]
	}
	return out
}

func gatherBackward(out *Var) {
	n := out.Cols
	scatterOwners(out.a.Rows, len(out.ints), n, func(lo, hi int) {
		for i, r := range out.ints {
			if int(r) >= lo && int(r) < hi {
				f32.Axpy(1, out.Grad[i*n:i*n+n], out.a.Grad[int(r)*n:int(r)*n+n]) // dA[idx[i],:] += dC[i,:]
			}
		}
	})
}

// RowDot returns the row-wise dot products of a and b (same shape m×n) as an
// m×1 matrix: out[r] = Σ_c a[r,c]·b[r,c].
func RowDot(t *Tape, a, b *Var) *Var {
	sameShape("RowDot", a, b)
	n := a.Cols
	out := t.result("rowdot", a.Rows, 1, false, rowDotBackward, a, b)
	for r := range out.Value {
		out.Value[r] = f32.Dot(a.Value[r*n:r*n+n], b.Value[r*n:r*n+n]) // C[r] = A[r,:]·B[r,:]
	}
	return out
}

func rowDotBackward(out *Var) {
	a, b, n := out.a, out.b, out.a.Cols
	for r, g := range out.Grad {
		axpy(g, b.Value[r*n:r*n+n], rowOf(a.Grad, r, n)) // dA[r,:] += dC[r]·B[r,:]
		axpy(g, a.Value[r*n:r*n+n], rowOf(b.Grad, r, n)) // dB[r,:] += dC[r]·A[r,:]
	}
}

// checkOffsets panics unless offsets splits [0, n) into len(offsets)-1
// contiguous segments: offsets[0] == 0, non-decreasing, last == n.
func checkOffsets(op string, offsets []int32, n int) {
	if len(offsets) == 0 || offsets[0] != 0 || int(offsets[len(offsets)-1]) != n {
		panic(fmt.Sprintf("autograd: %s: offsets must run from 0 to %d", op, n))
	}
	for s := 1; s < len(offsets); s++ {
		if offsets[s] < offsets[s-1] {
			panic(fmt.Sprintf("autograd: %s: offsets decrease at segment %d", op, s-1))
		}
	}
}

// SegmentSoftmax returns the softmax of the n×1 column x within each segment
// s = [offsets[s], offsets[s+1]): y_k = exp(x_k - m_s) / Σ_{j∈s} exp(x_j - m_s)
// with m_s the segment maximum (so it never overflows). Empty segments are
// allowed. offsets is kept, not copied, until Backward. SegmentSoftmax
// panics unless x has one column and offsets runs from 0 to x.Rows without
// decreasing.
func SegmentSoftmax(t *Tape, x *Var, offsets []int32) *Var {
	if x.Cols != 1 {
		panic(fmt.Sprintf("autograd: SegmentSoftmax: x is %v, want n x 1", x))
	}
	checkOffsets("SegmentSoftmax", offsets, x.Rows)
	out := t.result("segsoftmax", x.Rows, 1, false, segmentSoftmaxBackward, x, nil)
	out.ints = offsets
	for s := 0; s+1 < len(offsets); s++ {
		xs, ys := x.Value[offsets[s]:offsets[s+1]], out.Value[offsets[s]:offsets[s+1]]
		if len(xs) == 0 {
			continue
		}
		m := xs[0]
		for _, v := range xs {
			m = max(m, v)
		}
		var sum float64
		for k, v := range xs {
			e := detmath.Exp(float64(v - m))
			ys[k] = float32(e)
			sum += e
		}
		for k := range ys {
			ys[k] = float32(float64(ys[k]) / sum) // y = exp(x - m) / Σ exp(x - m)
		}
	}
	return out
}

func segmentSoftmaxBackward(out *Var) {
	offsets := out.ints
	for s := 0; s+1 < len(offsets); s++ {
		lo, hi := offsets[s], offsets[s+1]
		ys, dys, dxs := out.Value[lo:hi], out.Grad[lo:hi], out.a.Grad[lo:hi]
		var dot float64
		for k, y := range ys {
			dot += float64(y) * float64(dys[k])
		}
		for k, y := range ys {
			dxs[k] += y * (dys[k] - float32(dot)) // dx_k += y_k (dy_k - Σ_j y_j dy_j)
		}
	}
}

// SegmentWeightedSum returns, for w n×1 and rows n×d, the
// (len(offsets)-1)×d matrix out[s,:] = Σ_{k∈[offsets[s], offsets[s+1])}
// w[k]·rows[k,:]; an empty segment gives a zero row. offsets is kept, not
// copied, until Backward. It panics if the shapes disagree or offsets does
// not run from 0 to n without decreasing.
func SegmentWeightedSum(t *Tape, w, rows *Var, offsets []int32) *Var {
	if w.Cols != 1 || w.Rows != rows.Rows {
		panic(fmt.Sprintf("autograd: SegmentWeightedSum: weights %v for rows %v, want %dx1", w, rows, rows.Rows))
	}
	checkOffsets("SegmentWeightedSum", offsets, rows.Rows)
	d := rows.Cols
	out := t.result("segwsum", len(offsets)-1, d, true, segmentWeightedSumBackward, w, rows)
	out.ints = offsets
	for s := 0; s+1 < len(offsets); s++ {
		o := out.Value[s*d : s*d+d]
		for k := offsets[s]; k < offsets[s+1]; k++ {
			f32.Axpy(w.Value[k], rows.Value[int(k)*d:int(k)*d+d], o) // out[s] += w[k]·rows[k]
		}
	}
	return out
}

func segmentWeightedSumBackward(out *Var) {
	w, rows, d, offsets := out.a, out.b, out.Cols, out.ints
	for s := 0; s+1 < len(offsets); s++ {
		g := out.Grad[s*d : s*d+d]
		for k := offsets[s]; k < offsets[s+1]; k++ {
			r := rows.Value[int(k)*d : int(k)*d+d]
			if w.Grad != nil {
				w.Grad[k] += f32.Dot(g, r) // dw[k] += dout[s]·rows[k]
			}
			if rows.Grad != nil {
				f32.Axpy(w.Value[k], g, rows.Grad[int(k)*d:int(k)*d+d]) // drows[k] += w[k]·dout[s]
			}
		}
	}
}

// ConcatCols returns [a b], the m×(p+q) matrix of a m×p beside b m×q.
func ConcatCols(t *Tape, a, b *Var) *Var {
	if a.Rows != b.Rows {
		panic(fmt.Sprintf("autograd: ConcatCols: %v beside %v", a, b))
	}
	p, q := a.Cols, b.Cols
	out := t.result("concatcols", a.Rows, p+q, false, concatColsBackward, a, b)
	for r := 0; r < a.Rows; r++ {
		copy(out.Value[r*(p+q):], a.Value[r*p:r*p+p])   // C[r,:p] = A[r,:]
		copy(out.Value[r*(p+q)+p:], b.Value[r*q:r*q+q]) // C[r,p:] = B[r,:]
	}
	return out
}

func concatColsBackward(out *Var) {
	a, b := out.a, out.b
	p, q := a.Cols, b.Cols
	for r := 0; r < a.Rows; r++ {
		g := out.Grad[r*(p+q) : (r+1)*(p+q)]
		axpy(1, g[:p], rowOf(a.Grad, r, p)) // dA[r,:] += dC[r,:p]
		axpy(1, g[p:], rowOf(b.Grad, r, q)) // dB[r,:] += dC[r,p:]
	}
}

// rowOf returns row r of an n-column gradient, or nil when g is nil.
func rowOf(g []float32, r, n int) []float32 {
	if g == nil {
		return nil
	}
	return g[r*n : r*n+n]
}

// ConcatRows returns a stacked on b, the (m+k)×n matrix of a m×n over b k×n.
func ConcatRows(t *Tape, a, b *Var) *Var {
	if a.Cols != b.Cols {
		panic(fmt.Sprintf("autograd: ConcatRows: %v over %v", a, b))
	}
	out := t.result("concatrows", a.Rows+b.Rows, a.Cols, false, concatRowsBackward, a, b)
	copy(out.Value, a.Value)                // C[:m] = A
	copy(out.Value[len(a.Value):], b.Value) // C[m:] = B
	return out
}

func concatRowsBackward(out *Var) {
	n := len(out.a.Value)
	axpy(1, out.Grad[:n], out.a.Grad) // dA += dC[:m]
	axpy(1, out.Grad[n:], out.b.Grad) // dB += dC[m:]
}

// ConcatColsAll places vs side by side, [v0 v1 … vn], as pairwise
// ConcatCols in a balanced tree, so that every column is copied
// log2(len(vs)) times rather than len(vs) times (GAT's heads).
func ConcatColsAll(t *Tape, vs []*Var) *Var {
	for len(vs) > 1 {
		next := vs[:0:0]
		for k := 0; k+1 < len(vs); k += 2 {
			next = append(next, ConcatCols(t, vs[k], vs[k+1]))
		}
		if len(vs)%2 == 1 {
			next = append(next, vs[len(vs)-1])
		}
		vs = next
	}
	return vs[0]
}
