package walkpool

import (
	"math"
	"math/rand/v2"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/autograd/gradtest"
)

// randomSubgraphs draws count subgraphs of 3..maxN nodes with random
// undirected edges (never the target (0, 1)), sorted by (U, V) as
// subgraph.Extract gives them.
func randomSubgraphs(r *rand.Rand, count, maxN int) ([]int, [][][2]int32) {
	var sizes []int
	var edges [][][2]int32
	for range count {
		n := 3 + r.IntN(maxN-2)
		var es [][2]int32
		for u := range n {
			for v := u + 1; v < n; v++ {
				if (u != 0 || v != 1) && r.Float64() < 0.45 {
					es = append(es, [2]int32{int32(u), int32(v)})
				}
			}
		}
		sizes, edges = append(sizes, n), append(edges, es)
	}
	return sizes, edges
}

// denseP returns the n×n transition matrix of one subgraph, built from
// scratch: the softmax of the scores over each node's neighbours, with or
// without the target edge. score(i, j) is the score of the directed edge.
func denseP(n int, edges [][2]int32, plus bool, score func(i, j int) float64) []float64 {
	adj := make([]bool, n*n)
	for _, e := range edges {
		adj[int(e[0])*n+int(e[1])], adj[int(e[1])*n+int(e[0])] = true, true
	}
	if plus {
		adj[1], adj[n] = true, true
	}
	p := make([]float64, n*n)
	for i := range n {
		var sum float64
		for j := range n {
			if adj[i*n+j] {
				p[i*n+j] = math.Exp(score(i, j))
				sum += p[i*n+j]
			}
		}
		for j := range n {
			if sum > 0 {
				p[i*n+j] /= sum
			}
		}
	}
	return p
}

func denseMul(a, b []float64, n int) []float64 {
	c := make([]float64, n*n)
	for i := range n {
		for k := range n {
			for j := range n {
				c[i*n+j] += a[i*n+k] * b[k*n+j]
			}
		}
	}
	return c
}

// bruteProfile is the walk profile of one subgraph and head by dense
// matrix powers.
func bruteProfile(n int, edges [][2]int32, tc int, score func(i, j int) float64) []float64 {
	pp, pm := denseP(n, edges, true, score), denseP(n, edges, false, score)
	out := []float64{pp[1] + pp[n]}
	mp, mm := pp, pm
	for tau := 2; tau <= tc; tau++ {
		mp, mm = denseMul(mp, pp, n), denseMul(mm, pm, n)
		var trp, trm float64
		for i := range n {
			trp += mp[i*n+i]
			trm += mm[i*n+i]
		}
		out = append(out, mp[0]+mp[n+1], mm[0]+mm[n+1], mp[1]+mp[n], mm[1]+mm[n], trp-trm)
	}
	return out
}

// scoreOf returns the score of directed edge (i, j) of subgraph k in head
// h as laid out in w.
func scoreOf(wg *walkGraphs, w []float32, k, h int) func(i, j int) float64 {
	n, rowPtr, col, _, _ := wg.sub(k)
	_ = n
	return func(i, j int) float64 {
		for e := rowPtr[i]; e < rowPtr[i+1]; e++ {
			if int(col[e]) == j {
				return float64(w[h*wg.E()+int(wg.EdgeOff[k])+int(e)])
			}
		}
		panic("no such edge")
	}
}

func TestWalkProfileMatchesDensePowers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const heads, tc = 2, 5
	sizes, edges := randomSubgraphs(r, 9, 9)
	wg := newWalkGraphs(sizes, edges)
	w := make([]float32, heads*wg.E())
	for i := range w {
		w[i] = float32(r.NormFloat64())
	}
	got := walkProfile(nil, autograd.Const(len(w), 1, w), wg, heads, tc)
	fw := profileWidth(tc)
	if got.Rows != len(sizes) || got.Cols != heads*fw {
		t.Fatalf("output %v, want %dx%d", got, len(sizes), heads*fw)
	}
	for k := range sizes {
		for h := range heads {
			want := bruteProfile(sizes[k], edges[k], tc, scoreOf(wg, w, k, h))
			for f, v := range want {
				if g := float64(got.Value[k*heads*fw+h*fw+f]); math.Abs(g-v) > 1e-5 {
					t.Errorf("subgraph %d head %d feature %d: %.7f, dense powers give %.7f", k, h, f, g, v)
				}
			}
		}
	}
}

func TestWalkProfileGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const heads, tc = 2, 4
	sizes, edges := randomSubgraphs(r, 5, 7)
	wg := newWalkGraphs(sizes, edges)
	w := autograd.NewParam(heads*wg.E(), 1)
	for i := range w.Value {
		w.Value[i] = float32(r.NormFloat64())
	}
	if _, err := gradtest.Check(func(tp *autograd.Tape) *autograd.Var {
		return walkProfile(tp, w, wg, heads, tc)
	}, []*autograd.Var{w}, 0); err != nil {
		t.Error(err)
	}
}

// TestWalkProfileFourCycle checks a case by hand: G− is the 4-cycle
// 0–2–1–3–0 and G+ adds the target 0–1; all scores are equal, so P is the
// simple random walk. In G− every node has two neighbours: (P²)_00 =
// (P²)_01 = 1/2 and tr P² = 2. In G+ x and y have three: (P²)_00 =
// 1/9 + 1/6 + 1/6 = 4/9, (P²)_01 = 2·(1/3·1/2) = 1/3, (P²)_22 =
// 2·(1/2·1/3) = 1/3, so tr P² = 14/9, and P_01 + P_10 = 2/3.
func TestWalkProfileFourCycle(t *testing.T) {
	wg := newWalkGraphs([]int{4}, [][][2]int32{{{0, 2}, {0, 3}, {1, 2}, {1, 3}}})
	w := make([]float32, wg.E())
	for i := range w {
		w[i] = 0.7 // equal scores: uniform over neighbours
	}
	got := walkProfile(nil, autograd.Const(len(w), 1, w), wg, 1, 2).Value
	want := []float64{2.0 / 3, 8.0 / 9, 1, 2.0 / 3, 1, 14.0/9 - 2}
	for f, v := range want {
		if math.Abs(float64(got[f])-v) > 1e-6 {
			t.Errorf("feature %d = %.7f, want %.7f", f, got[f], v)
		}
	}
}

// TestPlusMinusDifferByTarget checks that G+'s entries are G−'s plus
// exactly x→y and y→x, and that P− gives the target no weight while P+
// does.
func TestPlusMinusDifferByTarget(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	sizes, edges := randomSubgraphs(r, 6, 8)
	wg := newWalkGraphs(sizes, edges)
	s := newScratch(wg.MaxN, 2)
	for k := range sizes {
		n, rowPtr, col, tx, ty := wg.sub(k)
		if len(col) != 2*len(edges[k])+2 {
			t.Fatalf("subgraph %d: %d entries for %d edges", k, len(col), len(edges[k]))
		}
		if col[tx] != 1 || col[ty] != 0 || tx < rowPtr[0] || tx >= rowPtr[1] || ty < rowPtr[1] || ty >= rowPtr[2] {
			t.Fatalf("subgraph %d: target entries %d, %d are not 0→1 and 1→0", k, tx, ty)
		}
		seen := map[[2]int32]int{}
		for i := range n {
			for e := rowPtr[i]; e < rowPtr[i+1]; e++ {
				if e != tx && e != ty {
					seen[[2]int32{int32(i), col[e]}]++
				}
			}
		}
		for _, e := range edges[k] {
			if seen[e] != 1 || seen[[2]int32{e[1], e[0]}] != 1 {
				t.Fatalf("subgraph %d: edge %v not once in each direction of G−", k, e)
			}
		}
		if len(seen) != 2*len(edges[k]) {
			t.Fatalf("subgraph %d: G− has %d entries, want %d", k, len(seen), 2*len(edges[k]))
		}
		scores := make([]float32, len(col))
		for i := range scores {
			scores[i] = float32(r.NormFloat64())
		}
		s.softmax(n, rowPtr, scores, tx, ty, true)
		if s.p[tx] != 0 || s.p[ty] != 0 {
			t.Errorf("subgraph %d: P− gives the target %g, %g", k, s.p[tx], s.p[ty])
		}
		minus := append([]float64(nil), s.p...)
		s.softmax(n, rowPtr, scores, tx, ty, false)
		if !(s.p[tx] > 0 && s.p[ty] > 0) {
			t.Errorf("subgraph %d: P+ gives the target %g, %g", k, s.p[tx], s.p[ty])
		}
		// Rows other than x's and y's are the same in P+ and P−.
		for e := rowPtr[2]; e < rowPtr[n]; e++ {
			if s.p[e] != minus[e] {
				t.Errorf("subgraph %d: entry %d differs between P+ and P− outside x and y", k, e)
			}
		}
	}
}
