package load

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// TestMarkupEndless: an XML file whose tag, text or blanks never end is
// refused at maxLine, having read little more than that, as a line without
// end is in the text formats.
func TestMarkupEndless(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		c      byte
		read   func(io.Reader) error
		want   string
	}{
		{"<graphml>", 'a', graphml, "g.graphml:1: a tag or a text longer than 4 MiB"},
		{"", ' ', graphml, "g.graphml:1: a tag or a text longer than 4 MiB"},
		{"<graphml>\n<graph><node id=\"", 'x', graphml, "g.graphml:2: a tag or a text longer than 4 MiB"},
		{"<gexf><graph><nodes>\n", '\n', gexf, "g.gexf:1: a tag or a text longer than 4 MiB"},
		{"<gexf><!-- ", 'x', gexf, "g.gexf:1: a tag or a text longer than 4 MiB"},
	} {
		r := &endless{c: tc.c}
		err := tc.read(io.MultiReader(strings.NewReader(tc.prefix), r))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q then %q forever: %v, want %s", tc.prefix, tc.c, err, tc.want)
		}
		if r.read > maxLine+1<<20 {
			t.Errorf("%q then %q forever: read %d bytes before refusing, more than maxLine %d + 1 MiB", tc.prefix, tc.c, r.read, maxLine)
		}
	}
}

func graphml(r io.Reader) error { _, err := GraphMLReader("g", r, "g.graphml"); return err }
func gexf(r io.Reader) error    { _, err := GEXFReader("g", r, "g.gexf"); return err }

// TestMarkupDeep: nesting is refused at maxXMLDepth in XML, and at
// encoding/json's own limit in JSON, as a *Error either way.
func TestMarkupDeep(t *testing.T) {
	deep := "<graphml>\n" + strings.Repeat("<a>", maxXMLDepth+10)
	if err := graphml(strings.NewReader(deep)); err == nil || err.Error() != "g.graphml:2: elements nested more than 256 deep" {
		t.Errorf("deep GraphML: %v", err)
	}
	deep = "<gexf><graph><nodes><node id=\"a\">" + strings.Repeat("<viz:x>", maxXMLDepth)
	if err := gexf(strings.NewReader(deep)); err == nil || err.Error() != "g.gexf:1: elements nested more than 256 deep" {
		t.Errorf("deep GEXF: %v", err)
	}
	deepJSON := "{\"nodes\": [{\"id\": 1,\n\"x\": " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}], \"links\": []}"
	_, err := JSONBytes("j.json", []byte(deepJSON))
	var le *Error
	if !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), "depth") {
		t.Errorf("deep JSON: %v", err)
	}
}

// TestMarkupDefaults: the declared defaults of a few hundred bytes may not
// fill gigabytes. 1000 numeric keys with a default of 1 over 20000 nodes
// that give no values would be 20 million values from a 1.2 MB file:
// refused. The same keys over 20 nodes fill every row.
func TestMarkupDefaults(t *testing.T) {
	file := func(nodes int) string {
		var b strings.Builder
		b.WriteString("<graphml>\n")
		for k := range 1000 {
			fmt.Fprintf(&b, "<key id=\"k%d\" for=\"node\" attr.name=\"a%03d\" attr.type=\"int\"><default>1</default></key>\n", k, k)
		}
		b.WriteString("<graph>\n")
		for i := range nodes {
			fmt.Fprintf(&b, "<node id=\"%d\"/><edge source=\"%d\" target=\"%d\"/>\n", i, i, i+1)
		}
		b.WriteString("</graph></graphml>\n")
		return b.String()
	}
	big := file(20000)
	_, err := GraphMLReader("g", strings.NewReader(big), "g.graphml")
	want := fmt.Sprintf("g.graphml: the declared defaults of the node attributes would fill 20000000 values, more than %d: give the values on the nodes", 8*len(big)+1<<20)
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	g, err := GraphMLReader("g", strings.NewReader(file(20)), "g.graphml")
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, g)
	// 21 nodes: "20" is named only by the last edge, and has no row.
	if g.FeatureDim() != 1000 || g.Features.NNZ() != 20*1000 || !slices.Equal(g.MissingFeatures, []string{"20"}) {
		t.Errorf("D %d nnz %d missing %q", g.FeatureDim(), g.Features.NNZ(), g.MissingFeatures)
	}
}

// TestMarkupReadErrors: an I/O error while reading XML is a *Error at the
// line being read, wrapping the reader's error.
func TestMarkupReadErrors(t *testing.T) {
	boom := errors.New("boom")
	for root, read := range map[string]func(io.Reader) error{"graphml": graphml, "gexf": gexf} {
		err := read(io.MultiReader(strings.NewReader("<?xml version=\"1.0\"?>\n<"+root+">\n<graph>"), iotest.ErrReader(boom)))
		var le *Error
		if !errors.As(err, &le) || le.Line != 3 || !errors.Is(err, boom) {
			t.Errorf("%v", err)
		}
	}
}

// TestSemicolons: semicolon-separated edge lists and features files are
// read as comma-separated ones are, with a decimal comma in values.
func TestSemicolons(t *testing.T) {
	edges := "source;target;weight\n\"a;1\";b;0,5\nb;c;2\n"
	feats := "id;x;y\n\"a;1\";0,5;1\nb;-1,25;0\nc;3;1e2\n"
	g, err := EdgeListReaders("t", strings.NewReader(edges), "edges.csv", strings.NewReader(feats), "features.csv")
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, g)
	if got := idPairs(g); !slices.Equal(g.IDs, []string{"a;1", "b", "c"}) || !slices.Equal(got, []string{"a;1|b", "b|c"}) {
		t.Fatalf("ids %q edges %q", g.IDs, got)
	}
	for id, want := range map[string][]float32{"a;1": {0.5, 1}, "b": {-1.25, 0}, "c": {3, 100}} {
		if got := denseRow(t, g, id); !slices.Equal(got, want) {
			t.Errorf("features of %q = %v, want %v", id, got, want)
		}
	}
	// No header: a first row with a decimal comma is a row, not a header.
	g, err = EdgeListReaders("t", strings.NewReader("1;2\n"), "e.txt", strings.NewReader("1;0,5\n2;1\n"), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := denseRow(t, g, "1"); !slices.Equal(got, []float32{0.5}) || g.ReadNotes != nil {
		t.Errorf("features of 1 = %v, notes %q", got, g.ReadNotes)
	}
	// Two commas are not a decimal comma.
	_, err = EdgeListReaders("t", strings.NewReader("1;2\n"), "e.csv", strings.NewReader("1;0\n2;1,000,5\n"), "f.csv")
	if err == nil || err.Error() != `f.csv:2: value 1 of node "2": "1,000,5" is not a number` {
		t.Errorf("two commas: %v", err)
	}
}

// TestDetectSep: which separator a first line chooses, by what it holds
// and the file's extension.
func TestDetectSep(t *testing.T) {
	for i, tc := range []struct {
		line, file string
		want       sep
	}{
		{"a b", "e.csv", sepBlanks},             // 1
		{"a,b", "e.txt", ','},                   // 2
		{"a\tb", "e.csv", '\t'},                 // 3
		{"a;b", "e.tsv", ';'},                   // 4
		{"a;b;0,5", "e.csv", ';'},               // 5. a decimal comma
		{"a,b\tc", "e.csv", ','},                // 6. .csv: the comma
		{"a,b\tc", "e.tsv", '\t'},               // 7. else the tab
		{"a;b\tc", "e.txt", '\t'},               // 8
		{"a;b\tc", "e.CSV", ';'},                // 9
		{"a,b;c\td", "e.csv", ','},              // 10. a comma that is no decimal mark
		{"a;0,5;d", "e.csv", ';'},               // 11
		{"\"a;b\",c", "e.csv", ','},             // 12. quoted separators do not count
		{"\"a,b\";\"c\td\"", "e.txt", ';'},      // 13
		{"\"a;b\" \"c,d\"", "e.txt", sepBlanks}, // 14
		{"0,;,0,sep", "f.csv", ','},             // 15. commas outside quotes, a lone ';' field
		{"a;-1,25;3,5e2", "e.txt", ';'},         // 16. decimal commas with a sign, an exponent
		{"a;1,2,3", "e.txt", ','},               // 17. two commas are no decimal mark
		{"a;,5", "e.txt", ','},                  // 18. nor a comma without digits before it
		{"\"x,y\";0,5", "e.txt", ';'},           // 19. a quoted comma does not count
	} {
		if got := detectSep([]byte(tc.line), tc.file); got != tc.want {
			t.Errorf("case %d: detectSep(%q, %s) = %q, want %q", i+1, tc.line, tc.file, byte(got), byte(tc.want))
		}
	}
}
