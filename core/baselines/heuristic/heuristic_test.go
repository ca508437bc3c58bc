package heuristic

import (
	"math"
	"math/rand/v2"
	"testing"

	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/split"
)

// randomGraph returns a G(n, p) graph.
func randomGraph(t *testing.T, n int, p float64, rng *rand.Rand) *graph.Graph {
	t.Helper()
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < p {
				edges = append(edges, graph.Edge{U: int32(i), V: int32(j)})
			}
		}
	}
	g, err := graph.New(n, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestBruteForce compares both heuristics with a count over an adjacency
// matrix, on random graphs of several densities and every pair.
func TestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range []float64{0.02, 0.1, 0.4} {
		n := 60
		g := randomGraph(t, n, p, rng)
		adj := make([][]bool, n)
		deg := make([]int, n)
		for i := range adj {
			adj[i] = make([]bool, n)
			for _, j := range g.Neighbors(i) {
				adj[i][j] = true
				deg[i]++
			}
		}
		var pairs []graph.Edge
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
			}
		}
		cn := Scores(g, CommonNeighbours, pairs)
		aa := Scores(g, AdamicAdar, pairs)
		for k, e := range pairs {
			var wantCN, wantAA float64
			if e.U != e.V {
				for z := 0; z < n; z++ {
					if adj[e.U][z] && adj[e.V][z] {
						wantCN++
						wantAA += 1 / math.Log(float64(deg[z]))
					}
				}
			}
			if float64(cn[k]) != wantCN {
				t.Fatalf("p %v: CN(%d, %d) = %v, brute force %v", p, e.U, e.V, cn[k], wantCN)
			}
			if math.Abs(float64(aa[k])-wantAA) > 1e-6*max(1, wantAA) {
				t.Fatalf("p %v: AA(%d, %d) = %v, brute force %v", p, e.U, e.V, aa[k], wantAA)
			}
		}
	}
}

// TestHand checks a small graph by hand: a square 0-1-2-3-0 with the
// diagonal 0-2 and a pendant 4 on 2.
func TestHand(t *testing.T) {
	g, err := graph.New(5, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 0}, {U: 0, V: 2}, {U: 2, V: 4}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs := []graph.Edge{{U: 1, V: 3}, {U: 0, V: 4}, {U: 1, V: 4}, {U: 3, V: 3}, {U: 4, V: 2}}
	// deg: 0→3, 1→2, 2→4, 3→2, 4→1. Common neighbours: (1,3) {0,2};
	// (0,4) {2}; (1,4) {2}; (3,3) none by definition; (4,2) none.
	cn := Scores(g, CommonNeighbours, pairs)
	wantCN := []float32{2, 1, 1, 0, 0}
	aa := Scores(g, AdamicAdar, pairs)
	wantAA := []float64{1/math.Log(3) + 1/math.Log(4), 1 / math.Log(4), 1 / math.Log(4), 0, 0}
	for k := range pairs {
		if cn[k] != wantCN[k] || math.Abs(float64(aa[k])-wantAA[k]) > 1e-6 {
			t.Errorf("pair %v: CN %v AA %v, want %v %v", pairs[k], cn[k], aa[k], wantCN[k], wantAA[k])
		}
	}
	if CommonNeighbours.String() != "cn" || AdamicAdar.String() != "aa" {
		t.Error("method names")
	}
}

// TestSplitAUC checks SplitAUC against AUCs of Scores taken by hand.
func TestSplitAUC(t *testing.T) {
	g := randomGraph(t, 80, 0.1, rand.New(rand.NewPCG(3, 4)))
	sp, err := split.New(g, 1, 0.1, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	val, test := SplitAUC(sp, AdamicAdar)
	wantVal := eval.AUC(Scores(sp.Train, AdamicAdar, sp.ValPos), Scores(sp.Train, AdamicAdar, sp.ValNeg))
	wantTest := eval.AUC(Scores(sp.Train, AdamicAdar, sp.TestPos), Scores(sp.Train, AdamicAdar, sp.TestNeg))
	if val != wantVal || test != wantTest {
		t.Errorf("SplitAUC = %v, %v; want %v, %v", val, test, wantVal, wantTest)
	}
}

// TestSplitHits checks SplitHits against HitsAtK of Scores taken by hand,
// on a split with more than 20 test non-links so that Hits@20 is not 1 by
// default.
func TestSplitHits(t *testing.T) {
	g := randomGraph(t, 80, 0.1, rand.New(rand.NewPCG(3, 4)))
	sp, err := split.New(g, 1, 0.1, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.TestNeg) <= 20 {
		t.Fatalf("%d test non-links, want more than 20", len(sp.TestNeg))
	}
	pos, neg := Scores(sp.Train, CommonNeighbours, sp.TestPos), Scores(sp.Train, CommonNeighbours, sp.TestNeg)
	want := eval.Hits{At20: eval.HitsAtK(pos, neg, 20), At50: eval.HitsAtK(pos, neg, 50), At100: eval.HitsAtK(pos, neg, 100)}
	if got := SplitHits(sp, CommonNeighbours); got != want {
		t.Errorf("SplitHits = %+v, want %+v", got, want)
	}
}
