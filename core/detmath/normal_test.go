package detmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNormals: the draws have mean 0 and variance 1, and float32 draws are
// the float64 ones rounded.
func TestNormals(t *testing.T) {
	x := make([]float64, 100001)
	Normals(x, rand.New(rand.NewPCG(1, 2)))
	var s, ss float64
	for _, v := range x {
		s += v
		ss += v * v
	}
	mean := s / float64(len(x))
	if variance := ss/float64(len(x)) - mean*mean; math.Abs(mean) > 0.01 || math.Abs(variance-1) > 0.02 {
		t.Errorf("mean %.4f variance %.4f", mean, variance)
	}
	y := make([]float32, len(x))
	Normals(y, rand.New(rand.NewPCG(1, 2)))
	for k := range y {
		if y[k] != float32(x[k]) {
			t.Fatalf("draw %d: float32 %v, float64 %v", k, y[k], x[k])
		}
	}
}
