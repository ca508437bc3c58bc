package synth

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/f32"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/load"
)

// handDataset is a small dataset written out by hand: word ids, an isolated
// node, features with zeros, negative and non-round values, and three links
// with K_gt = 2. The edge-list loader numbers its nodes a b c e d iso (first
// appearance in edges.csv), so reading it back must renumber.
//
//	nodes: 0 a, 1 b, 2 c, 3 d, 4 e, 5 iso
//	edges: a-b a-c a-e b-c b-d c-d c-e d-e
//	links: c-e train, b-d test, a-b val
func handDataset(t testing.TB) *Dataset {
	t.Helper()
	ids := []string{"a", "b", "c", "d", "e", "iso"}
	edges := []graph.Edge{{U: 0, V: 1}, {U: 0, V: 2}, {U: 0, V: 4}, {U: 1, V: 2}, {U: 1, V: 3}, {U: 2, V: 3}, {U: 2, V: 4}, {U: 3, V: 4}}
	x := &f32.CSR{Rows: 6, Cols: 2,
		Indptr:  []int32{0, 1, 1, 3, 5, 5, 7},
		Indices: []int32{0, 0, 1, 0, 1, 0, 1},
		Values:  []float32{0.1, -1e-7, 3, 1, 2.5, 7, float32(1.0 / 3)},
	}
	g, err := graph.New(6, edges, x, ids)
	if err != nil {
		t.Fatal(err)
	}
	g.Name = "hand"
	return &Dataset{
		Graph: g,
		Base:  []graph.Edge{{U: 0, V: 2}, {U: 0, V: 4}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}},
		Links: []Link{
			{Edge: graph.Edge{U: 2, V: 4}, Role: Train, WhyU: []int32{3, 0}, WhyV: []int32{3, 0}},
			{Edge: graph.Edge{U: 1, V: 3}, Role: Test, WhyU: []int32{2, 0}, WhyV: []int32{4, 2}},
			{Edge: graph.Edge{U: 0, V: 1}, Role: Validation, WhyU: []int32{2, 4}, WhyV: []int32{3, 2}},
		},
	}
}

// handFiles are the files WriteDir must write for handDataset.
var handFiles = map[string]string{
	EdgesFile: "source,target\na,b\na,c\na,e\nb,c\nb,d\nc,d\nc,e\nd,e\n",
	FeaturesFile: "node,f0,f1\n" +
		"a,0.1,0\nb,0,0\nc,-1e-07,3\nd,1,2.5\ne,0,0\niso,7,0.33333334\n",
	GroundtruthFile: GroundtruthHeader + "\n" +
		"c,e,train,d a,d a\nb,d,test,c a,e c\na,b,val,c e,d c\n",
}

func rtSameLink(a, b Link) bool {
	return a.Edge == b.Edge && a.Role == b.Role && slices.Equal(a.WhyU, b.WhyU) && slices.Equal(a.WhyV, b.WhyV)
}

// rtSameGraph fails t unless a and b have the same nodes in the same order,
// ids, edges and bit-identical features.
func rtSameGraph(t *testing.T, a, b *graph.Graph) {
	t.Helper()
	if a.NumNodes() != b.NumNodes() || !slices.Equal(a.IDs, b.IDs) {
		t.Fatalf("nodes differ: %d ids %.10q... vs %d ids %.10q...", a.NumNodes(), a.IDs, b.NumNodes(), b.IDs)
	}
	if !slices.Equal(a.Edges(), b.Edges()) {
		t.Fatalf("edges differ: %d vs %d edges", a.NumEdges(), b.NumEdges())
	}
	x, y := a.Features, b.Features
	if x.Rows != y.Rows || x.Cols != y.Cols || !slices.Equal(x.Indptr, y.Indptr) || !slices.Equal(x.Indices, y.Indices) ||
		!slices.EqualFunc(x.Values, y.Values, func(u, v float32) bool { return math.Float32bits(u) == math.Float32bits(v) }) {
		t.Fatalf("features differ")
	}
	if fingerprint.Of(a) != fingerprint.Of(b) {
		t.Fatalf("fingerprints differ although nodes, edges and features agree")
	}
}

// rtSameSet fails t unless a and b hold the same edges, ignoring order.
func rtSameSet(t *testing.T, what string, a, b []graph.Edge) {
	t.Helper()
	byUV := func(e, f graph.Edge) int { return cmp.Or(cmp.Compare(e.U, f.U), cmp.Compare(e.V, f.V)) }
	a, b = slices.SortedFunc(slices.Values(a), byUV), slices.SortedFunc(slices.Values(b), byUV)
	if !slices.Equal(a, b) {
		t.Errorf("%s: %d vs %d edges, or different ones", what, len(a), len(b))
	}
}

// TestWriteDirRoundTrip: a generated dataset written and read back has the
// same graph (node order, ids, edges, bit-identical features), links, base
// graph and split, negatives included.
func TestWriteDirRoundTrip(t *testing.T) {
	c := DefaultConfig()
	c.Nodes, c.Groups, c.FeatureDim, c.Edges = 200, 5, 16, 1200
	d, err := Generate(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "nested", "synth3") // MkdirAll
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	d2, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rtSameGraph(t, d.Graph, d2.Graph)
	if d2.Graph.Name != "synth3" || d2.Graph.Labels != nil || d2.Graph.ClassNames != nil {
		t.Errorf("name %q, labels %v, class names %v; want synth3 and none", d2.Graph.Name, d2.Graph.Labels != nil, d2.Graph.ClassNames)
	}
	if !slices.EqualFunc(d.Links, d2.Links, rtSameLink) {
		t.Errorf("links differ")
	}
	rtSameSet(t, "base", d.Base, d2.Base)

	s, err := d.Split(0)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := d2.Split(0)
	if err != nil {
		t.Fatal(err)
	}
	rtSameSet(t, "TrainPos", s.TrainPos, s2.TrainPos)
	rtSameSet(t, "ValPos", s.ValPos, s2.ValPos)
	rtSameSet(t, "TestPos", s.TestPos, s2.TestPos)
	if !slices.Equal(s.ValNeg, s2.ValNeg) || !slices.Equal(s.TestNeg, s2.TestNeg) {
		t.Errorf("negatives differ")
	}

	// The CLI's loader reads the folder too, headers and all, with the same
	// graph up to node order.
	g, err := load.Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(g.IDs, d.Graph.IDs) {
		t.Log("load.Path kept the node order: renumbering not exercised here")
	}
	rtSameUpToOrder(t, d.Graph, g)
}

// rtSameUpToOrder fails t unless b is a with its nodes renumbered (matched
// by id).
func rtSameUpToOrder(t *testing.T, a, b *graph.Graph) {
	t.Helper()
	if a.NumNodes() != b.NumNodes() || a.NumEdges() != b.NumEdges() || a.FeatureDim() != b.FeatureDim() {
		t.Fatalf("%d nodes, %d edges, %d features vs %d, %d, %d", a.NumNodes(), a.NumEdges(), a.FeatureDim(),
			b.NumNodes(), b.NumEdges(), b.FeatureDim())
	}
	to := make([]int, a.NumNodes())
	for i, id := range a.IDs {
		j, ok := b.NodeIndex(id)
		if !ok {
			t.Fatalf("node %q lost", id)
		}
		to[i] = j
		for c := range a.FeatureDim() {
			if u, v := a.Features.At(i, c), b.Features.At(j, c); math.Float32bits(u) != math.Float32bits(v) {
				t.Fatalf("node %q feature %d: %v vs %v", id, c, u, v)
			}
		}
	}
	for _, e := range a.Edges() {
		if !b.HasEdge(to[e.U], to[e.V]) {
			t.Fatalf("edge %q-%q lost", a.IDs[e.U], a.IDs[e.V])
		}
	}
}

// TestWriteDirFormat: the exact bytes of the three files, and that reading
// them back renumbers the loader's nodes into the written order when the
// ids' order is another.
func TestWriteDirFormat(t *testing.T) {
	d := handDataset(t)
	dir := filepath.Join(t.TempDir(), "hand")
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{EdgesFile, FeaturesFile, GroundtruthFile}; !slices.Equal(names, want) {
		t.Errorf("files %q, want %q", names, want)
	}
	for name, want := range handFiles {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, want)
		}
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && info.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", name, info.Mode().Perm())
		}
	}

	// The loader on its own numbers nodes in the order of their ids
	// (load.CompareIDs), which is the written order here.
	g, err := load.Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "d", "e", "iso"}; !slices.Equal(g.IDs, want) {
		t.Fatalf("load.Path ids %q, want %q (the premise of this test)", g.IDs, want)
	}
	rtSameUpToOrder(t, d.Graph, g)

	// With the ids reversed the written order is not the ids' order:
	// ReadDir keeps the written one.
	rev := *d
	rg, err := d.Graph.WithEdges(d.Graph.Edges())
	if err != nil {
		t.Fatal(err)
	}
	rg.IDs = slices.Clone(d.Graph.IDs)
	slices.Reverse(rg.IDs)
	if rg, err = rg.WithEdges(rg.Edges()); err != nil { // rebuilds the id index
		t.Fatal(err)
	}
	rev.Graph = rg
	revDir := filepath.Join(t.TempDir(), "rev")
	if err := rev.WriteDir(revDir); err != nil {
		t.Fatal(err)
	}
	if g, err = load.Path(revDir); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "d", "e", "iso"}; !slices.Equal(g.IDs, want) {
		t.Fatalf("load.Path ids %q, want %q (the premise of this test)", g.IDs, want)
	}
	rtSameUpToOrder(t, rg, g)
	if back, err := ReadDir(revDir); err != nil {
		t.Fatal(err)
	} else {
		rtSameGraph(t, rg, back.Graph)
		if !slices.EqualFunc(rev.Links, back.Links, rtSameLink) {
			t.Errorf("reversed ids: links %v, want %v", back.Links, rev.Links)
		}
	}

	d2, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rtSameGraph(t, d.Graph, d2.Graph)
	if !slices.EqualFunc(d.Links, d2.Links, rtSameLink) {
		t.Errorf("links %v, want %v", d2.Links, d.Links)
	}
	if !slices.Equal(d2.Base, d.Base) { // both in Edges() order here
		t.Errorf("base %v, want %v", d2.Base, d.Base)
	}
	if d2.Graph.Name != "hand" {
		t.Errorf("name %q, want hand", d2.Graph.Name)
	}

	// The same files handed over in memory, as the browser does.
	mem := map[string][]byte{}
	for name := range handFiles {
		mem[name], _ = os.ReadFile(filepath.Join(dir, name))
	}
	d3, err := ReadFiles("dropped", mem)
	if err != nil {
		t.Fatal(err)
	}
	rtSameGraph(t, d2.Graph, d3.Graph)
	if !slices.EqualFunc(d2.Links, d3.Links, rtSameLink) || !slices.Equal(d2.Base, d3.Base) || d3.Graph.Name != "dropped" {
		t.Errorf("ReadFiles differs from ReadDir: %+v", d3)
	}
	delete(mem, GroundtruthFile)
	var le *load.Error
	if _, err := ReadFiles("dropped", mem); !errors.As(err, &le) || le.File != GroundtruthFile {
		t.Errorf("ReadFiles without groundtruth.csv: %v", err)
	}

	// Writing again replaces the files and leaves no temporary file.
	if err := d2.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("%d files after a second write, want 3", len(entries))
	}
	for name, want := range handFiles {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != want {
			t.Errorf("second write: %s differs", name)
		}
	}
}

// TestWriteDirRejects: what the files cannot hold is an error, and nothing
// is written.
func TestWriteDirRejects(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(d *Dataset)
	}{
		{"comma", "comma", func(d *Dataset) { d.Graph.IDs[1] = "b,x" }},
		{"space", "white space", func(d *Dataset) { d.Graph.IDs[1] = "b x" }},
		{"tab", "white space", func(d *Dataset) { d.Graph.IDs[5] = "iso\t" }},
		{"nbsp", "white space", func(d *Dataset) { d.Graph.IDs[5] = "iso\u00a0" }},
		{"newline", "white space", func(d *Dataset) { d.Graph.IDs[0] = "a\nb" }},
		{"empty", "empty node id", func(d *Dataset) { d.Graph.IDs[2] = "" }},
		{"hash", "comment", func(d *Dataset) { d.Graph.IDs[0] = "#a" }},
		{"percent", "comment", func(d *Dataset) { d.Graph.IDs[0] = "%a" }},
		{"utf8", "UTF-8", func(d *Dataset) { d.Graph.IDs[0] = "a\xff" }},
		{"nan", "finite", func(d *Dataset) { d.Graph.Features.Values[2] = float32(math.NaN()) }},
		{"inf", "finite", func(d *Dataset) { d.Graph.Features.Values[0] = float32(math.Inf(-1)) }},
		{"no links", "no explained links", func(d *Dataset) { d.Links = nil }},
		{"link range", "outside", func(d *Dataset) { d.Links[1].Edge.V = 6 }},
		{"why range", "outside", func(d *Dataset) { d.Links[2].WhyV[0] = -1 }},
		{"role", "invalid role", func(d *Dataset) { d.Links[0].Role = 7 }},
		{"no features", "no features", func(d *Dataset) {
			d.Graph.Features = &f32.CSR{Rows: 6, Indptr: make([]int32, 7)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := handDataset(t)
			tc.edit(d)
			dir := filepath.Join(t.TempDir(), "out")
			err := d.WriteDir(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("error %v, want one naming %s and saying %q", err, dir, tc.want)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s was created (stat: %v)", dir, err)
			}
		})
	}
}

// TestReadGroundtruth: blank lines, comments, blanks around fields, CRLF
// and a source with the larger node index (the lists are swapped so that
// WhyU is the smaller node's).
func TestReadGroundtruth(t *testing.T) {
	g := handDataset(t).Graph
	in := "\r\n# written by hand\r\n  " + GroundtruthHeader + "  \r\n\r\n" +
		" e , c ,train, a  d ,b d\r\n" +
		"# a comment\n" +
		"b,d,test,c a,e c"
	links, err := ReadGroundtruth(strings.NewReader(in), "gt.csv", g)
	if err != nil {
		t.Fatal(err)
	}
	want := []Link{
		{Edge: graph.Edge{U: 2, V: 4}, Role: Train, WhyU: []int32{1, 3}, WhyV: []int32{0, 3}},
		{Edge: graph.Edge{U: 1, V: 3}, Role: Test, WhyU: []int32{2, 0}, WhyV: []int32{4, 2}},
	}
	if !slices.EqualFunc(links, want, rtSameLink) {
		t.Errorf("links %v, want %v", links, want)
	}
}

// TestReadGroundtruthErrors: every problem is a *load.Error naming the file
// and the line.
func TestReadGroundtruthErrors(t *testing.T) {
	g := handDataset(t).Graph
	h := GroundtruthHeader + "\n"
	ok := "c,e,train,d a,d a\n" // a valid line
	long := "# " + strings.Repeat("x", 2<<20) + "\n"
	for _, tc := range []struct {
		name, in string
		line     int
		want     string
	}{
		{"empty", "", 0, "empty file: no header"},
		{"comments only", "# x\n\n  \n", 0, "empty file: no header"},
		{"header only", h + "# no links\n", 0, "empty file: no links"},
		{"bad header", "source,target,role\n" + ok, 1, "expected the header"},
		{"header case", strings.ToUpper(h) + ok, 1, "expected the header"},
		{"data first", ok + h, 1, "expected the header"},
		{"header late", "# c\n\n" + "src,dst\n", 3, "expected the header"},
		{"few fields", h + "c,e,train,d a\n", 2, "expected 5 fields"},
		{"many fields", h + ok + "b,d,test,c a,e c,\n", 3, "got 6"},
		{"one field", h + "\n\nc\n", 4, "got 1"},
		{"unknown source", h + "zz,e,train,d a,d a\n", 2, `source: unknown node id "zz"`},
		{"unknown target", h + ok + "b,D,test,c a,e c\n", 3, `target: unknown node id "D"`},
		{"unknown why source", h + "c,e,train,d x,d a\n", 2, `why_source: unknown node id "x"`},
		{"unknown why target", h + "c,e,train,d a,d a y\n", 2, `why_target: unknown node id "y"`},
		{"unknown role", h + "c,e,training,d a,d a\n", 2, `unknown role "training"`},
		{"empty role", h + "c,e,,d a,d a\n", 2, `unknown role ""`},
		{"not an edge", h + ok + "a,d,test,b c,b c\n", 3, `link "a"-"d" is not an edge`},
		{"isolated", h + "iso,a,val,b,b\n", 2, "not an edge"},
		{"self-loop", h + "a,a,val,b,b\n", 2, "self-loop"},
		{"duplicate", h + ok + "# c\n" + "c,e,val,d a,d a\n", 4, "already on line 2"},
		{"duplicate reversed", h + ok + "e,c,test,d a,d a\n", 3, "already on line 2"},
		{"not a neighbour", h + "c,e,train,d iso,d a\n", 2, `"iso" is not a neighbour of "c"`},
		{"not a neighbour target", h + ok + "b,d,test,c a,e a\n", 3, `"a" is not a neighbour of "d"`},
		{"other end", h + "c,e,train,e a,d a\n", 2, `"e" is the link's other end`},
		{"other end target", h + "c,e,train,d a,c a\n", 2, `"c" is the link's other end`},
		{"repeated", h + "c,e,train,d d,d a\n", 2, `"d" appears twice`},
		{"empty why source", h + "c,e,train,,d a\n", 2, "why_source: empty groundtruth list"},
		{"blank why target", h + "c,e,train,d a,   \n", 2, "why_target: empty groundtruth list"},
		{"lengths in a line", h + "c,e,train,d a,d\n", 2, "why_target: 1 groundtruth nodes, but the lists of line 2 have 2"},
		{"lengths across lines", h + ok + "\n" + "b,d,test,c,e\n", 4, "why_source: 1 groundtruth nodes, but the lists of line 2 have 2"},
		{"longer later", h + "b,d,test,c,e\n" + "c,e,train,d a,d a\n", 3, "2 groundtruth nodes, but the lists of line 2 have 1"},
		{"too long", h + ok + long + ok, 3, "line is longer than 1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadGroundtruth(strings.NewReader(tc.in), "gt.csv", g)
			if err == nil {
				t.Fatalf("no error, want line %d: %s", tc.line, tc.want)
			}
			var le *load.Error
			if !errors.As(err, &le) {
				t.Fatalf("error %q is a %T, not a *load.Error", err, err)
			}
			prefix := "gt.csv: "
			if tc.line > 0 {
				prefix = fmt.Sprintf("gt.csv:%d: ", tc.line)
			}
			if le.File != "gt.csv" || le.Line != tc.line || !strings.HasPrefix(err.Error(), prefix) ||
				!strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q...%q", clip(err.Error()), prefix, tc.want)
			}
			if tc.line == 0 && !errors.Is(err, load.ErrEmpty) {
				t.Errorf("error %q does not wrap load.ErrEmpty", err)
			}
		})
	}
}

// TestReadDirErrors: problems in any of the three files are *load.Errors
// naming the file's path and line, and missing files are errors naming
// them.
func TestReadDirErrors(t *testing.T) {
	write := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	with := func(name, text string) map[string]string {
		m := map[string]string{}
		for k, v := range handFiles {
			m[k] = v
		}
		if text == "" {
			delete(m, name)
		} else {
			m[name] = text
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		file  string
		line  int
		want  string
	}{
		{"no groundtruth", with(GroundtruthFile, ""), GroundtruthFile, 0, "no such file"},
		{"no features", with(FeaturesFile, ""), FeaturesFile, 0, "no such file"},
		{"no edges", with(EdgesFile, ""), EdgesFile, 0, "no such file"},
		{"bad groundtruth", with(GroundtruthFile, handFiles[GroundtruthFile]+"d,e,train,c b,iso a\n"), GroundtruthFile, 5,
			`"iso" is not a neighbour`},
		{"bad feature", with(FeaturesFile, strings.Replace(handFiles[FeaturesFile], "2.5", "2.5x", 1)), FeaturesFile, 5,
			"not a number"},
		{"bad edge", with(EdgesFile, handFiles[EdgesFile]+"e\n"), EdgesFile, 10, "field"},
		{"link not in edges", with(EdgesFile, strings.Replace(handFiles[EdgesFile], "b,d\n", "", 1)), GroundtruthFile, 3,
			"not an edge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, tc.files)
			_, err := ReadDir(dir)
			if err == nil {
				t.Fatal("no error")
			}
			var le *load.Error
			if !errors.As(err, &le) {
				t.Fatalf("error %q is a %T, not a *load.Error", err, err)
			}
			path := filepath.Join(dir, tc.file)
			where := path + ": "
			if tc.line > 0 {
				where = fmt.Sprintf("%s:%d: ", path, tc.line)
			}
			if le.File != path || le.Line != tc.line || !strings.Contains(err.Error(), where) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q...%q", err, where, tc.want)
			}
		})
	}
}

// TestReadDirIgnoresOtherGraphs: ReadDir reads the three files it wrote
// even beside files load.Path would prefer (an .npz) or trip over.
func TestReadDirIgnoresOtherGraphs(t *testing.T) {
	d := handDataset(t)
	dir := t.TempDir()
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"other.npz", "edges.tsv"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("junk"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d2, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rtSameGraph(t, d.Graph, d2.Graph)
}

// TestInFeatureOrder: the id column is read with the loader's rules
// (separators, header, comments), and nodes without a features line go
// last.
func TestInFeatureOrder(t *testing.T) {
	for _, tc := range []struct {
		name, edges, feats string
		want               []string
	}{
		{"csv header", "x,y\n1,2\n3,1\n", "# c\nid,a\n3,1\n2,0\n1,0\n", []string{"3", "2", "1"}},
		{"tab no header", "1\t2\n3\t1\n", "% c\n2\t1.5\t0\n1\t0\t1\n", []string{"2", "1", "3"}},
		{"quoted ids", "\"a,b\",c\nc,d\n", "\"c\",1\n\"a,b\",0\n", []string{"c", "a,b", "d"}},
		{"blanks", "p q\nq r\n", "  r   1\n\n p 2\n", []string{"r", "p", "q"}},
		{"header of numbers-like ids", "1,2\n", "1,x\n2,0\n", []string{"2", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := load.EdgeListReaders("g", strings.NewReader(tc.edges), "e", strings.NewReader(tc.feats), "f")
			if err != nil {
				t.Fatal(err)
			}
			h, err := inFeatureOrder(g, []byte(tc.feats))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(h.IDs, tc.want) {
				t.Fatalf("ids %q, want %q", h.IDs, tc.want)
			}
			rtSameUpToOrder(t, g, h)
		})
	}
}

// TestWriteDirDefaultIDs: a graph without ids is written with its node
// indices as ids.
func TestWriteDirDefaultIDs(t *testing.T) {
	d := handDataset(t)
	d.Graph.IDs = nil
	dir := t.TempDir()
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, GroundtruthFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(got, []byte("\n2,4,train,3 0,3 0\n")) {
		t.Errorf("groundtruth.csv:\n%s", got)
	}
}
