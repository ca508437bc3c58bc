// Package detmath computes exp and log with the same bits on every
// platform.
//
// The standard library's math.Exp runs assembly on amd64 and portable Go
// under WebAssembly, and the two disagree in the last bit for some inputs
// (measured: 2·10^6 random arguments in [-20, 20] hash differently native
// and under js/wasm). Anything that must come out identical in the
// browser and on the command line — the synthetic graphs drawn from a seed,
// and later the training arithmetic — uses these instead. They are built
// from IEEE operations that are exactly rounded everywhere (+, -, ·, /,
// math.Frexp, math.Ldexp, math.Floor) and are accurate to a few ulp.
package detmath

import "math"

// ln2Hi + ln2Lo = ln 2, with ln2Hi's low 32 bits zero so that k·ln2Hi is
// exact for |k| < 2^20.
const (
	ln2Hi  = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
	ln2Lo  = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
	invLn2 = 1.44269504088896338700e+00
	// Past these, e^x overflows or underflows to zero.
	expMax = 7.09782712893383973096e+02
	expMin = -7.45133219101941108420e+02
)

// Exp returns e^x. Special cases: Exp(+Inf) = +Inf, Exp(-Inf) = 0,
// Exp(NaN) = NaN; it overflows to +Inf and underflows to 0 as math.Exp does.
func Exp(x float64) float64 {
	switch {
	case x != x || x > expMax:
		return x + math.Inf(1) // NaN stays NaN
	case x < expMin:
		return 0
	}
	// x = k·ln2 + r with |r| <= ln2/2, then e^x = 2^k · e^r.
	k := math.Floor(float64(x*invLn2) + 0.5)
	r := (x - float64(k*ln2Hi)) - float64(k*ln2Lo)
	// Taylor series of e^r in Horner form; the 14th term is below 1e-17
	// relative for |r| <= 0.35. Each product is converted explicitly, which
	// forbids the compiler from fusing it into an FMA (Go spec, "Floating-
	// point operators"), so every platform rounds the same way.
	e := 1.0
	for n := 14.0; n >= 1; n-- {
		e = 1 + float64(r*e)/n
	}
	return math.Ldexp(e, int(k))
}

// Log returns the natural logarithm of x. Special cases: Log(+Inf) = +Inf,
// Log(0) = -Inf, Log(x < 0) = NaN, Log(NaN) = NaN.
func Log(x float64) float64 {
	switch {
	case x != x || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	}
	// x = 2^k · m with m in [1/√2, √2), log m = 2·atanh(s), s = (m-1)/(m+1).
	m, k := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		k--
	}
	s := (m - 1) / (m + 1)
	s2 := float64(s * s)
	// atanh(s)/s = Σ s^(2n)/(2n+1); |s| < 0.172, so 12 terms reach 1e-20.
	t := 0.0
	for n := 23.0; n >= 3; n -= 2 {
		t = float64(s2 * (1/n + t))
	}
	logm := 2 * (s + float64(s*t))
	kf := float64(k)
	return float64(kf*ln2Hi) + (float64(kf*ln2Lo) + logm)
}
