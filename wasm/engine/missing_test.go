package engine

import (
	"slices"
	"testing"
)

// TestLoadMissingFeatures checks that the graph info sent to the page
// counts the nodes a LINQS .cites names without a .content row, and names
// the first five: here z, y, x, w, v, u, t (7, in order of first
// appearance), and none for a complete pair.
func TestLoadMissingFeatures(t *testing.T) {
	p := newPage(t, nil)
	files := map[string][]byte{
		"m.content": []byte("a 1 0 X\nb 0 1 Y\nc 1 1 X\n"),
		"m.cites":   []byte("a z\ny b\nx w\nc v\nu a\nu t\na b\n"),
	}
	r := p.wait(p.send("load", nil, files))
	if r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	var gi GraphInfo
	roundTrip(t, r.Result, &gi)
	if gi.Nodes != 10 || gi.MissingFeatures != 7 || !slices.Equal(gi.MissingFeatureIDs, []string{"z", "y", "x", "w", "v"}) {
		t.Fatalf("graph: %+v", gi)
	}
	files["m.cites"] = []byte("a b\nb c\n")
	r = p.wait(p.send("load", nil, files))
	if r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	var none GraphInfo
	roundTrip(t, r.Result, &none)
	if none.MissingFeatures != 0 || none.MissingFeatureIDs == nil || len(none.MissingFeatureIDs) != 0 {
		t.Fatalf("complete graph: %+v", none)
	}
}
