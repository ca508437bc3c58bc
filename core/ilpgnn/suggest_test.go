package ilpgnn

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMostProbable: the n first of a full sort by descending logit, ties
// by node id, NaN last, for lists with ties and NaNs.
func TestMostProbable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		cands := make([]graphPair, rng.IntN(30))
		for k := range cands {
			cands[k] = graphPair{j: rng.IntN(1000), logit: float32(rng.IntN(5)) - 2}
			if rng.IntN(8) == 0 {
				cands[k].logit = float32(math.NaN())
			}
		}
		want := slices.Clone(cands)
		slices.SortStableFunc(want, func(a, b graphPair) int {
			if c := cmp.Compare(b.logit, a.logit); c != 0 {
				return c
			}
			return cmp.Compare(a.j, b.j)
		})
		for _, n := range []int{1, 3, len(cands), len(cands) + 2} {
			got := mostProbable(cands, n)
			w := want[:min(n, len(want))]
			if len(got) != len(w) {
				t.Fatalf("trial %d n %d: %d candidates, want %d", trial, n, len(got), len(w))
			}
			for k := range w {
				if got[k].j != w[k].j || !(got[k].logit == w[k].logit || got[k].logit != got[k].logit && w[k].logit != w[k].logit) {
					t.Fatalf("trial %d n %d: place %d is %+v, want %+v", trial, n, k, got[k], w[k])
				}
			}
		}
	}
}
