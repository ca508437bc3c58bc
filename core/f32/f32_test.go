package f32

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Guard values around every destination catch out-of-bounds writes (the
// guardVector idea of gonum/internal/asm/f32).
const (
	guardLen = 8
	guardVal = float32(-12345.5)
)

// guarded returns a slice of length n inside a larger buffer whose guard
// cells hold guardVal, and the buffer itself.
func guarded(n int) (buf, inner []float32) {
	buf = make([]float32, n+2*guardLen)
	for i := range buf {
		buf[i] = guardVal
	}
	return buf, buf[guardLen : guardLen+n : guardLen+n]
}

func checkGuards(t *testing.T, name string, buf []float32) {
	t.Helper()
	n := len(buf) - 2*guardLen
	for i := 0; i < guardLen; i++ {
		if buf[i] != guardVal {
			t.Errorf("%s: front guard %d overwritten with %v", name, i, buf[i])
		}
		if buf[guardLen+n+i] != guardVal {
			t.Errorf("%s: back guard %d overwritten with %v", name, i, buf[guardLen+n+i])
		}
	}
}

func randVec(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

// dense64 wraps a row-major float32 matrix as a float64 gonum matrix. Empty
// shapes have no gonum representation and return nil.
func dense64(rows, cols int, v []float32) *mat.Dense {
	if rows == 0 || cols == 0 {
		return nil
	}
	d := mat.NewDense(rows, cols, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			d.Set(i, j, float64(v[i*cols+j]))
		}
	}
	return d
}

// mul64 returns x·y (x r×q, y q×c) in float64 via gonum's mat.Dense.Mul, as a
// row-major slice; empty inner dimension gives zeros.
func mul64(x *mat.Dense, y *mat.Dense, r, q, c int) []float64 {
	out := make([]float64, r*c)
	if r == 0 || c == 0 || q == 0 {
		return out
	}
	var p mat.Dense
	p.Mul(x, y)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out[i*c+j] = p.At(i, j)
		}
	}
	return out
}

// abs64 returns the elementwise absolute value of a float32 matrix as float64.
func abs64(rows, cols int, v []float32) *mat.Dense {
	d := dense64(rows, cols, v)
	if d != nil {
		d.Apply(func(_, _ int, x float64) float64 { return math.Abs(x) }, d)
	}
	return d
}

// u32 is the float32 unit roundoff 2⁻²⁴. Summing q products in float32 in
// any order errs by at most q·u32·Σ|terms| (Higham, Accuracy and Stability of
// Numerical Algorithms, eq. 3.5), which is the tolerance used below: tight
// enough that any transposed or misplaced term fails by orders of magnitude.
const u32 = 1.0 / (1 << 24)

func checkClose(t *testing.T, name string, got []float32, want, mag []float64, q int) {
	t.Helper()
	for i := range got {
		tol := float64(q+2)*u32*mag[i] + 1e-30
		if d := math.Abs(float64(got[i]) - want[i]); d > tol || math.IsNaN(float64(got[i])) {
			t.Fatalf("%s: element %d = %v, want %v (|diff| %.3g > tol %.3g)", name, i, got[i], want[i], d, tol)
		}
	}
}

// noFMA reports whether the compiler never fuses x*y+z on this GOARCH, so
// that kernels claiming the reference loop's summation order must match it
// bit for bit.
var noFMA = runtime.GOARCH == "amd64" || runtime.GOARCH == "386" || runtime.GOARCH == "wasm"

// shapes are the (m, k, n) triples every dense kernel is tested on: empty,
// odd, smaller and larger than the unrolled blocks, and large enough to run
// in parallel (m·k·n > minParallelWork).
var shapes = [][3]int{
	{0, 0, 0}, {0, 3, 4}, {3, 0, 4}, {3, 4, 0}, {1, 1, 1}, {2, 3, 5}, {5, 4, 3},
	{7, 13, 9}, {8, 8, 8}, {33, 65, 17}, {64, 64, 64}, {130, 257, 70}, {3, 600, 5},
	{301, 2, 301}, {97, 129, 263},
}

func TestMatMul(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for c, s := range shapes {
		m, k, n := s[0], s[1], s[2]
		name := fmt.Sprintf("case %d m=%d,k=%d,n=%d", c, m, k, n)
		a, b := randVec(r, m*k), randVec(r, k*n)
		buf, dst := guarded(m * n)
		for i := range dst {
			dst[i] = float32(math.NaN()) // MatMul overwrites
		}
		MatMul(dst, a, b, m, k, n)
		checkGuards(t, name, buf)
		want := mul64(dense64(m, k, a), dense64(k, n, b), m, k, n)
		mag := mul64(abs64(m, k, a), abs64(k, n, b), m, k, n)
		checkClose(t, name, dst, want, mag, k)
		if noFMA {
			ref := make([]float32, m*n)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					var s float32
					for p := 0; p < k; p++ {
						s += a[i*k+p] * b[p*n+j]
					}
					ref[i*n+j] = s
				}
			}
			for i := range ref {
				if ref[i] != dst[i] {
					t.Fatalf("%s: element %d = %v, reference loop gives %v", name, i, dst[i], ref[i])
				}
			}
		}
	}
}

func TestMatMulAddNT(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for c, s := range append(shapes, [3]int{5, 300, 9}, [3]int{6, 9, 700}) {
		m, k, n := s[0], s[1], s[2]
		name := fmt.Sprintf("case %d m=%d,k=%d,n=%d", c, m, k, n)
		a, b := randVec(r, m*n), randVec(r, k*n)
		buf, dst := guarded(m * k)
		d0 := randVec(r, m*k)
		copy(dst, d0)
		MatMulAddNT(dst, a, b, m, k, n)
		checkGuards(t, name, buf)
		want := make([]float64, m*k)
		mag := make([]float64, m*k)
		if m > 0 && k > 0 && n > 0 {
			var p mat.Dense
			p.Mul(dense64(m, n, a), dense64(k, n, b).T())
			var q mat.Dense
			q.Mul(abs64(m, n, a), abs64(k, n, b).T())
			for i := 0; i < m; i++ {
				for j := 0; j < k; j++ {
					want[i*k+j] = p.At(i, j)
					mag[i*k+j] = q.At(i, j)
				}
			}
		}
		for i := range want {
			want[i] += float64(d0[i])
			mag[i] += math.Abs(float64(d0[i]))
		}
		checkClose(t, name, dst, want, mag, n+1)
		if noFMA {
			for i := 0; i < m; i++ {
				for j := 0; j < k; j++ {
					s := d0[i*k+j]
					for c := 0; c < n; c++ {
						s += a[i*n+c] * b[j*n+c]
					}
					if s != dst[i*k+j] {
						t.Fatalf("%s: (%d,%d) = %v, reference loop gives %v", name, i, j, dst[i*k+j], s)
					}
				}
			}
		}
	}
}

func TestMatMulAddTN(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 3))
	for c, s := range append(shapes, [3]int{200, 3, 5}) {
		m, k, n := s[0], s[1], s[2]
		name := fmt.Sprintf("case %d m=%d,k=%d,n=%d", c, m, k, n)
		a, b := randVec(r, m*k), randVec(r, m*n)
		buf, dst := guarded(k * n)
		d0 := randVec(r, k*n)
		copy(dst, d0)
		MatMulAddTN(dst, a, b, m, k, n)
		checkGuards(t, name, buf)
		want := make([]float64, k*n)
		mag := make([]float64, k*n)
		if m > 0 && k > 0 && n > 0 {
			var p, q mat.Dense
			p.Mul(dense64(m, k, a).T(), dense64(m, n, b))
			q.Mul(abs64(m, k, a).T(), abs64(m, n, b))
			for i := 0; i < k; i++ {
				for j := 0; j < n; j++ {
					want[i*n+j] = p.At(i, j)
					mag[i*n+j] = q.At(i, j)
				}
			}
		}
		for i := range want {
			want[i] += float64(d0[i])
			mag[i] += math.Abs(float64(d0[i]))
		}
		checkClose(t, name, dst, want, mag, m+1)
		if noFMA {
			for p := 0; p < k; p++ {
				for j := 0; j < n; j++ {
					s := d0[p*n+j]
					for i := 0; i < m; i++ {
						s += a[i*k+p] * b[i*n+j]
					}
					if s != dst[p*n+j] {
						t.Fatalf("%s: (%d,%d) = %v, reference loop gives %v", name, p, j, dst[p*n+j], s)
					}
				}
			}
		}
	}
}

// randCSR returns a rows×cols matrix with about perRow entries per row (some
// rows empty), columns sorted and unique.
func randCSR(r *rand.Rand, rows, cols, perRow int) *CSR {
	m := &CSR{Rows: rows, Cols: cols, Indptr: make([]int32, rows+1)}
	for i := 0; i < rows; i++ {
		if cols > 0 {
			deg := r.IntN(2*perRow + 1)
			cs := make([]int32, 0, deg)
			for d := 0; d < deg; d++ {
				cs = append(cs, int32(r.IntN(cols)))
			}
			slices.Sort(cs)
			for _, c := range slices.Compact(cs) {
				m.Indices = append(m.Indices, c)
				m.Values = append(m.Values, r.Float32()*2-1)
			}
		}
		m.Indptr[i+1] = int32(len(m.Indices))
	}
	return m
}

func csrDense(m *CSR) []float32 {
	d := make([]float32, m.Rows*m.Cols)
	for r := 0; r < m.Rows; r++ {
		idx, val := m.Row(r)
		for q, c := range idx {
			d[r*m.Cols+int(c)] = val[q]
		}
	}
	return d
}

func TestSpMM(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4))
	for c, s := range [][4]int{ // rows, cols, perRow, n
		{0, 0, 0, 3}, {0, 5, 1, 3}, {4, 0, 0, 3}, {4, 5, 2, 0}, {1, 1, 1, 1},
		{7, 9, 3, 5}, {30, 20, 4, 17}, {500, 400, 6, 64}, {2000, 2000, 3, 33},
	} {
		rows, cols, per, n := s[0], s[1], s[2], s[3]
		a := randCSR(r, rows, cols, per)
		if err := a.Validate(); err != nil {
			t.Fatal(err)
		}
		b := randVec(r, cols*n)
		ad := csrDense(a)
		want := mul64(dense64(rows, cols, ad), dense64(cols, n, b), rows, cols, n)
		mag := mul64(abs64(rows, cols, ad), abs64(cols, n, b), rows, cols, n)
		maxDeg := 0
		for i := 0; i < rows; i++ {
			maxDeg = max(maxDeg, int(a.Indptr[i+1]-a.Indptr[i]))
		}
		for _, add := range []bool{false, true} {
			name := fmt.Sprintf("case %d rows=%d,cols=%d,nnz=%d,n=%d add=%v", c, rows, cols, a.NNZ(), n, add)
			buf, dst := guarded(rows * n)
			d0 := randVec(r, rows*n)
			copy(dst, d0)
			w, g := append([]float64(nil), want...), append([]float64(nil), mag...)
			if add {
				SpMMAdd(dst, a, b, n)
				for i := range w {
					w[i] += float64(d0[i])
					g[i] += math.Abs(float64(d0[i]))
				}
			} else {
				SpMM(dst, a, b, n)
			}
			checkGuards(t, name, buf)
			checkClose(t, name, dst, w, g, maxDeg+1)
			if noFMA {
				for i := 0; i < rows; i++ {
					for j := 0; j < n; j++ {
						var s float32
						if add {
							s = d0[i*n+j]
						}
						for q := a.Indptr[i]; q < a.Indptr[i+1]; q++ {
							s += a.Values[q] * b[int(a.Indices[q])*n+j]
						}
						if s != dst[i*n+j] {
							t.Fatalf("%s: (%d,%d) = %v, reference loop gives %v", name, i, j, dst[i*n+j], s)
						}
					}
				}
			}
		}
	}
}

// TestParallelBitIdentical runs every parallel kernel on shapes well above
// the parallel threshold (odd sizes, so spans end mid-block) under
// GOMAXPROCS 1, 2, 3 and 4 and demands identical bits.
func TestParallelBitIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 5))
	const m, k, n = 301, 67, 129
	if workers(k, m*k*n) < 2 && runtime.GOMAXPROCS(0) >= 2 {
		t.Fatal("test shape too small to run in parallel")
	}
	a := randVec(r, m*k)
	b := randVec(r, k*n)
	c := randVec(r, m*n)
	sp := randCSR(r, 1001, 2003, 7)
	x := randVec(r, 2003*n)
	d0 := randVec(r, m*k)
	run := func() [][]float32 {
		mm := make([]float32, m*n)
		MatMul(mm, a, b, m, k, n)
		nt := append([]float32(nil), d0...)
		MatMulAddNT(nt, c, b, m, k, n)
		tn := append([]float32(nil), b...)
		MatMulAddTN(tn, a, c, m, k, n)
		s := make([]float32, 1001*n)
		SpMM(s, sp, x, n)
		s2 := append([]float32(nil), s...)
		SpMMAdd(s2, sp, x, n)
		return [][]float32{mm, nt, tn, s, s2}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	want := run()
	for _, p := range []int{2, 3, 4} {
		runtime.GOMAXPROCS(p)
		got := run()
		for i, names := range []string{"MatMul", "MatMulAddNT", "MatMulAddTN", "SpMM", "SpMMAdd"} {
			for j := range want[i] {
				if math.Float32bits(got[i][j]) != math.Float32bits(want[i][j]) {
					t.Fatalf("%s GOMAXPROCS=%d: element %d = %v, GOMAXPROCS=1 gives %v", names, p, j, got[i][j], want[i][j])
				}
			}
		}
	}
}

func TestSpan(t *testing.T) {
	for units := 0; units < 40; units++ {
		for p := 1; p <= 5; p++ {
			for _, align := range []int{1, 2, 4} {
				next := 0
				for g := 0; g < p; g++ {
					lo, hi := span(g, p, units, align)
					if lo != next || hi < lo || (hi != units && hi%align != 0) {
						t.Fatalf("span(%d, %d, %d, %d) = [%d, %d), want lo %d", g, p, units, align, lo, hi, next)
					}
					next = hi
				}
				if next != units {
					t.Fatalf("spans of %d (p=%d, align=%d) end at %d", units, p, align, next)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 6))
	a := randCSR(r, 50, 50, 3)
	for p := 1; p <= 7; p++ {
		next := 0
		for g := 0; g < p; g++ {
			lo, hi := spmmSpan(a, g, p)
			if lo != next || hi < lo {
				t.Fatalf("spmmSpan(%d, %d) = [%d, %d), want lo %d", g, p, lo, hi, next)
			}
			next = hi
		}
		if next != a.Rows {
			t.Fatalf("spmmSpan p=%d ends at %d", p, next)
		}
	}
}

func TestVectorOps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 7))
	for n := 0; n <= 35; n++ {
		x, y := randVec(r, n), randVec(r, n)
		var dot, sum, dmag, smag float64
		for i := range x {
			dot += float64(x[i]) * float64(y[i])
			dmag += math.Abs(float64(x[i]) * float64(y[i]))
			sum += float64(x[i])
			smag += math.Abs(float64(x[i]))
		}
		if got := Dot(x, y); math.Abs(float64(got)-dot) > float64(n+1)*u32*dmag {
			t.Errorf("n=%d: Dot = %v, want %v", n, got, dot)
		}
		if got := Sum(x); math.Abs(float64(got)-sum) > float64(n+1)*u32*smag {
			t.Errorf("n=%d: Sum = %v, want %v", n, got, sum)
		}
		const alpha = float32(-1.75)
		elementwise := []struct {
			name string
			run  func(dst []float32)
			want func(d0, x, y float32) float32
		}{
			{"Axpy", func(dst []float32) { Axpy(alpha, x, dst) }, func(d0, x, _ float32) float32 { return d0 + alpha*x }},
			{"Scale", func(dst []float32) { Scale(dst, alpha, x) }, func(_, x, _ float32) float32 { return alpha * x }},
			{"Add", func(dst []float32) { Add(dst, x, y) }, func(_, x, y float32) float32 { return x + y }},
			{"Sub", func(dst []float32) { Sub(dst, x, y) }, func(_, x, y float32) float32 { return x - y }},
			{"Mul", func(dst []float32) { Mul(dst, x, y) }, func(_, x, y float32) float32 { return x * y }},
			{"MulAdd", func(dst []float32) { MulAdd(dst, x, y) }, func(d0, x, y float32) float32 { return d0 + x*y }},
		}
		for _, e := range elementwise {
			buf, dst := guarded(n)
			d0 := randVec(r, n)
			copy(dst, d0)
			e.run(dst)
			checkGuards(t, e.name, buf)
			for i := range dst {
				// One rounding each: the reference is exact in float32.
				if want := e.want(d0[i], x[i], y[i]); dst[i] != want {
					t.Fatalf("n=%d: %s[%d] = %v, want %v", n, e.name, i, dst[i], want)
				}
			}
		}
	}
}

func TestPanics(t *testing.T) {
	s3, s4 := make([]float32, 3), make([]float32, 4)
	sp := &CSR{Rows: 2, Cols: 2, Indptr: []int32{0, 0, 0}}
	for i, f := range []func(){
		func() { Dot(s3, s4) },
		func() { DotRows(s3, s4, s4, []int32{0, 0}) },  // dst 3 for 2 rows
		func() { DotRows(s3[:1], s4, s3, []int32{0}) }, // m not whole rows
		func() { DotRows(s3[:1], s3, s3, []int32{1}) }, // row 1 of 1
		func() { DotRows(s3[:1], s3, s3, []int32{-1}) },
		func() { Axpy(1, s3, s4) },
		func() { Scale(s3, 1, s4) },
		func() { Add(s3, s3, s4) },
		func() { Sub(s4, s3, s4) },
		func() { Mul(s3, s4, s3) },
		func() { MulAdd(s3, s3, s4) },
		func() { MatMul(s4, s4, s4, 2, 2, 1) },    // dst 2×1 needs 2
		func() { MatMul(s4, s3, s4, 2, 2, 2) },    // a needs 4
		func() { MatMul(s4, s4, s4, -2, -2, -1) }, // negative shape
		func() { MatMulAddNT(s4, s4, s3, 2, 2, 2) },
		func() { MatMulAddTN(s3, s4, s4, 2, 2, 2) },
		func() { SpMM(s3, sp, s4, 2) },
		func() { SpMMAdd(s4, sp, s3, 2) },
		func() { SpMM(s4, sp, s4, -2) },
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.HasPrefix(msg, "f32: ") {
					t.Errorf("case %d: panic %q, want an \"f32: \" panic", i, msg)
				}
			}()
			f()
		}()
	}
}

// TestCSRValidate: each broken structure is reported, never a panic.
func TestCSRValidate(t *testing.T) {
	ok := func() *CSR {
		return &CSR{Rows: 2, Cols: 3, Indptr: []int32{0, 2, 3}, Indices: []int32{0, 2, 1}, Values: []float32{1, 2, 3}}
	}
	if err := ok().Validate(); err != nil {
		t.Fatalf("valid matrix: %v", err)
	}
	for n, breakIt := range []func(*CSR){
		func(m *CSR) { m.Indptr[1] = 9 },                 // interior pointer past the end
		func(m *CSR) { m.Indptr = m.Indptr[:2] },         // wrong length
		func(m *CSR) { m.Indices[1] = 3 },                // column out of range
		func(m *CSR) { m.Indices[1] = 0 },                // not increasing
		func(m *CSR) { m.Values = m.Values[:2] },         // values missing
		func(m *CSR) { m.Indptr[1], m.Indptr[2] = 3, 2 }, // decreasing
	} {
		m := ok()
		breakIt(m)
		if err := m.Validate(); err == nil {
			t.Errorf("case %d: no error for %+v", n, m)
		}
	}
}

func TestNormalizeRows(t *testing.T) {
	m := &CSR{Rows: 3, Cols: 3, Indptr: []int32{0, 2, 2, 3}, Indices: []int32{0, 2, 1}, Values: []float32{3, 4, -2}}
	y := m.NormalizeRows()
	want := []float32{0.6, 0.8, -1}
	for k, v := range y.Values {
		if math.Abs(float64(v-want[k])) > 1e-7 {
			t.Errorf("value %d = %v, want %v", k, v, want[k])
		}
	}
	if m.Values[0] != 3 {
		t.Error("NormalizeRows modified its input")
	}
}
