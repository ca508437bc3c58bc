package graphexport

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"

	"ilpgnn/core/dataset"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
)

// datasets finds shared/datasets as the other packages' tests do, or
// skips.
func datasets(t *testing.T) string {
	if d := os.Getenv("ILPGNN_DATASETS"); d != "" {
		return d
	}
	dir, _ := os.Getwd()
	for dir != "" {
		cand := filepath.Join(dir, "shared", "datasets")
		if _, err := os.Stat(filepath.Join(cand, "cora")); err == nil {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	t.Skip("shared/datasets not found (set ILPGNN_DATASETS)")
	return ""
}

// TestCoraRoundTrip exports Cora as train loads it and reads every file
// back with readers of its own (npyio for the arrays): the counts are
// Cora's (2708 nodes, 5278 edges, 1433 features, 7 classes), every edge of
// the graph is in the edge file once, the features and labels equal the
// graph's, and the split files equal split.New's for the same seed.
func TestCoraRoundTrip(t *testing.T) {
	path := filepath.Join(datasets(t), "cora")
	src, err := dataset.Parse(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(0)
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graph
	const seed = 3
	sp, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m, err := Write(dir, Export{Graph: g, Split: sp, Source: path, Seed: seed, ValFrac: split.DefaultValFrac, TestFrac: split.DefaultTestFrac})
	if err != nil {
		t.Fatal(err)
	}
	if m.Nodes != 2708 || m.Edges != 5278 || m.FeatureDim != 1433 || len(m.ClassNames) != 7 {
		t.Errorf("manifest counts %d nodes, %d edges, %d features, %d classes; Cora has 2708, 5278, 1433, 7",
			m.Nodes, m.Edges, m.FeatureDim, len(m.ClassNames))
	}
	checkMetadata(t, dir, g, true, true)
	checkEdges(t, dir, g, true)
	checkFeatures(t, dir, g)
	checkLabels(t, dir, g)
	checkIDs(t, dir, g)
	// The oracle: split.New itself, called afresh with train's shares.
	want, err := split.New(g, seed, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	checkSplit(t, dir, g, want)
	if _, err := os.Stat(filepath.Join(dir, GroundtruthFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Cora has no groundtruth, but %s: %v", GroundtruthFile, err)
	}
	var got Manifest
	readJSON(t, filepath.Join(dir, ManifestFile), &got)
	if !reflect.DeepEqual(&got, m) {
		t.Errorf("%s = %+v, Write returned %+v", ManifestFile, got, *m)
	}
}

// TestSynthRoundTrip exports a small synthetic graph: its split is the
// generator's and its groundtruth file holds every explained link, in
// order, with both why lists.
func TestSynthRoundTrip(t *testing.T) {
	cfg := synth.DefaultConfig()
	cfg.Nodes, cfg.Edges, cfg.FeatureDim, cfg.Groups = 150, 600, 12, 5
	const seed = 7
	d, err := synth.Generate(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(seed)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m, err := Write(dir, Export{Graph: d.Graph, Split: sp, Links: d.Links, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graph
	checkMetadata(t, dir, g, true, true)
	checkEdges(t, dir, g, true)
	checkFeatures(t, dir, g)
	checkLabels(t, dir, g)
	checkIDs(t, dir, g)
	want, err := d.Split(seed) // afresh: the same seed draws the same negatives
	if err != nil {
		t.Fatal(err)
	}
	checkSplit(t, dir, g, want)

	if m.Groundtruth == nil || m.Groundtruth.Count != len(d.Links) || m.KGT != cfg.KGT || m.SplitOrigin != OriginGenerator {
		t.Errorf("manifest groundtruth %+v, K_gt %d, origin %q; want %d links, K_gt %d, the generator's split",
			m.Groundtruth, m.KGT, m.SplitOrigin, len(d.Links), cfg.KGT)
	}
	lines := readLines(t, filepath.Join(dir, GroundtruthFile))
	if len(lines) != len(d.Links) {
		t.Fatalf("%d groundtruth lines for %d links", len(lines), len(d.Links))
	}
	for k, line := range lines {
		var got GroundtruthLine
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d: %v", k+1, err)
		}
		l := d.Links[k]
		want := GroundtruthLine{U: l.Edge.U, V: l.Edge.V, Role: l.Role.String(), WhyU: l.WhyU, WhyV: l.WhyV}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("line %d: %+v, want %+v", k+1, got, want)
		}
	}
}

// TestWriteReplaces writes a graph without labels or groundtruth over a
// synthetic graph's export: the old labels and groundtruth go.
func TestWriteReplaces(t *testing.T) {
	cfg := synth.DefaultConfig()
	cfg.Nodes, cfg.Edges, cfg.FeatureDim, cfg.Groups = 40, 100, 4, 2
	d, err := synth.Generate(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Write(dir, Export{Graph: d.Graph, Split: sp, Links: d.Links}); err != nil {
		t.Fatal(err)
	}
	ring := graphOf(t, 4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 0, V: 3}}, nil)
	if _, err := Write(dir, Export{Graph: ring, Split: &split.Split{TrainPos: ring.Edges()}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{LabelFile, GroundtruthFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left from the earlier export (%v)", name, err)
		}
	}
	checkMetadata(t, dir, ring, false, true)
	checkEdges(t, dir, ring, true)
}

func TestWriteRefuses(t *testing.T) {
	path := graphOf(t, 4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 0, V: 3}}, nil)
	sp := &split.Split{TrainPos: path.Edges()}
	huge := graphOf(t, 4, path.Edges(), nil)
	huge.Features = &f32.CSR{Rows: 4, Cols: 1<<28 + 1, Indptr: make([]int32, 5)} // 4·(2²⁸+1)·4 bytes: 4 GiB + 16
	newline := graphOf(t, 4, path.Edges(), []string{"a", "b\nc", "d", "e"})
	for k, tc := range []struct {
		g    *graph.Graph
		sp   *split.Split
		want string
	}{
		0: {huge, sp, "4.0 GiB written dense, above the 4.0 GiB limit"},
		1: {newline, sp, `node 1's id "b\nc" holds a line break`},
		2: {path, &split.Split{TrainPos: path.Edges()[1:]}, "edge (0, 1) is in no set of the split"},
		3: {path, &split.Split{TrainPos: path.Edges(), TestPos: path.Edges()[:1]}, "edge (0, 1) is in two sets"},
		4: {path, &split.Split{TrainPos: []graph.Edge{{U: 0, V: 2}}}, "pair (0, 2) is not an edge"},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		_, err := Write(dir, Export{Graph: tc.g, Split: tc.sp})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d: error %v, want one containing %q", k, err, tc.want)
		}
		if _, statErr := os.Stat(dir); !errors.Is(statErr, os.ErrNotExist) {
			t.Errorf("%d: refused, but wrote %s (%v)", k, dir, statErr)
		}
	}
	// The limit itself is written; one column more is refused.
	at := graphOf(t, 4, path.Edges(), nil)
	at.Features = &f32.CSR{Rows: 4, Cols: 1 << 28, Indptr: make([]int32, 5)}
	if err := check(at); err != nil {
		t.Errorf("4 GiB of features refused: %v", err)
	}
	if err := check(huge); !errors.Is(err, ErrTooLarge) {
		t.Errorf("4 GiB + 16 bytes of features: %v, want ErrTooLarge", err)
	}
}

// TestNPYHeader checks the header against numpy's format rules: the data
// starts at a multiple of 64, the header ends in '\n', and npyio reads
// the dtype and shape back.
func TestNPYHeader(t *testing.T) {
	for k, tc := range []struct {
		descr string
		shape []int
	}{
		0: {"<f4", []int{2708, 1433}},
		1: {"<i8", []int{7}},
		2: {"|i1", []int{0}},
		3: {"<f4", []int{123456789, 1}},
	} {
		h := NPYHeader(tc.descr, tc.shape...)
		if len(h)%64 != 0 || h[len(h)-1] != '\n' {
			t.Errorf("%d: header of %d bytes ending in %q", k, len(h), h[len(h)-1])
		}
		r, err := npy.NewReader(strings.NewReader(string(h)))
		if err != nil {
			t.Fatalf("%d: %v", k, err)
		}
		if r.Header.Descr.Type != tc.descr || r.Header.Descr.Fortran || !reflect.DeepEqual(r.Header.Descr.Shape, tc.shape) {
			t.Errorf("%d: read back %+v, want %s %v", k, r.Header.Descr, tc.descr, tc.shape)
		}
	}
}

func TestGraphName(t *testing.T) {
	for in, want := range map[string]string{
		"cora": "cora", "synth:medium:seed=0": "synth_medium_seed_0", "": "graph", "a b/é": "a_b___",
	} {
		if got := GraphName(in); got != want {
			t.Errorf("GraphName(%q) = %q, want %q", in, got, want)
		}
	}
}

// graphOf builds a graph or fails the test.
func graphOf(t *testing.T, n int, edges []graph.Edge, ids []string) *graph.Graph {
	t.Helper()
	g, err := graph.New(n, edges, nil, ids)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// checkMetadata reads metadata.json as plain JSON, not through Metadata,
// and checks DGL's keys; both says whether the edge file holds each edge
// both ways.
func checkMetadata(t *testing.T, dir string, g *graph.Graph, labels, both bool) {
	t.Helper()
	var md map[string]any
	readJSON(t, filepath.Join(dir, MetadataFile), &md)
	numpy := func(file string) any {
		return map[string]any{"format": map[string]any{"name": "numpy"}, "data": []any{file}}
	}
	nodeData := map[string]any{"feat": numpy("node_data/feat-0.npy")}
	if labels {
		nodeData["label"] = numpy("node_data/label-0.npy")
	}
	m := float64(g.NumEdges())
	if both {
		m *= 2
	}
	want := map[string]any{
		"graph_name":          GraphName(g.Name),
		"node_type":           []any{"_N"},
		"num_nodes_per_type":  []any{float64(g.NumNodes())},
		"num_nodes_per_chunk": []any{[]any{float64(g.NumNodes())}},
		"edge_type":           []any{"_N:_E:_N"},
		"num_edges_per_type":  []any{m},
		"num_edges_per_chunk": []any{[]any{m}},
		"edges": map[string]any{"_N:_E:_N": map[string]any{
			"format": map[string]any{"name": "csv", "delimiter": " "},
			"data":   []any{"edges/_E0.txt"},
		}},
		"node_data": map[string]any{"_N": nodeData},
		"edge_data": map[string]any{"_N:_E:_N": map[string]any{
			"train_mask": numpy("edge_data/train_mask-0.npy"),
			"val_mask":   numpy("edge_data/val_mask-0.npy"),
			"test_mask":  numpy("edge_data/test_mask-0.npy"),
		}},
	}
	if !reflect.DeepEqual(md, want) {
		t.Errorf("metadata.json:\n%v\nwant\n%v", md, want)
	}
}

// checkEdges checks that the edge file holds every edge of g once, u < v,
// then, when both, each of those lines reversed in the same order.
func checkEdges(t *testing.T, dir string, g *graph.Graph, both bool) {
	t.Helper()
	checkEdgeLines(t, EdgesFile, readPairs(t, filepath.Join(dir, EdgesFile)), g, both)
}

// checkEdgeLines checks edges, the lines of file, as checkEdges does.
func checkEdgeLines(t *testing.T, file string, edges []graph.Edge, g *graph.Graph, both bool) {
	t.Helper()
	if both {
		m := len(edges) / 2
		if 2*m != len(edges) {
			t.Fatalf("%s: %d lines, odd for both directions", file, len(edges))
		}
		for k, e := range edges[m:] {
			if f := edges[k]; e != (graph.Edge{U: f.V, V: f.U}) {
				t.Fatalf("%s: line %d is %v, not line %d's %v reversed", file, m+k+1, e, k+1, f)
			}
		}
		edges = edges[:m]
	}
	seen := map[graph.Edge]bool{}
	for k, e := range edges {
		switch {
		case e.U >= e.V:
			t.Fatalf("edge line %d: %d %d, want u < v", k+1, e.U, e.V)
		case !g.HasEdge(int(e.U), int(e.V)):
			t.Fatalf("edge line %d: %d %d is not an edge of the graph", k+1, e.U, e.V)
		case seen[e]:
			t.Fatalf("edge line %d: %d %d written twice", k+1, e.U, e.V)
		}
		seen[e] = true
	}
	if len(edges) != g.NumEdges() { // distinct edges of g, as many as g has: all of them
		t.Errorf("%d edges written, the graph has %d", len(edges), g.NumEdges())
	}
}

// checkFeatures reads feat-0.npy with npyio and compares every value
// with the graph's sparse features.
func checkFeatures(t *testing.T, dir string, g *graph.Graph) {
	t.Helper()
	n, d := g.NumNodes(), g.FeatureDim()
	shape, got := readNPY[float32](t, filepath.Join(dir, FeatFile), "<f4")
	if !reflect.DeepEqual(shape, []int{n, d}) {
		t.Fatalf("features of shape %v, want [%d %d]", shape, n, d)
	}
	nonzero := 0
	for i := range n {
		cols, vals := g.Features.Row(i)
		k := 0
		for j := range d {
			want := float32(0)
			if k < len(cols) && int(cols[k]) == j {
				want, k = vals[k], k+1
			}
			if got[i*d+j] != want {
				t.Fatalf("feature (%d, %d) = %g, want %g", i, j, got[i*d+j], want)
			}
			if want != 0 {
				nonzero++
			}
		}
	}
	if nonzero == 0 {
		t.Fatal("no nonzero feature compared")
	}
}

func checkLabels(t *testing.T, dir string, g *graph.Graph) {
	t.Helper()
	shape, got := readNPY[int64](t, filepath.Join(dir, LabelFile), "<i8")
	if !reflect.DeepEqual(shape, []int{g.NumNodes()}) {
		t.Fatalf("labels of shape %v, want [%d]", shape, g.NumNodes())
	}
	for i, l := range g.Labels {
		if got[i] != int64(l) {
			t.Fatalf("label %d = %d, want %d", i, got[i], l)
		}
	}
}

func checkIDs(t *testing.T, dir string, g *graph.Graph) {
	t.Helper()
	if got := readLines(t, filepath.Join(dir, NodeIDsFile)); !reflect.DeepEqual(got, g.IDs) {
		t.Errorf("node_ids.txt holds %d ids, not the graph's %d in order", len(got), len(g.IDs))
	}
}

// checkSplit compares the split files with want element for element, and
// the edge masks with the positives.
func checkSplit(t *testing.T, dir string, g *graph.Graph, want *split.Split) {
	t.Helper()
	sets := map[string][]graph.Edge{
		"train_pos": want.TrainPos, "val_pos": want.ValPos, "val_neg": want.ValNeg,
		"test_pos": want.TestPos, "test_neg": want.TestNeg,
	}
	for set, pairs := range sets {
		got := readPairs(t, filepath.Join(dir, SplitFiles[set]))
		if !reflect.DeepEqual(got, pairs) {
			t.Errorf("%s: %d pairs differ from the split's %d", set, len(got), len(pairs))
		}
	}
	edges := readPairs(t, filepath.Join(dir, EdgesFile))
	for mask, set := range map[string]string{"train_mask": "train_pos", "val_mask": "val_pos", "test_mask": "test_pos"} {
		in := map[graph.Edge]bool{}
		for _, e := range sets[set] {
			in[e] = true
		}
		shape, got := readNPY[int8](t, filepath.Join(dir, MaskFiles[mask]), "|i1")
		if !reflect.DeepEqual(shape, []int{len(edges)}) {
			t.Fatalf("%s of shape %v for %d edges", mask, shape, len(edges))
		}
		for k, e := range edges {
			if (got[k] == 1) != in[graph.Edge{U: min(e.U, e.V), V: max(e.U, e.V)}] || got[k] > 1 {
				t.Fatalf("%s[%d] = %d for edge %v, in %s: %v", mask, k, got[k], e, set, in[e])
			}
		}
	}
}

// readNPY reads a .npy file with npyio, checking its dtype.
func readNPY[T any](t *testing.T, path, descr string) ([]int, []T) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := npy.NewReader(bufio.NewReader(f))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if r.Header.Descr.Type != descr || r.Header.Descr.Fortran {
		t.Fatalf("%s: dtype %q (fortran %v), want %q", path, r.Header.Descr.Type, r.Header.Descr.Fortran, descr)
	}
	var data []T
	if err := r.Read(&data); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r.Header.Descr.Shape, data
}

// readPairs reads "u v" lines.
func readPairs(t *testing.T, path string) []graph.Edge {
	t.Helper()
	out := []graph.Edge{}
	for k, line := range readLines(t, path) {
		f := strings.Split(line, " ")
		if len(f) != 2 {
			t.Fatalf("%s:%d: %q is not \"u v\"", path, k+1, line)
		}
		u, err1 := strconv.ParseInt(f[0], 10, 32)
		v, err2 := strconv.ParseInt(f[1], 10, 32)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: %q", path, k+1, line)
		}
		out = append(out, graph.Edge{U: int32(u), V: int32(v)})
	}
	return out
}

// readLines returns the lines of a file that ends each line with '\n'.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if s == "" {
		return []string{}
	}
	if !strings.HasSuffix(s, "\n") {
		t.Fatalf("%s does not end with a newline", path)
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
