package detmath

import (
	"math"
	"testing"
)

var sinkF float64

func BenchmarkExp(b *testing.B) {
	x := -3.0
	for b.Loop() {
		sinkF += Exp(x)
		x += 1e-6
	}
}

func BenchmarkMathExp(b *testing.B) {
	x := -3.0
	for b.Loop() {
		sinkF += math.Exp(x)
		x += 1e-6
	}
}

func BenchmarkLog(b *testing.B) {
	x := 0.5
	for b.Loop() {
		sinkF += Log(x)
		x += 1e-7
	}
}

func BenchmarkMathLog(b *testing.B) {
	x := 0.5
	for b.Loop() {
		sinkF += math.Log(x)
		x += 1e-7
	}
}
