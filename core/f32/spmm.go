package f32

import "sort"

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
// Measured loop shapes (2-core AMD EPYC VM, GFLOP/s native / wasm, Cora-like
// 2708×2708 with 13371 entries): one axpy per entry (kept) 5.1 / 2.4 at
// n=128, 2.1 / 1.3 at n=16; two entries per pass 4.1 / 1.4 and 2.8 / 1.2;
// four entries per pass 4.2 / 2.8 and 2.9 / 1.1. The kernel is bound by
// the scattered reads of b rows, so the simplest loop stays.
func SpMM(dst []float32, a *CSR, b []float32, n int) {
	spmm("SpMM", dst, a, b, n, true)
}

// SpMMAdd adds a·b to dst; shapes, summation order (starting from dst) and
// panics are those of SpMM.
func SpMMAdd(dst []float32, a *CSR, b []float32, n int) {
	spmm("SpMMAdd", dst, a, b, n, false)
}

func spmm(op string, dst []float32, a *CSR, b []float32, n int, overwrite bool) {
	if n < 0 {
		panic("f32: " + op + ": negative dimension")
	}
	mustLen(op, "dst", len(dst), a.Rows*n)
	mustLen(op, "b", len(b), a.Cols*n)
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
	for r := lo; r < hi; r++ {
		d := dst[r*n : r*n+n]
		if overwrite {
			clear(d)
		}
		q0, q1 := a.Indptr[r], a.Indptr[r+1]
		val := a.Values[q0:q1]
		for q, c := range a.Indices[q0:q1] {
			axpy(val[q], b[int(c)*n:int(c)*n+n], d)
		}
	}
}
