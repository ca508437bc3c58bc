package graph

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"ilpgnn/core/f32"
)

// mustNew builds a graph or fails the test.
func mustNew(t testing.TB, n int, edges []Edge, x *f32.CSR, ids []string) *Graph {
	t.Helper()
	g, err := New(n, edges, x, ids)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// checkGraph asserts the Graph invariants: sorted, duplicate-free, loop-free,
// symmetric adjacency and valid features.
func checkGraph(t testing.TB, g *Graph) {
	t.Helper()
	n := g.NumNodes()
	if len(g.Indptr) != n+1 || g.Indptr[0] != 0 || int(g.Indptr[n]) != len(g.Indices) {
		t.Fatalf("bad Indptr ends")
	}
	for i := 0; i < n; i++ {
		nb := g.Neighbors(i)
		for k, j := range nb {
			if int(j) == i {
				t.Fatalf("self-loop at %d", i)
			}
			if k > 0 && nb[k-1] >= j {
				t.Fatalf("row %d not strictly increasing: %v", i, nb)
			}
			if !g.HasEdge(int(j), i) {
				t.Fatalf("edge %d-%d has no reverse", i, j)
			}
		}
	}
	if err := g.Features.Validate(); err != nil {
		t.Fatal(err)
	}
	if g.Features.Rows != n || len(g.IDs) != n {
		t.Fatalf("features %d rows, %d ids for %d nodes", g.Features.Rows, len(g.IDs), n)
	}
}

func TestNewNormalises(t *testing.T) {
	// 1. duplicates in both directions, 2. a self-loop, 3. unsorted input.
	edges := []Edge{{3, 1}, {1, 3}, {0, 2}, {2, 2}, {2, 0}, {1, 0}, {0, 3}, {3, 1}}
	g := mustNew(t, 5, edges, nil, nil)
	checkGraph(t, g)
	want := map[int][]int32{0: {1, 2, 3}, 1: {0, 3}, 2: {0}, 3: {0, 1}, 4: {}}
	for i, w := range want {
		if got := g.Neighbors(i); !slices.Equal(got, w) {
			t.Errorf("Neighbors(%d) = %v, want %v", i, got, w)
		}
	}
	if g.NumNodes() != 5 || g.NumEdges() != 4 || g.FeatureDim() != 0 {
		t.Errorf("N, M, D = %d, %d, %d; want 5, 4, 0", g.NumNodes(), g.NumEdges(), g.FeatureDim())
	}
	if g.Degree(0) != 3 || g.Degree(4) != 0 {
		t.Errorf("degrees %d %d", g.Degree(0), g.Degree(4))
	}
	if !slices.Equal(g.IDs, []string{"0", "1", "2", "3", "4"}) {
		t.Errorf("default ids %v", g.IDs)
	}
	// The caller's slice is untouched.
	if edges[0] != (Edge{3, 1}) || edges[3] != (Edge{2, 2}) {
		t.Errorf("New modified its input: %v", edges)
	}
}

func TestNewErrors(t *testing.T) {
	x := &f32.CSR{Rows: 2, Cols: 1, Indptr: []int32{0, 0, 0}}
	for i, tc := range []struct {
		n     int
		edges []Edge
		x     *f32.CSR
		ids   []string
	}{
		{-1, nil, nil, nil},                    // 1. negative n
		{3, []Edge{{0, 3}}, nil, nil},          // 2. endpoint out of range
		{3, []Edge{{-1, 0}}, nil, nil},         // 3. negative endpoint
		{3, nil, nil, []string{"a", "b"}},      // 4. too few ids
		{3, nil, nil, []string{"a", "b", "a"}}, // 5. duplicate id
		{3, nil, x, nil},                       // 6. feature rows
	} {
		if _, err := New(tc.n, tc.edges, tc.x, tc.ids); err == nil {
			t.Errorf("case %d: no error", i+1)
		}
	}
}

func TestHasEdgeEdges(t *testing.T) {
	g := mustNew(t, 4, []Edge{{2, 0}, {1, 2}, {3, 2}}, nil, nil)
	for _, tc := range []struct {
		i, j int
		want bool
	}{{0, 2, true}, {2, 0, true}, {1, 2, true}, {2, 3, true}, {0, 1, false}, {0, 0, false}, {3, 1, false}} {
		if got := g.HasEdge(tc.i, tc.j); got != tc.want {
			t.Errorf("HasEdge(%d, %d) = %v", tc.i, tc.j, got)
		}
	}
	want := []Edge{{0, 2}, {1, 2}, {2, 3}}
	if got := g.Edges(); !slices.Equal(got, want) {
		t.Errorf("Edges = %v, want %v", got, want)
	}
}

func TestWithEdges(t *testing.T) {
	x := &f32.CSR{Rows: 3, Cols: 2, Indptr: []int32{0, 1, 1, 2}, Indices: []int32{0, 1}, Values: []float32{1, 2}}
	g := mustNew(t, 3, []Edge{{0, 1}, {1, 2}}, x, []string{"a", "b", "c"})
	g.Name, g.Labels, g.ClassNames = "tiny", []int32{0, 1, -1}, []string{"p", "q"}
	h, err := g.WithEdges([]Edge{{2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, h)
	if !slices.Equal(h.Edges(), []Edge{{0, 2}}) {
		t.Errorf("edges %v", h.Edges())
	}
	if h.Name != "tiny" || h.Features != g.Features || !slices.Equal(h.Labels, g.Labels) ||
		!slices.Equal(h.ClassNames, g.ClassNames) || !slices.Equal(h.IDs, g.IDs) {
		t.Errorf("WithEdges lost node data")
	}
	if i, ok := h.NodeIndex("c"); !ok || i != 2 {
		t.Errorf("NodeIndex(c) = %d, %v", i, ok)
	}
	if !g.HasEdge(0, 1) || g.NumEdges() != 2 {
		t.Errorf("WithEdges modified g")
	}
	if _, err := g.WithEdges([]Edge{{0, 5}}); err == nil {
		t.Errorf("out-of-range edge accepted")
	}
}

func TestNodeIndex(t *testing.T) {
	g := mustNew(t, 3, nil, nil, []string{"x", "y", "z"})
	for i, id := range g.IDs {
		if j, ok := g.NodeIndex(id); !ok || j != i {
			t.Errorf("NodeIndex(%q) = %d, %v", id, j, ok)
		}
	}
	if _, ok := g.NodeIndex("w"); ok {
		t.Errorf("NodeIndex found a missing id")
	}
	// A Graph literal (no index) falls back to a scan.
	lit := &Graph{Indptr: []int32{0, 0, 0}, IDs: []string{"p", "q"}}
	if j, ok := lit.NodeIndex("q"); !ok || j != 1 {
		t.Errorf("literal NodeIndex(q) = %d, %v", j, ok)
	}
	if _, ok := lit.NodeIndex("r"); ok {
		t.Errorf("literal NodeIndex found a missing id")
	}
}

func TestStats(t *testing.T) {
	// A path 0-1-2-3 (degrees 1 2 2 1), a triangle 4-5-6 (2 2 2), node 7
	// isolated: by hand, M = 6, density 12/56, degrees sorted
	// 0 1 1 2 2 2 2 2, median 2, mean 12/8, 3 components, largest 4.
	g := mustNew(t, 8, []Edge{{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {6, 4}}, nil, nil)
	got := g.Stats()
	want := Stats{Nodes: 8, Edges: 6, Density: 12.0 / 56, MinDegree: 0, MaxDegree: 2,
		MeanDegree: 1.5, MedianDegree: 2, Isolated: 1, Components: 3, LargestComponent: 4}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Stats = %+v\nwant   %+v", got, want)
	}
	// Star 0-{1,2,3} has degrees 3 1 1 1: median 1; adding 1-2 gives
	// 3 2 2 1, sorted 1 2 2 3: median 2.
	if m := mustNew(t, 4, []Edge{{0, 1}, {0, 2}, {0, 3}}, nil, nil).Stats().MedianDegree; m != 1 {
		t.Errorf("median %g, want 1", m)
	}
	if m := mustNew(t, 4, []Edge{{0, 1}, {0, 2}, {0, 3}, {1, 2}}, nil, nil).Stats().MedianDegree; m != 2 {
		t.Errorf("median %g, want 2", m)
	}
	if m := mustNew(t, 2, []Edge{{0, 1}}, nil, nil).Stats(); m.MedianDegree != 1 || m.Density != 1 {
		t.Errorf("K2 stats %+v", m)
	}
	if m := mustNew(t, 4, []Edge{{0, 1}}, nil, nil).Stats().MedianDegree; m != 0.5 {
		t.Errorf("median %g, want 0.5", m)
	}
	if s := mustNew(t, 0, nil, nil, nil).Stats(); !reflect.DeepEqual(s, Stats{}) {
		t.Errorf("empty graph stats %+v", s)
	}
	if s := mustNew(t, 1, nil, nil, nil).Stats(); s.Components != 1 || s.Isolated != 1 || s.Density != 0 {
		t.Errorf("single node stats %+v", s)
	}
	if s := got.String(); s == "" {
		t.Errorf("empty String")
	}
}

func TestStatsLongPath(t *testing.T) {
	// A path of 200000 nodes: BFS must not recurse.
	n := 200000
	edges := make([]Edge, n-1)
	for i := range edges {
		edges[i] = Edge{int32(i), int32(i + 1)}
	}
	s := mustNew(t, n, edges, nil, nil).Stats()
	if s.Components != 1 || s.LargestComponent != n || s.MinDegree != 1 || s.MaxDegree != 2 {
		t.Errorf("path stats %+v", s)
	}
}

func TestWithFallbackFeaturesKeepsFeatures(t *testing.T) {
	// Node 1 has an empty row but the graph has features: unchanged.
	x := &f32.CSR{Rows: 3, Cols: 2, Indptr: []int32{0, 1, 1, 2}, Indices: []int32{0, 1}, Values: []float32{1, 1}}
	g := mustNew(t, 3, []Edge{{0, 1}}, x, nil)
	if h := WithFallbackFeatures(g, 1); h != g || h.MadeUpFeatures != "" || h.FeatureSummary() != "2 features" {
		t.Errorf("graph with features was replaced or said to be made up: %q", h.FeatureSummary())
	}
}

func TestWithFallbackFeaturesOneHot(t *testing.T) {
	for k, x := range []*f32.CSR{
		nil, // 1. D = 0
		{Rows: 3, Cols: 5, Indptr: make([]int32, 4)}, // 2. D = 5, all rows empty
	} {
		g := mustNew(t, 3, []Edge{{0, 1}}, x, []string{"a", "b", "c"})
		h := WithFallbackFeatures(g, 1)
		checkGraph(t, h)
		want := []string{
			"3 features: one-hot node ids (the input has no numeric or categorical node attributes)",
			"3 features: one-hot node ids (every node feature of the input is 0)",
		}[k]
		if got := h.FeatureSummary(); got != want || g.MadeUpFeatures != "" {
			t.Errorf("summary %q, want %q (the input's %q)", got, want, g.MadeUpFeatures)
		}
		if h.FeatureDim() != 3 || h.Features.NNZ() != 3 {
			t.Fatalf("one-hot shape %dx%d nnz %d", h.Features.Rows, h.FeatureDim(), h.Features.NNZ())
		}
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				want := float32(0)
				if i == j {
					want = 1
				}
				if h.Features.At(i, j) != want {
					t.Errorf("X[%d,%d] = %g", i, j, h.Features.At(i, j))
				}
			}
		}
		if g.Features.NNZ() != 0 || g.FeatureDim() == 3 {
			t.Errorf("g modified")
		}
		if j, ok := h.NodeIndex("c"); !ok || j != 2 || !h.HasEdge(0, 1) {
			t.Errorf("copy lost structure or ids")
		}
	}
}

func TestWithFallbackFeaturesProjection(t *testing.T) {
	// A ring of OneHotMaxNodes+100 nodes plus one isolated node.
	n := OneHotMaxNodes + 101
	edges := make([]Edge, 0, n)
	for i := 0; i < n-1; i++ {
		edges = append(edges, Edge{int32(i), int32((i + 1) % (n - 1))})
	}
	g := mustNew(t, n, edges, nil, nil)
	h := WithFallbackFeatures(g, 7)
	checkGraph(t, h)
	if h.FeatureDim() != 1+ProjectionDim {
		t.Fatalf("dim %d", h.FeatureDim())
	}
	if want := fmt.Sprint(1+ProjectionDim) + " features: log degree and a random projection of the adjacency (the input has no numeric or categorical node attributes)"; h.FeatureSummary() != want {
		t.Errorf("summary %q, want %q", h.FeatureSummary(), want)
	}
	if idx, _ := h.Features.Row(n - 1); len(idx) != 0 {
		t.Errorf("isolated node has features %v", idx)
	}
	if v := h.Features.At(0, 0); math.Abs(float64(v)-math.Log(3)) > 1e-6 {
		t.Errorf("log-degree %g, want log 3", v)
	}
	// Every projected value is (1/√2)·√3·(a ± b) with a, b ∈ {-1, 0, 1}.
	unit := math.Sqrt(1.5)
	var sumSq float64
	var count int
	for i := 0; i < n-1; i++ {
		idx, val := h.Features.Row(i)
		for k, c := range idx {
			if c == 0 {
				continue
			}
			q := float64(val[k]) / unit
			if math.Abs(q-math.Round(q)) > 1e-5 || math.Abs(q) > 2.00001 || q == 0 {
				t.Fatalf("X[%d,%d] = %g is not a multiple of √1.5", i, c, val[k])
			}
			sumSq += float64(val[k]) * float64(val[k])
		}
		count += ProjectionDim
	}
	// Unit variance per coordinate (oracle: the construction), loose 5% bound.
	if v := sumSq / float64(count); math.Abs(v-1) > 0.05 {
		t.Errorf("projected variance %g, want ~1", v)
	}
	// Same seed → same features; another seed → different ones.
	if !reflect.DeepEqual(WithFallbackFeatures(g, 7).Features, h.Features) {
		t.Errorf("not deterministic")
	}
	if reflect.DeepEqual(WithFallbackFeatures(g, 8).Features, h.Features) {
		t.Errorf("seed ignored")
	}
}

func ExampleNew() {
	// Self-loops and duplicates are dropped; every edge is stored both ways.
	g, err := New(4, []Edge{{0, 1}, {1, 0}, {2, 2}, {1, 3}}, nil, []string{"a", "b", "c", "d"})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.NumNodes(), g.NumEdges(), g.Neighbors(1), g.Edges())
	fmt.Println(g.Stats())
	// Output:
	// 4 2 [0 3] [{0 1} {1 3}]
	// 4 nodes, 2 edges, 0 features (0 non-zeros), density 0.333, degree min 0 / median 1 / mean 1.00 / max 2, 1 isolated, 2 components (largest 3)
}
