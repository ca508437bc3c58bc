package graphexport

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
)

// exportSynth writes a small synthetic graph (with labels and a split of
// its own) in format f and returns the folder, the export and its
// manifest.
func exportSynth(t *testing.T, f Format, oneWay bool) (string, Export, *Manifest) {
	t.Helper()
	cfg := synth.DefaultConfig()
	cfg.Nodes, cfg.Edges, cfg.FeatureDim, cfg.Groups = 90, 300, 9, 3
	d, err := synth.Generate(cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(5)
	if err != nil {
		t.Fatal(err)
	}
	e := Export{Graph: d.Graph, Split: sp, Links: d.Links, Seed: 5, Format: f, OneDirection: oneWay}
	dir := t.TempDir()
	m, err := Write(dir, e)
	if err != nil {
		t.Fatal(err)
	}
	return dir, e, m
}

// TestDGLToolKeys reads metadata.json as DGL's tools and GraphStorm's
// GSPartition read it (dmlc/dgl tools/ at 3d16000b, awslabs/graphstorm at
// 42482da): every key they read is present and holds what they expect of
// it. Each check names the lines that read its key.
func TestDGLToolKeys(t *testing.T) {
	for _, oneWay := range []bool{false, true} {
		dir, e, _ := exportSynth(t, FormatDGL, oneWay)
		g := e.Graph
		lines := g.NumEdges()
		if !oneWay {
			lines *= 2
		}
		var md map[string]any
		readJSON(t, filepath.Join(dir, MetadataFile), &md)
		get := func(path ...string) any {
			t.Helper()
			var v any = md
			for _, k := range path {
				m, ok := v.(map[string]any)
				if !ok || m[k] == nil {
					t.Fatalf("metadata.json has no %s", strings.Join(path, "."))
				}
				v = m[k]
			}
			return v
		}
		sum := func(v any) int {
			total := 0
			for _, x := range v.([]any) {
				total += int(x.(float64))
			}
			return total
		}
		// tools/partition_algo/random_partition.py:14–15 and GraphStorm's
		// gpartition/random_partition.py:46–47 zip node_type with
		// num_nodes_per_type and draw one partition per node;
		// parmetis_preprocess.py:89–93 and parmetis_postprocess.py:56–60
		// read the same pair.
		if nt, n := get("node_type").([]any), get("num_nodes_per_type").([]any); len(nt) != 1 || nt[0] != NodeType || len(n) != 1 || int(n[0].(float64)) != g.NumNodes() {
			t.Errorf("node_type %v with num_nodes_per_type %v, want [%s] with [%d]", nt, n, NodeType, g.NumNodes())
		}
		// distpartitioning/data_shuffle.py:1326–1327 and
		// parmetis_preprocess.py:311–312 sum the per-type counts.
		if got := sum(get("num_edges_per_type")); got != lines {
			t.Errorf("num_edges_per_type sums to %d, the edge file has %d lines", got, lines)
		}
		// dataset_utils.py:218–219 reads num_nodes_per_chunk per node type.
		chunks := get("num_nodes_per_chunk").([]any)
		if len(chunks) != 1 || sum(chunks[0]) != g.NumNodes() {
			t.Errorf("num_nodes_per_chunk %v, want one type of %d nodes", chunks, g.NumNodes())
		}
		if ec := get("num_edges_per_chunk").([]any); len(ec) != 1 || sum(ec[0]) != lines {
			t.Errorf("num_edges_per_chunk %v, want one type of %d edges", ec, lines)
		}
		// dataset_utils.py:491 and data_shuffle.py:1170 read edge_type;
		// dataset_utils.py:513–514 split each on ':' into three tokens.
		if et := get("edge_type").([]any); len(et) != 1 || len(strings.Split(et[0].(string), ":")) != 3 {
			t.Errorf("edge_type %v, want one canonical src:relation:dst", et)
		}
		// parmetis_preprocess.py:305–307 and dispatch_data.py:44 read
		// graph_name; partitions take it as a file name.
		if name := get("graph_name").(string); name != GraphName(g.Name) {
			t.Errorf("graph_name %q", name)
		}
		// dataset_utils.py:497–510 and parmetis_preprocess.py:99–148 read
		// edges[etype].data and .format.name (csv, with the delimiter that
		// dataset_utils.py:550 fixes to a space).
		if f := get("edges", EdgeType, "format").(map[string]any); f["name"] != "csv" || f["delimiter"] != " " {
			t.Errorf("edges format %v, want csv with a space", f)
		}
		edgeFile := get("edges", EdgeType, "data").([]any)[0].(string)
		if got := len(readPairs(t, filepath.Join(dir, edgeFile))); got != lines {
			t.Errorf("%s has %d lines, metadata says %d", edgeFile, got, lines)
		}
		// dataset_utils.py:232–252 (node data) and 368–386 (edge data)
		// read format.name (numpy or parquet) and data, a file per chunk,
		// whose rows must be the chunk's nodes or edges.
		for _, c := range []struct {
			path []string
			rows int
		}{
			{[]string{"node_data", NodeType, "feat"}, g.NumNodes()},
			{[]string{"node_data", NodeType, "label"}, g.NumNodes()},
			{[]string{"edge_data", EdgeType, "train_mask"}, lines},
			{[]string{"edge_data", EdgeType, "val_mask"}, lines},
			{[]string{"edge_data", EdgeType, "test_mask"}, lines},
		} {
			spec := get(c.path...).(map[string]any)
			if spec["format"].(map[string]any)["name"] != "numpy" {
				t.Errorf("%v: format %v, want numpy", c.path, spec["format"])
			}
			file := spec["data"].([]any)[0].(string)
			var shape []int
			switch c.path[2] {
			case "feat":
				shape, _ = readNPY[float32](t, filepath.Join(dir, file), "<f4")
			case "label":
				shape, _ = readNPY[int64](t, filepath.Join(dir, file), "<i8")
			default:
				shape, _ = readNPY[int8](t, filepath.Join(dir, file), "|i1")
			}
			if shape[0] != c.rows {
				t.Errorf("%s: %d rows, want %d", file, shape[0], c.rows)
			}
		}
		checkEdges(t, dir, g, !oneWay)
		checkSplit(t, dir, g, e.Split)
	}
}

// TestGConstructRoundTrip reads a gconstruct export as GraphStorm's
// construct_graph reads it (awslabs/graphstorm python/graphstorm/gconstruct
// at 42482da): the configuration's keys, the tables through a CSV reader
// with their headers, the features split on the feature's separator, and
// the custom split matched against the edge table's (src, dst) pairs as
// CustomLabelProcessor.data_split matches them.
func TestGConstructRoundTrip(t *testing.T) {
	dir, e, m := exportSynth(t, FormatGConstruct, false)
	g := e.Graph
	if m.Directions != "once" || m.EdgeLines != g.NumEdges() || m.Format != "graphstorm-gconstruct" {
		t.Errorf("manifest: %s, %q, %d edge lines; want graphstorm-gconstruct once, %d", m.Format, m.Directions, m.EdgeLines, g.NumEdges())
	}
	var conf map[string]any
	readJSON(t, filepath.Join(dir, GConstructFile), &conf)
	// construct_graph.py:1171–1177 reads version.
	if conf["version"] != "gconstruct-v0.1" {
		t.Errorf("version %v", conf["version"])
	}
	node := conf["nodes"].([]any)[0].(map[string]any)
	// construct_graph.py:570–583 reads node_type, files, format (whose name
	// and separator file_io.py:495–502 read) and node_id_col.
	if node["node_type"] != GConstructNodeType || node["node_id_col"] != "nid" {
		t.Errorf("node entry %v", node)
	}
	nodeFmt := node["format"].(map[string]any)
	if nodeFmt["name"] != "csv" || nodeFmt["separator"] != "," {
		t.Errorf("node format %v", nodeFmt)
	}
	// transform.py:1578–1597 reads feature_col, feature_name, out_dtype
	// (transform.py:198–208: float32) and separator, which Noop
	// (transform.py:1132–1147) splits each field on.
	feat := node["features"].([]any)[0].(map[string]any)
	sep, _ := feat["separator"].(string)
	if feat["feature_col"] != "feat" || feat["out_dtype"] != "float32" || sep == "" {
		t.Errorf("feature %v", feat)
	}
	nodes := readCSV(t, filepath.Join(dir, node["files"].([]any)[0].(string)))
	if want := []string{"nid", "feat", "label"}; !reflect.DeepEqual(nodes[0], want) {
		t.Fatalf("nodes header %v, want %v", nodes[0], want)
	}
	if len(nodes) != g.NumNodes()+1 {
		t.Fatalf("%d node rows, want %d", len(nodes)-1, g.NumNodes())
	}
	d := g.FeatureDim()
	for i, row := range nodes[1:] {
		if row[0] != strconv.Itoa(i) || row[2] != strconv.Itoa(int(g.Labels[i])) {
			t.Fatalf("node row %d: %v", i, row)
		}
		vals := strings.Split(row[1], sep)
		if len(vals) != d {
			t.Fatalf("node %d: %d features, want %d", i, len(vals), d)
		}
		want := make([]float32, d)
		cols, fv := g.Features.Row(i)
		for k, c := range cols {
			want[c] = fv[k]
		}
		for j, s := range vals {
			v, err := strconv.ParseFloat(s, 32)
			if err != nil || float32(v) != want[j] {
				t.Fatalf("node %d feature %d: %q, want %g", i, j, s, want[j])
			}
		}
	}
	edge := conf["edges"].([]any)[0].(map[string]any)
	// construct_graph.py:806 reads relation, 232–233 source_id_col and
	// dest_id_col.
	if rel := edge["relation"].([]any); len(rel) != 3 || rel[0] != GConstructNodeType || rel[2] != GConstructNodeType {
		t.Errorf("relation %v", rel)
	}
	rows := readCSV(t, filepath.Join(dir, edge["files"].([]any)[0].(string)))
	src, dst := column(t, rows[0], edge["source_id_col"].(string)), column(t, rows[0], edge["dest_id_col"].(string))
	var edges []graph.Edge
	for _, r := range rows[1:] {
		u, _ := strconv.Atoi(r[src])
		v, _ := strconv.Atoi(r[dst])
		edges = append(edges, graph.Edge{U: int32(u), V: int32(v)})
	}
	checkEdgeLines(t, "edges.csv", edges, g, false)
	// transform.py:2321–2345 reads task_type and custom_split_filenames;
	// file_io.py:53–70 reads train, valid and test as JSON lines, each a
	// list made a tuple (file_io.py:146–153).
	label := edge["labels"].([]any)[0].(map[string]any)
	if label["task_type"] != "link_prediction" {
		t.Errorf("task_type %v", label["task_type"])
	}
	files := label["custom_split_filenames"].(map[string]any)
	mask := map[graph.Edge]string{}
	for set, want := range map[string][]graph.Edge{"train": e.Split.TrainPos, "valid": e.Split.ValPos, "test": e.Split.TestPos} {
		got := readJSONPairs(t, filepath.Join(dir, files[set].(string)))
		if len(got) != len(want) {
			t.Fatalf("%s: %d pairs, want %d", set, len(got), len(want))
		}
		for k, p := range got {
			if w := want[k]; p != (graph.Edge{U: min(w.U, w.V), V: max(w.U, w.V)}) {
				t.Fatalf("%s pair %d: %v, want %v", set, k, p, w)
			}
			mask[p] = set
		}
	}
	// data_split (transform.py:2036–2046) sets an edge's mask when its
	// (src, dst) is in a set: every edge must land in exactly one.
	for _, e := range edges {
		if mask[e] == "" {
			t.Fatalf("edge %v is in no set of the custom split", e)
		}
	}
	if len(mask) != len(edges) {
		t.Errorf("the split names %d pairs, the edge table has %d", len(mask), len(edges))
	}
	for set, file := range map[string]string{"val_neg": GConstructSplitFiles["val_neg"], "test_neg": GConstructSplitFiles["test_neg"]} {
		want := map[string][]graph.Edge{"val_neg": e.Split.ValNeg, "test_neg": e.Split.TestNeg}[set]
		if got := readJSONPairs(t, filepath.Join(dir, file)); len(got) != len(want) {
			t.Errorf("%s: %d pairs, want %d", set, len(got), len(want))
		}
	}
	checkIDs(t, dir, g)
}

// TestPyGRoundTrip reads a PyG export: x, y, edge_index in PyG's (2, E)
// layout holding every edge both ways (what
// torch_geometric.utils.is_undirected asks), or once with OneDirection,
// and the split's pairs.
func TestPyGRoundTrip(t *testing.T) {
	for _, oneWay := range []bool{false, true} {
		dir, e, m := exportSynth(t, FormatPyG, oneWay)
		g := e.Graph
		shape, ei := readNPY[int64](t, filepath.Join(dir, PyGEdgeIndexFile), "<i8")
		lines := g.NumEdges()
		if !oneWay {
			lines *= 2
		}
		if !reflect.DeepEqual(shape, []int{2, lines}) || m.EdgeLines != lines {
			t.Fatalf("edge_index of shape %v (manifest %d), want [2 %d]", shape, m.EdgeLines, lines)
		}
		edges := make([]graph.Edge, lines)
		for k := range edges {
			edges[k] = graph.Edge{U: int32(ei[k]), V: int32(ei[lines+k])}
		}
		checkEdgeLines(t, PyGEdgeIndexFile, edges, g, !oneWay)
		if !oneWay {
			seen := map[graph.Edge]bool{}
			for _, e := range edges {
				seen[e] = true
			}
			for _, e := range edges {
				if !seen[graph.Edge{U: e.V, V: e.U}] {
					t.Fatalf("edge_index holds %v without its reverse", e)
				}
			}
		}
		xs, x := readNPY[float32](t, filepath.Join(dir, PyGFeatFile), "<f4")
		if !reflect.DeepEqual(xs, []int{g.NumNodes(), g.FeatureDim()}) {
			t.Fatalf("x of shape %v", xs)
		}
		for i := range g.NumNodes() {
			cols, vals := g.Features.Row(i)
			for k, c := range cols {
				if x[i*g.FeatureDim()+int(c)] != vals[k] {
					t.Fatalf("x[%d, %d] = %g, want %g", i, c, x[i*g.FeatureDim()+int(c)], vals[k])
				}
			}
		}
		ys, y := readNPY[int64](t, filepath.Join(dir, PyGLabelFile), "<i8")
		if ys[0] != g.NumNodes() || y[7] != int64(g.Labels[7]) || m.Labels != PyGLabelFile {
			t.Errorf("y of shape %v, y[7] = %d, want %d", ys, y[7], g.Labels[7])
		}
		for set, want := range map[string][]graph.Edge{
			"train_pos": e.Split.TrainPos, "val_pos": e.Split.ValPos, "val_neg": e.Split.ValNeg,
			"test_pos": e.Split.TestPos, "test_neg": e.Split.TestNeg,
		} {
			shape, a := readNPY[int64](t, filepath.Join(dir, PyGSplitFiles[set]), "<i8")
			if !reflect.DeepEqual(shape, []int{2, len(want)}) {
				t.Fatalf("%s of shape %v, want [2 %d]", set, shape, len(want))
			}
			for k, p := range want {
				if a[k] != int64(p.U) || a[len(want)+k] != int64(p.V) {
					t.Fatalf("%s pair %d: (%d, %d), want %v", set, k, a[k], a[len(want)+k], p)
				}
			}
		}
	}
}

// TestParseFormat: every format parses to itself; others are refused
// with the list.
func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); got != f || err != nil {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if _, err := ParseFormat("csv"); err == nil || !strings.Contains(err.Error(), "gconstruct") {
		t.Errorf("ParseFormat(csv): %v", err)
	}
	if _, err := Write(t.TempDir(), Export{Graph: graphOf(t, 2, []graph.Edge{{U: 0, V: 1}}, nil), Split: &split.Split{}, Format: "csv"}); err == nil {
		t.Error("Write took format csv")
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// column returns the index of name in header.
func column(t *testing.T, header []string, name string) int {
	t.Helper()
	for k, h := range header {
		if h == name {
			return k
		}
	}
	t.Fatalf("no column %q in %v", name, header)
	return -1
}

// readJSONPairs reads one JSON array [u, v] a line.
func readJSONPairs(t *testing.T, path string) []graph.Edge {
	t.Helper()
	var out []graph.Edge
	for k, line := range readLines(t, path) {
		var p []int32
		if err := json.Unmarshal([]byte(line), &p); err != nil || len(p) != 2 {
			t.Fatalf("%s:%d: %q is not [u, v] (%v)", path, k+1, line, err)
		}
		out = append(out, graph.Edge{U: p[0], V: p[1]})
	}
	return out
}
