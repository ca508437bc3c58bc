package train

import (
	"testing"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// TestEstimateMemory: the estimate of a hand-made graph is the sum of its
// terms by hand, the terms come largest first, and the refusal names the
// total, the limit and the largest terms with what shrinks them.
func TestEstimateMemory(t *testing.T) {
	// 4 nodes in a path, 1000 feature columns, 5 stored values.
	x := &f32.CSR{Rows: 4, Cols: 1000, Indptr: []int32{0, 2, 3, 4, 5}, Indices: []int32{0, 9, 1, 2, 999}, Values: []float32{1, 1, 1, 1, 1}}
	g, err := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}}, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Model.Hidden, cfg.Model.Diffusion.TopK = 64, 16
	m := EstimateMemory(g, cfg)
	weights := int64(59 * 1000 * 64)
	anchor := int64(8*1000*64 + 4*4*64) // the default anchor's start: input weights and H^0
	want := 34_000_000 + weights + 67*4*64 + 14*4*16 + 280*3 + 27*5 + anchor
	if m.Bytes != int64(want) || len(m.Parts) != 7 {
		t.Fatalf("estimate %d bytes in %d parts, want %d", m.Bytes, len(m.Parts), want)
	}
	for k := 1; k < len(m.Parts); k++ {
		if m.Parts[k].Bytes > m.Parts[k-1].Bytes {
			t.Errorf("parts out of order: %+v", m.Parts)
		}
	}
	if m.Parts[0].What != "the program" || m.Parts[1].Bytes != weights {
		t.Errorf("largest parts %+v", m.Parts[:2])
	}
	if err := m.Refusal(m.Bytes, "the tab's memory"); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	if err := m.Refusal(0, "the tab's memory"); err != nil {
		t.Errorf("no limit known: %v", err)
	}
	// The program's own term says nothing to change: no advice.
	err = m.Refusal(1<<20, "the tab's memory")
	if want := "training would need about 37 MiB of memory at its peak, more than the tab's memory (1 MiB)"; err == nil || err.Error() != want {
		t.Errorf("refusal %v, want %q", err, want)
	}
	cfg.Model.Hidden = 4096
	// 309,597,135 bytes: 241,664,000 of them the input layers', 32,833,536
	// the anchor's start.
	err = EstimateMemory(g, cfg).Refusal(100<<20, "the tab's memory")
	want2 := "training would need about 295 MiB of memory at its peak, more than the tab's memory (100 MiB); the input layers' weights (feature columns × hidden width, two layers, with their gradients and Adam's state) take about 230 MiB: fewer feature columns, or a smaller --hidden"
	if err == nil || err.Error() != want2 {
		t.Errorf("refusal %v,\nwant %q", err, want2)
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{512: "512 bytes", 2048: "2 KiB", 5 << 20: "5 MiB", 7 << 30: "7.0 GiB", 7<<30 + 1<<29: "7.5 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
