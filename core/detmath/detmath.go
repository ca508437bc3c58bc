// Package detmath computes exp, log and the float32 sigmoid with the same
// bits on every platform.
//
// The standard library's math.Exp runs assembly on amd64 and portable Go
// under WebAssembly, and the two disagree in the last bit for some inputs
// (measured: 2·10^6 random arguments in [-20, 20] hash differently native
// and under js/wasm). Anything that must come out identical in the
// browser and on the command line — the synthetic graphs drawn from a seed,
// and later the training arithmetic — uses these instead. They are built
// from IEEE operations that are exactly rounded everywhere (+, -, ·, /,
// math.Frexp, math.Ldexp, math.Floor) and are accurate to a few ulp.
// Every product is converted to float64 before it is added, which forbids
// a fused multiply-add on any platform. Sigmoids runs those same
// operations four at a time in AVX assembly on amd64.
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

// exp2Table[j] is 2^(j/32) rounded to the nearest float64 (computed to 60
// digits offline).
var exp2Table = [32]float64{
	0x1.0000000000000p+0, // 2^(0/32)
	0x1.059b0d3158574p+0, // 2^(1/32)
	0x1.0b5586cf9890fp+0, // 2^(2/32)
	0x1.11301d0125b51p+0, // 2^(3/32)
	0x1.172b83c7d517bp+0, // 2^(4/32)
	0x1.1d4873168b9aap+0, // 2^(5/32)
	0x1.2387a6e756238p+0, // 2^(6/32)
	0x1.29e9df51fdee1p+0, // 2^(7/32)
	0x1.306fe0a31b715p+0, // 2^(8/32)
	0x1.371a7373aa9cbp+0, // 2^(9/32)
	0x1.3dea64c123422p+0, // 2^(10/32)
	0x1.44e086061892dp+0, // 2^(11/32)
	0x1.4bfdad5362a27p+0, // 2^(12/32)
	0x1.5342b569d4f82p+0, // 2^(13/32)
	0x1.5ab07dd485429p+0, // 2^(14/32)
	0x1.6247eb03a5585p+0, // 2^(15/32)
	0x1.6a09e667f3bcdp+0, // 2^(16/32)
	0x1.71f75e8ec5f74p+0, // 2^(17/32)
	0x1.7a11473eb0187p+0, // 2^(18/32)
	0x1.82589994cce13p+0, // 2^(19/32)
	0x1.8ace5422aa0dbp+0, // 2^(20/32)
	0x1.93737b0cdc5e5p+0, // 2^(21/32)
	0x1.9c49182a3f090p+0, // 2^(22/32)
	0x1.a5503b23e255dp+0, // 2^(23/32)
	0x1.ae89f995ad3adp+0, // 2^(24/32)
	0x1.b7f76f2fb5e47p+0, // 2^(25/32)
	0x1.c199bdd85529cp+0, // 2^(26/32)
	0x1.cb720dcef9069p+0, // 2^(27/32)
	0x1.d5818dcfba487p+0, // 2^(28/32)
	0x1.dfc97337b9b5fp+0, // 2^(29/32)
	0x1.ea4afa2a490dap+0, // 2^(30/32)
	0x1.f50765b6e4540p+0, // 2^(31/32)
}

// Exp returns e^x. Special cases: Exp(+Inf) = +Inf, Exp(-Inf) = 0,
// Exp(NaN) = NaN; it overflows to +Inf and underflows to 0 as math.Exp does.
func Exp(x float64) float64 {
	switch {
	case x != x || x > expMax:
		return x + math.Inf(1) // NaN stays NaN
	case x < expMin:
		return 0
	}
	// x = (32k + j)·ln2/32 + r with |r| <= ln2/64, so
	// e^x = 2^k · 2^(j/32) · e^r. Every product is converted explicitly,
	// which forbids the compiler from fusing it into an FMA (Go spec,
	// "Floating-point operators"), so every platform rounds the same way.
	n := math.Floor(float64(x*(32*invLn2)) + 0.5)
	r := (x - float64(n*(ln2Hi/32))) - float64(n*(ln2Lo/32))
	// e^r - 1 by its Taylor series to r^6/720; the next term is below
	// 4e-18 for |r| <= 0.0109.
	p := float64(r * (float64(r*(1.0/720)) + 1.0/120))
	p = float64(r * (p + 1.0/24))
	p = float64(r * (p + 1.0/6))
	p = float64(r * (p + 0.5))
	p = float64(r * (p + 1))
	ni := int(n)
	j := ni & 31 // n mod 32, also for negative n
	t := exp2Table[j]
	return scale2(t+float64(t*p), (ni-j)/32)
}

// scale2 returns m·2^e, as math.Ldexp does, for m in [0.5, 4) (Exp's
// mantissa is in [0.98, 2.03]). When the result is a normal number the
// product by 2^e built from its bits is exact, so it equals Ldexp's, and
// costs a multiplication instead of Ldexp's decomposition: selection calls
// Exp for every feature score.
func scale2(m float64, e int) float64 {
	if e >= -1021 && e <= 1021 {
		return float64(m * math.Float64frombits(uint64(e+1023)<<52))
	}
	return math.Ldexp(m, e)
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
