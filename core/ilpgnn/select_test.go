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

// TestSelectTopMatchesSelectFirst: selectTop leaves the whole list in
// selectFirst's order, not only its first k (the random neighbours of
// L^p_dis are drawn from the rest by place), on scores with ties, signed
// zeros and NaNs, with every place offered or, when the first k are all
// common, only the commons' places.
func TestSelectTopMatchesSelectFirst(t *testing.T) {
	scores := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), 0.25, 0.5, 0.5, -1, float32(math.Inf(1))}
	r := rand.New(rand.NewPCG(3, 4))
	var top []int32
	commonsOnly := 0
	for range 3000 {
		n := r.IntN(30)
		cands := make([]Candidate, n)
		var commonAt []int32
		for k, node := range r.Perm(1000)[:n] {
			cands[k] = Candidate{Node: int32(node), S: scores[r.IntN(len(scores))], Common: r.IntN(3) == 0}
			if cands[k].Common {
				commonAt = append(commonAt, int32(k))
			}
		}
		k := min(r.IntN(maxTop+1), n)
		want := slices.Clone(cands)
		selectFirst(want, k)
		got := slices.Clone(cands)
		top = selectTop(got, k, nil, top)
		// Node ids are distinct, so the nodes' order is the list's (and
		// NaN scores would make == on Candidates fail).
		if !slices.EqualFunc(got, want, sameNode) {
			t.Fatalf("n=%d k=%d, every place: %v, want %v", n, k, got, want)
		}
		if len(commonAt) >= k {
			commonsOnly++
			got = slices.Clone(cands)
			top = selectTop(got, k, commonAt, top)
			if !slices.EqualFunc(got, want, sameNode) {
				t.Fatalf("n=%d k=%d, commons' places %v: %v, want %v", n, k, commonAt, got, want)
			}
		}
	}
	if commonsOnly < 500 {
		t.Fatalf("only %d lists with k commons: the test would not cover them", commonsOnly)
	}
}

func sameNode(a, b Candidate) bool { return a.Node == b.Node }
