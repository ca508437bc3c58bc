package load

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/graph"
)

// idPairs returns g's edges as sorted "a|b" pairs of ids (a < b by byte
// order), the form a hand-written expectation takes.
func idPairs(g *graph.Graph) []string {
	var out []string
	for _, e := range g.Edges() {
		a, b := g.IDs[e.U], g.IDs[e.V]
		if b < a {
			a, b = b, a
		}
		out = append(out, a+"|"+b)
	}
	slices.Sort(out)
	return out
}

// TestEdgeListReadExactly: the inputs that used to lose or invent nodes
// without a word are read exactly, and whatever is not taken as an edge is
// stated in the graph's notes. Ids are listed in node order, which is
// CompareIDs' order, not the file's.
func TestEdgeListReadExactly(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		ids      []string
		edges    []string
		notes    []string
	}{{
		name:  "RFC 4180 quoting",
		in:    "\"Smith, John\",\"Doe, Jane\"\n\"Doe, Jane\", \"O\"\"Neil\" \n",
		ids:   []string{"Doe, Jane", `O"Neil`, "Smith, John"},
		edges: []string{`Doe, Jane|O"Neil`, "Doe, Jane|Smith, John"},
	}, {
		name:  "quoted ids in tab-separated lines",
		in:    "\"a\tb\"\t\"c, d\"\nx\t\"a\tb\"\n",
		ids:   []string{"a\tb", "c, d", "x"},
		edges: []string{"a\tb|c, d", "a\tb|x"},
	}, {
		name:  "a quoted id spanning two lines",
		in:    "\"line\none\",b\nb,c\n",
		ids:   []string{"b", "c", "line\none"},
		edges: []string{"b|c", "b|line\none"},
	}, {
		name:  "quoted ids between blanks",
		in:    "\"New York\" Boston 3\nBoston \"Los Angeles\"\n",
		ids:   []string{"Boston", "Los Angeles", "New York"},
		edges: []string{"Boston|Los Angeles", "Boston|New York"},
		notes: []string{"e.csv: the fields after the second (weights or attributes) are ignored on 1 line"},
	}, {
		name:  "hashtags are ids, not comments",
		in:    "#python,#golang\n#golang,#rust\n%rate,#python\n",
		ids:   []string{"#golang", "#python", "#rust", "%rate"},
		edges: []string{"#golang|#python", "#golang|#rust", "#python|%rate"},
	}, {
		name: "SNAP's comment block",
		in: "# Directed graph (each unordered pair of nodes is saved once): CA-GrQc.txt\n" +
			"# Nodes: 3 Edges: 2\n# FromNodeId\tToNodeId\n3466\t937\n3466\t5233\n",
		ids:   []string{"937", "3466", "5233"}, // numeric order, not the file's
		edges: []string{"3466|5233", "3466|937"},
		notes: []string{"e.csv: 3 comment lines before the data skipped"},
	}, {
		name:  "KONECT's and Matrix Market's comments",
		in:    "%%MatrixMarket matrix coordinate pattern symmetric\n% sym unweighted\n1 2\n",
		ids:   []string{"1", "2"},
		edges: []string{"1|2"},
		notes: []string{"e.csv: 2 comment lines before the data skipped"},
	}, {
		name:  "a header the reader does not know, over word ids",
		in:    "person,friend\nalice,bob\nbob,carol\n",
		ids:   []string{"alice", "bob", "carol"},
		edges: []string{"alice|bob", "bob|carol"},
		notes: []string{`e.csv: line 1 ("person", "friend") read as a header, not an edge: neither of its ids appears on any other line; if it is an edge, put a header such as "source,target" above it`},
	}, {
		name:  "a first line whose ids recur is an edge",
		in:    "alice,bob\nbob,carol\n",
		ids:   []string{"alice", "bob", "carol"},
		edges: []string{"alice|bob", "bob|carol"},
	}, {
		name:  "a first line that is an edge",
		in:    "zed,amy\nbob,amy\ncat,bob\n",
		ids:   []string{"amy", "bob", "cat", "zed"},
		edges: []string{"amy|bob", "amy|zed", "bob|cat"},
	}, {
		name:  "SNAP's header behind a '#'",
		in:    "#source\ttarget\n1\t2\n",
		ids:   []string{"1", "2"},
		edges: []string{"1|2"},
	}, {
		name:  "a header over numbers",
		in:    "person,friend\n1,2\n",
		ids:   []string{"1", "2"},
		edges: []string{"1|2"},
		notes: []string{`e.csv: line 1 ("person", "friend") read as a header, not an edge: the ids on the lines after it are numbers`},
	}, {
		name:  "duplicates and self-loops are counted",
		in:    "a,b\nb,a\na,b\nc,c\nb,c\nc,b\n",
		ids:   []string{"a", "b", "c"},
		edges: []string{"a|b", "b|c"},
		notes: []string{"3 duplicate edges (the same pair again, in either order) and 1 self-loop (an edge from a node to itself) removed"},
	}} {
		g, err := EdgeListReaders("t", strings.NewReader(tc.in), "e.csv", nil, "")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		checkValid(t, g)
		if !slices.Equal(g.IDs, tc.ids) {
			t.Errorf("%s: ids %q, want %q", tc.name, g.IDs, tc.ids)
		}
		if got := idPairs(g); !slices.Equal(got, tc.edges) {
			t.Errorf("%s: edges %q, want %q", tc.name, got, tc.edges)
		}
		if got := g.InputNotes(); !slices.Equal(got, tc.notes) {
			t.Errorf("%s: notes %q, want %q", tc.name, got, tc.notes)
		}
	}
}

// TestFeaturesReadExactly: a features file's rows whose ids start with
// '#' are rows, its header and comment block are stated, and quoted ids
// match the edge list's.
func TestFeaturesReadExactly(t *testing.T) {
	edges := "\"#a, b\",#c\n"
	feats := "# written by hand\nid,f1,f2\n\"#a, b\",1,0\n#c,0,2\n"
	g, err := EdgeListReaders("t", strings.NewReader(edges), "edges.csv", strings.NewReader(feats), "features.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.IDs, []string{"#a, b", "#c"}) || g.FeatureDim() != 2 || len(g.MissingFeatures) != 0 {
		t.Fatalf("ids %q, D %d, missing %q", g.IDs, g.FeatureDim(), g.MissingFeatures)
	}
	for id, want := range map[string][]float32{"#a, b": {1, 0}, "#c": {0, 2}} {
		if got := denseRow(t, g, id); !slices.Equal(got, want) {
			t.Errorf("features of %q = %v, want %v", id, got, want)
		}
	}
	want := []string{"features.csv: 1 comment line before the data skipped"}
	if got := g.InputNotes(); !slices.Equal(got, want) {
		t.Errorf("notes %q, want %q", got, want)
	}
	// A first row that names a node but holds a word is read as the
	// header, and said to be.
	g, err = EdgeListReaders("t", strings.NewReader("a,b\n"), "edges.csv", strings.NewReader("a,1,x\nb,0,1\n"), "features.csv")
	if err != nil {
		t.Fatal(err)
	}
	want = []string{
		`features.csv: line 1 ("a", ...) read as a header: a value field is not a number, though "a" is a node of the edge list`,
		`1 node has no feature row (id "a"); its features are all zero`,
	}
	if got := g.InputNotes(); !slices.Equal(got, want) {
		t.Errorf("notes %q, want %q", got, want)
	}
}

// TestEdgeListRefused: what cannot be read exactly is refused, with the
// file, the line and the problem.
func TestEdgeListRefused(t *testing.T) {
	nodeLink := `{"directed": false, "multigraph": false, "graph": {}, "nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}]}`
	graphology := "{\n  \"attributes\": {},\n  \"nodes\": [{\"key\": \"a\"}, {\"key\": \"b\"}],\n  \"edges\": [{\"source\": \"a\", \"target\": \"b\"}]\n}\n"
	for _, tc := range []struct{ name, in, want string }{
		{"networkx node-link JSON", nodeLink,
			`e.csv:1: this is JSON, not an edge list: name it *.json (networkx node-link or graphology JSON) to have it read as such, or give edges as lines of two ids (a header line such as "source,target" first, if the first id starts with "{")`},
		{"graphology JSON", graphology,
			`e.csv:1: this is JSON, not an edge list: name it *.json (networkx node-link or graphology JSON) to have it read as such, or give edges as lines of two ids (a header line such as "source,target" first, if the first id starts with "{")`},
		{"GEXF", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gexf xmlns=\"http://gexf.net/1.3\">\n",
			`e.csv:1: this is XML, not an edge list: name it *.graphml (GraphML) or *.gexf (GEXF) to have it read as such, or give edges as lines of two ids (a header line such as "source,target" first, if the first id starts with "<")`},
		{"a comment after the data", "1,2\n# 3,4\n5,6\n",
			`e.csv:2: a comment line after the data has begun ("# 3,4"); comments are read only before the first data line, so remove it, or quote the id if it is data`},
		{"a stray quote", "1,2\nab\"c,d\n",
			`e.csv:2: field 1 ("ab\"c") has a '"' but does not start with one; quote the whole field and double the quotes inside it (RFC 4180)`},
		{"a quote never closed", "1,2\n\"ab,c\n3,4\n",
			"e.csv:2: the quoted field that starts on this line never closes"},
		{"text after a closing quote", "1,2\n\"ab\"c,d\n",
			`e.csv:2: field 1: "c,d" follows its closing quote; a quoted field ends at its closing quote`},
		{"an open quote between blanks", "1 2\n\"a b c\n",
			"e.csv:2: a quoted field that starts on this line does not close on it (with blanks as separators, quoted fields end on their line)"},
		{"a quoted empty id", "\"\",b\nb,c\n", "e.csv:1: empty node id"},
	} {
		_, err := EdgeListReaders("t", strings.NewReader(tc.in), "e.csv", nil, "")
		var le *Error
		if err == nil || err.Error() != tc.want || !errors.As(err, &le) {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestQuotingMatchesEncodingCSV: records of awkward fields written by
// encoding/csv's Writer, with commas and with tabs, read back by the edge
// list and features readers exactly as encoding/csv's Reader reads them.
func TestQuotingMatchesEncodingCSV(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 4180))
	alphabet := []rune("ab ,\t\"\n#%é")
	field := func() string {
		for {
			n := 1 + rng.IntN(6)
			r := make([]rune, n)
			for i := range r {
				r[i] = alphabet[rng.IntN(len(alphabet))]
			}
			s := string(r)
			// Blanks around a field are not part of it when it is not
			// quoted (a departure from RFC 4180, for "a, b"), so the
			// oracle's fields have none where the writer leaves them
			// unquoted: at the end, and at the start with a tab.
			if strings.TrimSpace(s) == s {
				return s
			}
		}
	}
	for _, comma := range []rune{',', '\t'} {
		for trial := range 200 {
			var buf bytes.Buffer
			w := csv.NewWriter(&buf)
			w.Comma = comma
			var records [][]string
			for range 1 + rng.IntN(5) {
				rec := []string{field(), field()}
				if isCommentLine([]byte(strings.TrimSpace(rec[0]))) || strings.TrimSpace(rec[0]) == "" {
					rec[0] = "x" + rec[0] // a comment, or a blank line, by our rule
				}
				records = append(records, rec)
			}
			// The first line must tell the separator: give it a plain
			// field after the quoted ones.
			records[0] = append(records[0], "sep")
			if err := w.WriteAll(records); err != nil {
				t.Fatal(err)
			}
			r := csv.NewReader(bytes.NewReader(buf.Bytes()))
			r.Comma, r.FieldsPerRecord = comma, -1
			want, err := r.ReadAll()
			if err != nil {
				t.Fatalf("encoding/csv cannot read what it wrote: %v\n%q", err, buf.String())
			}
			name := map[rune]string{',': "t.csv", '\t': "t.tsv"}[comma]
			rs := newRecords(name, bytes.NewReader(buf.Bytes()))
			var got [][]string
			for {
				f, ok := rs.next()
				if !ok {
					break
				}
				rec := make([]string, len(f))
				for i, b := range f {
					rec[i] = string(b)
				}
				got = append(got, rec)
			}
			if rs.err != nil || !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("comma %q trial %d: %q\n got %q (%v)\nwant %q", comma, trial, buf.String(), got, rs.err, want)
			}
		}
	}
}
