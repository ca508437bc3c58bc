package load

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ilpgnn/core/graph"
)

// foldRow is the oracle for rowSum: for each column, in column order, the
// left fold from float32 0 of its values in the order given.
func foldRow(cols []int32, vals []float32) []colVal {
	sums := map[int32]float32{}
	for k, c := range cols {
		sums[c] += vals[k] // map's zero value is the fold's 0
	}
	var out []colVal
	for c, v := range sums {
		out = append(out, colVal{c, v})
	}
	slices.SortFunc(out, func(a, b colVal) int { return cmp.Compare(a.col, b.col) })
	return out
}

// TestRowSum checks rowSum against foldRow on rows in column order, in
// random order, and mixed, long enough to be folded several times
// (rowCompactAt entries), with values whose sums depend on the order in
// float32 (1e8 + 1 rounds back to 1e8).
func TestRowSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := []float32{1, -1, 0.5, 1e8, -1e8, 3, float32(math.Copysign(0, -1))}
	var s rowSum
	for i, tc := range []struct {
		n, cols int
		sorted  float64 // share of entries appended in column order
	}{
		{0, 1, 0}, {1, 1, 0}, {10, 3, 1}, {1000, 5, 0}, {1000, 1000, 0.5},
		{3*rowCompactAt + 17, 7, 0}, {3*rowCompactAt + 17, 1, 1}, {3 * rowCompactAt, 40000, 0.9}, {2 * rowCompactAt, 3, 0.99},
	} {
		cols := make([]int32, tc.n)
		vals := make([]float32, tc.n)
		c := int32(0)
		for k := range cols {
			if rng.Float64() < tc.sorted {
				c = min(c+int32(rng.IntN(2)), int32(tc.cols-1)) // the same column again or the next
			} else {
				c = int32(rng.IntN(tc.cols))
			}
			cols[k], vals[k] = c, values[rng.IntN(len(values))]
		}
		s.reset()
		for k := range cols {
			s.add(cols[k], vals[k])
		}
		s.fold()
		want := foldRow(cols, vals)
		if len(s.e) != len(want) {
			t.Fatalf("case %d: %d columns, want %d", i+1, len(s.e), len(want))
		}
		for k, w := range want {
			// Bit for bit, but for the sign of a zero (zeros are dropped).
			if g := s.e[k]; g.col != w.col || g.val != w.val || w.val != 0 && math.Float32bits(g.val) != math.Float32bits(w.val) {
				t.Fatalf("case %d: column %d sums to %g, want column %d %g", i+1, g.col, g.val, w.col, w.val)
			}
		}
	}
}

// TestEdgeSet checks edgeSet against sorting and compacting every entry:
// the same distinct entries, and the number of repeats, on entries in
// order, out of order and mixed, past compactAt so that the set compacts.
func TestEdgeSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i, tc := range []struct {
		n, nodes int
		sorted   float64
	}{
		{0, 2, 0}, {1, 2, 1}, {100, 10, 1}, {100, 10, 0}, {5000, 100, 0.5},
		{2*compactAt + 5, 3, 0}, {2*compactAt + 5, 3000, 0.95}, {compactAt + 1, 1 << 20, 0.999},
	} {
		var s edgeSet
		all := make([]graph.Edge, 0, tc.n)
		e := graph.Edge{}
		for range tc.n {
			if rng.Float64() < tc.sorted {
				if rng.IntN(3) == 0 && e.V < int32(tc.nodes-1) {
					e.V++
				} else if rng.IntN(3) == 0 && e.U < int32(tc.nodes-1) {
					e = graph.Edge{U: e.U + 1, V: 0}
				}
			} else {
				e = graph.Edge{U: int32(rng.IntN(tc.nodes)), V: int32(rng.IntN(tc.nodes))}
			}
			s.add(e)
			all = append(all, e)
		}
		got, repeats := s.distinct()
		slices.SortFunc(all, func(a, b graph.Edge) int { return cmp.Or(cmp.Compare(a.U, b.U), cmp.Compare(a.V, b.V)) })
		want := slices.Compact(all)
		if !slices.Equal(got, want) || repeats != tc.n-len(want) {
			t.Fatalf("case %d: %d distinct, %d repeats; want %d and %d", i+1, len(got), repeats, len(want), tc.n-len(want))
		}
	}
}
