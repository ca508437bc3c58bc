package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRankAmongByHand(t *testing.T) {
	// 5 is above 3; the two other 3s tie with it: rank 1 + 1 + 2/2 = 3.
	if got := RankAmong(3, []float32{5, 3, 1, 3}); got != 3 {
		t.Fatalf("rank = %v, want 3", got)
	}
	if got := RankAmong(9, []float32{5, 3}); got != 1 {
		t.Fatalf("rank above all = %v, want 1", got)
	}
	if got := RankAmong(float32(math.Inf(-1)), []float32{5, 3}); got != 3 {
		t.Fatalf("rank below all = %v, want 3", got)
	}
	if got := RankAmong(0, []float32{float32(math.Copysign(0, -1))}); got != 1.5 {
		t.Fatalf("-0 against +0 = %v, want a tie (1.5)", got)
	}
	if got := RankAmong(1, []float32{2, float32(math.NaN())}); !math.IsNaN(got) {
		t.Fatalf("a NaN negative gave %v, want NaN", got)
	}
}

// bruteRank ranks pos among neg by sorting all of them, highest first, and
// taking the middle of the block of equal scores that holds pos.
func bruteRank(pos float32, neg []float32) float64 {
	all := append([]float32{pos}, neg...)
	slices.SortFunc(all, func(a, b float32) int {
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	first, last := -1, -1
	for k, s := range all {
		if s == pos {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	return float64(first+last)/2 + 1
}

func TestRankingOfMatchesSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const links, per = 200, 37
	pos := make([]float32, links)
	neg := make([]float32, links*per)
	for k := range pos {
		pos[k] = float32(rng.IntN(8)) // few values, so ties are common
	}
	for k := range neg {
		neg[k] = float32(rng.IntN(8))
	}
	got := RankingOf(pos, neg)
	var want Ranking
	for k, p := range pos {
		r := bruteRank(p, neg[k*per:(k+1)*per])
		want.MRR += 1 / r / links
		for c, K := range RankingCutoffs {
			if r <= float64(K) {
				*[]*float64{&want.Hits1, &want.Hits3, &want.Hits10, &want.Hits20, &want.Hits50, &want.Hits100}[c] += 1.0 / links
			}
		}
	}
	close := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !close(got.MRR, want.MRR) || !close(got.Hits1, want.Hits1) || !close(got.Hits3, want.Hits3) || !close(got.Hits10, want.Hits10) ||
		!close(got.Hits20, want.Hits20) || !close(got.Hits50, want.Hits50) || !close(got.Hits100, want.Hits100) {
		t.Fatalf("RankingOf = %+v, sorting gives %+v", got, want)
	}
	if got.Hits50 != 1 || got.Hits3 == 0 {
		t.Fatalf("with %d negatives every positive is within 50 and some within 3: %+v", per, got)
	}
}

func TestRankingOfRefusesMismatch(t *testing.T) {
	if r := RankingOf([]float32{1, 2}, []float32{0, 0, 0}); !math.IsNaN(r.MRR) || !math.IsNaN(r.Hits100) {
		t.Fatalf("3 negatives for 2 positives gave %+v, want NaN", r)
	}
	if r := RankingOf(nil, nil); !math.IsNaN(r.MRR) {
		t.Fatalf("no positives gave %+v, want NaN", r)
	}
}

func TestMeansOverRuns(t *testing.T) {
	a, b := &Ranking{MRR: 0.2, Hits10: 1}, &Ranking{MRR: 0.4, Hits10: 1}
	m, s := MeanStdRanking([]*Ranking{a, b})
	if math.Abs(m.MRR-0.3) > 1e-15 || math.Abs(s.MRR-0.1*math.Sqrt2) > 1e-15 || m.Hits10 != 1 || s.Hits10 != 0 {
		t.Fatalf("mean %+v, std %+v", m, s)
	}
	if m, s := MeanStdRanking([]*Ranking{a, nil}); m != nil || s != nil {
		t.Fatal("a run without a ranking gave a mean")
	}
	x, y := 0.25, 0.75
	if got := MeanOfAll([]*float64{&x, &y}); got == nil || *got != 0.5 {
		t.Fatalf("MeanOfAll = %v, want 0.5", got)
	}
	if MeanOfAll([]*float64{&x, nil}) != nil || MeanOfAll(nil) != nil {
		t.Fatal("MeanOfAll of missing values is not nil")
	}
}
