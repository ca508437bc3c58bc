package autograd

import (
	"slices"
	"testing"
)

func TestSnapshotRestore(t *testing.T) {
	a, b := NewParam(2, 2), NewParam(1, 3)
	copy(a.Value, []float32{1, 2, 3, 4})
	copy(b.Value, []float32{5, 6, 7})
	params := []*Var{a, b}
	snap := Snapshot(params, nil)
	a.Value[0], b.Value[2] = 10, 70
	if snap[0][0] != 1 || snap[1][2] != 7 {
		t.Fatalf("the snapshot shares storage with the values: %v", snap)
	}
	again := Snapshot(params, snap)
	if &again[0][0] != &snap[0][0] || again[0][0] != 10 {
		t.Errorf("a snapshot into dst must reuse it and copy the current values")
	}
	copy(snap[0], []float32{1, 2, 3, 4})
	snap[1][2] = 7
	Restore(params, snap)
	if !slices.Equal(a.Value, []float32{1, 2, 3, 4}) || !slices.Equal(b.Value, []float32{5, 6, 7}) {
		t.Errorf("restored %v %v", a.Value, b.Value)
	}
}
