package f32

import "strconv"

// Dense products. All three kernels keep a fixed summation order for every
// output element: it depends on the shapes only, never on how the rows are
// split over goroutines, so results are bit-identical for any GOMAXPROCS.
//
// Measured loop shapes (shared 2-vCPU AMD EPYC VM, go1.26, GFLOP/s native /
// wasm under node 20, single goroutine, m=2708,k=128,n=128; the VM was
// loaded by other work, so these are medians of 3-5 noisy runs):
//
//	MatMul
//	  i-k-j, one axpy per (i,p)                      6.3 / 3.9
//	  i-k-j, 4 rows of b per pass over a dst row    11.0 / 2.0
//	  4 dst rows x 1 row of b                        5.0 / 3.1
//	  4 dst rows x 2 rows of b                       6.0 / 3.9
//	  2 dst rows x 4 rows of b (kept)                7.4-11 / 5.3
//	  the same with the j loop unrolled by 2         slower on both (spills)
//	MatMulAddNT
//	  one 4-lane dot per output                      5.4 / 3.8
//	  2x2 outputs, one chain each                    8.0 / 2.5
//	  1x4 outputs                                    8.2 / 2.3
//	  2x4 outputs                                    7.2 / 4.1
//	  transpose b into a heap copy, then MatMul      8.4 / 4.5 (allocates)
//	  transpose b in 8 KiB stack panels, 2x4 (kept)  9.4 / 5.1
//	MatMulAddTN
//	  for i, for p: axpy                             6.4 / 3.9
//	  64-row blocks of b, 2 dst rows x 4 (kept)     10.8 / 5.2
//
// Best of 5 at GOMAXPROCS=1 with the kept loops: MatMul 7.8-10 GFLOP/s,
// MatMulAddNT 8.8, MatMulAddTN 9.5 (BenchmarkMatMul… m=2708,k=128,n=128).
// gonum's blas32.Gemm, which has assembly inner loops on amd64, reaches
// 12 natively (1.2-1.5x ours) but 1.2 under wasm, where ours reach 4-6:
// MatMul runs ~2x slower under wasm than natively (1.7x best to best,
// 2.9x median to median), gonum ~10-12x.

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

// matMulRows computes rows [lo, hi) of dst = a·b, two rows at a time, adding
// four rows of b per pass over the two dst rows. The grouped update
// d + x0·v0 + x1·v1 + x2·v2 + x3·v3 evaluates left to right, exactly as four
// separate axpys would.
func matMulRows(dst, a, b []float32, k, n, lo, hi int) {
	i := lo
	for ; i+2 <= hi; i += 2 {
		clear(dst[i*n : (i+2)*n])
		d0 := dst[i*n : i*n+n]
		d1 := dst[(i+1)*n : (i+1)*n+n]
		r0 := a[i*k : i*k+k]
		r1 := a[(i+1)*k : (i+1)*k+k]
		p := 0
		for ; p+4 <= k; p += 4 {
			b0 := b[p*n : p*n+n]
			b1 := b[(p+1)*n : (p+1)*n+n][:len(b0)]
			b2 := b[(p+2)*n : (p+2)*n+n][:len(b0)]
			b3 := b[(p+3)*n : (p+3)*n+n][:len(b0)]
			x0, x1, x2, x3 := r0[p], r0[p+1], r0[p+2], r0[p+3]
			y0, y1, y2, y3 := r1[p], r1[p+1], r1[p+2], r1[p+3]
			d0, d1 := d0[:len(b0)], d1[:len(b0)]
			for j := range b0 {
				v0, v1, v2, v3 := b0[j], b1[j], b2[j], b3[j]
				d0[j] = d0[j] + x0*v0 + x1*v1 + x2*v2 + x3*v3
				d1[j] = d1[j] + y0*v0 + y1*v1 + y2*v2 + y3*v3
			}
		}
		for ; p < k; p++ {
			axpy(r0[p], b[p*n:p*n+n], d0)
			axpy(r1[p], b[p*n:p*n+n], d1)
		}
	}
	for ; i < hi; i++ {
		d := dst[i*n : i*n+n]
		clear(d)
		for p, x := range a[i*k : i*k+k] {
			axpy(x, b[p*n:p*n+n], d)
		}
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
// loop (two dst rows, four panel rows per pass) against them. Panels start
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
				r0 := a[i*n+c0 : i*n+c1]
				r1 := a[(i+1)*n+c0 : (i+1)*n+c1]
				d0 := dst[i*k+j0 : i*k+j1]
				d1 := dst[(i+1)*k+j0 : (i+1)*k+j1]
				c := 0
				for ; c+4 <= h; c += 4 {
					b0 := bt[c*w : c*w+w]
					b1 := bt[(c+1)*w : (c+1)*w+w][:len(b0)]
					b2 := bt[(c+2)*w : (c+2)*w+w][:len(b0)]
					b3 := bt[(c+3)*w : (c+3)*w+w][:len(b0)]
					x0, x1, x2, x3 := r0[c], r0[c+1], r0[c+2], r0[c+3]
					y0, y1, y2, y3 := r1[c], r1[c+1], r1[c+2], r1[c+3]
					d0, d1 := d0[:len(b0)], d1[:len(b0)]
					for j := range b0 {
						v0, v1, v2, v3 := b0[j], b1[j], b2[j], b3[j]
						d0[j] = d0[j] + x0*v0 + x1*v1 + x2*v2 + x3*v3
						d1[j] = d1[j] + y0*v0 + y1*v1 + y2*v2 + y3*v3
					}
				}
				for ; c < h; c++ {
					axpy(r0[c], bt[c*w:c*w+w], d0)
					axpy(r1[c], bt[c*w:c*w+w], d1)
				}
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
// rows of b, two dst rows and four rows of b at a time.
func matMulAddTNRows(dst, a, b []float32, m, k, n, lo, hi int) {
	for i0 := 0; i0 < m; i0 += tnBlock {
		i1 := min(i0+tnBlock, m)
		p := lo
		for ; p+2 <= hi; p += 2 {
			d0 := dst[p*n : p*n+n]
			d1 := dst[(p+1)*n : (p+1)*n+n][:len(d0)]
			i := i0
			for ; i+4 <= i1; i += 4 {
				b0 := b[i*n : i*n+n][:len(d0)]
				b1 := b[(i+1)*n : (i+1)*n+n][:len(d0)]
				b2 := b[(i+2)*n : (i+2)*n+n][:len(d0)]
				b3 := b[(i+3)*n : (i+3)*n+n][:len(d0)]
				x0, x1, x2, x3 := a[i*k+p], a[(i+1)*k+p], a[(i+2)*k+p], a[(i+3)*k+p]
				y0, y1, y2, y3 := a[i*k+p+1], a[(i+1)*k+p+1], a[(i+2)*k+p+1], a[(i+3)*k+p+1]
				for j := range d0 {
					v0, v1, v2, v3 := b0[j], b1[j], b2[j], b3[j]
					d0[j] = d0[j] + x0*v0 + x1*v1 + x2*v2 + x3*v3
					d1[j] = d1[j] + y0*v0 + y1*v1 + y2*v2 + y3*v3
				}
			}
			for ; i < i1; i++ {
				axpy(a[i*k+p], b[i*n:i*n+n], d0)
				axpy(a[i*k+p+1], b[i*n:i*n+n], d1)
			}
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
