package load

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/graph"
)

// sparseGraphology writes a graphology file of n nodes in a ring, node i
// with per attributes of its own ("k<i>_<j>", value 1), "half" (on the
// even nodes) and "all" (on every node) as numbers, and, on node m <
// cats, the string attribute "c<m>". It returns the file and the names
// of the attributes lacking a value on some nodes: numbers, strings.
func sparseGraphology(n, per, cats int) ([]byte, []string, []string) {
	var b strings.Builder
	b.WriteString(`{"options": {"type": "undirected"}, "nodes": [`)
	var numbers, strs []string
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"key": "n%d", "attributes": {"all": 2`, i)
		if i%2 == 0 {
			b.WriteString(`, "half": 3`)
		}
		if i < cats {
			fmt.Fprintf(&b, `, "c%d": "x"`, i)
			strs = append(strs, fmt.Sprintf("c%d", i))
		}
		for j := range per {
			fmt.Fprintf(&b, `, "k%d_%d": 1`, i, j)
			numbers = append(numbers, fmt.Sprintf("k%d_%d", i, j))
		}
		b.WriteString("}}")
	}
	b.WriteString("],\n\"edges\": [")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"source": "n%d", "target": "n%d"}`, i, (i+1)%n)
	}
	b.WriteString("]}\n")
	if n > 1 {
		numbers = append(numbers, "half")
	}
	return []byte(b.String()), numbers, strs
}

// listed is how a note names the first ten of names sorted, and how many
// more there are.
func listed(names []string) string {
	s := slices.Clone(names)
	slices.Sort(s)
	q := make([]string, min(len(s), 10))
	for i := range q {
		q[i] = strconv.Quote(s[i])
	}
	out := strings.Join(q, ", ")
	if len(s) > 10 {
		out += fmt.Sprintf(" and %d more", len(s)-10)
	}
	return out
}

// TestSparseAttributesSummarised: a graphology file of 50 nodes with
// 200,000 attributes, 4,000 of each node's own, gets one note for all the
// numeric attributes lacking values and one for the string ones, with
// the counts worked out from how the file was made, not one note per
// attribute; every attribute is still a feature column.
func TestSparseAttributesSummarised(t *testing.T) {
	const n, per, cats = 50, 4000, 6
	data, numbers, strs := sparseGraphology(n, per, cats)
	g, err := JSONBytes("sparse.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + n*per + 1 + cats; g.FeatureDim() != want { // all, k*, half, c*=x
		t.Fatalf("%d feature columns, want %d", g.FeatureDim(), want)
	}
	// Each k<i>_<j> is missing on the n-1 other nodes, half on the n/2 odd
	// ones; each c<m> on n-1.
	total := n*per*(n-1) + n/2
	wantNumbers := fmt.Sprintf("sparse.json: %d numeric attributes have no value on some of the %d nodes (on %d to %d nodes each, %d values in all); read as 0 there: %s",
		len(numbers), n, n/2, n-1, total, listed(numbers))
	wantStrings := fmt.Sprintf("sparse.json: %d string attributes have no value on some of the %d nodes (on %d nodes each, %d values in all); their one-hot columns are 0 there: %s",
		cats, n, n-1, cats*(n-1), listed(strs))
	notes := g.InputNotes()
	if len(notes) != 3 || !strings.HasPrefix(notes[0], "sparse.json: the features are the node attributes ") ||
		notes[1] != wantStrings || notes[2] != wantNumbers { // where their first attributes are: "c0", "half"
		t.Fatalf("notes:\n%s\nwant the features' note and\n%s\n%s", strings.Join(notes, "\n"), wantStrings, wantNumbers)
	}
	if len(notes[0]) > 2000 {
		t.Errorf("the features' note is %d bytes long", len(notes[0]))
	}

	// Up to maxAttrNotes attributes of a kind keep a note each.
	// k0_0, k0_1, k1_0, k1_1 and half: five, each missing on one node; the
	// ring of two nodes is one edge twice.
	data, numbers, _ = sparseGraphology(2, 2, 0)
	g, err = JSONBytes("few.json", data)
	if err != nil {
		t.Fatal(err)
	}
	notes = g.InputNotes()
	if len(numbers) != maxAttrNotes || len(notes) != 2+maxAttrNotes ||
		notes[1] != `few.json: attribute "half" has no value on 1 of 2 nodes (id "n1"); read as 0 there` ||
		notes[2] != `few.json: attribute "k0_0" has no value on 1 of 2 nodes (id "n1"); read as 0 there` {
		t.Errorf("five attributes: %q", notes)
	}
}

// manyNotesGEXF is a GEXF file that gives its reader more than MaxNotes
// notes: five numeric and five string attributes each lacking a value on
// one node, five string attributes with too many values, an ignored
// list attribute, an edge attribute, a visualisation element and a
// relabelled node. It also holds a duplicate edge and a self-loop.
func manyNotesGEXF() string {
	const cats = MaxCategories + 1
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" version="1.3"><graph>
<attributes class="node">`)
	for k := range 5 {
		fmt.Fprintf(&b, `<attribute id="x%d" title="x%d" type="float"/><attribute id="s%d" title="s%d" type="string"/><attribute id="m%d" title="m%d" type="string"/>`, k, k, k, k, k, k)
	}
	b.WriteString(`<attribute id="l" title="l" type="liststring"/></attributes>
<attributes class="edge"><attribute id="w" title="w" type="float"/></attributes><nodes>`)
	for i := range cats {
		fmt.Fprintf(&b, `<node id="v%d" label="L%d"><attvalues><attvalue for="l" value="[a]"/>`, i, i)
		for k := range 5 {
			if i > 0 {
				fmt.Fprintf(&b, `<attvalue for="x%d" value="1"/><attvalue for="s%d" value="y"/>`, k, k)
			}
			fmt.Fprintf(&b, `<attvalue for="m%d" value="name%d"/>`, k, i)
		}
		b.WriteString(`</attvalues><viz:size value="1"/></node>`)
	}
	b.WriteString(`</nodes><edges><edge source="v0" target="v1"><attvalues><attvalue for="w" value="1"/></attvalues></edge>
<edge source="v1" target="v0"/><edge source="v2" target="v2"/><edge source="v1" target="v2"/></edges></graph></gexf>`)
	return b.String()
}

// TestNotesCapped: a reader's notes stop at MaxNotes, the last then
// saying how many more there were, and InputNotes at graph.MaxNotes with
// the removed edges still said.
func TestNotesCapped(t *testing.T) {
	g, err := GEXFReader("many", strings.NewReader(manyNotesGEXF()), "many.gexf")
	if err != nil {
		t.Fatal(err)
	}
	// features, 5 + 5 lacking, 5 too many, ignored, edge attributes, not
	// read, labels: 20 notes, of which MaxNotes-1 are kept.
	const all = 1 + 5 + 5 + 5 + 4
	if len(g.ReadNotes) != MaxNotes || g.ReadNotes[MaxNotes-1] != fmt.Sprintf("%d more notes left out, to keep this list short", all-MaxNotes+1) {
		t.Fatalf("%d notes, the last %q", len(g.ReadNotes), g.ReadNotes[len(g.ReadNotes)-1])
	}
	if g.ReadNotes[6] != `many.gexf: attribute "x0" has no value on 1 of 33 nodes (id "v0"); read as 0 there` ||
		!strings.HasPrefix(g.ReadNotes[11], "many.gexf: string attribute \"m0\" has more than 32 distinct values") {
		t.Errorf("notes %q", g.ReadNotes)
	}
	notes := g.InputNotes()
	if len(notes) != MaxNotes+1 || len(notes) > graph.MaxNotes ||
		notes[MaxNotes] != "1 duplicate edge (the same pair again, in either order) and 1 self-loop (an edge from a node to itself) removed" {
		t.Errorf("InputNotes: %d, the last %q", len(notes), notes[len(notes)-1])
	}
}

// TestEveryReaderBounded: each reader, given a file that makes it say
// much, leaves at most MaxNotes notes, and InputNotes at most
// graph.MaxNotes.
func TestEveryReaderBounded(t *testing.T) {
	var gml, nl, el strings.Builder
	gml.WriteString(graphmlHead)
	for k := range 40 {
		fmt.Fprintf(&gml, `<key id="d%d" for="node" attr.name="a%d" attr.type="double"/><key id="s%d" for="node" attr.name="s%d" attr.type="string"/>`, k, k, k, k)
	}
	gml.WriteString(`<graph edgedefault="directed">`)
	nl.WriteString(`{"directed": true, "nodes": [`)
	for i := range 40 {
		fmt.Fprintf(&gml, `<node id="n%d"><data key="d%d">1</data><data key="s%d">v%d</data><port/></node>`, i, i, i%3, i)
		if i > 0 {
			nl.WriteString(",")
		}
		fmt.Fprintf(&nl, `{"id": %d, "a%d": 1, "s%d": "v%d", "l%d": [1]}`, i, i, i%3, i, i)
	}
	for i := range 40 {
		fmt.Fprintf(&gml, `<edge source="n%d" target="n%d"><data key="d0">1</data></edge><edge source="n%d" target="n%d"/>`, i, (i+1)%40, (i+1)%40, i)
	}
	gml.WriteString(`</graph></graphml>`)
	nl.WriteString(`], "links": [{"source": 0, "target": 1, "w": 1}, {"source": 1, "target": 0}, {"source": 2, "target": 99}]}`)
	el.WriteString("# a comment\n% another\nsource,target,weight\n")
	for i := range 40 {
		fmt.Fprintf(&el, "%d,%d,1,x\n%d,%d\n", i, i+1, i+1, i)
	}
	graphology, _, _ := sparseGraphology(30, 50, 10)
	for _, tc := range []struct {
		name string
		read func() (*graph.Graph, error)
	}{
		{"graphml", func() (*graph.Graph, error) { return GraphMLReader("g", strings.NewReader(gml.String()), "g.graphml") }},
		{"gexf", func() (*graph.Graph, error) { return GEXFReader("m", strings.NewReader(manyNotesGEXF()), "m.gexf") }},
		{"node-link", func() (*graph.Graph, error) { return JSONBytes("n.json", []byte(nl.String())) }},
		{"graphology", func() (*graph.Graph, error) { return JSONBytes("s.json", graphology) }},
		{"edge list", func() (*graph.Graph, error) {
			return EdgeListReaders("e", strings.NewReader(el.String()), "e.csv", strings.NewReader("id,x\n0,1\n"), "f.csv")
		}},
	} {
		g, err := tc.read()
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(g.ReadNotes) == 0 || len(g.ReadNotes) > MaxNotes || len(g.InputNotes()) > graph.MaxNotes {
			t.Errorf("%s: %d notes, %d input notes:\n%s", tc.name, len(g.ReadNotes), len(g.InputNotes()), strings.Join(g.InputNotes(), "\n"))
		}
	}
}
