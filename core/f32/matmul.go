package f32

import "strconv"

// Dense products. All three kernels keep a fixed summation order for every
// output element: it depends on the shapes only, never on how the rows are
// split over goroutines, so results are bit-identical for any GOMAXPROCS.
//
// All three share one out-of-line kernel, madd2 (2 dst rows x 4 rows of b,
// j unrolled by 4), the fastest shape measured natively and under
// WebAssembly; the measurements are in docs/kernels.md.
//
// On amd64 madd2 is AVX assembly (kernels_amd64.s); madd2Go is the
// portable loop, which WebAssembly runs. gonum's blas32.Gemm is not used:
// under WebAssembly it runs at a fraction of these loops' speed.

// MatMul sets dst = a·b, where a is m×k, b is k×n and dst is m×n, all
// row-major. It is the reference loop
//
//	for i := 0; i < m; i++ {
//		for j := 0; j < n; j++ {
//			var s float32
//			for p := 0; p < k; p++ {
//				s += a[i*k+p] * b[p*n+j]
//			}
//			dst[i*n+j] = s
//		}
//	}
//
// with the same summation order (p ascending). dst must not alias a or b.
// MatMul panics if a shape is negative or a length does not match its shape.
func MatMul(dst, a, b []float32, m, k, n int) {
	checkShape("MatMul", m, k, n)
	mustLen("MatMul", "dst", len(dst), m*n)
	mustLen("MatMul", "a", len(a), m*k)
	mustLen("MatMul", "b", len(b), k*n)
	if p := workers(m, m*k*n); p > 1 {
		parallel(p, func(g int) {
			lo, hi := span(g, p, m, 2)
			matMulRows(dst, a, b, k, n, lo, hi)
		})
		return
	}
	matMulRows(dst, a, b, k, n, 0, m)
}

// matMulRows computes rows [lo, hi) of dst = a·b, two rows at a time (see
// madd2).
func matMulRows(dst, a, b []float32, k, n, lo, hi int) {
	i := lo
	for ; i+2 <= hi; i += 2 {
		clear(dst[i*n : (i+2)*n])
		madd2(dst[i*n:i*n+n], dst[(i+1)*n:(i+1)*n+n], a[i*k:i*k+k], a[(i+1)*k:(i+1)*k+k], b)
	}
	for ; i < hi; i++ {
		d := dst[i*n : i*n+n]
		clear(d)
		for p, x := range a[i*k : i*k+k] {
			axpy(x, b[p*n:p*n+n], d)
		}
	}
}

// madd2 adds x0·B to d0 and x1·B to d1, where B is the len(x0)×len(d0)
// row-major matrix b, len(d1) == len(d0) and len(x1) == len(x0).
// It is the inner loop of all three dense products: four rows of B per pass
// over the two d rows, so each pass loads an element of B once for eight
// multiply-adds. The grouped update d + x0·v0 + x1·v1 + x2·v2 + x3·v3
// evaluates left to right, exactly as four separate axpys (and the tail
// axpys) would, so every element still sums over p in ascending order.
//
// It is kept out of line, with the j loop unrolled by 4, for WebAssembly:
// Go compiles every jump between basic blocks of a function into a branch
// back to one br_table dispatch loop, so a loop iteration costs more the
// larger its function, and an unrolled loop pays that cost less often
// (measured: docs/kernels.md).
//
//go:noinline
func madd2Go(d0, d1, x0, x1, b []float32) {
	n := len(d0)
	d1 = d1[:n]
	x1 = x1[:len(x0)]
	p := 0
	for ; p+4 <= len(x0); p += 4 {
		b0 := b[p*n : p*n+n]
		b1 := b[(p+1)*n : (p+1)*n+n][:len(b0)]
		b2 := b[(p+2)*n : (p+2)*n+n][:len(b0)]
		b3 := b[(p+3)*n : (p+3)*n+n][:len(b0)]
		a0, a1, a2, a3 := x0[p], x0[p+1], x0[p+2], x0[p+3]
		c0, c1, c2, c3 := x1[p], x1[p+1], x1[p+2], x1[p+3]
		d0, d1 := d0[:len(b0)], d1[:len(b0)]
		j := 0
		for ; j < len(b0)-3; j += 4 { // not j+4 <= len(b0): this form proves the indices in range
			v0, v1, v2, v3 := b0[j], b1[j], b2[j], b3[j]
			d0[j] = d0[j] + a0*v0 + a1*v1 + a2*v2 + a3*v3
			d1[j] = d1[j] + c0*v0 + c1*v1 + c2*v2 + c3*v3
			v0, v1, v2, v3 = b0[j+1], b1[j+1], b2[j+1], b3[j+1]
			d0[j+1] = d0[j+1] + a0*v0 + a1*v1 + a2*v2 + a3*v3
			d1[j+1] = d1[j+1] + c0*v0 + c1*v1 + c2*v2 + c3*v3
			v0, v1, v2, v3 = b0[j+2], b1[j+2], b2[j+2], b3[j+2]
			d0[j+2] = d0[j+2] + a0*v0 + a1*v1 + a2*v2 + a3*v3
			d1[j+2] = d1[j+2] + c0*v0 + c1*v1 + c2*v2 + c3*v3
			v0, v1, v2, v3 = b0[j+3], b1[j+3], b2[j+3], b3[j+3]
			d0[j+3] = d0[j+3] + a0*v0 + a1*v1 + a2*v2 + a3*v3
			d1[j+3] = d1[j+3] + c0*v0 + c1*v1 + c2*v2 + c3*v3
		}
		for ; j < len(b0); j++ {
			v0, v1, v2, v3 := b0[j], b1[j], b2[j], b3[j]
			d0[j] = d0[j] + a0*v0 + a1*v1 + a2*v2 + a3*v3
			d1[j] = d1[j] + c0*v0 + c1*v1 + c2*v2 + c3*v3
		}
	}
	for ; p < len(x0); p++ {
		axpyGo(x0[p], b[p*n:p*n+n], d0)
		axpyGo(x1[p], b[p*n:p*n+n], d1)
	}
}

// MatMulAddNT adds a·bᵀ to dst, where a is m×n, b is k×n and dst is m×k, all
// row-major: the backward step dA += dC·Bᵀ of C = A·B. It is the reference
// loop
//
//	for i := 0; i < m; i++ {
//		for j := 0; j < k; j++ {
//			s := dst[i*k+j]
//			for c := 0; c < n; c++ {
//				s += a[i*n+c] * b[j*n+c]
//			}
//			dst[i*k+j] = s
//		}
//	}
//
// with the same summation order (starting from dst, c ascending). dst must
// not alias a or b. MatMulAddNT panics if a shape is negative or a length
// does not match its shape.
func MatMulAddNT(dst, a, b []float32, m, k, n int) {
	checkShape("MatMulAddNT", m, k, n)
	mustLen("MatMulAddNT", "dst", len(dst), m*k)
	mustLen("MatMulAddNT", "a", len(a), m*n)
	mustLen("MatMulAddNT", "b", len(b), k*n)
	if p := workers(m, m*k*n); p > 1 {
		parallel(p, func(g int) {
			lo, hi := span(g, p, m, 2)
			matMulAddNTRows(dst, a, b, k, n, lo, hi)
		})
		return
	}
	matMulAddNTRows(dst, a, b, k, n, 0, m)
}

// ntPanel is the size in floats of the stack buffer that holds a transposed
// panel of b in matMulAddNTRows (8 KiB: fits L1 beside the rows of a and dst).
const ntPanel = 2048

// matMulAddNTRows computes rows [lo, hi) of dst += a·bᵀ. It copies panels
// b[j0:j1, c0:c1] transposed into a stack buffer and then runs the MatMul
// kernel madd2 (two dst rows, four panel rows per pass) against them. Panels start
// at multiples of 4 in c, so the grouping never changes the summation order.
func matMulAddNTRows(dst, a, b []float32, k, n, lo, hi int) {
	var buf [ntPanel]float32
	jb := min(k, 256)
	if jb == 0 || lo == hi {
		return
	}
	nb := ntPanel / jb &^ 3 // ≥ 8
	for j0 := 0; j0 < k; j0 += jb {
		j1 := min(j0+jb, k)
		w := j1 - j0
		for c0 := 0; c0 < n; c0 += nb {
			c1 := min(c0+nb, n)
			h := c1 - c0
			bt := buf[:h*w]
			for j := j0; j < j1; j++ {
				for c, v := range b[j*n+c0 : j*n+c1] {
					bt[c*w+j-j0] = v
				}
			}
			i := lo
			for ; i+2 <= hi; i += 2 {
				madd2(dst[i*k+j0:i*k+j1], dst[(i+1)*k+j0:(i+1)*k+j1], a[i*n+c0:i*n+c1], a[(i+1)*n+c0:(i+1)*n+c1], bt)
			}
			for ; i < hi; i++ {
				d0 := dst[i*k+j0 : i*k+j1]
				for c, x := range a[i*n+c0 : i*n+c1] {
					axpy(x, bt[c*w:c*w+w], d0)
				}
			}
		}
	}
}

// MatMulAddTN adds aᵀ·b to dst, where a is m×k, b is m×n and dst is k×n, all
// row-major: the backward step dB += Aᵀ·dC of C = A·B. It is the reference
// loop
//
//	for p := 0; p < k; p++ {
//		for j := 0; j < n; j++ {
//			s := dst[p*n+j]
//			for i := 0; i < m; i++ {
//				s += a[i*k+p] * b[i*n+j]
//			}
//			dst[p*n+j] = s
//		}
//	}
//
// with the same summation order (starting from dst, i ascending). The work
// is split over the k rows of dst; each goroutine runs over all m rows of a
// and b. dst must not alias a or b. MatMulAddTN panics if a shape is
// negative or a length does not match its shape.
func MatMulAddTN(dst, a, b []float32, m, k, n int) {
	checkShape("MatMulAddTN", m, k, n)
	mustLen("MatMulAddTN", "dst", len(dst), k*n)
	mustLen("MatMulAddTN", "a", len(a), m*k)
	mustLen("MatMulAddTN", "b", len(b), m*n)
	if p := workers(k, m*k*n); p > 1 {
		parallel(p, func(g int) {
			lo, hi := span(g, p, k, 2)
			matMulAddTNRows(dst, a, b, m, k, n, lo, hi)
		})
		return
	}
	matMulAddTNRows(dst, a, b, m, k, n, 0, k)
}

// tnBlock is the number of rows of b that matMulAddTNRows keeps hot while it
// sweeps over its dst rows (64 rows of 128 floats = 32 KiB). A multiple of 4.
const tnBlock = 64

// matMulAddTNRows computes rows [lo, hi) of dst += aᵀ·b, in blocks of tnBlock
// rows of b, two dst rows at a time: it copies columns p and p+1 of the
// block of a into stack buffers and hands them to madd2.
func matMulAddTNRows(dst, a, b []float32, m, k, n, lo, hi int) {
	var col0, col1 [tnBlock]float32
	for i0 := 0; i0 < m; i0 += tnBlock {
		i1 := min(i0+tnBlock, m)
		bb := b[i0*n : i1*n]
		p := lo
		for ; p+2 <= hi; p += 2 {
			x0, x1 := col0[:i1-i0], col1[:i1-i0]
			for i := range x0 {
				x0[i], x1[i] = a[(i0+i)*k+p], a[(i0+i)*k+p+1]
			}
			madd2(dst[p*n:p*n+n], dst[(p+1)*n:(p+1)*n+n], x0, x1, bb)
		}
		for ; p < hi; p++ {
			d := dst[p*n : p*n+n]
			for i := i0; i < i1; i++ {
				axpy(a[i*k+p], b[i*n:i*n+n], d)
			}
		}
	}
}

func checkShape(op string, m, k, n int) {
	if m < 0 || k < 0 || n < 0 {
		panic("f32: " + op + ": negative dimension")
	}
}

func mustLen(op, name string, got, want int) {
	if got != want {
		panic("f32: " + op + ": length mismatch: len(" + name + ") = " + strconv.Itoa(got) + ", want " + strconv.Itoa(want))
	}
}
