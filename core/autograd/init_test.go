package autograd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// NewGlorot draws (2u − 1)·√(6/(rows+cols)) from the generator's uniforms
// u, in order.
func TestNewGlorot(t *testing.T) {
	v := NewGlorot(3, 5, rand.New(rand.NewPCG(7, 8)))
	r := rand.New(rand.NewPCG(7, 8))
	lim := math.Sqrt(6.0 / 8)
	for i, got := range v.Value {
		if want := float32((2*r.Float64() - 1) * lim); got != want {
			t.Fatalf("value %d = %v, want %v", i, got, want)
		}
	}
	if len(v.Grad) != 15 || v.Rows != 3 || v.Cols != 5 {
		t.Errorf("NewGlorot(3, 5) is %v with %d gradients", v, len(v.Grad))
	}
}
