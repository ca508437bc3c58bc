package f32

// Vector helpers. Each is a plain loop unrolled by 8 (the Go compiler does
// not vectorise; slicing each block to [:8:8] leaves one bounds check per
// block instead of one per element). Slices of different lengths are a caller bug and panic with
// "f32: <op>: length mismatch".
//
// The two hot ones, dot and axpy (the inner loops of SpMM's tails, the
// gathers and scatters of autograd and neighbour scoring), index instead:
// with the loop condition i < len(x)-7 the compiler proves every index in
// range, so no bounds check is left and no slice headers are updated per
// block. The gain is small (measured: docs/kernels.md).

func mustSameLen(op string, a, b int) {
	if a != b {
		panic("f32: " + op + ": length mismatch")
	}
}

// Dot returns Σ_i a[i]·b[i]. It uses four running sums (lanes i mod 4 of each
// block of 8) added at the end, so its rounding differs slightly from the
// plain loop
//
//	for i := range a { s += a[i] * b[i] }
//
// but it is deterministic. Dot panics if len(a) != len(b).
func Dot(a, b []float32) float32 {
	mustSameLen("Dot", len(a), len(b))
	return dot(a, b)
}

// DotRows sets dst[k] = Dot(a, m[r·n:(r+1)·n]) for r = rows[k] and
// n = len(a): the dot products of a with rows of the row-major matrix m,
// bit for bit as Dot computes each. Taking the rows together lets the
// amd64 kernel run four of them at once, sharing the loads of a and
// overlapping their additions. It panics if len(dst) != len(rows), if
// len(m) is not a multiple of n, or if a row is out of range.
func DotRows(dst, a, m []float32, rows []int32) {
	mustSameLen("DotRows", len(dst), len(rows))
	n := len(a)
	if n == 0 {
		clear(dst)
		return
	}
	if len(m)%n != 0 {
		panic("f32: DotRows: matrix length not a multiple of the row length")
	}
	nr := len(m) / n
	for _, r := range rows {
		if uint(r) >= uint(nr) {
			panic("f32: DotRows: row out of range")
		}
	}
	dotRows(dst, a, m, rows)
}

// dotRowsGo is dotRows one row at a time with dotGo.
func dotRowsGo(dst, a, m []float32, rows []int32) {
	n := len(a)
	for k, r := range rows {
		dst[k] = dotGo(a, m[int(r)*n:][:n])
	}
}

// dotGo is Dot without the length check; len(b) >= len(a). It is the
// portable loop behind dot (kernels_*.go).
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i < len(a)-7; i += 8 {
		s0 += a[i]*b[i] + a[i+4]*b[i+4]
		s1 += a[i+1]*b[i+1] + a[i+5]*b[i+5]
		s2 += a[i+2]*b[i+2] + a[i+6]*b[i+6]
		s3 += a[i+3]*b[i+3] + a[i+7]*b[i+7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Axpy adds alpha·x to y:
//
//	for i := range x { y[i] += alpha * x[i] }
//
// It panics if len(x) != len(y).
func Axpy(alpha float32, x, y []float32) {
	mustSameLen("Axpy", len(x), len(y))
	axpy(alpha, x, y)
}

// axpyGo is Axpy without the length check; len(y) >= len(x). It is the
// portable loop behind axpy (kernels_*.go).
func axpyGo(alpha float32, x, y []float32) {
	y = y[:len(x)]
	i := 0
	for ; i < len(x)-7; i += 8 {
		y[i] += alpha * x[i]
		y[i+1] += alpha * x[i+1]
		y[i+2] += alpha * x[i+2]
		y[i+3] += alpha * x[i+3]
		y[i+4] += alpha * x[i+4]
		y[i+5] += alpha * x[i+5]
		y[i+6] += alpha * x[i+6]
		y[i+7] += alpha * x[i+7]
	}
	for ; i < len(x); i++ {
		y[i] += alpha * x[i]
	}
}

// Scale sets dst = alpha·x. dst may be x itself. It panics if
// len(dst) != len(x).
func Scale(dst []float32, alpha float32, x []float32) {
	mustSameLen("Scale", len(dst), len(x))
	scale(dst, alpha, x)
}

// scaleGo is Scale without the length check; len(dst) >= len(x). It is the
// portable loop behind scale (kernels_*.go).
func scaleGo(dst []float32, alpha float32, x []float32) {
	for len(x) >= 8 {
		a, d := x[:8:8], dst[:8:8]
		d[0] = alpha * a[0]
		d[1] = alpha * a[1]
		d[2] = alpha * a[2]
		d[3] = alpha * a[3]
		d[4] = alpha * a[4]
		d[5] = alpha * a[5]
		d[6] = alpha * a[6]
		d[7] = alpha * a[7]
		x, dst = x[8:], dst[8:]
	}
	for i := range x {
		dst[i] = alpha * x[i]
	}
}

// Add sets dst = a + b elementwise. dst may alias a or b. It panics unless
// all three lengths agree.
func Add(dst, a, b []float32) {
	mustSameLen("Add", len(dst), len(a))
	mustSameLen("Add", len(dst), len(b))
	for len(a) >= 8 {
		x, y, d := a[:8:8], b[:8:8], dst[:8:8]
		d[0] = x[0] + y[0]
		d[1] = x[1] + y[1]
		d[2] = x[2] + y[2]
		d[3] = x[3] + y[3]
		d[4] = x[4] + y[4]
		d[5] = x[5] + y[5]
		d[6] = x[6] + y[6]
		d[7] = x[7] + y[7]
		a, b, dst = a[8:], b[8:], dst[8:]
	}
	for i := range a {
		dst[i] = a[i] + b[i]
	}
}

// Sub sets dst = a - b elementwise. dst may alias a or b. It panics unless
// all three lengths agree.
func Sub(dst, a, b []float32) {
	mustSameLen("Sub", len(dst), len(a))
	mustSameLen("Sub", len(dst), len(b))
	for len(a) >= 8 {
		x, y, d := a[:8:8], b[:8:8], dst[:8:8]
		d[0] = x[0] - y[0]
		d[1] = x[1] - y[1]
		d[2] = x[2] - y[2]
		d[3] = x[3] - y[3]
		d[4] = x[4] - y[4]
		d[5] = x[5] - y[5]
		d[6] = x[6] - y[6]
		d[7] = x[7] - y[7]
		a, b, dst = a[8:], b[8:], dst[8:]
	}
	for i := range a {
		dst[i] = a[i] - b[i]
	}
}

// Mul sets dst = a ⊙ b (elementwise product). dst may alias a or b. It
// panics unless all three lengths agree.
func Mul(dst, a, b []float32) {
	mustSameLen("Mul", len(dst), len(a))
	mustSameLen("Mul", len(dst), len(b))
	for len(a) >= 8 {
		x, y, d := a[:8:8], b[:8:8], dst[:8:8]
		d[0] = x[0] * y[0]
		d[1] = x[1] * y[1]
		d[2] = x[2] * y[2]
		d[3] = x[3] * y[3]
		d[4] = x[4] * y[4]
		d[5] = x[5] * y[5]
		d[6] = x[6] * y[6]
		d[7] = x[7] * y[7]
		a, b, dst = a[8:], b[8:], dst[8:]
	}
	for i := range a {
		dst[i] = a[i] * b[i]
	}
}

// MulAdd adds a ⊙ b to dst: dst[i] += a[i]·b[i]. It panics unless all three
// lengths agree.
func MulAdd(dst, a, b []float32) {
	mustSameLen("MulAdd", len(dst), len(a))
	mustSameLen("MulAdd", len(dst), len(b))
	for len(a) >= 8 {
		x, y, d := a[:8:8], b[:8:8], dst[:8:8]
		d[0] += x[0] * y[0]
		d[1] += x[1] * y[1]
		d[2] += x[2] * y[2]
		d[3] += x[3] * y[3]
		d[4] += x[4] * y[4]
		d[5] += x[5] * y[5]
		d[6] += x[6] * y[6]
		d[7] += x[7] * y[7]
		a, b, dst = a[8:], b[8:], dst[8:]
	}
	for i := range a {
		dst[i] += a[i] * b[i]
	}
}

// Sum returns Σ_i x[i], with the same four-lane summation as Dot.
func Sum(x []float32) float32 {
	var s0, s1, s2, s3 float32
	for len(x) >= 8 {
		a := x[:8:8]
		s0 += a[0] + a[4]
		s1 += a[1] + a[5]
		s2 += a[2] + a[6]
		s3 += a[3] + a[7]
		x = x[8:]
	}
	for _, v := range x {
		s0 += v
	}
	return (s0 + s1) + (s2 + s3)
}
