package detmath

import (
	"math"
	"math/rand/v2"
)

// Normals fills dst with standard normal draws from rng by Marsaglia's
// polar method, two per accepted point. It needs only Log and the exactly
// rounded math.Sqrt, so the draws are the same natively and in
// WebAssembly, where rand.NormFloat64 (which calls math.Exp) is not.
func Normals[F float32 | float64](dst []F, rng *rand.Rand) {
	for k := 0; k < len(dst); k += 2 {
		var u, v, s float64
		for s == 0 || s >= 1 {
			u, v = 2*rng.Float64()-1, 2*rng.Float64()-1
			s = float64(u*u) + float64(v*v) // converted: no fused multiply-add
		}
		f := math.Sqrt(-2 * Log(s) / s)
		dst[k] = F(u * f)
		if k+1 < len(dst) {
			dst[k+1] = F(v * f)
		}
	}
}
