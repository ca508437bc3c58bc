package subgraph

import (
	"math/rand/v2"
	"slices"
	"testing"

	"ilpgnn/core/graph"
)

// randomGraph is G(n, p) from a seeded generator.
func randomGraph(t *testing.T, rng *rand.Rand, n int, p float64) *graph.Graph {
	t.Helper()
	var edges []graph.Edge
	for i := range n {
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

const inf = 1 << 20

// allPairs is Floyd–Warshall on an adjacency matrix, the oracle for BFS.
func allPairs(n int, linked func(a, b int) bool) [][]int {
	d := make([][]int, n)
	for a := range d {
		d[a] = make([]int, n)
		for b := range d[a] {
			switch {
			case a == b:
				d[a][b] = 0
			case linked(a, b):
				d[a][b] = 1
			default:
				d[a][b] = inf
			}
		}
	}
	for k := range n {
		for a := range n {
			for b := range n {
				d[a][b] = min(d[a][b], d[a][k]+d[k][b])
			}
		}
	}
	return d
}

// The target link is never in the subgraph, and everything else is exactly
// what brute force says: the nodes within h hops of x or y, every edge of
// the graph between them, and labels from distances with the other end
// removed.
func TestExtractMatchesBruteForceAndNeverLeaks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	checked, linked := 0, 0
	for trial := range 60 {
		n := 8 + rng.IntN(25)
		g := randomGraph(t, rng, n, 0.05+0.25*rng.Float64())
		full := allPairs(n, func(a, b int) bool { return g.HasEdge(a, b) })
		for range 8 {
			x, y := rng.IntN(n), rng.IntN(n)
			if x == y {
				continue
			}
			if g.HasEdge(x, y) {
				linked++
			}
			hops := 1 + rng.IntN(3)
			sub, err := Extract(g, x, y, Options{Hops: hops})
			if err != nil {
				t.Fatal(err)
			}
			checked++
			// The leakage trap: no edge between the two ends, in either form.
			for _, e := range sub.Edges {
				a, b := sub.Nodes[e.U], sub.Nodes[e.V]
				if (int(a) == x && int(b) == y) || (int(a) == y && int(b) == x) {
					t.Fatalf("trial %d: the subgraph of (%d, %d) contains the target link", trial, x, y)
				}
				if e.U >= e.V {
					t.Fatalf("edge %v not stored with U < V", e)
				}
			}
			// Nodes: within h hops of x or y (the target edge cannot change
			// this set: x and y are both in it from the start).
			var want []int32
			for v := range n {
				if min(full[x][v], full[y][v]) <= hops {
					want = append(want, int32(v))
				}
			}
			got := slices.Clone(sub.Nodes)
			slices.Sort(got)
			if !slices.Equal(got, want) || sub.Nodes[0] != int32(x) || sub.Nodes[1] != int32(y) {
				t.Fatalf("trial %d (%d, %d), %d hops: nodes %v, want %v with x, y first", trial, x, y, hops, sub.Nodes, want)
			}
			// Edges: every edge of g among the nodes, except the target.
			in := map[[2]int32]bool{}
			for _, e := range sub.Edges {
				in[[2]int32{sub.Nodes[e.U], sub.Nodes[e.V]}] = true
				in[[2]int32{sub.Nodes[e.V], sub.Nodes[e.U]}] = true
			}
			wantEdges := 0
			for a := range sub.Nodes {
				for b := a + 1; b < len(sub.Nodes); b++ {
					u, v := sub.Nodes[a], sub.Nodes[b]
					should := g.HasEdge(int(u), int(v)) && !(a == 0 && b == 1)
					if should {
						wantEdges++
					}
					if in[[2]int32{u, v}] != should {
						t.Fatalf("trial %d (%d, %d): edge (%d, %d) present %v, want %v", trial, x, y, u, v, in[[2]int32{u, v}], should)
					}
				}
			}
			if len(sub.Edges) != wantEdges {
				t.Fatalf("%d edges, want %d (duplicates?)", len(sub.Edges), wantEdges)
			}
			// Labels: DRNL of distances in the subgraph without the target,
			// to x with y removed and to y with x removed.
			m := len(sub.Nodes)
			without := func(skip int) [][]int {
				return allPairs(m, func(a, b int) bool {
					return a != skip && b != skip && in[[2]int32{sub.Nodes[a], sub.Nodes[b]}]
				})
			}
			dx, dy := without(1), without(0)
			for i := range m {
				want := 1
				if i > 1 {
					a, b := dx[0][i], dy[1][i]
					if a >= inf || b >= inf {
						want = 0
					} else {
						want = DRNL(a, b)
					}
				}
				if int(sub.Labels[i]) != want {
					t.Fatalf("trial %d (%d, %d): label of %d is %d, want %d", trial, x, y, sub.Nodes[i], sub.Labels[i], want)
				}
			}
		}
	}
	if checked < 300 || linked < 30 {
		t.Fatalf("too few cases: %d pairs, %d of them linked", checked, linked)
	}
}

// DRNL's values by hand from SEAL's formula: the ends are 1, then nodes
// at distances (1,1), (1,2), (1,3), (2,2), (1,4), (2,3), (3,3).
func TestDRNLByHand(t *testing.T) {
	for _, c := range []struct{ dx, dy, want int }{
		{1, 1, 2}, {1, 2, 3}, {2, 1, 3}, {1, 3, 4}, {3, 1, 4}, {2, 2, 5},
		{1, 4, 6}, {2, 3, 7}, {3, 2, 7}, {3, 3, 10}, {-1, 2, 0}, {2, -1, 0},
	} {
		if got := DRNL(c.dx, c.dy); got != c.want {
			t.Errorf("DRNL(%d, %d) = %d, want %d", c.dx, c.dy, got, c.want)
		}
	}
}

// A path x – a – y plus the link x – y: the link is dropped, a sits at
// distance 1 from both ends (label 2), and b, hanging off a, at (2, 2).
func TestExtractByHand(t *testing.T) {
	// 0 = x, 1 = y, 2 = a, 3 = b, 4 = far (3 hops away).
	edges := []graph.Edge{{U: 0, V: 1}, {U: 0, V: 2}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}}
	g, err := graph.New(5, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := Extract(g, 0, 1, Options{Hops: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sub.Nodes, []int32{0, 1, 2, 3}) {
		t.Fatalf("nodes %v", sub.Nodes)
	}
	if want := []graph.Edge{{U: 0, V: 2}, {U: 1, V: 2}, {U: 2, V: 3}}; !slices.Equal(sub.Edges, want) {
		t.Fatalf("edges %v, want %v", sub.Edges, want)
	}
	if want := []int32{1, 1, 2, 5}; !slices.Equal(sub.Labels, want) {
		t.Fatalf("labels %v, want %v", sub.Labels, want)
	}
}

// With a cap per hop, each hop keeps that many of its new nodes, the same
// ones for the same seed.
func TestMaxPerHop(t *testing.T) {
	g := randomGraph(t, rand.New(rand.NewPCG(3, 4)), 80, 0.15)
	extract := func(seed uint64) *Enclosing {
		sub, err := Extract(g, 0, 1, Options{Hops: 2, MaxPerHop: 5, Rand: rand.New(rand.NewPCG(seed, 1))})
		if err != nil {
			t.Fatal(err)
		}
		return sub
	}
	a, b := extract(9), extract(9)
	if !slices.Equal(a.Nodes, b.Nodes) || !slices.Equal(a.Edges, b.Edges) {
		t.Fatal("the same seed drew different subgraphs")
	}
	if len(a.Nodes) > 2+5+5 {
		t.Fatalf("%d nodes with at most 5 per hop over 2 hops", len(a.Nodes))
	}
	for _, e := range a.Edges {
		if e.U == 0 && e.V == 1 {
			t.Fatal("target link present")
		}
	}
	if _, err := Extract(g, 0, 1, Options{Hops: 2, MaxPerHop: 5}); err == nil {
		t.Error("MaxPerHop without Rand accepted")
	}
	for _, bad := range [][2]int{{0, 0}, {-1, 2}, {0, 80}} {
		if _, err := Extract(g, bad[0], bad[1], Options{Hops: 1}); err == nil {
			t.Errorf("pair %v accepted", bad)
		}
	}
	if _, err := Extract(g, 0, 1, Options{Hops: 0}); err == nil {
		t.Error("0 hops accepted")
	}
}

// A batch holds each pair's own subgraph, shifted into place, whichever
// batch, orientation or order the pair comes in; no target is among its
// edges.
func TestExtractBatch(t *testing.T) {
	g := randomGraph(t, rand.New(rand.NewPCG(3, 4)), 30, 0.25)
	pairs := []graph.Edge{{U: 0, V: 3}, {U: 5, V: 2}, {U: 1, V: 4}, {U: 3, V: 0}}
	opt := Options{Hops: 2, MaxPerHop: 2}
	b, err := ExtractBatch(g, pairs, opt, 7)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != len(pairs) {
		t.Fatalf("%d subgraphs, want %d", b.Len(), len(pairs))
	}
	for k, p := range pairs {
		one, err := ExtractBatch(g, []graph.Edge{p}, opt, 7)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := b.Offsets[k], b.Offsets[k+1]
		if !slices.Equal(b.Nodes[lo:hi], one.Nodes) || !slices.Equal(b.Labels[lo:hi], one.Labels) {
			t.Errorf("pair %v: nodes %v labels %v in the batch, %v %v alone", p, b.Nodes[lo:hi], b.Labels[lo:hi], one.Nodes, one.Labels)
		}
		if b.Nodes[lo] != p.U || b.Nodes[lo+1] != p.V {
			t.Errorf("pair %v: subgraph starts %v", p, b.Nodes[lo:lo+2])
		}
		for _, e := range b.Edges[b.EdgeOffsets[k]:b.EdgeOffsets[k+1]] {
			if e.U < lo || e.V >= hi {
				t.Errorf("pair %v: edge %v leaves its block [%d, %d)", p, e, lo, hi)
			}
			if e.U == lo && e.V == lo+1 {
				t.Errorf("pair %v: the target is an edge of its subgraph", p)
			}
		}
	}
	// (0, 3) and (3, 0) keep the same nodes when sampled.
	a, c := b.Nodes[b.Offsets[0]+2:b.Offsets[1]], b.Nodes[b.Offsets[3]+2:b.Offsets[4]]
	as, cs := slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(c))
	if !slices.Equal(as, cs) {
		t.Errorf("the two orientations of (0, 3) sampled %v and %v", a, c)
	}
}
