package detmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sameBits reports whether a and b are the same float32 bits, any NaN
// matching any NaN.
func sameBits(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

// checkSigmoids compares Sigmoids with Sigmoid value by value, into a
// fresh slice and in place.
func checkSigmoids(t *testing.T, x []float32) {
	t.Helper()
	got := make([]float32, len(x))
	Sigmoids(got, x)
	in := append([]float32(nil), x...)
	Sigmoids(in, in)
	for k, v := range x {
		want := Sigmoid(v)
		if !sameBits(got[k], want) || !sameBits(in[k], want) {
			t.Fatalf("Sigmoids at %d of %d: x %v (%#x): %v (%#x), in place %v, want Sigmoid's %v (%#x)",
				k, len(x), v, math.Float32bits(v), got[k], math.Float32bits(got[k]), in[k], want, math.Float32bits(want))
		}
	}
}

// Sigmoids gives Sigmoid's bits: on a million dot-product-sized arguments,
// on arguments out to ±800 and past the four-at-a-time range (±700),
// around 700 itself, on every residue n mod 32 of Exp's reduction, on
// special values inside blocks of ordinary ones, and on every length's
// tail.
func TestSigmoidsBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 1<<20)
	for k := range x {
		x[k] = float32(rng.NormFloat64() * 4)
	}
	checkSigmoids(t, x)
	for k := range x {
		x[k] = float32((rng.Float64()*2 - 1) * 800)
	}
	checkSigmoids(t, x)
	var edge []float32
	for _, c := range []float32{700, -700} {
		v := c
		for range 8 {
			edge = append(edge, v)
			v = math.Nextafter32(v, 0)
		}
		v = c
		for range 8 {
			v = math.Nextafter32(v, 2*c)
			edge = append(edge, v)
		}
	}
	// y·32/ln 2 near every half-integer: each residue j of n mod 32, and
	// the rounding to n either way.
	for n := -96; n <= 96; n++ {
		y := (float64(n) + 0.5) * math.Ln2 / 32
		for _, d := range []float64{-1e-7, 0, 1e-7} {
			edge = append(edge, float32(-(y + d)))
		}
	}
	checkSigmoids(t, edge)
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -1e-45, 1e-38, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32, 88.7, -88.7, 103.9, -103.9}
	for _, s := range special {
		block := []float32{0.25, -1.5, 3, -7, s, 2, -2, 9, 0.5, 1}
		checkSigmoids(t, block)
	}
	for n := range 14 {
		checkSigmoids(t, x[:n])
	}
}

// Sigmoid against math.Exp's logistic: within one float32 ulp (the two
// exponentials differ in the last float64 bits, which can move a rounding
// to float32 by one), exactly 0.5 at 0, 1 and 0 far out, NaN for NaN.
func TestSigmoidAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		x := float32((rng.Float64()*2 - 1) * 120)
		want := float32(1 / (1 + math.Exp(-float64(x))))
		got := Sigmoid(x)
		if got != want && math.Nextafter32(got, want) != want {
			t.Fatalf("Sigmoid(%v) = %v, math.Exp's %v", x, got, want)
		}
	}
	if Sigmoid(0) != 0.5 || Sigmoid(200) != 1 || Sigmoid(-800) != 0 || !math.IsNaN(float64(Sigmoid(float32(math.NaN())))) {
		t.Errorf("Sigmoid(0, 200, −800, NaN) = %v, %v, %v, %v", Sigmoid(0), Sigmoid(200), Sigmoid(-800), Sigmoid(float32(math.NaN())))
	}
}

func TestSigmoidsShortDestination(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Sigmoids into a shorter slice did not panic")
		}
	}()
	Sigmoids(make([]float32, 2), make([]float32, 3))
}

// FuzzSigmoids: any eight float32 bit patterns come out of Sigmoids with
// Sigmoid's bits.
func FuzzSigmoids(f *testing.F) {
	f.Add(uint32(0), uint32(0x3f800000), uint32(0x442f0000), uint32(0x7fc00000), uint32(0xc42f0000), uint32(1), uint32(0x80000000), uint32(0x7f800000))
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g, h, i uint32) {
		var x []float32
		for _, v := range []uint32{a, b, c, d, e, g, h, i} {
			x = append(x, math.Float32frombits(v))
		}
		checkSigmoids(t, x)
	})
}

var sinkF32 []float32

// benchArgs are 64 dot-product-sized arguments and a destination for
// them, a scorer's candidates of one side.
func benchArgs() (dst, x []float32) {
	rng := rand.New(rand.NewPCG(5, 6))
	x = make([]float32, 64)
	for k := range x {
		x[k] = float32(rng.NormFloat64() * 4)
	}
	return make([]float32, len(x)), x
}

func BenchmarkSigmoids(b *testing.B) {
	dst, x := benchArgs()
	for b.Loop() {
		Sigmoids(dst, x)
	}
	sinkF32 = dst
}

func BenchmarkSigmoidOneByOne(b *testing.B) {
	dst, x := benchArgs()
	for b.Loop() {
		sigmoidsGo(dst, x)
	}
	sinkF32 = dst
}
