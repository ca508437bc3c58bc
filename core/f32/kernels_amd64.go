//go:build amd64 && !purego

package f32

import (
	"strconv"

	"ilpgnn/core/internal/avx"
)

// On amd64 with AVX the hot loops (madd2, spmmRow, axpy, dot, scale) run in
// assembly (kernels_amd64.s) eight output columns at a time. Each output
// element still goes through the same sequence of float32 operations as
// in the portable Go loop — the same products, each rounded, added to the
// running value in the same order, with no fused multiply-add — so the
// results are bit-identical to the Go loops, and to WebAssembly, which
// runs those. Lanes are columns j, never terms of one sum.

// useAVX reports whether the CPU and OS support AVX (set once at start-up,
// read only).
var useAVX = avx.Supported()

// madd2AVX is madd2Go for k4 (a multiple of 4) rows of b, n columns, with
// no bounds checks: d0, d1 hold n floats, x0, x1 k4, b k4·n.
//
//go:noescape
func madd2AVX(d0, d1, x0, x1, b *float32, n, k4 int)

// spmmRowAVX is spmmRowGo with no bounds checks: d holds n floats, val and
// idx nq entries, and every idx[q] names a row of the n-column matrix b.
//
//go:noescape
func spmmRowAVX(d *float32, n int, val *float32, idx *int32, nq int, b *float32)

// axpyAVX is axpyGo with no bounds checks: x and y hold n floats.
//
//go:noescape
func axpyAVX(alpha float32, x, y *float32, n int)

// dotAVX is the block loop of dotGo over n (a multiple of 8) elements of
// a and b with no bounds checks: it stores dotGo's four running sums s0..s3
// in s. Its lanes are dotGo's lanes, not columns: lane l sums the pairs
// a[i+l]·b[i+l] + a[i+4+l]·b[i+4+l] block by block, as dotGo does.
//
//go:noescape
func dotAVX(a, b *float32, n int, s *[4]float32)

// dot4AVX is dotAVX for b0..b3 against the same a at once: s[4r:4r+4]
// are the running sums of a·br, each as dotAVX stores them.
//
//go:noescape
func dot4AVX(a, b0, b1, b2, b3 *float32, n int, s *[16]float32)

// prefetch4 hints the n floats at each of b0..b3 into the cache, one
// PREFETCHT0 per 64-byte line; n > 0. Rows picked at random (DotRows) are
// mostly cache misses, and the hardware prefetcher cannot guess them.
//
//go:noescape
func prefetch4(b0, b1, b2, b3 *float32, n int)

// scaleAVX sets dst[i] = alpha·x[i] for n (a multiple of 8) elements with
// no bounds checks.
//
//go:noescape
func scaleAVX(alpha float32, x, dst *float32, n int)

// avxMin is the row length below which the Go loops run: under two vectors
// the call and the scalar tail cost more than the vectors save.
const avxMin = 16

// madd2 adds x0·B to d0 and x1·B to d1 (see madd2Go).
func madd2(d0, d1, x0, x1, b []float32) {
	n := len(d0)
	if !useAVX || n < avxMin || len(x0) < 4 {
		madd2Go(d0, d1, x0, x1, b)
		return
	}
	k4 := len(x0) &^ 3
	// The assembly reads d1[:n], x1[:k4] and b[:k4*n]: check them here.
	d1, x1, b = d1[:n], x1[:len(x0)], b[:len(x0)*n]
	madd2AVX(&d0[0], &d1[0], &x0[0], &x1[0], &b[0], n, k4)
	for p := k4; p < len(x0); p++ {
		axpyAVX(x0[p], &b[p*n], &d0[0], n)
		axpyAVX(x1[p], &b[p*n], &d1[0], n)
	}
}

// spmmRow adds val[q]·B[idx[q],:] to d for every q in order (see
// spmmRowGo). The caller has checked the indices (checkIndices) and that b
// has a row for each.
func spmmRow(d, val []float32, idx []int32, b []float32) {
	n := len(d)
	if !useAVX || n < avxMin || len(idx) == 0 {
		spmmRowGo(d, val, idx, b)
		return
	}
	val = val[:len(idx)]
	spmmRowAVX(&d[0], n, &val[0], &idx[0], len(idx), &b[0])
}

// axpy adds alpha·x to y; len(y) >= len(x).
func axpy(alpha float32, x, y []float32) {
	n := len(x)
	if !useAVX || n < avxMin {
		axpyGo(alpha, x, y)
		return
	}
	y = y[:n]
	axpyAVX(alpha, &x[0], &y[0], n)
}

// dot returns Σ a[i]·b[i] in dotGo's order; len(b) >= len(a).
func dot(a, b []float32) float32 {
	n := len(a)
	if !useAVX || n < avxMin {
		return dotGo(a, b)
	}
	b = b[:n]
	n8 := n &^ 7
	var s [4]float32
	dotAVX(&a[0], &b[0], n8, &s)
	for i := n8; i < n; i++ {
		s[0] += a[i] * b[i]
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// dotRows sets dst[k] = dot(a, m[rows[k]·n:]) for n = len(a), four rows
// at a time through dot4AVX, each finished as dot finishes its sums, so
// every dst[k] is bit for bit dot's. Rows must be in range (DotRows checks).
func dotRows(dst, a, m []float32, rows []int32) {
	n := len(a)
	if !useAVX || n < avxMin {
		dotRowsGo(dst, a, m, rows)
		return
	}
	n8 := n &^ 7
	var s [16]float32
	k := 0
	for ; k+4 <= len(rows); k += 4 {
		// The rows of the next group are random reads from a large matrix:
		// ask for them while this group computes.
		if k+8 <= len(rows) {
			prefetch4(&m[int(rows[k+4])*n], &m[int(rows[k+5])*n], &m[int(rows[k+6])*n], &m[int(rows[k+7])*n], n)
		}
		b0 := m[int(rows[k])*n:][:n]
		b1 := m[int(rows[k+1])*n:][:n]
		b2 := m[int(rows[k+2])*n:][:n]
		b3 := m[int(rows[k+3])*n:][:n]
		dot4AVX(&a[0], &b0[0], &b1[0], &b2[0], &b3[0], n8, &s)
		for r, b := range [4][]float32{b0, b1, b2, b3} {
			l := s[4*r : 4*r+4 : 4*r+4]
			for i := n8; i < n; i++ {
				l[0] += a[i] * b[i]
			}
			dst[k+r] = (l[0] + l[1]) + (l[2] + l[3])
		}
	}
	for ; k < len(rows); k++ {
		dst[k] = dot(a, m[int(rows[k])*n:][:n])
	}
}

// scale sets dst = alpha·x; len(dst) >= len(x).
func scale(dst []float32, alpha float32, x []float32) {
	n := len(x)
	if !useAVX || n < avxMin {
		scaleGo(dst, alpha, x)
		return
	}
	dst = dst[:n]
	n8 := n &^ 7
	scaleAVX(alpha, &x[0], &dst[0], n8)
	for i := n8; i < n; i++ {
		dst[i] = alpha * x[i]
	}
}

// checkIndices panics unless every column index of a is in [0, a.Cols):
// spmmRowAVX reads rows of b without bounds checks. One pass over the
// indices is small beside the a.NNZ()·n multiply-adds it guards.
func checkIndices(op string, a *CSR) {
	for _, c := range a.Indices {
		if uint32(c) >= uint32(a.Cols) {
			panic("f32: " + op + ": column index " + strconv.Itoa(int(c)) + " out of range [0, " + strconv.Itoa(a.Cols) + ")")
		}
	}
}
