package load

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
)

// checkValid asserts everything a loader promises about a graph: sorted,
// loop-free, duplicate-free, symmetric adjacency; valid CSR features with N
// rows; N distinct ids; labels in [-1, len(ClassNames)).
func checkValid(t testing.TB, g *graph.Graph) {
	t.Helper()
	n := g.NumNodes()
	if n < 0 || len(g.Indptr) != n+1 || g.Indptr[0] != 0 || int(g.Indptr[n]) != len(g.Indices) {
		t.Fatalf("bad adjacency Indptr")
	}
	for i := 0; i < n; i++ {
		if g.Indptr[i+1] < g.Indptr[i] {
			t.Fatalf("Indptr decreases at %d", i)
		}
		nb := g.Neighbors(i)
		for k, j := range nb {
			if j < 0 || int(j) >= n || int(j) == i || k > 0 && nb[k-1] >= j {
				t.Fatalf("row %d: bad neighbour list %v", i, nb)
			}
			if !g.HasEdge(int(j), i) {
				t.Fatalf("edge %d-%d has no reverse", i, j)
			}
		}
	}
	if g.Features == nil || g.Features.Rows != n {
		t.Fatalf("features missing or with the wrong row count")
	}
	if err := g.Features.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, v := range g.Features.Values {
		if v == 0 || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("stored feature value %g", v)
		}
	}
	if len(g.IDs) != n {
		t.Fatalf("%d ids for %d nodes", len(g.IDs), n)
	}
	seen := make(map[string]bool, n)
	for i, id := range g.IDs {
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
		if j, ok := g.NodeIndex(id); !ok || j != i {
			t.Fatalf("NodeIndex(%q) = %d, %v; want %d", id, j, ok, i)
		}
	}
	if g.Labels != nil {
		if len(g.Labels) != n {
			t.Fatalf("%d labels for %d nodes", len(g.Labels), n)
		}
		for i, l := range g.Labels {
			if l < -1 || int(l) >= len(g.ClassNames) {
				t.Fatalf("node %d label %d with %d classes", i, l, len(g.ClassNames))
			}
		}
	}
}

// sameGraph asserts that two loads gave the same graph (name aside).
func sameGraph(t testing.TB, got, want *graph.Graph) {
	t.Helper()
	checkValid(t, got)
	if fingerprint.Of(got) != fingerprint.Of(want) {
		t.Errorf("fingerprints differ: %v vs %v", got.Stats(), want.Stats())
	}
	if !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.ClassNames, want.ClassNames) {
		t.Errorf("labels differ")
	}
}

// neighbourIDs returns the ids of the neighbours of the node with id.
func neighbourIDs(t testing.TB, g *graph.Graph, id string) []string {
	t.Helper()
	i, ok := g.NodeIndex(id)
	if !ok {
		t.Fatalf("no node %q", id)
	}
	var out []string
	for _, j := range g.Neighbors(i) {
		out = append(out, g.IDs[j])
	}
	slices.Sort(out)
	return out
}

// denseRow returns node id's feature row as a dense slice.
func denseRow(t testing.TB, g *graph.Graph, id string) []float32 {
	t.Helper()
	i, ok := g.NodeIndex(id)
	if !ok {
		t.Fatalf("no node %q", id)
	}
	row := make([]float32, g.FeatureDim())
	for c := range row {
		row[c] = g.Features.At(i, c)
	}
	return row
}

func TestLINQSFixture(t *testing.T) {
	g, err := Path("testdata/linqs")
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, g)
	// By hand from testdata/linqs: p1..p4 from .content, then ghost and
	// other from .cites; p3's self-citation and the repeated p1-p2 dropped.
	if g.Name != "tiny" || !slices.Equal(g.IDs, []string{"p1", "p2", "p3", "p4", "ghost", "other"}) {
		t.Fatalf("name %q ids %v", g.Name, g.IDs)
	}
	if g.NumEdges() != 5 || g.FeatureDim() != 3 || g.Features.NNZ() != 5 {
		t.Errorf("M, D, nnz = %d, %d, %d; want 5, 3, 5", g.NumEdges(), g.FeatureDim(), g.Features.NNZ())
	}
	for id, want := range map[string][]string{
		"p1": {"ghost", "p2"}, "p2": {"p1", "p4"}, "p3": {"ghost"}, "p4": {"other", "p2"},
		"ghost": {"p1", "p3"}, "other": {"p4"},
	} {
		if got := neighbourIDs(t, g, id); !slices.Equal(got, want) {
			t.Errorf("neighbours of %s = %v, want %v", id, got, want)
		}
	}
	for id, want := range map[string][]float32{
		"p1": {1, 0, 0}, "p2": {0, 1, 0}, "p3": {0, 0, 0}, "p4": {1, 1, 0.5}, "ghost": {0, 0, 0},
	} {
		if got := denseRow(t, g, id); !slices.Equal(got, want) {
			t.Errorf("features of %s = %v, want %v", id, got, want)
		}
	}
	if !slices.Equal(g.ClassNames, []string{"Alpha", "Beta", "Gamma"}) ||
		!slices.Equal(g.Labels, []int32{0, 1, 0, 2, -1, -1}) {
		t.Errorf("classes %v labels %v", g.ClassNames, g.Labels)
	}
	// The same through each way in.
	for _, p := range []string{"testdata/linqs/tiny.content", "testdata/linqs/tiny.cites"} {
		h, err := Path(p)
		if err != nil {
			t.Fatal(err)
		}
		sameGraph(t, h, g)
	}
	h, err := Bytes(readDir(t, "testdata/linqs"))
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, h, g)
	if h.Name != "tiny" {
		t.Errorf("Bytes name %q", h.Name)
	}
}

func TestEdgeListFixture(t *testing.T) {
	g, err := Path("testdata/edgelist")
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, g)
	// By hand: header skipped, alice's self-loop dropped, erin only in the
	// features file, dave with no features line.
	if g.Name != "edgelist" || !slices.Equal(g.IDs, []string{"alice", "bob", "carol", "dave", "erin"}) {
		t.Fatalf("name %q ids %v", g.Name, g.IDs)
	}
	if g.NumEdges() != 4 || g.FeatureDim() != 3 || g.Features.NNZ() != 3 || g.Labels != nil {
		t.Errorf("M, D, nnz = %d, %d, %d", g.NumEdges(), g.FeatureDim(), g.Features.NNZ())
	}
	for id, want := range map[string][]string{
		"alice": {"bob", "carol"}, "bob": {"alice", "carol", "dave"}, "erin": nil,
	} {
		if got := neighbourIDs(t, g, id); !slices.Equal(got, want) {
			t.Errorf("neighbours of %s = %v, want %v", id, got, want)
		}
	}
	for id, want := range map[string][]float32{
		"alice": {1, 0, 0}, "bob": {0, 1.5, 0}, "carol": {0, 0, 0}, "dave": {0, 0, 0}, "erin": {0, 0, 2},
	} {
		if got := denseRow(t, g, id); !slices.Equal(got, want) {
			t.Errorf("features of %s = %v, want %v", id, got, want)
		}
	}
	h, err := EdgeListFiles("testdata/edgelist/edges.csv", "testdata/edgelist/features.csv")
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, h, g)
	h, err = Bytes(readDir(t, "testdata/edgelist"))
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, h, g)

	// Without features: D = 0, erin absent.
	h, err = EdgeListFiles("testdata/edgelist/edges.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, h)
	if h.NumNodes() != 4 || h.FeatureDim() != 0 || h.Name != "edges" {
		t.Errorf("without features: N %d D %d name %q", h.NumNodes(), h.FeatureDim(), h.Name)
	}
}

func TestPlainEdgeList(t *testing.T) {
	g, err := Path("testdata/plain.txt")
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, g)
	if g.Name != "plain" || g.NumNodes() != 4 || g.NumEdges() != 3 || g.Degree(3) != 0 {
		t.Errorf("plain: %q %v", g.Name, g.Stats())
	}
	h, err := Bytes(map[string][]byte{"plain.txt": mustRead(t, "testdata/plain.txt")})
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, h, g)
}

// TestEdgeListDialects: separators, headers and comments, each case with the
// ids and edge count it must give (by hand).
func TestEdgeListDialects(t *testing.T) {
	for i, tc := range []struct {
		in   string
		ids  string // separated by |
		m    int
		feat string // optional features file
		dim  int
	}{
		{"a b\nb c\n", "a|b|c", 2, "", 0},                         // 1. words, no header
		{"src dst\n1 2\n", "1|2", 1, "", 0},                       // 2. header words
		{"from\tto\tw\nx\ty\t3\n", "x|y", 1, "", 0},               // 3. TSV with weight
		{"foo,bar\n1,2\n", "1|2", 1, "", 0},                       // 4. header by look-ahead
		{"foo,bar\nbaz,qux\n", "baz|qux", 1, "", 0},               // 5. header: no id of line 1 recurs
		{"# c\n%\n\n  1 ,  2  \n2,3\r\n", "1|2|3", 2, "", 0},      // 6. comments, blanks, CRLF
		{"1 2 0.5 extra\n", "1|2", 1, "", 0},                      // 7. extra columns ignored
		{"a\tb c\nd\ta\n", "a|b c|d", 2, "", 0},                   // 8. tab: ids with spaces
		{"foo,bar\nbaz,foo\n", "bar|baz|foo", 2, "", 0},           // 8b. word ids kept: foo recurs
		{"1 2\n", "1|2|9", 1, "node x y\n1 1 0\n9 0 -2.5e1\n", 2}, // 9. features header, isolated 9
		{"1 2\n", "1|2", 1, "2\t0.5\n1\t0\n", 1},                  // 10. features without header
		{"1 2\n", "1|2", 1, "# f\n1,3\n", 1},                      // 11. features comment
		{"source,target\n1,2\n", "1|2", 1, "id,a,b\n2,1,1\n", 2},  // 12. both headers
		{"u v\n", "", 0, "", 0},                                   // 13. header only: error
	} {
		var feats *strings.Reader
		if tc.feat != "" {
			feats = strings.NewReader(tc.feat)
		}
		var g *graph.Graph
		var err error
		if feats != nil {
			g, err = EdgeListReaders("t", strings.NewReader(tc.in), "edges", feats, "features")
		} else {
			g, err = EdgeListReaders("t", strings.NewReader(tc.in), "edges", nil, "")
		}
		if tc.ids == "" {
			if err == nil {
				t.Errorf("case %d: no error", i+1)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d: %v", i+1, err)
			continue
		}
		checkValid(t, g)
		want := strings.Split(tc.ids, "|")
		if !slices.Equal(g.IDs, want) || g.NumEdges() != tc.m || g.FeatureDim() != tc.dim {
			t.Errorf("case %d: ids %q M %d D %d; want %q %d %d", i+1, g.IDs, g.NumEdges(), g.FeatureDim(), want, tc.m, tc.dim)
		}
	}
}

// TestErrors checks every error path: the exact message (file, line,
// problem), that it is a *Error with that line, and that ErrEmpty is
// wrapped where it applies.
func TestErrors(t *testing.T) {
	const content = "a 1 0 X\nb 0 1 Y\n"
	for i, tc := range []struct {
		files map[string]string
		want  string
	}{
		// LINQS.
		{map[string]string{"g.content": "", "g.cites": "a b\n"}, "g.content: empty file"},
		{map[string]string{"g.content": "\n\n", "g.cites": "a b\n"}, "g.content: empty file"},
		{map[string]string{"g.content": content, "g.cites": ""}, "g.cites: empty file"},
		{map[string]string{"g.content": "a\n", "g.cites": "a b\n"}, "g.content:1: expected <id> <features...> <label>, got 1 field(s)"},
		{map[string]string{"g.content": "a 1 0 X\nb 0 X\n", "g.cites": "a b\n"}, "g.content:2: expected 2 feature values, got 1"},
		{map[string]string{"g.content": "a 1 0 X\nb 0 1 0 X\n", "g.cites": "a b\n"}, "g.content:2: expected 2 feature values, got 3"},
		{map[string]string{"g.content": "a 1 0 X\n\nb 0 x Y\n", "g.cites": "a b\n"}, `g.content:3: feature 2 of node "b": "x" is not a number`},
		{map[string]string{"g.content": "a 1 NaN X\n", "g.cites": "a b\n"}, `g.content:1: feature 2 of node "a": "NaN" is not a finite number`},
		{map[string]string{"g.content": "a 1 1e99 X\n", "g.cites": "a b\n"}, `g.content:1: feature 2 of node "a": "1e99" is out of float32 range (magnitude at most 3.403e+38)`},
		{map[string]string{"g.content": "a 1 -1e400 X\n", "g.cites": "a b\n"}, `g.content:1: feature 2 of node "a": "-1e400" is out of float32 range (magnitude at most 3.403e+38)`},
		{map[string]string{"g.content": "a 1 0 X\na 0 1 Y\n", "g.cites": "a b\n"}, `g.content:2: node id "a" already on line 1`},
		{map[string]string{"g.content": content, "g.cites": "a b\nb\n"}, "g.cites:2: expected <cited id> <citing id>, got 1 field(s)"},
		{map[string]string{"g.content": content, "g.cites": "a b c\n"}, "g.cites:1: expected <cited id> <citing id>, got 3 field(s)"},
		// Edge lists.
		{map[string]string{"e.csv": ""}, "e.csv: empty file"},
		{map[string]string{"e.csv": "# only a comment\n"}, "e.csv: empty file"},
		{map[string]string{"e.csv": "source,target\n"}, "e.csv: empty file"},
		{map[string]string{"e.csv": "1,2\n3\n"}, "e.csv:2: expected <source> <target>, got 1 field(s)"},
		{map[string]string{"e.csv": "1\n"}, "e.csv:1: expected <source> <target>, got 1 field(s)"},
		{map[string]string{"e.csv": "x,y\nz\n"}, "e.csv:2: expected <source> <target>, got 1 field(s)"},
		{map[string]string{"e.csv": "1,2\n,3\n"}, "e.csv:2: empty node id"},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": ""}, "features.csv: empty file"},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "id,a\n"}, "features.csv: empty file"},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "1\n"}, "features.csv:1: expected <id> <values...>, got 1 field(s)"},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "id,a,b\n1,0,1\n2,1\n"}, "features.csv:3: expected 2 values, got 1"},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "1,0,1\n2,1,oops\n"}, `features.csv:2: value 2 of node "2": "oops" is not a number`},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "1,0\n1,1\n"}, `features.csv:2: node id "1" already on line 1`},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "1,0\n,1\n"}, "features.csv:2: empty node id"},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "1,Inf\n"}, `features.csv:1: value 1 of node "1": "Inf" is not a finite number`},
		// 1e400 overflows even a float64: still a number, not a header.
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "1,1e400\n2,0\n"}, `features.csv:1: value 1 of node "1": "1e400" is out of float32 range (magnitude at most 3.403e+38)`},
		// Detection.
		{map[string]string{"a.txt": "1 2\n", "b.txt": "1 2\n"}, "files: unknown graph format: want one *.content and one *.cites (LINQS), one *.npz, edges.{csv,tsv,txt} with optional features.{csv,tsv,txt}, or one *.graphml, *.gexf or *.json; found 0 content, 0 cites, 0 npz, 0 edges, 0 features and 0 graphml, gexf or json files among 2"},
		{map[string]string{"g.content": content}, "files: unknown graph format: want one *.content and one *.cites (LINQS), one *.npz, edges.{csv,tsv,txt} with optional features.{csv,tsv,txt}, or one *.graphml, *.gexf or *.json; found 1 content, 0 cites, 0 npz, 0 edges, 0 features and 0 graphml, gexf or json files among 1"},
		{map[string]string{"edges.csv": "1,2\n", "features.csv": "1,0\n", "features.tsv": "1\t0\n"}, "files: unknown graph format: want one *.content and one *.cites (LINQS), one *.npz, edges.{csv,tsv,txt} with optional features.{csv,tsv,txt}, or one *.graphml, *.gexf or *.json; found 0 content, 0 cites, 0 npz, 1 edges, 2 features and 0 graphml, gexf or json files among 3"},
	} {
		files := map[string][]byte{}
		for k, v := range tc.files {
			files[k] = []byte(v)
		}
		_, err := Bytes(files)
		if err == nil {
			t.Errorf("case %d: no error, want %q", i+1, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("case %d:\n got %q\nwant %q", i+1, err, tc.want)
		}
		var le *Error
		if strings.HasPrefix(tc.want, "files:") {
			if !errors.Is(err, ErrUnknownFormat) {
				t.Errorf("case %d: not ErrUnknownFormat", i+1)
			}
			continue
		}
		if !errors.As(err, &le) {
			t.Errorf("case %d: %T is not a *load.Error", i+1, err)
			continue
		}
		if strings.HasSuffix(tc.want, "empty file") != errors.Is(err, ErrEmpty) {
			t.Errorf("case %d: errors.Is(err, ErrEmpty) = %v", i+1, errors.Is(err, ErrEmpty))
		}
		if want := strings.Count(strings.SplitN(tc.want, " ", 2)[0], ":") == 2; want != (le.Line > 0) {
			t.Errorf("case %d: Line = %d", i+1, le.Line)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{File: "cora.cites", Line: 17, Err: errors.New("bad")}
	if e.Error() != "cora.cites:17: bad" || errors.Unwrap(e).Error() != "bad" {
		t.Errorf("%q", e)
	}
	e.Line = 0
	if e.Error() != "cora.cites: bad" {
		t.Errorf("%q", e)
	}
}

func TestPathErrors(t *testing.T) {
	dir := t.TempDir()
	// 1. missing path.
	if _, err := Path(filepath.Join(dir, "nope")); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("missing path: %v", err)
	}
	// 2. a directory with nothing recognisable.
	os.WriteFile(filepath.Join(dir, "README"), []byte("hi"), 0o644)
	if _, err := Path(dir); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("empty directory: %v", err)
	}
	// 3. a .content file without its .cites sibling.
	os.WriteFile(filepath.Join(dir, "g.content"), []byte("a 1 X\n"), 0o644)
	_, err := Path(filepath.Join(dir, "g.content"))
	var le *Error
	if !errors.As(err, &le) || le.File != filepath.Join(dir, "g.cites") {
		t.Errorf("lone .content: %v", err)
	}
	// 4. an unreadable .npz.
	os.WriteFile(filepath.Join(dir, "x.npz"), []byte("not a zip"), 0o644)
	if _, err := Path(filepath.Join(dir, "x.npz")); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "x.npz")+": not a zip archive") {
		t.Errorf("bad npz: %v", err)
	}
}

// TestLongLine checks that lines far longer than bufio's default 64 KiB
// token limit are read.
func TestLongLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("a")
	for range 100000 {
		b.WriteString(" 1")
	}
	b.WriteString(" X\nb")
	for range 100000 {
		b.WriteString(" 0")
	}
	b.WriteString(" Y\n")
	g, err := LINQSReaders("long", strings.NewReader(b.String()), "long.content", strings.NewReader("a b\n"), "long.cites")
	if err != nil {
		t.Fatal(err)
	}
	if g.FeatureDim() != 100000 || g.Features.NNZ() != 100000 {
		t.Errorf("D %d nnz %d", g.FeatureDim(), g.Features.NNZ())
	}
}

func mustRead(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readDir returns the files of dir keyed by name.
func readDir(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if !e.IsDir() {
			files[e.Name()] = mustRead(t, filepath.Join(dir, e.Name()))
		}
	}
	return files
}

// npyArray is a .npy array to write in tests: a dtype string, a shape and
// the raw little-endian data.
type npyArray struct {
	descr string
	shape []int
	data  []byte
}

func (a npyArray) bytes() []byte {
	dims := make([]string, len(a.shape))
	for i, d := range a.shape {
		dims[i] = fmt.Sprint(d)
	}
	shape := "(" + strings.Join(dims, ", ")
	if len(a.shape) == 1 {
		shape += ","
	}
	shape += ")"
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", a.descr, shape)
	pad := 64 - (10+len(dict)+1)%64
	dict += strings.Repeat(" ", pad%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(dict)))
	b.WriteString(dict)
	b.Write(a.data)
	return b.Bytes()
}

func i32s(v ...int32) npyArray {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return npyArray{"<i4", []int{len(v)}, b}
}

func i64s(v ...int64) npyArray {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return npyArray{"<i8", []int{len(v)}, b}
}

func f32s(v ...float32) npyArray {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return npyArray{"<f4", []int{len(v)}, b}
}

// unicode encodes strings as numpy '<U{width}' (UTF-32LE, NUL padded).
func unicode(width int, v ...string) npyArray {
	b := make([]byte, 4*width*len(v))
	for i, s := range v {
		for k, r := range []rune(s) {
			binary.LittleEndian.PutUint32(b[4*(width*i+k):], uint32(r))
		}
	}
	return npyArray{fmt.Sprintf("<U%d", width), []int{len(v)}, b}
}

// member is a named array of an npz archive.
type member struct {
	name string
	arr  npyArray
	raw  []byte // written instead of arr when not nil
}

// writeNPZ zips members (stored, like numpy.savez) under name+".npy".
func writeNPZ(t testing.TB, members []member) []byte {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, m := range members {
		w, err := z.CreateHeader(&zip.FileHeader{Name: m.name + ".npy", Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		data := m.raw
		if data == nil {
			data = m.arr.bytes()
		}
		w.Write(data)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// tinyNPZ is a 4-node gnn-benchmark graph: directed entries 0→1, 1→0, 1→2,
// 3→3 (a loop), 2→0 with data 0 (not an edge); features CSR with an
// unsorted row and a repeated column; labels and names.
func tinyNPZ() []member {
	return []member{
		{"adj_data", f32s(1, 1, 1, 0, 1), nil},
		{"adj_indices", i32s(1, 0, 2, 0, 3), nil},
		{"adj_indptr", i32s(0, 1, 3, 4, 5), nil},
		{"adj_shape", i64s(4, 4), nil},
		{"attr_data", f32s(1, 2, 3, 4, 5), nil},
		{"attr_indices", i32s(2, 0, 1, 1, 4), nil},
		{"attr_indptr", i32s(0, 2, 2, 4, 5), nil},
		{"attr_shape", i64s(4, 5), nil},
		{"labels", i64s(1, 0, -1, 1), nil},
		{"class_names", unicode(9, "Zebra", "Äpfel & ♥"), nil},
		{"node_names", unicode(3, "n0", "n1", "n2", "n3"), nil},
	}
}

func replace(ms []member, name string, arr npyArray) []member {
	out := slices.Clone(ms)
	for i := range out {
		if out[i].name == name {
			out[i] = member{name, arr, nil}
			return out
		}
	}
	return append(out, member{name, arr, nil})
}

func without(ms []member, names ...string) []member {
	return slices.DeleteFunc(slices.Clone(ms), func(m member) bool { return slices.Contains(names, m.name) })
}

func TestNPZFixture(t *testing.T) {
	data := writeNPZ(t, tinyNPZ())
	g, err := NPZBytes("tiny.npz", data)
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, g)
	// By hand: edges 0-1, 1-2 (the loop and the zero entry dropped).
	if g.Name != "tiny" || !slices.Equal(g.IDs, []string{"n0", "n1", "n2", "n3"}) ||
		!slices.Equal(g.Edges(), []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}) {
		t.Fatalf("name %q ids %v edges %v", g.Name, g.IDs, g.Edges())
	}
	// Row 0: columns 2, 0 → sorted; row 2: column 1 twice → 3+4.
	for id, want := range map[string][]float32{
		"n0": {2, 0, 1, 0, 0}, "n1": {0, 0, 0, 0, 0}, "n2": {0, 7, 0, 0, 0}, "n3": {0, 0, 0, 0, 5},
	} {
		if got := denseRow(t, g, id); !slices.Equal(got, want) {
			t.Errorf("features of %s = %v, want %v", id, got, want)
		}
	}
	if !slices.Equal(g.ClassNames, []string{"Zebra", "Äpfel & ♥"}) || !slices.Equal(g.Labels, []int32{1, 0, -1, 1}) {
		t.Errorf("classes %q labels %v", g.ClassNames, g.Labels)
	}

	// Optional members: no names, no class names, dense attributes.
	dense := npyArray{"<f8", []int{4, 2}, make([]byte, 64)}
	binary.LittleEndian.PutUint64(dense.data[8:], math.Float64bits(0.25))
	ms := replace(without(tinyNPZ(), "node_names", "class_names", "attr_data", "attr_indices", "attr_indptr", "attr_shape"),
		"attr_matrix", dense)
	h, err := NPZBytes("x.npz", writeNPZ(t, ms))
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, h)
	if !slices.Equal(h.IDs, []string{"0", "1", "2", "3"}) || !slices.Equal(h.ClassNames, []string{"0", "1"}) ||
		h.FeatureDim() != 2 || h.Features.NNZ() != 1 || h.Features.At(0, 1) != 0.25 {
		t.Errorf("optional members: ids %v classes %v D %d", h.IDs, h.ClassNames, h.FeatureDim())
	}
	// No attributes, no labels, no adj_data; 'S' names; an object array
	// of class names is skipped.
	ms = without(tinyNPZ(), "attr_data", "attr_indices", "attr_indptr", "attr_shape", "adj_data", "labels")
	ms = replace(ms, "node_names", npyArray{"|S2", []int{4}, []byte("abcdefgh")})
	h, err = NPZBytes("x.npz", writeNPZ(t, ms))
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, h)
	if h.FeatureDim() != 0 || h.Labels != nil || !slices.Equal(h.IDs, []string{"ab", "cd", "ef", "gh"}) || h.NumEdges() != 3 {
		t.Errorf("minimal: D %d labels %v ids %v M %d", h.FeatureDim(), h.Labels, h.IDs, h.NumEdges())
	}
	ms = replace(tinyNPZ(), "class_names", npyArray{"|O", []int{2}, []byte("pickled")})
	if h, err = NPZBytes("x.npz", writeNPZ(t, ms)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.ClassNames, []string{"0", "1"}) {
		t.Errorf("object class names: %q", h.ClassNames)
	}
	// Bytes picks the npz out of a set of files.
	b, err := Bytes(map[string][]byte{"tiny.npz": data, "README": []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, b, g)
	if b.Name != "tiny" {
		t.Errorf("Bytes name %q", b.Name)
	}
	// Path agrees.
	p := filepath.Join(t.TempDir(), "tiny.npz")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{p, filepath.Dir(p)} {
		h, err := Path(q)
		if err != nil {
			t.Fatal(err)
		}
		sameGraph(t, h, g)
		if h.Name != "tiny" {
			t.Errorf("Path(%s) name %q", q, h.Name)
		}
	}
}

func TestNPZErrors(t *testing.T) {
	base := tinyNPZ()
	hdr := npyArray{"<i4", []int{1}, make([]byte, 4)}.bytes()
	for i, tc := range []struct {
		ms   []member
		raw  []byte // instead of ms
		want string
	}{
		{raw: []byte{}, want: "t.npz: not a zip archive: zip: not a valid zip file"},
		{raw: []byte("PK\x03\x04garbage"), want: "t.npz: not a zip archive: zip: not a valid zip file"},
		{ms: without(base, "adj_indptr"), want: "t.npz: no adj_indptr member: not a gnn-benchmark graph (want adj_indptr, adj_indices, adj_shape)"},
		{ms: replace(base, "adj_shape", i64s(4, 5)), want: "t.npz: adj_shape: adjacency shape (4, 5) is not square"},
		{ms: replace(base, "adj_shape", i64s(4)), want: "t.npz: adj_shape: [4] is not a matrix shape"},
		{ms: replace(base, "adj_shape", i64s(-1, -1)), want: "t.npz: adj_shape: [-1 -1] is not a matrix shape"},
		{ms: replace(base, "adj_indptr", i32s(0, 1, 3, 5)), want: "t.npz: adj_indptr: 4 entries for 4 rows, want 5"},
		{ms: replace(base, "adj_indptr", i32s(0, 3, 1, 4, 5)), want: "t.npz: adj_indptr: decreases at row 1 (3 then 1)"},
		{ms: replace(base, "adj_indptr", i32s(0, 1, 3, 4, 6)), want: "t.npz: adj_indptr: runs from 0 to 6, want 0 to 5 (the length of adj_indices)"},
		{ms: replace(base, "adj_indices", i32s(1, 0, 2, 0, 4)), want: "t.npz: adj_indices: entry 4 is 4, outside [0, 4)"},
		{ms: replace(base, "adj_indices", i32s(1, -1, 2, 0, 3)), want: "t.npz: adj_indices: entry 1 is -1, outside [0, 4)"},
		{ms: replace(base, "adj_indices", f32s(1, 0, 2, 0, 3)), want: "t.npz: adj_indices: want integers, got dtype kind 'f'"},
		{ms: replace(base, "adj_data", f32s(1, 1)), want: "t.npz: adj_data: shape [2], want (5,) like adj_indices"},
		{ms: replace(base, "attr_data", f32s(1, float32(math.NaN()), 3, 4, 5)), want: "t.npz: attr_data: element 1 is NaN, not a finite float32"},
		{ms: replace(base, "attr_shape", i64s(3, 5)), want: "t.npz: attr_indptr: 5 entries for 3 rows, want 4"},
		{ms: replace(base, "attr_indices", i32s(2, 0, 1, 1, 5)), want: "t.npz: attr_indices: entry 4 is 5, outside [0, 5)"},
		{ms: replace(without(base, "attr_data", "attr_indices", "attr_indptr", "attr_shape"), "attr_matrix", f32s(1, 2)), want: "t.npz: attr_matrix: shape [2], want (4, D)"},
		{ms: replace(base, "labels", i64s(1, 0, 1)), want: "t.npz: labels: shape [3], want (4,)"},
		{ms: replace(base, "labels", i64s(1, 0, 2, 1)), want: "t.npz: labels: node 2 has label 2, outside [-1, 2)"},
		{ms: replace(base, "labels", i64s(1, 0, -2, 1)), want: "t.npz: labels: node 2 has label -2, outside [-1, 2)"},
		{ms: replace(without(base, "class_names"), "labels", i64s(1, 0, 9, 1)), want: "t.npz: labels: label 9 with only 4 nodes and no class_names"},
		{ms: replace(base, "node_names", unicode(3, "a", "b", "c")), want: "t.npz: node_names: shape [3], want (4,)"},
		{ms: replace(base, "node_names", unicode(3, "a", "b", "c", "a")), want: `t.npz: node_names: graph: node id "a" appears twice`},
		{ms: replace(base, "adj_shape", npyArray{"<i8", []int{3}, make([]byte, 16)}), want: "t.npz: adj_shape: holds 16 data bytes, shape [3] of <i8 needs 24"},
		{ms: replace(base, "adj_shape", npyArray{"<i8", []int{-2}, nil}), want: "t.npz: adj_shape: negative dimension in shape [-2]"},
		{ms: replace(base, "adj_shape", npyArray{"<c8", []int{2}, make([]byte, 16)}), want: `t.npz: adj_shape: unsupported dtype "<c8"`},
		{ms: replace(base, "adj_shape", npyArray{"<i3", []int{2}, make([]byte, 6)}), want: `t.npz: adj_shape: unsupported dtype "<i3"`},
		{ms: append(without(base, "adj_shape"), member{"adj_shape", npyArray{}, []byte("\x93NUMPY")}), want: "t.npz: adj_shape: not a .npy array"},
		{ms: append(without(base, "adj_shape"), member{"adj_shape", npyArray{}, []byte("garbage that is long")}), want: "t.npz: adj_shape: not a .npy array"},
		{ms: append(without(base, "adj_shape"), member{"adj_shape", npyArray{}, hdr[:40]}), want: "t.npz: adj_shape: truncated .npy header"},
		{ms: append(without(base, "adj_shape"), member{"adj_shape", npyArray{}, []byte("\x93NUMPY\x01\x00\x04\x00abcd")}), want: "t.npz: adj_shape: bad .npy header: malformed header dictionary"},
		{ms: append(without(base, "adj_shape"), member{"adj_shape", npyArray{}, []byte("\x93NUMPY\x09\x00\x04\x00\x00\x00abcd")}), want: "t.npz: adj_shape: bad .npy header: npy: invalid major version number (9)"},
	} {
		data := tc.raw
		if data == nil {
			data = writeNPZ(t, tc.ms)
		}
		_, err := NPZBytes("t.npz", data)
		if err == nil {
			t.Errorf("case %d: no error, want %q", i+1, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("case %d:\n got %q\nwant %q", i+1, err, tc.want)
		}
		var le *Error
		if !errors.As(err, &le) || le.File != "t.npz" || le.Line != 0 {
			t.Errorf("case %d: %#v is not a *load.Error for t.npz", i+1, err)
		}
	}
}

// TestNPZHugeDimension is a regression test: an attr_shape claiming two
// billion columns once made the loader allocate O(D) memory (8 GB) to sort
// the rows; now it costs O(nnz).
func TestNPZHugeDimension(t *testing.T) {
	g, err := NPZBytes("t.npz", writeNPZ(t, replace(tinyNPZ(), "attr_shape", i64s(4, 2_000_000_000))))
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, g)
	if g.FeatureDim() != 2_000_000_000 || g.Features.NNZ() != 4 {
		t.Errorf("D %d nnz %d", g.FeatureDim(), g.Features.NNZ())
	}
}

func ExamplePath() {
	g, err := Path("testdata/linqs")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Name, g.NumNodes(), g.NumEdges(), g.FeatureDim(), g.ClassNames)
	fmt.Println(g.IDs[4], g.Labels[4]) // cited in tiny.cites, absent from tiny.content

	_, err = Bytes(map[string][]byte{"tiny.content": []byte("p1 1 0 A\np2 0 A\n"), "tiny.cites": []byte("p1 p2\n")})
	fmt.Println(err)
	// Output:
	// tiny 6 5 3 [Alpha Beta Gamma]
	// ghost -1
	// tiny.content:2: expected 2 feature values, got 1
}

// TestReadErrors checks that an I/O error from a reader comes back as a
// *Error naming the file and the line being read.
func TestReadErrors(t *testing.T) {
	boom := errors.New("boom")
	broken := io.MultiReader(strings.NewReader("a 1 X\n"), iotest.ErrReader(boom))
	_, err := LINQSReaders("g", broken, "g.content", strings.NewReader("a b\n"), "g.cites")
	if err == nil || err.Error() != "g.content:2: boom" || !errors.Is(err, boom) {
		t.Errorf("content: %v", err)
	}
	_, err = EdgeListReaders("g", iotest.ErrReader(boom), "e.csv", nil, "")
	if err == nil || err.Error() != "e.csv:1: boom" {
		t.Errorf("edges: %v", err)
	}
	_, err = EdgeListReaders("g", strings.NewReader("1 2\n"), "e.csv", iotest.ErrReader(boom), "f.csv")
	if err == nil || err.Error() != "f.csv:1: boom" {
		t.Errorf("features: %v", err)
	}
}
