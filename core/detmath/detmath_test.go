package detmath

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns how many representable float64 values lie between a and b.
func ulps(a, b float64) uint64 {
	ia, ib := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if ia > ib {
		return uint64(ia - ib)
	}
	return uint64(ib - ia)
}

// TestExpAccuracy compares Exp with the standard library over the whole
// finite range and the ranges the model uses most.
func TestExpAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	worst := uint64(0)
	for i := 0; i < 200000; i++ {
		var x float64
		switch i % 3 {
		case 0:
			x = (r.Float64() - 0.5) * 40 // sigmoid and softmax arguments
		case 1:
			x = expMin + r.Float64()*(expMax-expMin)
		default:
			x = (r.Float64() - 0.5) * 1e-6
		}
		got, want := Exp(x), math.Exp(x)
		if math.IsInf(want, 1) && x < expMax {
			// amd64's assembly math.Exp overflows a little early (seen at
			// x = 709.7398, where e^x = 1.72e308 < MaxFloat64).
			continue
		}
		if want < 0x1p-1022 { // subnormal results keep fewer bits
			if math.Abs(got-want) > 0x1p-1074*2 {
				t.Fatalf("Exp(%v) = %v, want %v", x, got, want)
			}
			continue
		}
		worst = max(worst, ulps(got, want))
	}
	if worst > 2 {
		t.Errorf("Exp is %d ulp from math.Exp at worst, want <= 2", worst)
	}
	t.Logf("Exp: worst %d ulp", worst)
}

func TestLogAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	worst := uint64(0)
	for i := 0; i < 200000; i++ {
		var x float64
		switch i % 3 {
		case 0:
			x = r.Float64() // uniforms, as in Gumbel and Gaussian draws
		case 1:
			x = math.Ldexp(1+r.Float64(), r.IntN(2000)-1000)
		default:
			x = 1 + (r.Float64()-0.5)*1e-6 // near 1, where log is near 0
		}
		if x == 0 {
			continue
		}
		got, want := Log(x), math.Log(x)
		if d := ulps(got, want); d > 2 && math.Abs(got-want) > 1e-300 {
			worst = max(worst, d)
			if math.Abs(want) > 1e-3 {
				t.Fatalf("Log(%v) = %v, want %v (%d ulp)", x, got, want, d)
			}
		} else {
			worst = max(worst, d)
		}
	}
	t.Logf("Log: worst %d ulp", worst)
	// Near 1 the absolute error matters: log(1+h) ≈ h.
	for _, h := range []float64{1e-3, 1e-9, -1e-9, 0x1p-52} {
		if got := Log(1 + h); math.Abs(got-math.Log1p(h)) > 1e-16*math.Abs(h)+1e-300 && ulps(got, math.Log(1+h)) > 2 {
			t.Errorf("Log(1+%v) = %v, want %v", h, got, math.Log(1+h))
		}
	}
}

func TestSpecialCases(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"Exp(0)", Exp(0), 1},
		{"Exp(1)", Exp(1), math.E},
		{"Exp(+Inf)", Exp(inf), inf},
		{"Exp(-Inf)", Exp(-inf), 0},
		{"Exp(800)", Exp(800), inf},
		{"Exp(-800)", Exp(-800), 0},
		{"Log(1)", Log(1), 0},
		{"Log(e)", Log(math.E), 1},
		{"Log(0)", Log(0), -inf},
		{"Log(+Inf)", Log(inf), inf},
		{"Log(2^-1074)", Log(0x1p-1074), -1074 * math.Ln2},
	} {
		if c.got != c.want && ulps(c.got, c.want) > 1 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, v := range []float64{Exp(nan), Log(nan), Log(-1)} {
		if !math.IsNaN(v) {
			t.Errorf("want NaN, got %v", v)
		}
	}
}

// Example_digest prints a digest of Exp and Log over fixed arguments. The
// expected output was produced natively on amd64; `make test` also runs this
// package under js/wasm, where the same digest must come out: that is the
// property the package exists for.
func Example_digest() {
	h := sha256.New()
	r := rand.New(rand.NewPCG(7, 7))
	var b [8]byte
	for i := 0; i < 100000; i++ {
		x := (r.Float64() - 0.5) * 60
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(Exp(x)))
		h.Write(b[:])
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(Log(r.Float64()*1e3)))
		h.Write(b[:])
	}
	fmt.Printf("%x\n", h.Sum(nil)[:8])
	// Output: c9216519e12daddf
}

// TestScale2MatchesLdexp: scale2 is math.Ldexp, bit for bit, over Exp's
// whole range of mantissas and exponents, including those where the result
// would be subnormal, overflow, or lie just inside the fast path's bounds.
func TestScale2MatchesLdexp(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	for e := -1100; e <= 1100; e++ {
		for range 20 {
			m := 0.5 + 3.5*r.Float64()
			if got, want := scale2(m, e), math.Ldexp(m, e); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("scale2(%v, %d) = %v, Ldexp gives %v", m, e, got, want)
			}
		}
	}
}
