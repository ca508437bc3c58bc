package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/graph"
)

// karateFiles are Zachary's karate club as testdata/karate.py wrote it.
var karateFiles = []string{"karate.graphml", "karate.gexf", "karate.nodelink.json", "karate.graphology.json"}

// TestKarate is the acceptance check of issue 33: Zachary's karate club
// written by networkx as GraphML, GEXF and node-link JSON, and as
// graphology's JSON, loads through Path and Bytes with 34 nodes, 78 edges,
// word ids and its one numeric attribute as the one feature. The expected
// values come from Zachary (1977) as networkx ships it, not from our
// reader: node 0 (Mr. Hi) has 16 friends and node 33 (the Officer) 17, and
// 17 of the 34 members sided with the Officer (club 1). The others, from
// networkx 3.6.1:
//
//	>>> g = nx.karate_club_graph()
//	>>> [(i, g.degree(i), g.nodes[i]["club"]) for i in (2, 8, 32)]
//	[(2, 10, 'Mr. Hi'), (8, 5, 'Mr. Hi'), (32, 12, 'Officer')]
func TestKarate(t *testing.T) {
	var first *graph.Graph
	for _, name := range karateFiles {
		p := filepath.Join("testdata", name)
		g, err := Path(p)
		if err != nil {
			t.Fatal(err)
		}
		checkValid(t, g)
		if g.NumNodes() != 34 || g.NumEdges() != 78 || g.FeatureDim() != 1 {
			t.Fatalf("%s: %d nodes, %d edges, %d features; want 34, 78, 1", name, g.NumNodes(), g.NumEdges(), g.FeatureDim())
		}
		for i, id := range g.IDs {
			if want := "n" + itoa(i); id != want {
				t.Fatalf("%s: node %d has id %q, want %q", name, i, id, want)
			}
		}
		for id, want := range map[string]struct {
			degree int
			club   float32
		}{"n0": {16, 0}, "n33": {17, 1}, "n2": {10, 0}, "n8": {5, 0}, "n32": {12, 1}} {
			i, _ := g.NodeIndex(id)
			if g.Degree(i) != want.degree || g.Features.At(i, 0) != want.club {
				t.Errorf("%s: node %s has degree %d and club %g, want %d and %g", name, id, g.Degree(i), g.Features.At(i, 0), want.degree, want.club)
			}
		}
		officers := 0
		for i := range g.NumNodes() {
			if g.Features.At(i, 0) == 1 {
				officers++
			}
		}
		if officers != 17 {
			t.Errorf("%s: %d members with club 1, want 17", name, officers)
		}
		notes := []string{
			p + `: the feature is the numeric node attribute "club"`,
			p + `: edge attributes are ignored: "weight" (on 78 edges)`,
		}
		if got := g.InputNotes(); !slices.Equal(got, notes) {
			t.Errorf("%s: notes %q\nwant %q", name, got, notes)
		}
		if first == nil {
			first = g
		} else {
			sameGraph(t, g, first)
		}
		h, err := Bytes(map[string][]byte{name: mustRead(t, p), "README.md": []byte("# karate\n")})
		if err != nil {
			t.Fatal(err)
		}
		sameGraph(t, h, g)
		if want := strings.TrimSuffix(name, filepath.Ext(name)); h.Name != want || g.Name != want {
			t.Errorf("%s: named %q and %q, want %q", name, g.Name, h.Name, want)
		}
	}
	// A folder that holds one of them reads as that file.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "club.gexf"), mustRead(t, "testdata/karate.gexf"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, g, first)
}

// itoa is strconv.Itoa for the small numbers of the tests.
func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

// markupCase is an input in one of the attributed formats with what it
// must give: ids in order, edges as idPairs, features by id, notes.
type markupCase struct {
	name, file, in string
	ids            []string
	edges          []string
	dim            int
	rows           map[string][]float32
	missing        []string // MissingFeatures
	notes          []string
}

// readMarkup reads in as Bytes does for a file named file.
func readMarkup(file, in string) (*graph.Graph, error) {
	return Bytes(map[string][]byte{file: []byte(in)})
}

func (tc markupCase) check(t *testing.T) {
	t.Helper()
	g, err := readMarkup(tc.file, tc.in)
	if err != nil {
		t.Errorf("%s: %v", tc.name, err)
		return
	}
	checkValid(t, g)
	if !slices.Equal(g.IDs, tc.ids) {
		t.Errorf("%s: ids %q, want %q", tc.name, g.IDs, tc.ids)
	}
	if got := idPairs(g); !slices.Equal(got, tc.edges) {
		t.Errorf("%s: edges %q, want %q", tc.name, got, tc.edges)
	}
	if g.FeatureDim() != tc.dim {
		t.Errorf("%s: %d features, want %d", tc.name, g.FeatureDim(), tc.dim)
	}
	for id, want := range tc.rows {
		if got := denseRow(t, g, id); !slices.Equal(got, want) {
			t.Errorf("%s: features of %q = %v, want %v", tc.name, id, got, want)
		}
	}
	if !slices.Equal(g.MissingFeatures, tc.missing) {
		t.Errorf("%s: missing features %q, want %q", tc.name, g.MissingFeatures, tc.missing)
	}
	if got := g.InputNotes(); !slices.Equal(got, tc.notes) {
		t.Errorf("%s: notes\n got %q\nwant %q", tc.name, got, tc.notes)
	}
}

const graphmlHead = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml">
`

// TestGraphMLRead: the rules of GraphMLReader, case by case, with the
// values worked out by hand.
func TestGraphMLRead(t *testing.T) {
	for _, tc := range []markupCase{{
		name: "types, defaults, a string one-hot and yFiles graphics ignored",
		file: "g.graphml",
		in: graphmlHead + `<key id="a" for="node" attr.name="age" attr.type="double"><default>2.5</default></key>
<key id="s" for="node" attr.name="name" attr.type="string"/>
<key id="v" for="all" attr.name="vip" attr.type="boolean"/>
<key id="g" for="node" yfiles.type="nodegraphics"/>
<key id="w" for="edge" attr.name="weight" attr.type="double"/>
<graph edgedefault="directed">
 <node id="x"><data key="a">-1e3</data><data key="s">Ann</data><data key="v">true</data>
  <data key="g"><y:ShapeNode><y:Fill color="#FF0000"/></y:ShapeNode></data></node>
 <node id="y"><data key="v">false</data></node>
 <node id="z"><data key="a">0</data><data key="v">TRUE</data></node>
 <edge source="x" target="y"><data key="w">1.5</data></edge>
 <edge source="y" target="x"/>
 <edge source="z" target="z"/>
 <edge source="y" target="z"><data key="w">2</data></edge>
</graph></graphml>`,
		ids:   []string{"x", "y", "z"},
		edges: []string{"x|y", "y|z"},
		dim:   3,
		rows:  map[string][]float32{"x": {-1000, 1, 1}, "y": {2.5, 0, 0}, "z": {0, 0, 1}},
		notes: []string{
			`g.graphml: the features are the node attributes "age", "name" (one-hot: "name=Ann"), "vip", in that order (sorted by name); ` + oneHotRule + `; true and false are read as 1 and 0`,
			`g.graphml: attribute "name" has no value on 2 of 3 nodes (ids "y", "z"); its one-hot columns are 0 there`,
			`g.graphml: node attributes that are not numbers or categories are ignored: "g" (yFiles graphics)`,
			`g.graphml: edge attributes are ignored: "weight" (on 2 edges)`,
			`g.graphml: the edges are directed (edgedefault="directed") and are read as undirected links; 1 pair of nodes has an edge each way, read as one link (its second edge is counted among the duplicates removed)`,
			"1 duplicate edge (the same pair again, in either order) and 1 self-loop (an edge from a node to itself) removed",
		},
	}, {
		name: "missing values are 0 and counted; ids only on edges are nodes",
		file: "m.graphml",
		in: graphmlHead + `<key id="d0" for="node" attr.name="score" attr.type="int"/>
<graph><node id="a"><data key="d0">3</data></node><node id="b"/><node id="c"/><port name="p"/>
<edge source="a" target="b"/><edge source="c" target="ghost"/></graph></graphml>`,
		ids:     []string{"a", "b", "c", "ghost"},
		edges:   []string{"a|b", "c|ghost"},
		dim:     1,
		rows:    map[string][]float32{"a": {3}, "b": {0}, "ghost": {0}},
		missing: []string{"ghost"},
		notes: []string{
			`m.graphml: the feature is the numeric node attribute "score"`,
			`m.graphml: attribute "score" has no value on 2 of 3 nodes (ids "b", "c"); read as 0 there`,
			`m.graphml: not read: 1 <port>`,
			`1 node has no feature row (id "ghost"); its features are all zero`,
		},
	}, {
		name:  "no attributes; an id only on edges is said to be added",
		file:  "p.graphml",
		in:    graphmlHead + `<graph><node id="1"/><edge source="1" target="2"/></graph></graphml>`,
		ids:   []string{"1", "2"},
		edges: []string{"1|2"},
		notes: []string{`p.graphml: 1 node is on edges but not in the node list (id "2"); added to the graph`},
	}} {
		tc.check(t)
	}
}

const gexfHead = `<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" version="1.3">
<meta><creator>hand</creator></meta>
`

// TestGEXFRead: the rules of GEXFReader, case by case.
func TestGEXFRead(t *testing.T) {
	for _, tc := range []markupCase{{
		name: "types, defaults, labels and viz",
		file: "g.gexf",
		in: gexfHead + `<graph defaultedgetype="directed">
<attributes class="node">
 <attribute id="0" title="size" type="float"><default>1</default></attribute>
 <attribute id="1" title="tags" type="liststring"/>
 <attribute id="2" title="active" type="boolean"/>
</attributes>
<attributes class="edge"><attribute id="0" title="since" type="integer"/></attributes>
<nodes>
 <node id="a" label="Alice"><attvalues><attvalue for="0" value="4"/><attvalue for="1" value="[x, y]"/><attvalue for="2" value="true"/></attvalues>
  <viz:position x="1" y="2"/><viz:color r="1" g="2" b="3"/></node>
 <node id="b" label="b"><attvalues><attvalue id="2" value="false"/></attvalues><viz:position x="0" y="0"/></node>
</nodes>
<edges>
 <edge id="0" source="a" target="b" weight="2.0"><attvalues><attvalue for="0" value="1999"/></attvalues></edge>
 <edge id="1" source="b" target="a"/>
</edges></graph></gexf>`,
		ids:   []string{"a", "b"},
		edges: []string{"a|b"},
		dim:   2,
		rows:  map[string][]float32{"a": {1, 4}, "b": {0, 1}},
		notes: []string{
			`g.gexf: the features are the numeric node attributes "active", "size", in that order (sorted by name); true and false are read as 1 and 0`,
			`g.gexf: node attributes that are not numbers or categories are ignored: "tags" (of type liststring)`,
			`g.gexf: edge attributes are ignored: "since" (on 1 edge), "weight" (on 1 edge)`,
			`g.gexf: not read: 1 <viz:color>, 2 <viz:position>`,
			`g.gexf: node labels are ignored (1 node has a label other than its id)`,
			`g.gexf: the edges are directed (defaultedgetype="directed") and are read as undirected links; 1 pair of nodes has an edge each way, read as one link (its second edge is counted among the duplicates removed)`,
			"1 duplicate edge (the same pair again, in either order) removed",
		},
	}} {
		tc.check(t)
	}
}

// TestJSONRead: the rules of JSONBytes for both layouts, case by case.
func TestJSONRead(t *testing.T) {
	for _, tc := range []markupCase{{
		name: "node-link with numeric ids, booleans, nulls, a string and an object",
		file: "n.json",
		in: `{"directed": true, "multigraph": true, "graph": {"name": "x"},
 "nodes": [{"id": 0, "w": 1.5, "ok": true, "tag": 7, "pos": null},
           {"id": 1, "w": -2, "ok": false, "tag": "seven", "pos": [0, 1]},
           {"id": "two", "ok": true}],
 "edges": [{"source": 0, "target": 1, "key": 0, "weight": 3},
           {"source": 1, "target": 0, "key": 1},
           {"source": "two", "target": 0}]}`,
		ids:   []string{"0", "1", "two"},
		edges: []string{"0|1", "0|two"},
		dim:   2,
		rows:  map[string][]float32{"0": {1, 1.5}, "1": {0, -2}, "two": {1, 0}},
		notes: []string{
			`n.json: the features are the numeric node attributes "ok", "w", in that order (sorted by name); true and false are read as 1 and 0`,
			`n.json: attribute "w" has no value on 1 of 3 nodes (id "two"); read as 0 there`,
			`n.json: node attributes that are not numbers or categories are ignored: "pos" (node "1" has [0, 1]), "tag" (its values mix numbers and strings)`,
			`n.json: edge attributes are ignored: "weight" (on 1 edge)`,
			`n.json: the edges are directed ("directed": true) and are read as undirected links; 1 pair of nodes has an edge each way, read as one link (its second edge is counted among the duplicates removed)`,
			"1 duplicate edge (the same pair again, in either order) removed",
		},
	}, {
		name: "graphology",
		file: "g.json",
		in: `{"attributes": {"name": "g"}, "options": {"type": "directed", "multi": false},
 "nodes": [{"key": "a", "attributes": {"x": 2}}, {"key": "b"}, {"key": "c", "attributes": null}],
 "edges": [{"key": "e", "source": "a", "target": "b", "attributes": {"w": 1, "label": "l"}},
           {"source": "c", "target": "c", "undirected": true}, {"source": "c", "target": "b"}]}`,
		ids:   []string{"a", "b", "c"},
		edges: []string{"a|b", "b|c"},
		dim:   1,
		rows:  map[string][]float32{"a": {2}, "b": {0}, "c": {0}},
		notes: []string{
			`g.json: the feature is the numeric node attribute "x"`,
			`g.json: attribute "x" has no value on 2 of 3 nodes (ids "b", "c"); read as 0 there`,
			`g.json: edge attributes are ignored: "label" (on 1 edge), "w" (on 1 edge)`,
			`g.json: 2 of the 3 edges are directed ("options": {"type": "directed"}) and are read as undirected links; no two nodes have an edge each way`,
			"1 self-loop (an edge from a node to itself) removed",
		},
	}, {
		name:  "node-link with \"links\", an id only on edges",
		file:  "l.json",
		in:    "\ufeff{\"nodes\": [{\"id\": \"a\"}], \"links\": [{\"source\": \"a\", \"target\": \"b\"}]}",
		ids:   []string{"a", "b"},
		edges: []string{"a|b"},
		notes: []string{`l.json: 1 node is on edges but not in the node list (id "b"); added to the graph`},
	}} {
		tc.check(t)
	}
}

// TestMarkupErrors: every refusal of the attributed formats names the
// file, the line (where there is one) and the problem, as a *Error.
func TestMarkupErrors(t *testing.T) {
	for i, tc := range []struct{ file, in, want string }{
		// GraphML.
		{"g.graphml", "", "g.graphml: empty file"},
		{"g.graphml", "hello", `g.graphml:1: text "hello" before the first element: not an XML file`},
		{"g.graphml", gexfHead + "<graph/></gexf>", "g.graphml:2: the root element is <gexf>, not <graphml>: not a GraphML file (it is GEXF: name it *.gexf)"},
		{"g.graphml", graphmlHead + "<graph>\n<node id=\"a\">\n</graph></graphml>", "g.graphml:5: XML syntax: element <node> closed by </graph>"},
		{"g.graphml", graphmlHead + "<graph>\n<node id=\"a\"/>\n<node id=\"a\"/></graph></graphml>", `g.graphml:5: node id "a" already declared on line 4`},
		{"g.graphml", graphmlHead + "<graph>\n<node/></graph></graphml>", "g.graphml:4: a <node> without an id"},
		{"g.graphml", graphmlHead + "<graph>\n<node id=\"a\"/>\n<edge source=\"a\"/></graph></graphml>", "g.graphml:5: an <edge> without a source and a target"},
		{"g.graphml", graphmlHead + "<graph>\n<node id=\"a\">\n<data key=\"d9\">1</data></node></graph></graphml>", `g.graphml:5: <data key="d9"> of node "a": no <key> declares it (keys come before the graph)`},
		{"g.graphml", graphmlHead + "<key id=\"d\" for=\"node\" attr.type=\"int\"/><graph>\n<node id=\"a\">\n<data key=\"d\">many</data></node></graph></graphml>", `g.graphml:5: <data key="d"> of node "a": "many" is not a number`},
		{"g.graphml", graphmlHead + "<key id=\"d\" for=\"node\" attr.type=\"float\"/><graph>\n<node id=\"a\"><data key=\"d\">1e39</data></node></graph></graphml>", `g.graphml:4: <data key="d"> of node "a": "1e39" is out of float32 range (magnitude at most 3.403e+38)`},
		{"g.graphml", graphmlHead + "<key id=\"d\" for=\"node\" attr.type=\"boolean\"/><graph>\n<node id=\"a\"><data key=\"d\">yes</data></node></graph></graphml>", `g.graphml:4: <data key="d"> of node "a": "yes" is not a boolean (true or false)`},
		{"g.graphml", graphmlHead + "<key id=\"d\" for=\"node\" attr.type=\"int\"/><graph>\n<node id=\"a\"><data key=\"d\">1</data><data key=\"d\">2</data></node></graph></graphml>", `g.graphml:4: node "a" has attribute "d" twice`},
		{"g.graphml", graphmlHead + "<key id=\"d\" for=\"node\" attr.type=\"int\"/><graph>\n<node id=\"a\"><data key=\"d\"><x/></data></node></graph></graphml>", `g.graphml:4: <data key="d"> of node "a" holds an element <x> where a value belongs`},
		{"g.graphml", graphmlHead + "<key id=\"d\" for=\"node\" attr.type=\"int\">\n<default>x</default></key></graphml>", `g.graphml:4: <default> of <key id="d">: "x" is not a number`},
		{"g.graphml", graphmlHead + "<key id=\"d\"/>\n<key id=\"d\"/></graphml>", `g.graphml:4: <key id="d"> declared twice`},
		{"g.graphml", graphmlHead + "<graph>\n<hyperedge/></graph></graphml>", "g.graphml:4: a <hyperedge>: hyperedges are not read"},
		{"g.graphml", graphmlHead + "<graph>\n<node id=\"a\"><graph/></node></graph></graphml>", `g.graphml:4: node "a" holds a <graph>: nested graphs are not read`},
		{"g.graphml", graphmlHead + "<graph/>\n<graph/></graphml>", "g.graphml:4: a second <graph>: a file holds one graph here"},
		{"g.graphml", graphmlHead + "\n</graphml>", "g.graphml:4: no <graph> element"},
		{"g.graphml", graphmlHead + "<graph/></graphml>\n<graphml/>", "g.graphml:4: content after the root element ends"},
		{"g.graphml", graphmlHead + "<graph>\n<node id=\"a\"/>\n</graph></graphml>", "g.graphml: the graph has no edges (1 node): there are no links to learn from"},
		{"g.graphml", graphmlHead + "<graph>\n</graph></graphml>", "g.graphml: empty file: no nodes and no edges"},
		{"g.graphml", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<graphml/>", `g.graphml:1: the file declares the encoding "ISO-8859-1", and only UTF-8 is read: save it as UTF-8`},
		{"g.graphml", graphmlHead + "<graph>\n<node id=\"&bogus;\"/></graph></graphml>", "g.graphml:4: XML syntax: invalid character entity &bogus;"},
		{"g.graphml", graphmlHead + "<graph>\n<node id=\"a\">", "g.graphml:4: XML syntax: unexpected EOF"},
		// GEXF.
		{"g.gexf", graphmlHead + "</graphml>", "g.gexf:2: the root element is <graphml>, not <gexf>: not a GEXF file (it is GraphML: name it *.graphml)"},
		{"g.gexf", gexfHead + "<graph><nodes>\n<node id=\"a\"><nodes/></node></nodes></graph></gexf>", `g.gexf:5: node "a" holds <nodes>: hierarchical graphs are not read`},
		{"g.gexf", gexfHead + "<graph><nodes>\n<node id=\"a\"><attvalues>\n<attvalue for=\"9\" value=\"1\"/></attvalues></node></nodes></graph></gexf>", `g.gexf:6: <attvalue for="9"> of node "a": no node <attribute> declares it`},
		{"g.gexf", gexfHead + "<graph><attributes class=\"node\"><attribute id=\"0\" title=\"n\" type=\"integer\"/></attributes><nodes>\n<node id=\"a\"><attvalues>\n<attvalue for=\"0\" value=\"NaN\"/></attvalues></node></nodes></graph></gexf>", `g.gexf:6: <attvalue for="0"> of node "a": "NaN" is not a finite number`},
		{"g.gexf", gexfHead + "<graph><attributes class=\"node\">\n<attribute id=\"0\" type=\"integer\"/>\n<attribute id=\"0\" type=\"integer\"/></attributes></graph></gexf>", `g.gexf:6: node <attribute id="0"> declared twice`},
		{"g.gexf", gexfHead + "<graph><nodes>\n<node id=\"a\"/></nodes>\n<edges><edge target=\"a\"/></edges></graph></gexf>", "g.gexf:6: an <edge> without a source and a target"},
		{"g.gexf", gexfHead + "</gexf>", "g.gexf:4: no <graph> element"},
		// JSON.
		{"j.json", "", "j.json: empty file"},
		{"j.json", "  \n", "j.json: empty file"},
		{"j.json", "[1, 2]", "j.json:1: the file holds a JSON array, not an object: " + jsonShapes},
		{"j.json", "{\n\"a\": 1,\n\"b\": [2]}", `j.json:1: no "nodes" array (the object has the keys "a", "b"): ` + jsonShapes},
		{"j.json", "{\"nodes\": []}", `j.json:1: no "links" or "edges" array: ` + jsonShapes},
		{"j.json", "{\n\"nodes\": {}}", `j.json:2: "nodes" is a JSON object, not an array: ` + jsonShapes},
		{"j.json", "{\"nodes\": [\n{\"id\": 1},\n{\"name\": 2}]}", `j.json:3: nodes[1] has neither "id" (networkx node-link) nor "key" (graphology): ` + jsonShapes},
		{"j.json", "{\"nodes\": [\n{\"id\": 1},\n  {\"key\": 2}]}", `j.json:3: nodes[1] has "key" where nodes[0] has "id": one layout per file`},
		{"j.json", "{\"nodes\": [\n{\"id\": 1},\n5]}", "j.json:3: nodes[1] is a JSON number, not an object"},
		{"j.json", "{\"nodes\": [\n{\"id\": 1},\nnull]}", "j.json:3: nodes[1] is null, not an object"},
		{"j.json", "{\"nodes\": [\n{\"id\": true}]}", "j.json:2: nodes[0]: \"id\" is true: an id is a string or a number"},
		{"j.json", "{\"nodes\": [\n{\"id\": \"\"}]}", "j.json:2: empty node id"},
		{"j.json", "{\"nodes\": [\n{\"id\": \"a\"},\n{\"id\": \"a\"}]}", `j.json:3: node id "a" already declared on line 2`},
		{"j.json", "{\"nodes\": [\n{\"id\": \"a\",\n \"x\": 1e39}]}", `j.json:2: node "a", attribute "x": "1e39" is out of float32 range (magnitude at most 3.403e+38)`},
		{"j.json", "{\"nodes\": [{\"key\": \"a\",\n\"attributes\": 3}]}", `j.json:1: nodes[0]: "attributes" is not an object`},
		{"j.json", "{\"nodes\": [], \"links\": [\n{\"source\": 1}]}", `j.json:2: links[0] has no "target"`},
		{"j.json", "{\"nodes\": [], \"edges\": [\n{\"source\": 1, \"target\": [1]}]}", `j.json:2: edges[0]: "target" is [1]: an id is a string or a number`},
		{"j.json", "{\"nodes\": [], \"links\": [], \"edges\": []}", `j.json:1: "edges" after "links": one list of edges is read`},
		{"j.json", "{\"nodes\": [{\"id\": 1}], \"links\": []}", "j.json: the graph has no edges (1 node): there are no links to learn from"},
		{"j.json", "{\"nodes\": [],\n\"links\": [\n{\"source\": 1, \"target\": 2}\n]}\n{}", "j.json:5: more after the JSON object ends"},
		{"j.json", "{\"nodes\": [\n{\"id\": 1,}]}", "j.json:2: JSON syntax: invalid character '}' looking for beginning of object key string"},
		{"j.json", "{\"nodes\": [\n{\"id\": 1}\n", "j.json:3: the file ends inside the JSON value"},
		{"j.json", "{\n\"nodes\" 1}", "j.json:2: JSON syntax: invalid character '1' after object key"},
	} {
		_, err := readMarkup(tc.file, tc.in)
		var le *Error
		if err == nil || err.Error() != tc.want || !errors.As(err, &le) {
			t.Errorf("case %d (%s):\n got %v\nwant %s", i+1, tc.file, err, tc.want)
		}
	}
}

// oneHotRule is how the features' note states the rule for strings.
const oneHotRule = "a string attribute with at most 32 distinct values is one column per value, in natural order, 1 on the nodes with that value"

// clubGraphML is a GraphML file with two string attributes, its nodes in
// the order given; TestCategoricalAttributes reads it in two orders.
func clubGraphML(nodes ...string) string {
	return graphmlHead + `<key id="c" for="node" attr.name="club" attr.type="string"/>
<key id="g" for="node" attr.name="grade"/>
<graph>` + strings.Join(nodes, "\n") + `
<edge source="n1" target="n2"/><edge source="n3" target="n10"/><edge source="n2" target="n10"/></graph></graphml>`
}

// TestCategoricalAttributes: string node attributes with few values
// become one-hot columns attr=value, in the values' natural order, in
// every format; a node without a value has zeros there and is counted;
// an attribute with more than MaxCategories values is left out, and said
// to be. The matrices are worked out by hand.
func TestCategoricalAttributes(t *testing.T) {
	if MaxCategories != 32 {
		t.Fatalf("MaxCategories is %d: oneHotRule and the docs say 32", MaxCategories)
	}
	nodes := []string{
		`<node id="n10"><data key="c">Officer</data><data key="g">10</data></node>`,
		`<node id="n2"><data key="c">Mr. Hi</data><data key="g">9</data></node>`,
		`<node id="n1"><data key="g">b</data></node>`,
		`<node id="n3"><data key="c"> Officer </data></node>`,
	}
	// Columns: club=Mr. Hi, club=Officer, grade=9, grade=10, grade=b.
	rows := map[string][]float32{"n1": {0, 0, 0, 0, 1}, "n2": {1, 0, 1, 0, 0}, "n3": {0, 1, 0, 0, 0}, "n10": {0, 1, 0, 1, 0}}
	features := `c.graphml: the features are the node attributes "club" (one-hot: "club=Mr. Hi", "club=Officer"), "grade" (one-hot: "grade=9", "grade=10", "grade=b"), in that order (sorted by name); ` + oneHotRule
	reversed := slices.Clone(nodes)
	slices.Reverse(reversed)
	for _, tc := range []markupCase{{
		name: "GraphML, two strings, a value missing on each", file: "c.graphml", in: clubGraphML(nodes...),
		ids: []string{"n1", "n2", "n3", "n10"}, edges: []string{"n10|n2", "n10|n3", "n1|n2"}, dim: 5, rows: rows,
		notes: []string{features,
			`c.graphml: attribute "club" has no value on 1 of 4 nodes (id "n1"); its one-hot columns are 0 there`,
			`c.graphml: attribute "grade" has no value on 1 of 4 nodes (id "n3"); its one-hot columns are 0 there`},
	}, {
		name: "GraphML, the same nodes in the reverse order: the same columns", file: "c.graphml", in: clubGraphML(reversed...),
		ids: []string{"n1", "n2", "n3", "n10"}, edges: []string{"n10|n2", "n10|n3", "n1|n2"}, dim: 5, rows: rows,
		notes: []string{features,
			`c.graphml: attribute "club" has no value on 1 of 4 nodes (id "n1"); its one-hot columns are 0 there`,
			`c.graphml: attribute "grade" has no value on 1 of 4 nodes (id "n3"); its one-hot columns are 0 there`},
	}, {
		name: "GEXF, a string with a default",
		file: "c.gexf",
		in: gexfHead + `<graph><attributes class="node"><attribute id="0" title="club" type="string"><default>Mr. Hi</default></attribute></attributes>
<nodes><node id="a"><attvalues><attvalue for="0" value="Officer"/></attvalues></node><node id="b"/></nodes>
<edges><edge source="a" target="b"/></edges></graph></gexf>`,
		ids: []string{"a", "b"}, edges: []string{"a|b"}, dim: 2,
		rows:  map[string][]float32{"a": {0, 1}, "b": {1, 0}},
		notes: []string{`c.gexf: the features are the node attribute "club" (one-hot: "club=Mr. Hi", "club=Officer"); ` + oneHotRule},
	}, {
		name: "node-link JSON, a number beside a string, an empty string and a null",
		file: "c.json",
		in: `{"nodes": [{"id": "a", "club": "Officer", "age": 3}, {"id": "b", "club": "Mr. Hi", "age": null}, {"id": "c", "club": ""}],
 "links": [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}]}`,
		ids: []string{"a", "b", "c"}, edges: []string{"a|b", "b|c"}, dim: 3,
		rows: map[string][]float32{"a": {3, 0, 1}, "b": {0, 1, 0}, "c": {0, 0, 0}},
		notes: []string{
			`c.json: the features are the node attributes "age", "club" (one-hot: "club=Mr. Hi", "club=Officer"), in that order (sorted by name); ` + oneHotRule,
			`c.json: attribute "age" has no value on 2 of 3 nodes (ids "b", "c"); read as 0 there`,
			`c.json: attribute "club" has no value on 1 of 3 nodes (id "c"); its one-hot columns are 0 there`},
	}, {
		name: "graphology JSON, one string",
		file: "g.json",
		in: `{"nodes": [{"key": "y", "attributes": {"club": "Officer"}}, {"key": "x", "attributes": {"club": "Mr. Hi"}}],
 "edges": [{"source": "x", "target": "y"}]}`,
		ids: []string{"x", "y"}, edges: []string{"x|y"}, dim: 2,
		rows:  map[string][]float32{"x": {1, 0}, "y": {0, 1}},
		notes: []string{`g.json: the features are the node attribute "club" (one-hot: "club=Mr. Hi", "club=Officer"); ` + oneHotRule},
	}} {
		tc.check(t)
	}

	// MaxCategories values make that many columns, one per node here,
	// p2 before p10; one more value and the attribute is left out.
	for _, n := range []int{MaxCategories, MaxCategories + 1} {
		var b strings.Builder
		b.WriteString(graphmlHead + `<key id="p" for="node" attr.name="name" attr.type="string"/><graph>`)
		ids := make([]string, n)
		for i := range n {
			ids[i] = fmt.Sprintf("v%d", i)
			fmt.Fprintf(&b, `<node id="v%d"><data key="p">p%d</data></node><edge source="v%d" target="v%d"/>`, i, i, i, (i+1)%n)
		}
		b.WriteString(`</graph></graphml>`)
		g, err := readMarkup("many.graphml", b.String())
		if err != nil {
			t.Fatal(err)
		}
		if n > MaxCategories {
			want := []string{fmt.Sprintf(`many.graphml: string attribute "name" has more than 32 distinct values (on %d nodes): left out, as only a string attribute with at most 32 becomes features, one-hot`, n)}
			if g.FeatureDim() != 0 || !slices.Equal(g.InputNotes(), want) {
				t.Errorf("%d values: %d features, notes %q; want 0 and %q", n, g.FeatureDim(), g.InputNotes(), want)
			}
			continue
		}
		if g.FeatureDim() != n || g.Features.NNZ() != n {
			t.Fatalf("%d values: %d features, %d non-zeros", n, g.FeatureDim(), g.Features.NNZ())
		}
		for i, id := range ids {
			v, _ := g.NodeIndex(id)
			for c := range n {
				if want := float32(b2f(c == i)); g.Features.At(int(v), c) != want {
					t.Fatalf("%d values: X[%s, %d] = %g, want %g", n, id, c, g.Features.At(int(v), c), want)
				}
			}
		}
	}
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}
