package split

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/load"
)

// randomGraph returns a graph on n nodes with about m random edges.
func randomGraph(t testing.TB, n, m int, seed uint64) *graph.Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	edges := make([]graph.Edge, m)
	for k := range edges {
		edges[k] = graph.Edge{U: int32(r.IntN(n)), V: int32(r.IntN(n))}
	}
	g, err := graph.New(n, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// cmpEdge orders edges by (U, V).
func cmpEdge(a, b graph.Edge) int { return cmp.Or(cmp.Compare(a.U, b.U), cmp.Compare(a.V, b.V)) }

// key returns the unordered pair of e.
func key(e graph.Edge) [2]int32 {
	if e.U > e.V {
		return [2]int32{e.V, e.U}
	}
	return [2]int32{e.U, e.V}
}

// checkSplit asserts every property New promises.
func checkSplit(t *testing.T, g *graph.Graph, s *Split, valFrac, testFrac float64) {
	t.Helper()
	m := g.NumEdges()
	if len(s.TestPos) != holdOut(testFrac, m) || len(s.ValPos) != holdOut(valFrac, m) ||
		len(s.TrainPos) != m-len(s.TestPos)-len(s.ValPos) {
		t.Fatalf("sizes %d/%d/%d of %d", len(s.TrainPos), len(s.ValPos), len(s.TestPos), m)
	}
	if len(s.ValNeg) != len(s.ValPos) || len(s.TestNeg) != len(s.TestPos) {
		t.Fatalf("negatives %d/%d for positives %d/%d", len(s.ValNeg), len(s.TestNeg), len(s.ValPos), len(s.TestPos))
	}
	// Positives: a partition of g's edges, U < V.
	seen := map[[2]int32]string{}
	for name, set := range map[string][]graph.Edge{"train": s.TrainPos, "val": s.ValPos, "test": s.TestPos} {
		for _, e := range set {
			if e.U >= e.V || !g.HasEdge(int(e.U), int(e.V)) {
				t.Fatalf("%s positive %v is not a normalised edge of g", name, e)
			}
			if other, dup := seen[key(e)]; dup {
				t.Fatalf("edge %v in %s and %s", e, other, name)
			}
			seen[key(e)] = name
		}
	}
	if len(seen) != m {
		t.Fatalf("positives cover %d of %d edges", len(seen), m)
	}
	// Negatives: non-edges of g, never self-pairs, U < V, distinct, val and
	// test disjoint.
	neg := map[[2]int32]bool{}
	for _, e := range slices.Concat(s.ValNeg, s.TestNeg) {
		if e.U >= e.V || e.U < 0 || int(e.V) >= g.NumNodes() {
			t.Fatalf("negative %v not a normalised pair", e)
		}
		if g.HasEdge(int(e.U), int(e.V)) {
			t.Fatalf("negative %v is an edge of g", e)
		}
		if neg[key(e)] {
			t.Fatalf("negative %v drawn twice", e)
		}
		neg[key(e)] = true
	}
	// Train holds exactly TrainPos, on g's nodes.
	tr := slices.Clone(s.TrainPos)
	slices.SortFunc(tr, cmpEdge)
	if got := s.Train.Edges(); !slices.Equal(got, tr) {
		t.Fatalf("Train has %d edges, TrainPos %d", len(got), len(tr))
	}
	if s.Train.NumNodes() != g.NumNodes() || s.Train.Features != g.Features || !slices.Equal(s.Train.IDs, g.IDs) {
		t.Fatalf("Train lost g's nodes")
	}
}

func TestSplitRandomGraphs(t *testing.T) {
	for i, tc := range []struct {
		n, m           int
		valFrac, tfrac float64
	}{
		{100, 400, DefaultValFrac, DefaultTestFrac}, // 1. sparse
		{30, 300, DefaultValFrac, DefaultTestFrac},  // 2. dense: rejection path
		{12, 200, 0.05, 0.05},                       // 3. nearly complete: enumeration path
		{50, 100, 0, 0.3},                           // 5. no validation set
	} {
		g := randomGraph(t, tc.n, tc.m, uint64(i))
		s, err := New(g, 42, tc.valFrac, tc.tfrac)
		if err != nil {
			t.Fatalf("case %d: %v", i+1, err)
		}
		checkSplit(t, g, s, tc.valFrac, tc.tfrac)
	}
}

func TestSplitErrors(t *testing.T) {
	path := func(n int) *graph.Graph { // 0-1-...-(n-1)
		edges := make([]graph.Edge, n-1)
		for i := range edges {
			edges[i] = graph.Edge{U: int32(i), V: int32(i + 1)}
		}
		g, err := graph.New(n, edges, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	k4, _ := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 0, V: 2}, {U: 0, V: 3}, {U: 1, V: 2}, {U: 1, V: 3}, {U: 2, V: 3}}, nil, nil)
	for i, tc := range []struct {
		g         *graph.Graph
		val, test float64
		want      string
		tooSmall  bool
	}{
		{path(3), 0.05, 0.1, "split: graph too small to split: 2 edges, need at least 3", true},                                    // 1
		{k4, 0.05, 0.1, "split: graph too small to split: 4 nodes and 6 edges leave 0 non-edges, need 2 negatives", true},          // 2
		{path(4), 0.5, 0.5, "split: fractions must be >= 0 and sum below 1 (got val 0.5, test 0.5)", false},                        // 3
		{path(4), -0.1, 0.1, "split: fractions must be >= 0 and sum below 1 (got val -0.1, test 0.1)", false},                      // 4
		{path(4), 0.6, 0.3, "split: graph too small to split: 3 edges leave no training edge after 1 test and 2 validation", true}, // 5
	} {
		_, err := New(tc.g, 1, tc.val, tc.test)
		if err == nil || err.Error() != tc.want {
			t.Errorf("case %d:\n got %v\nwant %s", i+1, err, tc.want)
		}
		if errors.Is(err, ErrTooSmall) != tc.tooSmall {
			t.Errorf("case %d: errors.Is(ErrTooSmall) = %v", i+1, !tc.tooSmall)
		}
	}
	// The smallest split: 3 edges, one each.
	g := path(4)
	s, err := New(g, 1, DefaultValFrac, DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	checkSplit(t, g, s, DefaultValFrac, DefaultTestFrac)
	if len(s.TrainPos) != 1 || len(s.ValPos) != 1 || len(s.TestPos) != 1 {
		t.Errorf("3-edge split %d/%d/%d", len(s.TrainPos), len(s.ValPos), len(s.TestPos))
	}
}

func TestSplitDeterminism(t *testing.T) {
	g := randomGraph(t, 200, 1000, 3)
	a, err := New(g, 7, DefaultValFrac, DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(g, 7, DefaultValFrac, DefaultTestFrac)
	c, _ := New(g, 8, DefaultValFrac, DefaultTestFrac)
	same := func(x, y *Split) bool {
		return slices.Equal(x.TrainPos, y.TrainPos) && slices.Equal(x.ValPos, y.ValPos) && slices.Equal(x.TestPos, y.TestPos) &&
			slices.Equal(x.ValNeg, y.ValNeg) && slices.Equal(x.TestNeg, y.TestNeg) && fingerprint.Of(x.Train) == fingerprint.Of(y.Train)
	}
	if !same(a, b) {
		t.Errorf("same seed, different splits")
	}
	if slices.Equal(a.TestPos, c.TestPos) || slices.Equal(a.ValNeg, c.ValNeg) {
		t.Errorf("seeds 7 and 8 give the same split")
	}
	// g is untouched.
	if !slices.IsSortedFunc(g.Edges(), cmpEdge) || g.NumEdges() != a.Train.NumEdges()+len(a.ValPos)+len(a.TestPos) {
		t.Errorf("g modified")
	}
}

// TestSplitCora checks the sizes on Cora: M = 5278 → round(527.8) = 528
// test, round(263.9) = 264 validation, 4486 train (docs/model.md §1 fractions).
func TestSplitCora(t *testing.T) {
	dir := datasets(t)
	g, err := load.Path(filepath.Join(dir, "cora"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(g, 0, DefaultValFrac, DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.TrainPos) != 4486 || len(s.ValPos) != 264 || len(s.TestPos) != 528 ||
		len(s.ValNeg) != 264 || len(s.TestNeg) != 528 || s.Train.NumEdges() != 4486 {
		t.Errorf("Cora split %d/%d/%d, negatives %d/%d", len(s.TrainPos), len(s.ValPos), len(s.TestPos), len(s.ValNeg), len(s.TestNeg))
	}
	checkSplit(t, g, s, DefaultValFrac, DefaultTestFrac)
}

// datasets finds shared/datasets as core/load's tests do, or skips.
func datasets(t testing.TB) string {
	if d := os.Getenv("ILPGNN_DATASETS"); d != "" {
		return d
	}
	dir, _ := os.Getwd()
	for dir != "" {
		cand := filepath.Join(dir, "shared", "datasets")
		if _, err := os.Stat(filepath.Join(cand, "cora")); err == nil {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	t.Skip("shared/datasets not found (set ILPGNN_DATASETS)")
	return ""
}

func TestNegativeSampler(t *testing.T) {
	g := randomGraph(t, 50, 300, 5)
	s := NewNegativeSampler(3)
	dst := make([]graph.Edge, 2000)
	got := s.Sample(dst, g)
	if &got[0] != &dst[0] || len(got) != len(dst) {
		t.Fatalf("Sample did not fill dst")
	}
	swapped := 0
	for _, e := range got {
		if e.U == e.V || g.HasEdge(int(e.U), int(e.V)) {
			t.Fatalf("sampled %v: self-pair or edge", e)
		}
		if e.U > e.V {
			swapped++
		}
	}
	// Orientation is as drawn: about half the pairs have U > V.
	if swapped < 800 || swapped > 1200 {
		t.Errorf("%d of 2000 pairs have U > V, want about 1000", swapped)
	}
	// Determinism: same seed → same sequence across calls; new seed → new.
	a, b := NewNegativeSampler(3), NewNegativeSampler(3)
	x1, x2 := a.Sample(make([]graph.Edge, 100), g), a.Sample(make([]graph.Edge, 100), g)
	y1, y2 := b.Sample(make([]graph.Edge, 100), g), b.Sample(make([]graph.Edge, 100), g)
	if !slices.Equal(x1, y1) || !slices.Equal(x2, y2) {
		t.Errorf("same seed, different samples")
	}
	if slices.Equal(x1, x2) {
		t.Errorf("two epochs drew the same negatives")
	}
	if z := NewNegativeSampler(4).Sample(make([]graph.Edge, 100), g); slices.Equal(z, x1) {
		t.Errorf("seeds 3 and 4 draw the same negatives")
	}
	// The zero value works and equals seed 0.
	var zero NegativeSampler
	if !slices.Equal(zero.Sample(make([]graph.Edge, 50), g), NewNegativeSampler(0).Sample(make([]graph.Edge, 50), g)) {
		t.Errorf("zero value differs from seed 0")
	}
	// Empty dst is a no-op, even on a graph without non-edges.
	k2, _ := graph.New(2, []graph.Edge{{U: 0, V: 1}}, nil, nil)
	if out := s.Sample(nil, k2); len(out) != 0 {
		t.Errorf("empty dst filled")
	}
}

func TestNegativeSamplerUniform(t *testing.T) {
	// Path 0-1-2-3: non-edges {0,2}, {0,3}, {1,3}, each drawn as either
	// orientation: 6 ordered pairs, each with probability 1/6.
	g, _ := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}}, nil, nil)
	dst := NewNegativeSampler(11).Sample(make([]graph.Edge, 60000), g)
	count := map[graph.Edge]int{}
	for _, e := range dst {
		count[e]++
	}
	if len(count) != 6 {
		t.Fatalf("drew %d distinct ordered pairs, want 6: %v", len(count), count)
	}
	for e, c := range count {
		// 10000 expected, sd ≈ 91: allow 5 sd.
		if c < 9540 || c > 10460 {
			t.Errorf("pair %v drawn %d times, want ~10000", e, c)
		}
	}
}

func TestNegativeSamplerPanics(t *testing.T) {
	k2, _ := graph.New(2, []graph.Edge{{U: 0, V: 1}}, nil, nil)
	defer func() {
		if recover() == nil {
			t.Errorf("no panic on a complete graph")
		}
	}()
	NewNegativeSampler(1).Sample(make([]graph.Edge, 1), k2)
}

func TestSampleAllocs(t *testing.T) {
	g := randomGraph(t, 100, 300, 1)
	s := NewNegativeSampler(1)
	dst := make([]graph.Edge, 256)
	if a := testing.AllocsPerRun(20, func() { s.Sample(dst, g) }); a != 0 {
		t.Errorf("Sample allocates %g times per call", a)
	}
}

func BenchmarkSample(b *testing.B) {
	for _, n := range []int{2708, 100000} {
		g := randomGraph(b, n, 2*n, 1)
		dst := make([]graph.Edge, 4*n)
		b.Run(fmt.Sprintf("n=%d,pairs=%d", n, len(dst)), func(b *testing.B) {
			s := NewNegativeSampler(1)
			for b.Loop() {
				s.Sample(dst, g)
			}
		})
	}
}

func ExampleNew() {
	// A 6-cycle with two chords: 8 edges → 1 test (round 0.8), 1 validation
	// (round 0.4 = 0, at least 1), 6 train.
	g, _ := graph.New(6, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}, {U: 4, V: 5}, {U: 5, V: 0}, {U: 0, V: 3}, {U: 1, V: 4}}, nil, nil)
	s, err := New(g, 1, DefaultValFrac, DefaultTestFrac)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(s.TrainPos), len(s.ValPos), len(s.TestPos), len(s.ValNeg), len(s.TestNeg), s.Train.NumEdges())
	// Output: 6 1 1 1 1 6
}

// TestFixed: a split with given positives keeps them (reversed pairs
// normalised) and draws valid negatives; pairs that are not a partition of
// the graph's edges are refused.
func TestFixed(t *testing.T) {
	g := randomGraph(t, 60, 200, 3)
	edges := g.Edges()
	test, val, tr := edges[:20], edges[20:30], edges[30:]
	rev := slices.Clone(test)
	for k := range rev {
		rev[k] = graph.Edge{U: rev[k].V, V: rev[k].U}
	}
	s, err := Fixed(g, 4, tr, val, rev)
	if err != nil {
		t.Fatal(err)
	}
	checkSplit(t, g, s, float64(len(val))/float64(len(edges)), float64(len(test))/float64(len(edges)))
	if !slices.Equal(s.TestPos, test) || !slices.Equal(s.ValPos, val) {
		t.Error("given positives not kept in order")
	}
	s2, _ := Fixed(g, 4, tr, val, test)
	if !slices.Equal(s.TestNeg, s2.TestNeg) {
		t.Error("same seed, different negatives")
	}
	for name, c := range map[string][3][]graph.Edge{
		"missing edge": {tr[1:], val, test},
		"duplicate":    {tr, val, append(slices.Clone(test), val[0])},
		"non-edge":     {tr, val, append(slices.Clone(test[1:]), s.TestNeg[0])},
		"no training":  {nil, val, append(slices.Clone(test), tr...)},
	} {
		if _, err := Fixed(g, 4, c[0], c[1], c[2]); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
