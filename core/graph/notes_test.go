package graph

import (
	"fmt"
	"slices"
	"testing"
)

// TestInputNotesCapped: InputNotes holds at most MaxNotes sentences,
// however many ReadNotes a loader left; the cut ones are counted in the
// last kept one, and the sentences on removed edges and missing rows
// are kept after it.
func TestInputNotesCapped(t *testing.T) {
	g, err := New(3, []Edge{{0, 1}, {1, 0}, {2, 2}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.MissingFeatures = []string{"2"}
	read := make([]string, 100)
	for i := range read {
		read[i] = fmt.Sprintf("note %d", i)
	}
	g.ReadNotes = read
	notes := g.InputNotes()
	kept := MaxNotes - 3 // the count and the two own sentences take three places
	if len(notes) != MaxNotes || !slices.Equal(notes[:kept], read[:kept]) ||
		notes[kept] != fmt.Sprintf("%d more notes left out, to keep this list short", 100-kept) ||
		notes[kept+1] != "1 duplicate edge (the same pair again, in either order) and 1 self-loop (an edge from a node to itself) removed" ||
		notes[kept+2] != `1 node has no feature row (id "2"); its features are all zero` {
		t.Fatalf("%d notes: %q", len(notes), notes)
	}
	if got := g.Stats().InputNotes; !slices.Equal(got, notes) {
		t.Errorf("Stats().InputNotes = %q", got)
	}
	g.ReadNotes = read[:MaxNotes-2]
	if notes := g.InputNotes(); len(notes) != MaxNotes || !slices.Equal(notes[:MaxNotes-2], read[:MaxNotes-2]) {
		t.Errorf("at the cap nothing is cut: %q", notes)
	}
	if got := CapNotes(read[:3], 3); len(got) != 3 || got[2] != "note 2" {
		t.Errorf("CapNotes at its limit: %q", got)
	}
	if got := CapNotes(read[:4], 3); !slices.Equal(got, []string{"note 0", "note 1", "2 more notes left out, to keep this list short"}) {
		t.Errorf("CapNotes past its limit: %q", got)
	}
}
