package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteHits is Hits@k by ranks, without a threshold: a positive hits when
// fewer than k negatives score at least as high as it does (so a tie with
// the k-th negative misses), and every positive hits when there are fewer
// than k negatives.
func bruteHits(pos, neg []float32, k int) float64 {
	if len(neg) < k {
		return 1
	}
	hits := 0
	for _, p := range pos {
		atLeast := 0
		for _, n := range neg {
			if n >= p {
				atLeast++
			}
		}
		if atLeast < k {
			hits++
		}
	}
	return float64(hits) / float64(len(pos))
}

func TestHitsAtKHandCases(t *testing.T) {
	inf := float32(math.Inf(1))
	for i, tc := range []struct {
		pos, neg []float32
		k        int
		want     float64
	}{
		// The 2nd highest negative is 0.8: 0.9 beats it, 0.8 ties and misses.
		0: {[]float32{0.9, 0.8, 0.1}, []float32{0.85, 0.8, 0.2}, 2, 1.0 / 3},
		// Tied negatives count with multiplicity: the 2nd highest of
		// {0.5, 0.5, 0.1} is 0.5, so 0.6 hits and 0.5 misses.
		1: {[]float32{0.6, 0.5}, []float32{0.5, 0.5, 0.1}, 2, 0.5},
		// k = 1 is "beats every negative".
		2: {[]float32{3, 2, 1}, []float32{2, 0}, 1, 1.0 / 3},
		// Fewer than k negatives: 1 whatever the scores (OGB's rule).
		3: {[]float32{-5}, []float32{7, 8}, 3, 1},
		4: {[]float32{-5}, nil, 1, 1},
		// Exactly k negatives: the threshold is the lowest of them.
		5: {[]float32{0.5, 0.05}, []float32{0.1, 0.9}, 2, 0.5},
		// Infinities are scores; +Inf tied with the threshold misses.
		6: {[]float32{inf, inf}, []float32{inf, 0}, 1, 0},
		7: {[]float32{inf, 0}, []float32{-inf, 1}, 1, 0.5},
		// -0 and +0 are equal.
		8: {[]float32{float32(math.Copysign(0, -1))}, []float32{0}, 1, 0},
	} {
		if got := HitsAtK(tc.pos, tc.neg, tc.k); got != tc.want {
			t.Errorf("case %d: HitsAtK(%v, %v, %d) = %v, want %v", i, tc.pos, tc.neg, tc.k, got, tc.want)
		}
	}
}

// TestHitsAtKNaN checks that HitsAtK says NaN where AUC does (a NaN score,
// no positives) and for a cut-off below 1, even with fewer than k
// negatives.
func TestHitsAtKNaN(t *testing.T) {
	nan := float32(math.NaN())
	for i, tc := range []struct {
		pos, neg []float32
		k        int
	}{
		{[]float32{nan, 1}, []float32{0, 1, 2}, 1},
		{[]float32{1}, []float32{0, nan, 2}, 1},
		{[]float32{1}, []float32{nan}, 5}, // fewer than k, still a NaN
		{nil, []float32{0, 1}, 1},
		{[]float32{}, nil, 1},
		{[]float32{1}, []float32{0}, 0},
		{[]float32{1}, []float32{0}, -3},
	} {
		if got := HitsAtK(tc.pos, tc.neg, tc.k); !math.IsNaN(got) {
			t.Errorf("case %d: HitsAtK(%v, %v, %d) = %v, want NaN", i, tc.pos, tc.neg, tc.k, got)
		}
		if tc.k >= 1 && !math.IsNaN(AUC(tc.pos, tc.neg)) {
			t.Errorf("case %d: AUC is not NaN where HitsAtK is", i)
		}
	}
	if h := HitsOf([]float32{1}, []float32{nan}); !math.IsNaN(h.At20) || !math.IsNaN(h.At50) || !math.IsNaN(h.At100) {
		t.Errorf("HitsOf with a NaN negative = %+v, want NaNs", h)
	}
}

// TestHitsAtKBruteForce compares HitsAtK and HitsOf with the rank
// definition on random scores drawn from a few values (many ties) and from
// a continuum, for cut-offs around the number of negatives.
func TestHitsAtKBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		nPos, nNeg := 1+rng.IntN(40), rng.IntN(160)
		draw := func(n int, shift float32) []float32 {
			xs := make([]float32, n)
			for i := range xs {
				if trial%2 == 0 {
					xs[i] = float32(rng.IntN(6)) + shift
				} else {
					xs[i] = float32(rng.NormFloat64()) + shift
				}
			}
			return xs
		}
		pos, neg := draw(nPos, 0.7), draw(nNeg, 0)
		pos0, neg0 := slices.Clone(pos), slices.Clone(neg)
		for _, k := range []int{1, 2, nNeg / 2, nNeg, nNeg + 1, 20, 50, 100} {
			if k < 1 {
				continue
			}
			if got, want := HitsAtK(pos, neg, k), bruteHits(pos, neg, k); got != want {
				t.Fatalf("trial %d: HitsAtK(k=%d) = %v, brute force %v (pos %v, neg %v)", trial, k, got, want, pos, neg)
			}
		}
		h := HitsOf(pos, neg)
		if want := (Hits{bruteHits(pos, neg, 20), bruteHits(pos, neg, 50), bruteHits(pos, neg, 100)}); h != want {
			t.Fatalf("trial %d: HitsOf = %+v, brute force %+v", trial, h, want)
		}
		if !slices.Equal(pos, pos0) || !slices.Equal(neg, neg0) {
			t.Fatalf("trial %d: the scores were modified", trial)
		}
	}
}

func TestMeanStdHits(t *testing.T) {
	mean, std := MeanStdHits([]Hits{{0.2, 0.4, 1}, {0.4, 0.6, 1}})
	// Hand: means 0.3, 0.5, 1; sample std |a-b|/√2.
	want := Hits{0.3, 0.5, 1}
	wantStd := Hits{0.2 / math.Sqrt2, 0.2 / math.Sqrt2, 0}
	for _, c := range [][2]float64{{mean.At20, want.At20}, {mean.At50, want.At50}, {mean.At100, want.At100},
		{std.At20, wantStd.At20}, {std.At50, wantStd.At50}, {std.At100, wantStd.At100}} {
		if math.Abs(c[0]-c[1]) > 1e-15 {
			t.Errorf("MeanStdHits: mean %+v std %+v, want %+v and %+v", mean, std, want, wantStd)
			break
		}
	}
}

// BenchmarkHitsOf scores an ogbn-arxiv-sized test set (30% of 1,166,243
// edges: 349,873 links and as many non-links) beside BenchmarkAUC's.
func BenchmarkHitsOf(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	pos, neg := make([]float32, 349_873), make([]float32, 349_873)
	for i := range pos {
		pos[i], neg[i] = float32(rng.NormFloat64())+1, float32(rng.NormFloat64())
	}
	b.Run("HitsOf", func(b *testing.B) {
		for b.Loop() {
			HitsOf(pos, neg)
		}
	})
	b.Run("AUC", func(b *testing.B) {
		for b.Loop() {
			AUC(pos, neg)
		}
	})
}
