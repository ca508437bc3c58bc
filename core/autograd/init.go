package autograd

import (
	"math"
	"math/rand/v2"
)

// Weight initialisation shared by every model built on the tape. The draws
// come from rng in order, so a seed gives the same weights on any platform.

// NewGlorot returns a rows×cols parameter with Glorot-uniform values
// (Glorot & Bengio 2010): uniform in ±√(6/(rows+cols)).
func NewGlorot(rows, cols int, rng *rand.Rand) *Var {
	v := NewParam(rows, cols)
	Glorot(v, rng)
	return v
}

// Glorot fills v with Glorot-uniform values, uniform in ±√(6/(rows+cols)).
func Glorot(v *Var, rng *rand.Rand) {
	Uniform(v.Value, math.Sqrt(6/float64(v.Rows+v.Cols)), rng)
}

// Uniform fills dst with values uniform in ±limit.
func Uniform(dst []float32, limit float64, rng *rand.Rand) {
	for i := range dst {
		dst[i] = float32((2*rng.Float64() - 1) * limit)
	}
}
