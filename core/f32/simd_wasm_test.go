//go:build wasm && goexperiment.simd

package f32

import (
	"math"
	"math/rand/v2"
	"testing"
)

// spread draws n values over 24 binades and both signs, so that a change
// in the order of additions shows in the low bits.
func spread(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = (r.Float32()*2 - 1) * float32(math.Ldexp(1, r.IntN(24)-12))
	}
	return s
}

// TestSIMDIsGoLoops: every SIMD loop gives its Go loop's bits, for every
// length up to 300 and a spread of row counts.
func TestSIMDIsGoLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for n := 1; n <= 300; n++ {
		for range 8 {
			a, b := spread(r, n), spread(r, n)
			sameBits(t, "dot", []float32{dotSIMD(a, b)}, []float32{dotGo(a, b)})
			alpha := spread(r, 1)[0]
			y0, y1 := append([]float32(nil), b...), append([]float32(nil), b...)
			axpySIMD(alpha, a, y0)
			axpyGo(alpha, a, y1)
			sameBits(t, "axpy", y0, y1)
		}
	}
	const rows = 37
	for _, n := range []int{1, 3, 4, 7, 8, 15, 16, 17, 31, 64, 128, 129, 300} {
		m, a := spread(r, rows*n), spread(r, n)
		idx := make([]int32, 50)
		for k := range idx {
			idx[k] = int32(r.IntN(rows))
		}
		got, want := make([]float32, len(idx)), make([]float32, len(idx))
		dotRows(got, a, m, idx)
		dotRowsGo(want, a, m, idx)
		sameBits(t, "dotRows", got, want)
		for _, q := range []int{0, 1, 3, 4, 5, 9, 16} {
			val := spread(r, q)
			d0 := spread(r, n)
			d1 := append([]float32(nil), d0...)
			spmmRowSIMD(d0, val, idx[:q], m)
			spmmRowGo(d1, val, idx[:q], m)
			sameBits(t, "spmmRow", d0, d1)
		}
		for _, k := range []int{1, 4, 6, 8, rows} {
			x0, x1 := spread(r, k), spread(r, k)
			e0, e1 := spread(r, n), spread(r, n)
			f0, f1 := append([]float32(nil), e0...), append([]float32(nil), e1...)
			madd2SIMD(e0, e1, x0, x1, m[:k*n])
			madd2Go(f0, f1, x0, x1, m[:k*n])
			sameBits(t, "madd2 (first)", e0, f0)
			sameBits(t, "madd2 (second)", e1, f1)
		}
	}
}

// TestSIMDOrderShows: the values spread enough that adding a dot product
// left to right, not in dotGo's four lanes, changes its bits, so the test
// above would see a SIMD loop that changed the order.
func TestSIMDOrderShows(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for range 100 {
		a, b := spread(r, 128), spread(r, 128)
		var s float32
		for i := range a {
			s += a[i] * b[i]
		}
		if math.Float32bits(s) != math.Float32bits(dotSIMD(a, b)) {
			return
		}
	}
	t.Fatal("a left-to-right dot matched the four-lane one 100 times")
}
