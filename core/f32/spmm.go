package f32

import (
	"slices"
	"sort"
)

// SpMM sets dst = a·b, where a is a.Rows×a.Cols sparse, b is a.Cols×n and
// dst is a.Rows×n, both dense row-major. It is the reference loop
//
//	for r := 0; r < a.Rows; r++ {
//		for j := 0; j < n; j++ {
//			var s float32
//			for q := a.Indptr[r]; q < a.Indptr[r+1]; q++ {
//				s += a.Values[q] * b[int(a.Indices[q])*n+j]
//			}
//			dst[r*n+j] = s
//		}
//	}
//
// with the same summation order (stored entries in order). Rows are split
// over goroutines in contiguous ranges of about equal nnz; each dst row is
// written by one goroutine, so results do not depend on GOMAXPROCS. dst must
// not alias b. SpMM panics if n < 0 or a length does not match its shape.
//
// spmmRow takes four entries per pass over a dst row (AVX assembly on
// amd64), the fastest shape measured; see docs/kernels.md.
func SpMM(dst []float32, a *CSR, b []float32, n int) {
	spmm("SpMM", dst, a, b, n, true)
}

// SpMMAdd adds a·b to dst; shapes, summation order (starting from dst) and
// panics are those of SpMM.
func SpMMAdd(dst []float32, a *CSR, b []float32, n int) {
	spmm("SpMMAdd", dst, a, b, n, false)
}

// prefetchAbove is the size of b (floats) above which spmmRows prefetches
// b's rows: 8 MB, beyond a core's share of the caches.
const prefetchAbove = 1 << 21

func spmm(op string, dst []float32, a *CSR, b []float32, n int, overwrite bool) {
	if n < 0 {
		panic("f32: " + op + ": negative dimension")
	}
	mustLen(op, "dst", len(dst), a.Rows*n)
	mustLen(op, "b", len(b), a.Cols*n)
	checkIndices(op, a)
	if p := workers(a.Rows, a.NNZ()*n); p > 1 {
		parallel(p, func(g int) {
			lo, hi := spmmSpan(a, g, p)
			spmmRows(dst, a, b, n, lo, hi, overwrite)
		})
		return
	}
	spmmRows(dst, a, b, n, 0, a.Rows, overwrite)
}

// spmmSpan returns the g-th of p contiguous row ranges of a, balanced on
// stored entries plus rows (an empty row still costs a pass over dst).
func spmmSpan(a *CSR, g, p int) (lo, hi int) {
	total := a.NNZ() + a.Rows
	cut := func(g int) int {
		if g >= p {
			return a.Rows
		}
		target := g * total / p
		return sort.Search(a.Rows, func(r int) bool { return int(a.Indptr[r])+r >= target })
	}
	return cut(g), cut(g + 1)
}

func spmmRows(dst []float32, a *CSR, b []float32, n, lo, hi int, overwrite bool) {
	ahead := len(b) > prefetchAbove
	for r := lo; r < hi; r++ {
		if ahead && r+1 < hi {
			// The next row's rows of b, picked by its entries: misses
			// the hardware cannot predict once b outgrows the caches.
			for _, c := range a.Indices[a.Indptr[r+1]:a.Indptr[r+2]] {
				Prefetch(b[int(c)*n : int(c)*n+n])
			}
		}
		d := dst[r*n : r*n+n]
		if overwrite {
			clear(d)
		}
		q0, q1 := a.Indptr[r], a.Indptr[r+1]
		spmmRow(d, a.Values[q0:q1], a.Indices[q0:q1], b)
	}
}

// spmmRow adds val[q]·B[idx[q],:] to d for every q in order, where B is the
// row-major matrix b with len(d) columns. It takes four entries per pass
// over d: d + w0·v0 + w1·v1 + w2·v2 + w3·v3 evaluates left to right, exactly
// as four axpys would, and loads and stores d once instead of four times.
// Like madd2 it is kept out of line, with j unrolled by 4, for WebAssembly.
//
//go:noinline
func spmmRowGo(d, val []float32, idx []int32, b []float32) {
	n := len(d)
	val = val[:len(idx)]
	q := 0
	for ; q+4 <= len(idx); q += 4 {
		r0, r1, r2, r3 := int(idx[q])*n, int(idx[q+1])*n, int(idx[q+2])*n, int(idx[q+3])*n
		b0 := b[r0 : r0+n]
		b1 := b[r1 : r1+n][:len(b0)]
		b2 := b[r2 : r2+n][:len(b0)]
		b3 := b[r3 : r3+n][:len(b0)]
		w0, w1, w2, w3 := val[q], val[q+1], val[q+2], val[q+3]
		d := d[:len(b0)]
		j := 0
		for ; j < len(b0)-3; j += 4 {
			d[j] = d[j] + w0*b0[j] + w1*b1[j] + w2*b2[j] + w3*b3[j]
			d[j+1] = d[j+1] + w0*b0[j+1] + w1*b1[j+1] + w2*b2[j+1] + w3*b3[j+1]
			d[j+2] = d[j+2] + w0*b0[j+2] + w1*b1[j+2] + w2*b2[j+2] + w3*b3[j+2]
			d[j+3] = d[j+3] + w0*b0[j+3] + w1*b1[j+3] + w2*b2[j+3] + w3*b3[j+3]
		}
		for ; j < len(b0); j++ {
			d[j] = d[j] + w0*b0[j] + w1*b1[j] + w2*b2[j] + w3*b3[j]
		}
	}
	for ; q < len(idx); q++ {
		r := int(idx[q]) * n
		axpyGo(val[q], b[r:r+n], d)
	}
}

// SpMMTAdd adds aᵀ·b to dst, where a is a.Rows×a.Cols sparse, b is
// a.Rows×n and dst is a.Cols×n, both dense row-major. It is bit for bit
// SpMMAdd(dst, a.Transpose(), b, n): every element of dst gets the same
// terms in the same order (a's rows ascending), without the transpose.
//
// The two walk the terms in different orders. SpMMAdd on aᵀ reads a row
// of b for every entry of aᵀ, one row of dst at a time; SpMMTAdd reads each
// row of b once per goroutine and adds it into every row of dst its entries
// name, so it pays when dst fits in a core's cache and b does not (a tall
// matrix of dense features, whose aᵀ·b makes SpMMAdd stream b from memory
// once per column of a). Each goroutine owns a contiguous range of dst's
// rows, balanced on entries, so results do not depend on GOMAXPROCS.
func SpMMTAdd(dst []float32, a *CSR, b []float32, n int) {
	const op = "SpMMTAdd"
	if n < 0 {
		panic("f32: " + op + ": negative dimension")
	}
	mustLen(op, "dst", len(dst), a.Cols*n)
	mustLen(op, "b", len(b), a.Rows*n)
	checkIndices(op, a)
	p := workers(a.Cols, a.NNZ()*n)
	if p == 1 {
		spmmTRows(dst, a, b, n, 0, int32(a.Cols))
		return
	}
	// Split dst's rows (a's columns) on their entries.
	counts := make([]int, a.Cols+1)
	for _, c := range a.Indices {
		counts[c+1]++
	}
	for c := range a.Cols {
		counts[c+1] += counts[c]
	}
	total := counts[a.Cols]
	cut := func(g int) int32 {
		c, _ := slices.BinarySearch(counts[:a.Cols], g*total/p) // the first at or past
		return int32(c)
	}
	parallel(p, func(g int) {
		hi := int32(a.Cols)
		if g+1 < p {
			hi = cut(g + 1)
		}
		spmmTRows(dst, a, b, n, cut(g), hi)
	})
}

// spmmTRows adds into rows [lo, hi) of dst the terms of aᵀ·b whose column
// of a falls in that range, walking a's rows in order.
func spmmTRows(dst []float32, a *CSR, b []float32, n int, lo, hi int32) {
	for r := range a.Rows {
		q, end := a.Indptr[r], a.Indptr[r+1]
		if q == end {
			continue
		}
		if lo > 0 {
			// A row's indices are sorted: skip to the first at or past lo.
			k, _ := slices.BinarySearch(a.Indices[q:end], lo)
			q += int32(k)
		}
		br := b[r*n : r*n+n]
		for ; q < end && a.Indices[q] < hi; q++ {
			c := int(a.Indices[q])
			axpy(a.Values[q], br, dst[c*n:c*n+n])
		}
	}
}
