package explain

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// star: node 0 linked to 1..4, node 5 linked to 1, 2, 6.
func starGraph(t *testing.T, x *f32.CSR) *graph.Graph {
	t.Helper()
	g, err := graph.New(7, []graph.Edge{{U: 0, V: 1}, {U: 0, V: 2}, {U: 0, V: 3}, {U: 0, V: 4}, {U: 5, V: 1}, {U: 5, V: 2}, {U: 5, V: 6}}, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestPrecisionAtByHand: a ranker that lists neighbours by ascending id,
// on two links whose precision is worked out by hand.
func TestPrecisionAtByHand(t *testing.T) {
	g := starGraph(t, nil)
	byID := func(i, j int) []int32 { return slices.Clone(g.Neighbors(i)) }
	links := []Link{
		// side 0: ranked 1,2,3,4 vs {2,3}: top-1 0 hits, top-2 1 hit.
		// side 5: ranked 1,2,6 vs {1,6}: top-1 1 hit, top-2 1 hit.
		{I: 0, J: 5, WhyI: []int32{2, 3}, WhyJ: []int32{1, 6}},
		// side 0: vs {1,4}: top-1 1, top-2 1. side 6: ranked 5 vs {5}: top-1 1, top-2 1.
		{I: 0, J: 6, WhyI: []int32{1, 4}, WhyJ: []int32{5}},
	}
	got := PrecisionAt(byID, links, 1, 2)
	want := []float64{3.0 / 4, 4.0 / 8} // hits (0+1+1+1)/4; (1+1+1+1)/(4·2)
	for n := range want {
		if math.Abs(got[n]-want[n]) > 1e-15 {
			t.Errorf("P@%d = %v, want %v", n+1, got[n], want[n])
		}
	}
	if p := PrecisionAt(byID, nil, 1); !math.IsNaN(p[0]) {
		t.Errorf("no links: %v, want NaN", p[0])
	}
}

func TestRandomRanker(t *testing.T) {
	g := starGraph(t, nil)
	r := RandomRanker(g, 3)
	a, b := r(0, 5), r(0, 5)
	if !slices.Equal(a, b) {
		t.Errorf("same pair ranked %v then %v", a, b)
	}
	sorted := slices.Clone(a)
	slices.Sort(sorted)
	if !slices.Equal(sorted, g.Neighbors(0)) {
		t.Errorf("ranking %v is not a permutation of %v", a, g.Neighbors(0))
	}
	// Over many pairs every neighbour comes first sometimes.
	first := map[int32]int{}
	for j := 0; j < 200; j++ {
		first[r(0, j)[0]]++
	}
	if len(first) != 4 {
		t.Errorf("first places %v, want all four neighbours", first)
	}
}

// TestCosineRanker checks the order against cosines computed densely.
func TestCosineRanker(t *testing.T) {
	dense := [][]float32{
		{1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {-1, 0, 0}, {0, 0, 0}, {2, 0.1, 0}, {0, 0, 3},
	}
	x := &f32.CSR{Rows: 7, Cols: 3, Indptr: make([]int32, 8)}
	for i, row := range dense {
		for c, v := range row {
			if v != 0 {
				x.Indices = append(x.Indices, int32(c))
				x.Values = append(x.Values, v)
			}
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	g := starGraph(t, x)
	// Neighbours of 0 are 1..4; against node 5 ≈ (2, 0.1, 0): cosines
	// 1: 0.74, 2: 0.05, 3: -1.0, 4: 0 (zero vector).
	if got, want := CosineRanker(g)(0, 5), []int32{1, 2, 4, 3}; !slices.Equal(got, want) {
		t.Errorf("ranking against 5: %v, want %v", got, want)
	}
	// Against node 6 = (0, 0, 3) every cosine is 0: ties by id.
	if got, want := CosineRanker(g)(0, 6), []int32{1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("ranking against 6: %v, want %v", got, want)
	}
}

// ByScore is a permutation of its nodes with scores non-increasing and
// equal scores in node order, whatever order the nodes come in.
func TestByScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		n := rng.IntN(20)
		nodes := rng.Perm(50)[:n]
		in := make([]int32, n)
		score := make([]float64, n)
		of := map[int32]float64{}
		for k, v := range nodes {
			in[k] = int32(v)
			score[k] = float64(rng.IntN(4)) // many ties
			of[in[k]] = score[k]
		}
		out := ByScore(in, score)
		if len(out) != n {
			t.Fatalf("%d nodes out of %d", len(out), n)
		}
		seen := map[int32]bool{}
		for k, v := range out {
			if _, ok := of[v]; !ok || seen[v] {
				t.Fatalf("%v is not a permutation of %v", out, in)
			}
			seen[v] = true
			if k > 0 {
				a, b := of[out[k-1]], of[v]
				if a < b || (a == b && out[k-1] > v) {
					t.Fatalf("%v out of order at %d (scores %v)", out, k, score)
				}
			}
		}
	}
}
