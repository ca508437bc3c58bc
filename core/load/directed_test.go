package load

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/graph"
)

// arc is a directed edge of a generated file, with how the edge itself
// marks its direction: "" for the file's default, else the format's
// word ("true", "directed", "mutual", ...).
type arc struct {
	u, v int
	mark string
}

// ringBothWays is n nodes in a ring with an edge each way between
// neighbours, and a last one-way edge 0 -> n/2.
func ringBothWays(n int) []arc {
	var arcs []arc
	for i := range n {
		arcs = append(arcs, arc{i, (i + 1) % n, ""}, arc{(i + 1) % n, i, ""})
	}
	return append(arcs, arc{0, n / 2, ""})
}

// reciprocal counts the pairs of nodes with an edge each way among the
// arcs directed says are directed, and those arcs, by a map of the
// arcs: independent of the reader's sort.
func reciprocal(arcs []arc, directed func(arc) bool) (pairs, count int) {
	seen := make(map[[2]int]bool)
	for _, a := range arcs {
		if directed(a) {
			count++
			seen[[2]int{a.u, a.v}] = true
		}
	}
	for p := range seen {
		if p[0] < p[1] && seen[[2]int{p[1], p[0]}] {
			pairs++
		}
	}
	return pairs, count
}

func graphmlArcs(edgedefault string, arcs []arc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s<graph edgedefault=%q>\n", graphmlHead, edgedefault)
	for _, a := range arcs {
		dir := ""
		if a.mark != "" {
			dir = fmt.Sprintf(" directed=%q", a.mark)
		}
		fmt.Fprintf(&b, "<edge source=\"n%d\" target=\"n%d\"%s/>\n", a.u, a.v, dir)
	}
	return b.String() + "</graph></graphml>"
}

func gexfArcs(defaultType string, arcs []arc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s<graph defaultedgetype=%q><edges>\n", gexfHead, defaultType)
	for i, a := range arcs {
		typ := ""
		if a.mark != "" {
			typ = fmt.Sprintf(" type=%q", a.mark)
		}
		fmt.Fprintf(&b, "<edge id=\"%d\" source=\"n%d\" target=\"n%d\"%s/>\n", i, a.u, a.v, typ)
	}
	return b.String() + "</edges></graph></gexf>"
}

// jsonArcs writes node-link data (head "") or graphology's, with head
// the top-level fields before the edges and tail those after them; an
// arc marked "undirected" carries graphology's "undirected": true, one
// marked "directed" "undirected": false.
func jsonArcs(graphology bool, head, tail string, arcs []arc) string {
	var b strings.Builder
	b.WriteString("{" + head)
	key, edges := "id", "links"
	if graphology {
		key, edges = "key", "edges"
	}
	fmt.Fprintf(&b, `"nodes": [{%q: "n0"}], %q: [`, key, edges)
	for i, a := range arcs {
		if i > 0 {
			b.WriteString(",\n")
		}
		und := ""
		switch a.mark {
		case "undirected":
			und = `, "undirected": true`
		case "directed":
			und = `, "undirected": false`
		}
		fmt.Fprintf(&b, `{"source": "n%d", "target": "n%d"%s}`, a.u, a.v, und)
	}
	return b.String() + "]" + tail + "}"
}

// TestDirectedReadAsUndirected: a file whose edges are directed says so,
// in one note with the pairs of nodes that had an edge each way (counted
// here from the arcs), in each markup format, whether the graph's default
// or the edges themselves say it; an undirected file gets no such note.
func TestDirectedReadAsUndirected(t *testing.T) {
	ring := ringBothWays(6) // 13 arcs, 6 pairs both ways
	all := func(arc) bool { return true }
	pairs, count := reciprocal(ring, all)
	if pairs != 6 || count != 13 {
		t.Fatalf("the ring has %d pairs both ways, %d arcs", pairs, count)
	}
	const sixPairs = "; 6 pairs of nodes have an edge each way, each read as one link (their second edges are counted among the duplicates removed)"

	// Some edges marked: 0 -> 1 and 1 -> 0 directed, 2 -> 1 directed, 1 -> 2
	// not, 3 -> 4 GEXF's "mutual" (an undirected link), the rest the
	// default (undirected).
	marked := func(yes, no string) []arc {
		return []arc{{0, 1, yes}, {1, 0, yes}, {2, 1, yes}, {1, 2, no}, {3, 4, no}, {4, 5, ""}, {5, 0, ""}}
	}
	markedPairs, markedCount := reciprocal(marked("d", "u"), func(a arc) bool { return a.mark == "d" })
	if markedPairs != 1 || markedCount != 3 {
		t.Fatalf("marked: %d pairs, %d directed", markedPairs, markedCount)
	}
	mixed := []arc{{0, 1, ""}, {1, 0, ""}, {1, 2, "undirected"}, {2, 1, ""}, {3, 3, ""}}
	mixedPairs, mixedCount := reciprocal(mixed, func(a arc) bool { return a.mark != "undirected" })

	for _, tc := range []struct {
		name, file, in string
		want           string // the note on directed edges; "" for none
		duplicates     int
	}{
		{"graphml edgedefault", "d.graphml", graphmlArcs("directed", ring),
			`d.graphml: the edges are directed (edgedefault="directed") and are read as undirected links` + sixPairs, 6},
		{"graphml directed=true", "m.graphml", graphmlArcs("undirected", marked("true", "false")),
			fmt.Sprintf(`m.graphml: %d of the 7 edges are directed (directed="true") and are read as undirected links; 1 pair of nodes has an edge each way, read as one link (its second edge is counted among the duplicates removed)`, markedCount), 2},
		{"graphml undirected", "u.graphml", graphmlArcs("undirected", ring), "", 6},
		{"gexf defaultedgetype", "d.gexf", gexfArcs("directed", ring),
			`d.gexf: the edges are directed (defaultedgetype="directed") and are read as undirected links` + sixPairs, 6},
		{"gexf type=directed", "m.gexf", gexfArcs("undirected", marked("directed", "mutual")),
			fmt.Sprintf(`m.gexf: %d of the 7 edges are directed (type="directed") and are read as undirected links; 1 pair of nodes has an edge each way, read as one link (its second edge is counted among the duplicates removed)`, markedCount), 2},
		{"gexf undirected", "u.gexf", gexfArcs("undirected", ring), "", 6},
		{"node-link directed, after the links", "d.json", jsonArcs(false, `"multigraph": false, `, `, "directed": true`, ring),
			`d.json: the edges are directed ("directed": true) and are read as undirected links` + sixPairs, 6},
		{"node-link undirected", "u.json", jsonArcs(false, `"directed": false, `, "", ring), "", 6},
		{"graphology directed", "g.json", jsonArcs(true, `"options": {"type": "directed", "multi": false}, `, "", ring),
			`g.json: the edges are directed ("options": {"type": "directed"}) and are read as undirected links` + sixPairs, 6},
		{"graphology mixed", "x.json", jsonArcs(true, `"options": {"type": "mixed"}, `, "", mixed),
			fmt.Sprintf(`x.json: %d of the 5 edges are directed ("options": {"type": "mixed"}) and are read as undirected links; %d pair of nodes has an edge each way, read as one link (its second edge is counted among the duplicates removed)`, mixedCount, mixedPairs), 2},
		{"graphology without options, an edge undirected: false", "f.json", jsonArcs(true, "", "", []arc{{0, 1, "directed"}, {1, 2, ""}}),
			`f.json: 1 of the 2 edges is directed ("undirected": false) and is read as undirected links; no two nodes have an edge each way`, 0},
		{"graphology undirected", "v.json", jsonArcs(true, `"options": {"type": "undirected"}, `, "", ring), "", 6},
	} {
		g, err := readMarkup(tc.file, tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []string
		for _, n := range g.ReadNotes {
			if strings.Contains(n, "directed") {
				got = append(got, n)
			}
		}
		want := []string{tc.want}
		if tc.want == "" {
			want = nil
		}
		if !slices.Equal(got, want) || g.DuplicateEdges != tc.duplicates {
			t.Errorf("%s: notes on direction %q, %d duplicates; want %q, %d", tc.name, got, g.DuplicateEdges, want, tc.duplicates)
		}
		if tc.duplicates > 0 && !slices.Contains(g.InputNotes(), graph.DroppedEdgesNote(g.SelfLoops, tc.duplicates)) {
			t.Errorf("%s: no note on the duplicates: %q", tc.name, g.InputNotes())
		}
	}
}
