package f32

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// The tests below hold every kernel to the bit pattern of its reference
// loop (the plain loop quoted in its doc comment): the same products added
// in the same order give the same float32 bits, so the checkpoints trained
// natively (AVX assembly on amd64) and under WebAssembly (the Go loops)
// stay identical. Shapes cover odd sizes, tails below and above the eight
// lanes of a vector, and empty rows.

// sameBits reports the first index where got and want differ in bits.
func sameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: element %d is %v (%#08x), reference loop gives %v (%#08x)",
				what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// kernelWidths are row lengths around the vector width (8), the unrolled
// widths (16, 32) and the real ones (64, 128).
var kernelWidths = []int{1, 3, 7, 8, 9, 15, 16, 17, 23, 24, 31, 33, 64, 127, 128, 130}

// TestSummationOrderMatters shows that the bit comparisons can fail: adding
// the same products in another order changes some bits.
func TestSummationOrderMatters(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	x, y := randVec(r, 128), randVec(r, 128)
	differ := 0
	for trial := range 100 {
		var fwd, rev float32
		for p := range x {
			fwd += x[p] * y[(p+trial)%len(y)]
		}
		for p := len(x) - 1; p >= 0; p-- {
			rev += x[p] * y[(p+trial)%len(y)]
		}
		if math.Float32bits(fwd) != math.Float32bits(rev) {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("forward and reverse sums of 100 random dot products agree bit for bit: the bit tests would not notice a reordering")
	}
}

func TestMatMulBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2))
	for _, n := range kernelWidths {
		for _, mk := range [][2]int{{1, 1}, {2, 4}, {3, 5}, {5, 8}, {6, 13}, {9, 37}} {
			m, k := mk[0], mk[1]
			a, b := randVec(r, m*k), randVec(r, k*n)
			want := make([]float32, m*n)
			for i := range m {
				for j := range n {
					var s float32
					for p := range k {
						s += a[i*k+p] * b[p*n+j]
					}
					want[i*n+j] = s
				}
			}
			got := randVec(r, m*n) // overwritten
			MatMul(got, a, b, m, k, n)
			sameBits(t, fmt.Sprintf("MatMul m=%d,k=%d,n=%d", m, k, n), got, want)
		}
	}
}

func TestMatMulAddNTBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	for _, n := range kernelWidths {
		for _, mk := range [][2]int{{1, 1}, {2, 4}, {3, 17}, {4, 130}, {5, 300}} {
			m, k := mk[0], mk[1]
			a, b, dst := randVec(r, m*n), randVec(r, k*n), randVec(r, m*k)
			want := append([]float32(nil), dst...)
			for i := range m {
				for j := range k {
					s := want[i*k+j]
					for c := range n {
						s += a[i*n+c] * b[j*n+c]
					}
					want[i*k+j] = s
				}
			}
			MatMulAddNT(dst, a, b, m, k, n)
			sameBits(t, fmt.Sprintf("MatMulAddNT m=%d,k=%d,n=%d", m, k, n), dst, want)
		}
	}
}

func TestMatMulAddTNBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 4))
	for _, n := range kernelWidths {
		for _, mk := range [][2]int{{1, 1}, {4, 2}, {17, 3}, {70, 5}, {130, 6}} {
			m, k := mk[0], mk[1]
			a, b, dst := randVec(r, m*k), randVec(r, m*n), randVec(r, k*n)
			want := append([]float32(nil), dst...)
			for p := range k {
				for j := range n {
					s := want[p*n+j]
					for i := range m {
						s += a[i*k+p] * b[i*n+j]
					}
					want[p*n+j] = s
				}
			}
			MatMulAddTN(dst, a, b, m, k, n)
			sameBits(t, fmt.Sprintf("MatMulAddTN m=%d,k=%d,n=%d", m, k, n), dst, want)
		}
	}
}

// spmmRef is SpMM's reference loop, adding to dst.
func spmmRef(dst []float32, a *CSR, b []float32, n int) {
	for r := 0; r < a.Rows; r++ {
		for j := 0; j < n; j++ {
			s := dst[r*n+j]
			for q := a.Indptr[r]; q < a.Indptr[r+1]; q++ {
				s += a.Values[q] * b[int(a.Indices[q])*n+j]
			}
			dst[r*n+j] = s
		}
	}
}

func TestSpMMBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 5))
	for _, n := range kernelWidths {
		for _, s := range [][3]int{{1, 1, 1}, {5, 3, 2}, {40, 30, 3}, {64, 500, 9}} { // rows, cols, perRow (0..2·perRow per row: some empty)
			a := randCSR(r, s[0], s[1], s[2])
			b := randVec(r, a.Cols*n)
			want := make([]float32, a.Rows*n)
			spmmRef(want, a, b, n)
			got := randVec(r, a.Rows*n)
			SpMM(got, a, b, n)
			what := fmt.Sprintf("SpMM %dx%d nnz=%d n=%d", a.Rows, a.Cols, a.NNZ(), n)
			sameBits(t, what, got, want)

			got = randVec(r, a.Rows*n)
			want = append([]float32(nil), got...)
			spmmRef(want, a, b, n)
			SpMMAdd(got, a, b, n)
			sameBits(t, "Add "+what, got, want)
		}
	}
}

// TestTransposeSpMMBits: the backward step Aᵀ·G runs as SpMM over the
// transposed CSR, whose rows list the entries of each column of A in
// increasing row order: for every output element that is the order of the
// reference loop for j, Σ_r A[r,c]·G[r,j], with r ascending.
func TestTransposeSpMMBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 6))
	for _, n := range []int{1, 9, 128} {
		a := randCSR(r, 300, 70, 5)
		g := randVec(r, a.Rows*n)
		want := make([]float32, a.Cols*n)
		for c := 0; c < a.Cols; c++ {
			for j := 0; j < n; j++ {
				var s float32
				for row := 0; row < a.Rows; row++ {
					if v := a.At(row, c); v != 0 {
						s += v * g[row*n+j]
					}
				}
				want[c*n+j] = s
			}
		}
		got := make([]float32, a.Cols*n)
		SpMM(got, a.Transpose(), g, n)
		sameBits(t, fmt.Sprintf("Aᵀ·G n=%d", n), got, want)
	}
}

// TestSpMMTAddBits: SpMMTAdd, which walks A by rows, adds exactly what
// SpMMAdd over the transposed CSR adds, bit for bit, whatever the number of
// goroutines: sparse and dense A, empty rows and columns, and sizes that
// split the work.
func TestSpMMTAddBits(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 3, 9, 128, 130} {
		for _, s := range [][3]int{{1, 1, 1}, {5, 3, 2}, {300, 70, 5}, {2000, 40, 40}, {3000, 64, 64}} { // rows, cols, perRow
			a := randCSR(r, s[0], s[1], s[2])
			b := randVec(r, a.Rows*n)
			start := randVec(r, a.Cols*n)
			want := append([]float32(nil), start...)
			spmmRef(want, a.Transpose(), b, n)
			for _, procs := range []int{1, 2, 4} {
				runtime.GOMAXPROCS(procs)
				what := fmt.Sprintf("%dx%d nnz=%d n=%d GOMAXPROCS=%d", a.Rows, a.Cols, a.NNZ(), n, procs)
				got := append([]float32(nil), start...)
				SpMMTAdd(got, a, b, n)
				sameBits(t, "SpMMTAdd "+what, got, want)
				viaT := append([]float32(nil), start...)
				SpMMAdd(viaT, a.Transpose(), b, n)
				sameBits(t, "SpMMAdd on Aᵀ "+what, viaT, want)
			}
		}
	}
}

func TestAxpyBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range append(kernelWidths, 0, 2, 40, 41, 47, 48, 49) {
		alpha := r.Float32()*4 - 2
		x, y := randVec(r, n), randVec(r, n)
		want := append([]float32(nil), y...)
		for i := range x {
			want[i] += alpha * x[i]
		}
		Axpy(alpha, x, y)
		sameBits(t, fmt.Sprintf("Axpy n=%d", n), y, want)
	}
}

// TestKernelsMatchGo compares the dispatched kernels (the AVX assembly on
// amd64) with the portable Go loops that WebAssembly runs, directly.
func TestKernelsMatchGo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range kernelWidths {
		for _, k := range []int{1, 3, 4, 5, 8, 11} {
			x0, x1, b := randVec(r, k), randVec(r, k), randVec(r, k*n)
			d0, d1 := randVec(r, n), randVec(r, n)
			g0, g1 := append([]float32(nil), d0...), append([]float32(nil), d1...)
			madd2(d0, d1, x0, x1, b)
			madd2Go(g0, g1, x0, x1, b)
			sameBits(t, fmt.Sprintf("madd2 k=%d n=%d d0", k, n), d0, g0)
			sameBits(t, fmt.Sprintf("madd2 k=%d n=%d d1", k, n), d1, g1)

			idx := make([]int32, k)
			for q := range idx {
				idx[q] = int32(r.IntN(k + 2)) // repeats allowed
			}
			val, rows := randVec(r, k), randVec(r, (k+2)*n)
			got := randVec(r, n)
			want := append([]float32(nil), got...)
			spmmRow(got, val, idx, rows)
			spmmRowGo(want, val, idx, rows)
			sameBits(t, fmt.Sprintf("spmmRow nq=%d n=%d", k, n), got, want)

			got = randVec(r, n)
			want = append([]float32(nil), got...)
			axpy(val[0], rows[:n], got)
			axpyGo(val[0], rows[:n], want)
			sameBits(t, fmt.Sprintf("axpy n=%d", n), got, want)
		}
	}
}

// TestSpMMBadIndex: an index out of range panics instead of reading past b.
func TestSpMMBadIndex(t *testing.T) {
	a := &CSR{Rows: 1, Cols: 2, Indptr: []int32{0, 1}, Indices: []int32{5}, Values: []float32{1}}
	defer func() {
		if recover() == nil {
			t.Error("SpMM with column index 5 of 2 did not panic")
		}
	}()
	SpMM(make([]float32, 32), a, make([]float32, 64), 32)
}

// dotLanes is Dot's documented order written out independently of dotGo:
// lane l of the four sums takes the pair a[i+l]·b[i+l] + a[i+4+l]·b[i+4+l]
// of each full block of eight, the tail goes to lane 0, and the lanes are
// combined as (s0+s1)+(s2+s3).
func dotLanes(a, b []float32) float32 {
	var s [4]float32
	n8 := len(a) / 8 * 8
	for i := 0; i < n8; i += 8 {
		for l := range 4 {
			p, q := a[i+l]*b[i+l], a[i+4+l]*b[i+4+l]
			s[l] += p + q
		}
	}
	for i := n8; i < len(a); i++ {
		s[0] += a[i] * b[i]
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// TestDotRowsBits compares DotRows (four rows at a time in the amd64
// kernel) with dotLanes row by row, bit for bit, for every count of rows
// modulo four, rows repeated and out of order, lengths around the block
// sizes, and magnitudes whose sums depend on the order.
func TestDotRowsBits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{1, 7, 8, 15, 16, 17, 24, 31, 40, 128, 131} {
		const nr = 9
		m := randVec(r, nr*n)
		for i := range m {
			m[i] *= float32(math.Ldexp(1, r.IntN(41)-20))
		}
		a := randVec(r, n)
		for count := range 11 {
			rows := make([]int32, count)
			for k := range rows {
				rows[k] = int32(r.IntN(nr))
			}
			dst := randVec(r, count)
			DotRows(dst, a, m, rows)
			want := make([]float32, count)
			for k, row := range rows {
				want[k] = dotLanes(a, m[int(row)*n:int(row+1)*n])
			}
			sameBits(t, fmt.Sprintf("DotRows n=%d rows=%v", n, rows), dst, want)
		}
	}
	dst := []float32{5}
	DotRows(dst, nil, nil, []int32{0})
	if dst[0] != 0 {
		t.Errorf("DotRows of empty vectors = %v, want 0", dst[0])
	}
}

// TestDotScaleBits compares Dot and Scale (the AVX assembly on amd64 for
// 16 elements and more) with the lane order written out and with the
// portable loops, bit for bit, on lengths around the block sizes and on
// vectors whose sums depend on that order.
func TestDotScaleBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for _, n := range append(kernelWidths, 0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 40, 41, 127, 128, 129, 256) {
		for rep := range 4 {
			a, b := randVec(r, n), randVec(r, n)
			if rep == 1 {
				// Magnitudes over 2^±20: the lanes' rounding shows.
				for i := range a {
					a[i] *= float32(math.Ldexp(1, r.IntN(41)-20))
				}
			}
			if rep == 2 && n > 0 {
				a[r.IntN(n)] = float32(math.Copysign(0, -1))
				b[r.IntN(n)] = float32(math.Inf(1 - 2*r.IntN(2)))
			}
			want := dotLanes(a, b)
			got, goGot := Dot(a, b), dotGo(a, b)
			if math.Float32bits(got) != math.Float32bits(want) || math.Float32bits(goGot) != math.Float32bits(want) {
				t.Errorf("Dot n=%d rep=%d = %v (Go loop %v), want %v", n, rep, got, goGot, want)
			}
			alpha := r.Float32()*4 - 2
			dst := randVec(r, n)
			wantS := make([]float32, n)
			for i := range a {
				wantS[i] = alpha * a[i]
			}
			Scale(dst, alpha, a)
			sameBits(t, fmt.Sprintf("Scale n=%d rep=%d", n, rep), dst, wantS)
			Scale(a, alpha, a) // in place
			sameBits(t, fmt.Sprintf("Scale in place n=%d rep=%d", n, rep), a, wantS)
		}
	}
}
