package engine

import (
	"fmt"
	"strings"
	"testing"

	"ilpgnn/core/graph"
)

// TestLoadNotesBounded: a graph file that gives its reader much to say
// (here a JSON graph with 300 attributes, each on one node, and a list
// attribute and an edge attribute beside them) reaches the page as a few
// notes, at most graph.MaxNotes, the numeric attributes' one note with
// their counts, and with the duplicate edge's note last.
func TestLoadNotesBounded(t *testing.T) {
	const n, per = 30, 10
	var b strings.Builder
	b.WriteString(`{"nodes": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": "v%d", "l": [1]`, i)
		for j := range per {
			fmt.Fprintf(&b, `, "a%03d": 1`, i*per+j)
		}
		b.WriteString("}")
	}
	b.WriteString(`], "links": [{"source": "v0", "target": "v1", "w": 2}, {"source": "v1", "target": "v0"}`)
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, `, {"source": "v%d", "target": "v%d"}`, i, (i+1)%n)
	}
	b.WriteString("]}")
	p := newPage(t, nil)
	r := p.wait(p.send("load", nil, map[string][]byte{"flood.json": []byte(b.String())}))
	if r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	var gi GraphInfo
	roundTrip(t, r.Result, &gi)
	want := fmt.Sprintf(`flood.json: %d numeric attributes have no value on some of the %d nodes (on %d nodes each, %d values in all); read as 0 there: "a000", "a001", "a002", "a003", "a004", "a005", "a006", "a007", "a008", "a009" and %d more`,
		n*per, n, n-1, n*per*(n-1), n*per-10)
	if len(gi.InputNotes) != 5 || len(gi.InputNotes) > graph.MaxNotes || gi.InputNotes[1] != want ||
		gi.InputNotes[4] != "1 duplicate edge (the same pair again, in either order) removed" {
		t.Fatalf("%d notes:\n%s\nwant the second\n%s", len(gi.InputNotes), strings.Join(gi.InputNotes, "\n"), want)
	}
}
