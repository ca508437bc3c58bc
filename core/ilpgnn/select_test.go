package ilpgnn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectsBefore checks the fast comparison of selectFirst against
// selectionOrder, on scores with ties, signed zeros and NaNs.
func TestSelectsBefore(t *testing.T) {
	scores := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), 0.5, -0.5, 1, float32(math.Inf(1))}
	var cands []Candidate
	for n, s := range scores {
		for _, common := range []bool{false, true} {
			cands = append(cands, Candidate{Node: int32(n), S: s, Common: common},
				Candidate{Node: int32(n + len(scores)), S: s, Common: common})
		}
	}
	for _, a := range cands {
		for _, b := range cands {
			if got, want := selectsBefore(&a, &b), selectionOrder(a, b) < 0; got != want {
				t.Errorf("selectsBefore(%+v, %+v) = %v, want %v", a, b, got, want)
			}
		}
	}
	// selectFirst still yields the prefix of a full sort.
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		c := make([]Candidate, r.IntN(12))
		for i := range c {
			c[i] = cands[r.IntN(len(cands))]
			c[i].Node = int32(i)
		}
		k := min(3, len(c))
		sorted := append([]Candidate(nil), c...)
		slices.SortFunc(sorted, selectionOrder)
		selectFirst(c, k)
		for i := range k {
			if c[i].Node != sorted[i].Node {
				t.Fatalf("selectFirst prefix %d = %+v, want %+v", i, c[i], sorted[i])
			}
		}
	}
}
