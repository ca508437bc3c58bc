package load

import (
	"testing"
)

// TestNPZDroppedEntries checks the counts of adjacency entries dropped as
// self-loops and duplicates. By hand, on tinyNPZ: entries 0→1, 1→0, 1→2,
// 3→3 and 2→0 with data 0; 3→3 is the one self-loop, 1→0 is 0→1's other
// half (not a duplicate) and 2→0 is not an edge. Then row 1 lists 0 twice
// (a duplicate) and row 3 its loop twice.
func TestNPZDroppedEntries(t *testing.T) {
	for i, tc := range []struct {
		ms                    []member
		selfLoops, duplicates int
	}{
		{tinyNPZ(), 1, 0},
		{replace(replace(replace(tinyNPZ(),
			"adj_indptr", i32s(0, 1, 4, 5, 7)),
			"adj_indices", i32s(1, 0, 2, 0, 0, 3, 3)),
			"adj_data", f32s(1, 1, 1, 1, 0, 1, 1)), 2, 1},
	} {
		g, err := NPZBytes("t.npz", writeNPZ(t, tc.ms))
		if err != nil {
			t.Fatalf("case %d: %v", i+1, err)
		}
		checkValid(t, g)
		if g.NumEdges() != 2 || g.SelfLoops != tc.selfLoops || g.DuplicateEdges != tc.duplicates {
			t.Errorf("case %d: %d edges, %d self-loops, %d duplicates; want 2, %d, %d",
				i+1, g.NumEdges(), g.SelfLoops, g.DuplicateEdges, tc.selfLoops, tc.duplicates)
		}
	}
}

// TestNPZDatasetDroppedEntries checks the same counts on the datasets.
// Oracle: their SOURCE.md tables (counted there by scripts that parse the
// files directly): Citeseer's 124 self-loops; Amazon Photo's one; Cora's
// 5429 entries all distinct and no loops. None stores an entry twice
// (Amazon Photo: 143662 entries off the diagonal, 94500 without a reverse,
// and 119081 undirected edges = 94500 + (143662 - 94500) / 2).
func TestNPZDatasetDroppedEntries(t *testing.T) {
	for _, tc := range []struct {
		path                  string
		selfLoops, duplicates int
	}{
		{"cora/npz", 0, 0},
		{"citeseer/npz", 124, 0},
		{"amazon_photo", 1, 0},
	} {
		g, err := Path(dataset(t, tc.path))
		if err != nil {
			t.Fatal(err)
		}
		if g.SelfLoops != tc.selfLoops || g.DuplicateEdges != tc.duplicates {
			t.Errorf("%s: %d self-loops, %d duplicates; want %d and %d", tc.path, g.SelfLoops, g.DuplicateEdges, tc.selfLoops, tc.duplicates)
		}
	}
}
