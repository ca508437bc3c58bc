package detmath

import "fmt"

// Sigmoid returns the logistic function 1/(1 + e^−x) of x rounded to
// float32: float32(1 / (1 + Exp(−float64(x)))), the same bits on every
// platform.
func Sigmoid(x float32) float32 { return float32(1 / (1 + Exp(-float64(x)))) }

// Sigmoids sets dst[k] = Sigmoid(x[k]) for every k of x, bit for bit; dst
// may be x itself. On amd64 with AVX it computes four at a time, each
// through Exp's operations in Exp's order. It panics when dst is shorter
// than x.
func Sigmoids(dst, x []float32) {
	if len(dst) < len(x) {
		panic(fmt.Sprintf("detmath: Sigmoids into %d values from %d", len(dst), len(x)))
	}
	sigmoids(dst[:len(x)], x)
}

// sigmoidsGo is Sigmoids one value at a time.
func sigmoidsGo(dst, x []float32) {
	for k, v := range x {
		dst[k] = Sigmoid(v)
	}
}
