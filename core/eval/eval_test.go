package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate"
	"gonum.org/v1/gonum/stat"
)

// bruteAUC is the O(|pos|·|neg|) definition: count every pair, ties half.
func bruteAUC(pos, neg []float32) float64 {
	var u float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				u++
			case p == n:
				u += 0.5
			}
		}
	}
	return u / float64(len(pos)*len(neg))
}

// gonumAUC is the trapezoidal area under gonum's ROC curve (the oracle of
// gonum's ExampleROC_aUC). It is exact only for tie-free inputs.
func gonumAUC(pos, neg []float32) float64 {
	n := len(pos) + len(neg)
	y := make([]float64, 0, n)
	classes := make([]bool, 0, n)
	for _, p := range pos {
		y = append(y, float64(p))
		classes = append(classes, true)
	}
	for _, s := range neg {
		y = append(y, float64(s))
		classes = append(classes, false)
	}
	stat.SortWeightedLabeled(y, classes, nil)
	tpr, fpr, _ := stat.ROC(nil, y, classes, nil)
	return integrate.Trapezoidal(fpr, tpr)
}

func TestAUCHandCases(t *testing.T) {
	inf := float32(math.Inf(1))
	for i, tc := range []struct {
		pos, neg []float32
		want     float64
	}{
		0: {[]float32{0.9, 0.8}, []float32{0.1, 0.2, 0.3}, 1},                   // perfect
		1: {[]float32{0.1, 0.2}, []float32{0.8, 0.9, 0.7}, 0},                   // reversed
		2: {[]float32{0.5, 0.5}, []float32{0.5, 0.5, 0.5}, 0.5},                 // all tied
		3: {[]float32{1}, []float32{0, 1, 2}, 0.5},                              // 1 + ½ + 0 over 3
		4: {[]float32{0.3, 0.7}, []float32{0.5}, 0.5},                           // one above, one below
		5: {[]float32{inf}, []float32{-inf, 0}, 1},                              // infinities are scores
		6: {[]float32{float32(math.Copysign(0, -1))}, []float32{0}, 0.5},        // -0 == +0
		7: {[]float32{0.1, 0.35, 0.4, 0.8}, []float32{0.2, 0.6, 0.9}, 4.0 / 12}, // wins: 0.1→0, 0.35→1, 0.4→1, 0.8→2
	} {
		if got := AUC(tc.pos, tc.neg); got != tc.want {
			t.Errorf("case %d: AUC = %v, want %v", i, got, tc.want)
		}
	}
}

func TestAUCNaN(t *testing.T) {
	nan := float32(math.NaN())
	for i, tc := range []struct{ pos, neg []float32 }{
		0: {nil, []float32{1}},
		1: {[]float32{1}, nil},
		2: {nil, nil},
		3: {[]float32{1, nan}, []float32{0}},
		4: {[]float32{1}, []float32{nan, 0}},
	} {
		if got := AUC(tc.pos, tc.neg); !math.IsNaN(got) {
			t.Errorf("case %d: AUC = %v, want NaN", i, got)
		}
	}
}

// TestAUCBruteForce checks against the pair count on inputs with many ties:
// scores are drawn from only k distinct values.
func TestAUCBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		np, nn := 1+rng.IntN(60), 1+rng.IntN(60)
		k := 1 + rng.IntN(6)
		draw := func(n int, shift float64) []float32 {
			xs := make([]float32, n)
			for i := range xs {
				v := math.Round((rng.Float64()+shift)*float64(k)) / float64(k)
				xs[i] = float32(v)
			}
			return xs
		}
		pos, neg := draw(np, 0.2), draw(nn, 0)
		got, want := AUC(pos, neg), bruteAUC(pos, neg)
		// Both count 2U exactly; only the final division rounds.
		if math.Abs(got-want) > 1e-15 {
			t.Fatalf("trial %d (k=%d): AUC = %v, brute force = %v\npos=%v\nneg=%v", trial, k, got, want, pos, neg)
		}
	}
}

// TestAUCGonum checks against gonum stat.ROC + integrate.Trapezoidal on
// tie-free inputs (distinct scores), tolerance 1e-12 for the trapezoid sum.
func TestAUCGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		np, nn := 1+rng.IntN(200), 1+rng.IntN(200)
		seen := make(map[float32]bool)
		draw := func(n int, shift float64) []float32 {
			xs := make([]float32, 0, n)
			for len(xs) < n {
				v := float32(rng.NormFloat64() + shift)
				if !seen[v] {
					seen[v] = true
					xs = append(xs, v)
				}
			}
			return xs
		}
		pos, neg := draw(np, 0.7), draw(nn, 0)
		got, want := AUC(pos, neg), gonumAUC(pos, neg)
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: AUC = %v, gonum trapezoid = %v", trial, got, want)
		}
	}
}

func TestAUCInputsUnchanged(t *testing.T) {
	pos := []float32{0.9, 0.1, 0.5, 0.5, 0.3}
	neg := []float32{0.4, 0.8, 0.2, 0.5}
	pos0, neg0 := slices.Clone(pos), slices.Clone(neg)
	AUC(pos, neg)
	if !slices.Equal(pos, pos0) || !slices.Equal(neg, neg0) {
		t.Errorf("AUC modified its inputs: pos %v → %v, neg %v → %v", pos0, pos, neg0, neg)
	}
}

func TestMeanStd(t *testing.T) {
	// Cases 0-1 by hand; the rest against gonum stat.MeanStdDev, tolerance
	// 1e-12 relative (gonum sums with an unrolled loop, so the last bits may
	// differ).
	for i, tc := range []struct {
		xs        []float64
		mean, std float64
	}{
		0: {[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7)},
		1: {[]float64{3}, 3, 0},
		2: {[]float64{0.1, 0.1, 0.1}, 0.1, 0},
	} {
		m, s := MeanStd(tc.xs)
		if math.Abs(m-tc.mean) > 1e-15 || math.Abs(s-tc.std) > 1e-15 {
			t.Errorf("case %d: MeanStd(%v) = %v, %v, want %v, %v", i, tc.xs, m, s, tc.mean, tc.std)
		}
	}
	if m, s := MeanStd(nil); !math.IsNaN(m) || !math.IsNaN(s) {
		t.Errorf("MeanStd(nil) = %v, %v, want NaN, NaN", m, s)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		xs := make([]float64, 2+rng.IntN(50))
		for i := range xs {
			xs[i] = 0.8 + 0.05*rng.NormFloat64() // AUC-like values
		}
		xs0 := slices.Clone(xs)
		m, s := MeanStd(xs)
		wm, ws := stat.MeanStdDev(xs, nil)
		if !relClose(m, wm, 1e-12) || !relClose(s, ws, 1e-12) {
			t.Fatalf("trial %d: MeanStd = %v, %v; gonum = %v, %v", trial, m, s, wm, ws)
		}
		if !slices.Equal(xs, xs0) {
			t.Fatalf("trial %d: MeanStd modified its input", trial)
		}
	}
}

// relClose reports whether a and b agree to within rel, relatively.
func relClose(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

var sink float64

func BenchmarkAUC(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		rng := rand.New(rand.NewPCG(7, 8))
		pos := make([]float32, n/2)
		neg := make([]float32, n/2)
		for i := range pos {
			pos[i] = float32(rng.NormFloat64() + 1)
			neg[i] = float32(rng.NormFloat64())
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				sink = AUC(pos, neg)
			}
		})
	}
}
