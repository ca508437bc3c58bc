package engine

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/graphexport"
	"ilpgnn/core/load"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
)

// chordedRing is an edge list of n nodes, each joined to the next and to
// the one step ahead (both modulo n): 2n edges, as a dropped file.
func chordedRing(n, step int) map[string][]byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "v%d v%d\nv%d v%d\n", i, (i+1)%n, i, (i+step)%n)
	}
	return map[string][]byte{"edges.txt": []byte(b.String())}
}

// exported is a graph.export reply, unzipped: the result and the files by
// their name inside the zip's one folder.
type exported struct {
	res   GraphExportResult
	files map[string][]byte
	raw   []byte
}

// exportGraph asks for graph.export with args and unzips the reply.
func exportGraph(t *testing.T, p *page, args map[string]any) exported {
	t.Helper()
	r := p.wait(p.send("graph.export", args, nil))
	if r.Type != "result" {
		t.Fatalf("graph.export %v: %+v", args, r.Error)
	}
	var out exported
	roundTrip(t, r.Result, &out.res)
	out.raw = r.Bytes
	if out.res.ZipBytes != len(r.Bytes) {
		t.Errorf("zipBytes %d, the reply carries %d", out.res.ZipBytes, len(r.Bytes))
	}
	zr, err := zip.NewReader(bytes.NewReader(r.Bytes), int64(len(r.Bytes)))
	if err != nil {
		t.Fatal(err)
	}
	folder := strings.TrimSuffix(out.res.Filename, ".zip")
	out.files = map[string][]byte{}
	for _, f := range zr.File {
		name, ok := strings.CutPrefix(f.Name, folder+"/")
		if !ok {
			t.Fatalf("zip entry %s is outside the folder %s", f.Name, folder)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out.files[name], err = io.ReadAll(rc) // checks each entry's CRC-32
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
	return out
}

// pairs parses a file of "u v" lines.
func pairs(t *testing.T, name string, b []byte) []graph.Edge {
	t.Helper()
	var out []graph.Edge
	for k, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if line == "" {
			continue
		}
		u, v, ok := strings.Cut(line, " ")
		iu, err1 := strconv.Atoi(u)
		iv, err2 := strconv.Atoi(v)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: %q is not a pair", name, k+1, line)
		}
		out = append(out, graph.Edge{U: int32(iu), V: int32(iv)})
	}
	return out
}

// maskOnes counts the ones of an int8 .npy array, after checking its
// shape is (m,).
func maskOnes(t *testing.T, name string, b []byte, m int) int {
	t.Helper()
	if len(b) < 10 || string(b[:6]) != "\x93NUMPY" {
		t.Fatalf("%s is not a .npy file", name)
	}
	hl := int(binary.LittleEndian.Uint16(b[8:10]))
	header, data := string(b[10:10+hl]), b[10+hl:]
	if !strings.Contains(header, fmt.Sprintf("'shape': (%d,)", m)) || len(data) != m {
		t.Fatalf("%s: header %q and %d values; want shape (%d,)", name, header, len(data), m)
	}
	ones := 0
	for _, x := range data {
		ones += int(x)
	}
	return ones
}

// checkExport holds an export to its graph and to want, the split made
// outside the engine: metadata.json's counts, the edge file (every edge of
// g once, u < v, then each reversed: both directions, the default), the
// split files pair for pair and the masks' counts.
func checkExport(t *testing.T, ex exported, g *graph.Graph, want *split.Split) {
	t.Helper()
	var md graphexport.Metadata
	if err := json.Unmarshal(ex.files[graphexport.MetadataFile], &md); err != nil {
		t.Fatalf("%s: %v", graphexport.MetadataFile, err)
	}
	if got := md.NumNodesPerChunk; len(got) != 1 || !slices.Equal(got[0], []int64{int64(g.NumNodes())}) {
		t.Errorf("metadata: nodes per chunk %v, want [[%d]]", got, g.NumNodes())
	}
	m := g.NumEdges()
	if got := md.NumEdgesPerChunk; len(got) != 1 || !slices.Equal(got[0], []int64{int64(2 * m)}) {
		t.Errorf("metadata: edges per chunk %v, want [[%d]]", got, 2*m)
	}
	if !slices.Equal(md.NumNodesPerType, []int64{int64(g.NumNodes())}) || !slices.Equal(md.NumEdgesPerType, []int64{int64(2 * m)}) {
		t.Errorf("metadata: %v nodes and %v edges per type, want [%d] and [%d]", md.NumNodesPerType, md.NumEdgesPerType, g.NumNodes(), 2*m)
	}
	if ex.res.Nodes != g.NumNodes() || ex.res.Edges != g.NumEdges() {
		t.Errorf("result: %d nodes, %d edges; want %d, %d", ex.res.Nodes, ex.res.Edges, g.NumNodes(), g.NumEdges())
	}
	edges := pairs(t, graphexport.EdgesFile, ex.files[graphexport.EdgesFile])
	if len(edges) != 2*m {
		t.Fatalf("%s has %d lines; the graph has %d edges, both ways %d", graphexport.EdgesFile, len(edges), m, 2*m)
	}
	for k, e := range edges[m:] {
		if f := edges[k]; e != (graph.Edge{U: f.V, V: f.U}) {
			t.Fatalf("%s: line %d is %v, not line %d's %v reversed", graphexport.EdgesFile, m+k+1, e, k+1, f)
		}
	}
	edges = edges[:m]
	seen := map[graph.Edge]bool{}
	for _, e := range edges {
		if e.U >= e.V || !g.HasEdge(int(e.U), int(e.V)) || seen[e] {
			t.Fatalf("%s: (%d, %d) is not an edge u < v of the graph, once", graphexport.EdgesFile, e.U, e.V)
		}
		seen[e] = true
	}
	if len(edges) != g.NumEdges() {
		t.Errorf("%s has %d lines; the graph has %d edges", graphexport.EdgesFile, len(edges), g.NumEdges())
	}
	sets := map[string][]graph.Edge{"train_pos": want.TrainPos, "val_pos": want.ValPos, "val_neg": want.ValNeg, "test_pos": want.TestPos, "test_neg": want.TestNeg}
	for set, wantPairs := range sets {
		name := graphexport.SplitFiles[set]
		if got := pairs(t, name, ex.files[name]); !slices.Equal(got, wantPairs) {
			t.Errorf("%s: %d pairs differ from the split's %d", name, len(got), len(wantPairs))
		}
	}
	for mask, set := range map[string]string{"train_mask": "train_pos", "val_mask": "val_pos", "test_mask": "test_pos"} {
		name := graphexport.MaskFiles[mask]
		if got := maskOnes(t, name, ex.files[name], 2*m); got != 2*len(sets[set]) {
			t.Errorf("%s marks %d edge lines; the split has %d %s, both ways %d", name, got, len(sets[set]), set, 2*len(sets[set]))
		}
	}
}

// TestGraphExport exports a loaded edge list and a synthetic graph and
// checks every count and split file against the graph and the split made
// outside the engine (load.Bytes, split.New and the dataset's own split):
// train's defaults without a model, the model's seed and shares with one,
// and the same bytes for the same request.
func TestGraphExport(t *testing.T) {
	p := newPage(t, nil)
	if e := p.callErr("graph.export", map[string]any{"format": "dgl"}, nil); e.Code != CodeNoGraph {
		t.Errorf("without a graph: %+v", e)
	}
	files := chordedRing(60, 7)
	if r := p.wait(p.send("load", map[string]any{"name": "ring"}, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	g, err := load.Bytes(files)
	if err != nil {
		t.Fatal(err)
	}
	var defs DefaultsResult
	p.call("defaults", nil, &defs)
	shares := map[string]string{}
	for _, h := range defs.Hyperparameters {
		shares[h.Name] = fmt.Sprint(h.Value)
	}
	if shares["val-frac"] != fmt.Sprint(split.DefaultValFrac) || shares["test-frac"] != fmt.Sprint(split.DefaultTestFrac) {
		t.Fatalf("train's default shares are %s and %s, not split's defaults", shares["val-frac"], shares["test-frac"])
	}

	ex := exportGraph(t, p, map[string]any{"format": "dgl", "seed": 4})
	want, err := split.New(g, 4, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	checkExport(t, ex, g, want)
	if ex.res.Filename != "ilpgnn-dgl-ring-seed4.zip" || ex.res.Seed != 4 || ex.res.ValFrac != split.DefaultValFrac || ex.res.TestFrac != split.DefaultTestFrac {
		t.Errorf("result %+v", ex.res)
	}
	if again := exportGraph(t, p, map[string]any{"format": "dgl", "seed": 4}); !bytes.Equal(again.raw, ex.raw) {
		t.Error("a second export of the same graph and seed differs")
	}

	// With a model: its seed and shares, as train made its split.
	trained(t, p, map[string]any{"seed": 9, "config": map[string]any{"epochs": 1, "val-frac": 0.2, "test-frac": 0.15}})
	ex = exportGraph(t, p, map[string]any{"format": "dgl"})
	if want, err = split.New(g, 9, 0.2, 0.15); err != nil {
		t.Fatal(err)
	}
	checkExport(t, ex, g, want)
	if ex.res.Seed != 9 || ex.res.ValFrac != 0.2 || ex.res.TestFrac != 0.15 {
		t.Errorf("with a model trained on seed 9, shares 0.2 and 0.15: result %+v", ex.res)
	}

	// A synthetic graph: its own split and its groundtruth, as the files
	// `ilpgnn synth` writes give them to train.
	_, synthFiles := smallSynth(t)
	if r := p.wait(p.send("load", nil, synthFiles)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	d, err := synth.ReadFiles("synthetic", synthFiles)
	if err != nil {
		t.Fatal(err)
	}
	ex = exportGraph(t, p, map[string]any{"format": "dgl", "seed": 2})
	sp, err := d.Split(2)
	if err != nil {
		t.Fatal(err)
	}
	checkExport(t, ex, d.Graph, sp)
	if lines := bytes.Count(ex.files[graphexport.GroundtruthFile], []byte("\n")); lines != len(d.Links) {
		t.Errorf("%s has %d lines for %d explained links", graphexport.GroundtruthFile, lines, len(d.Links))
	}
	if ex.res.ValFrac != 0 || ex.res.TestFrac != 0 {
		t.Errorf("a synthetic graph's own split reports shares %g and %g", ex.res.ValFrac, ex.res.TestFrac)
	}
}

func TestGraphExportErrors(t *testing.T) {
	p := newPage(t, nil)
	if r := p.wait(p.send("load", nil, chordedRing(30, 4))); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, `format ""`},
		{map[string]any{"format": "csv"}, `format "csv"`},
		{map[string]any{"format": "dgl", "valFrac": 0.6, "testFrac": 0.5}, "sum below 1"},
	} {
		if e := p.callErr("graph.export", c.args, nil); e.Code != CodeBadRequest || !strings.Contains(e.Message, c.want) {
			t.Errorf("%v: %+v, want bad_request saying %q", c.args, e, c.want)
		}
	}
	_, synthFiles := smallSynth(t)
	if r := p.wait(p.send("load", nil, synthFiles)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	if e := p.callErr("graph.export", map[string]any{"format": "dgl", "valFrac": 0.2}, nil); e.Code != CodeBadRequest || !strings.Contains(e.Message, "its own split") {
		t.Errorf("shares for a synthetic graph: %+v", e)
	}
}

// TestLoadKarate loads Zachary's karate club as the page sends a dropped
// file (its name and bytes) in each format core/load reads it from:
// GraphML, GEXF and node-link JSON as networkx writes them, and
// graphology's JSON. Each is the club's 34 members and 78 friendships,
// with one feature (the club a member joined), the same graph whatever the
// format, its instructor n0 and president n33 of degrees 16 and 17.
func TestLoadKarate(t *testing.T) {
	p := newPage(t, nil)
	var fingerprint string
	for _, name := range []string{"karate.graphml", "karate.gexf", "karate.nodelink.json", "karate.graphology.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "core", "load", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		r := p.wait(p.send("load", nil, map[string][]byte{name: b}))
		if r.Type != "result" {
			t.Fatalf("%s: %+v", name, r.Error)
		}
		var info GraphInfo
		roundTrip(t, r.Result, &info)
		if info.Nodes != 34 || info.Edges != 78 || info.FeatureDim != 1 || info.MadeUpFeatures != "" {
			t.Errorf("%s: %d nodes, %d edges, %d features (made up: %q); want 34, 78, 1 of the file's", name, info.Nodes, info.Edges, info.FeatureDim, info.MadeUpFeatures)
		}
		if fingerprint == "" {
			fingerprint = info.Fingerprint
		} else if info.Fingerprint != fingerprint {
			t.Errorf("%s: fingerprint %s, the GraphML's %s: not the same graph", name, info.Fingerprint, fingerprint)
		}
		var desc Description
		p.call("describe", nil, &desc)
		for id, degree := range map[string]int{"n0": 16, "n33": 17} {
			if k := slices.Index(desc.IDs, id); k < 0 || desc.Degrees[k] != degree {
				t.Errorf("%s: %s at %d, want degree %d (degrees %v)", name, id, k, degree, desc.Degrees)
			}
		}
	}
}
