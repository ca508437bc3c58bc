package fingerprint

import (
	"testing"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

func TestOf(t *testing.T) {
	build := func(edges []graph.Edge, v float32, ids []string) *graph.Graph {
		x := &f32.CSR{Rows: 3, Cols: 2, Indptr: []int32{0, 1, 1, 2}, Indices: []int32{0, 1}, Values: []float32{1, v}}
		g, err := graph.New(3, edges, x, ids)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	ids := []string{"a", "b", "c"}
	base := build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 2, ids)
	// Stable: rebuilt from permuted, duplicated input; relabelled graph data
	// that does not enter training (name, labels) does not matter.
	same := build([]graph.Edge{{U: 2, V: 1}, {U: 1, V: 0}, {U: 0, V: 1}}, 2, ids)
	same.Name, same.Labels = "other", []int32{0, 0, 0}
	if Of(base) != Of(same) {
		t.Errorf("fingerprint differs for the same graph")
	}
	if Of(base) != Of(base) {
		t.Errorf("fingerprint not deterministic")
	}
	for i, g := range []*graph.Graph{
		build([]graph.Edge{{U: 0, V: 1}, {U: 0, V: 2}}, 2, ids),                     // 1. an edge moved
		build([]graph.Edge{{U: 0, V: 1}}, 2, ids),                                   // 2. an edge removed
		build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 3, ids),                     // 3. a feature value
		build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 2, []string{"a", "b", "d"}), // 4. an id
		build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 2, []string{"ab", "", "c"}), // 5. id boundaries
	} {
		if Of(g) == Of(base) {
			t.Errorf("case %d: fingerprint unchanged", i+1)
		}
	}
	// 6. a feature moved to another column.
	g := build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 2, ids)
	g.Features.Indices[1] = 0
	if Of(g) == Of(base) {
		t.Errorf("case 6: fingerprint unchanged")
	}
}
