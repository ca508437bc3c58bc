package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/graphexport"
	"ilpgnn/core/load"
	"ilpgnn/core/split"
)

// TestExportGraphMatchesTrain exports the small fixture and scores common
// neighbours on the exported split, read back from the files alone: the
// validation and test AUCs equal those `train --model cn` reports for the
// same seed and shares, so the export holds train's split. The pair files
// also equal split.New's element for element.
func TestExportGraphMatchesTrain(t *testing.T) {
	for k, tc := range []struct {
		seed              uint64
		shares            []string
		valFrac, testFrac float64
	}{
		0: {3, nil, split.DefaultValFrac, split.DefaultTestFrac},
		1: {5, []string{"--split", "60/10/30"}, 0.1, 0.3},
	} {
		seed := strconv.FormatUint(tc.seed, 10)
		code, out, stderr := cli(t, append([]string{"train", "--data", small, "--model", "cn", "--seeds", seed, "--json"}, tc.shares...)...)
		if code != 0 {
			t.Fatalf("%d: train: exit %d: %s", k, code, stderr)
		}
		var trained trainJSON
		if err := json.Unmarshal([]byte(out), &trained); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		code, out, stderr = cli(t, append([]string{"export-graph", "--data", small, "--seed", seed, "--out", dir}, tc.shares...)...)
		if code != 0 {
			t.Fatalf("%d: export-graph: exit %d: %s", k, code, stderr)
		}
		// Counted from testdata/small/edges.csv: 60 ids, 180 distinct edges.
		if !strings.Contains(out, "60 nodes, 180 edges (360 edge lines, both directions), 6 features per node") {
			t.Errorf("%d: export-graph printed %q", k, out)
		}
		sets := map[string][]graph.Edge{}
		for set, file := range graphexport.SplitFiles {
			sets[set] = readPairFile(t, filepath.Join(dir, file))
		}
		trainGraph, err := graph.New(60, sets["train_pos"], nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		auc := func(pos, neg string) float64 {
			cn := heuristic.CommonNeighbours
			return eval.AUC(heuristic.Scores(trainGraph, cn, sets[pos]), heuristic.Scores(trainGraph, cn, sets[neg]))
		}
		r := trained.Runs[0]
		if got := auc("test_pos", "test_neg"); got != r.TestAUC {
			t.Errorf("%d: common neighbours on the exported split: test AUC %v, train reports %v", k, got, r.TestAUC)
		}
		if got := auc("val_pos", "val_neg"); got != r.ValAUC {
			t.Errorf("%d: common neighbours on the exported split: validation AUC %v, train reports %v", k, got, r.ValAUC)
		}

		_, d, err := openData(small, tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		want, err := split.New(d.Graph, tc.seed, tc.valFrac, tc.testFrac)
		if err != nil {
			t.Fatal(err)
		}
		for set, pairs := range map[string][]graph.Edge{
			"train_pos": want.TrainPos, "val_pos": want.ValPos, "val_neg": want.ValNeg, "test_pos": want.TestPos, "test_neg": want.TestNeg,
		} {
			if !reflect.DeepEqual(sets[set], pairs) {
				t.Errorf("%d: %s differs from split.New's", k, set)
			}
		}
	}
}

// TestExportGraphSynth exports a synthetic graph generated from --seed:
// the graph and the groundtruth are those the same spec and seed generate.
func TestExportGraphSynth(t *testing.T) {
	const spec = "synth:nodes=150:edges=600:dim=12:groups=5"
	dir := t.TempDir()
	code, out, stderr := cli(t, "export-graph", "--data", spec, "--seed", "4", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	src, err := dataset.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(4)
	if err != nil {
		t.Fatal(err)
	}
	edges := d.Graph.Edges()
	for _, e := range d.Graph.Edges() {
		edges = append(edges, graph.Edge{U: e.V, V: e.U})
	}
	if got := readPairFile(t, filepath.Join(dir, graphexport.EdgesFile)); !reflect.DeepEqual(got, edges) {
		t.Errorf("the edge file holds %d edges, not the %d of %s generated from seed 4", len(got), d.Graph.NumEdges(), spec)
	}
	b, err := os.ReadFile(filepath.Join(dir, graphexport.GroundtruthFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != len(d.Truth.Links) {
		t.Fatalf("%d groundtruth lines, %d explained links", len(lines), len(d.Truth.Links))
	}
	var first graphexport.GroundtruthLine
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if l := d.Truth.Links[0]; first.U != l.Edge.U || first.V != l.Edge.V || !reflect.DeepEqual(first.WhyU, l.WhyU) {
		t.Errorf("first groundtruth line %+v, first link %+v", first, l)
	}
	want := "groundtruth: " + strconv.Itoa(len(d.Truth.Links)) + " explained links"
	if !strings.Contains(out, want) {
		t.Errorf("output %q lacks %q", out, want)
	}
	sparse := d.Graph.Features.NNZ() < 150*12
	if noted := strings.Contains(out, "note: the features are written dense"); noted != sparse {
		t.Errorf("output %q: the dense note printed %v, features sparse %v", out, noted, sparse)
	}
}

func TestExportGraphErrors(t *testing.T) {
	out := t.TempDir()
	for k, tc := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		0: {[]string{"--data", small, "--out", out, "--format", "csv"}, 1, `ilpgnn: error: --format "csv": the formats are dgl`},
		8: {[]string{"--data", small, "--out", out, "--directions", "two"}, 1, `--directions "two": both or once`},
		9: {[]string{"--data", small, "--out", out, "--format", "gconstruct", "--directions", "both"}, 1, "a gconstruct export writes each edge once"},
		1: {[]string{"--data", small}, 2, "--out is required"},
		2: {[]string{"--out", out}, 2, "--data is required"},
		3: {[]string{"--data", "synth:sparse", "--out", out, "--split", "60/10/30"}, 1, "ilpgnn: error: --split: synth:sparse has its own split"},
		4: {[]string{"--data", small, "--out", out, "--split", "60/40"}, 1, "ilpgnn: error: --split \"60/40\": want TRAIN/VAL/TEST"},
		5: {[]string{"--data", small, "--out", out, "--val-frac", "0.6", "--test-frac", "0.5"}, 1, "ilpgnn: error: validation and test shares must be positive and sum below 1"},
		6: {[]string{"--data", small, "--out", out, "--split", "60/10/30", "--test-frac", "0.3"}, 1, "--split and --test-frac both set"},
		7: {[]string{"--data", "testdata/missing", "--out", out}, 1, "ilpgnn: error: "},
	} {
		code, _, stderr := cli(t, append([]string{"export-graph"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%d: %v: exit %d, stderr %q; want exit %d and %q", k, tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if entries, err := os.ReadDir(out); err != nil || len(entries) != 0 {
		t.Errorf("refused exports wrote %d files into --out (%v)", len(entries), err)
	}
}

// TestExportGraphFormats writes each format from the command line and
// checks what it says and the entry file each tool reads first; the
// package's tests read every file back.
func TestExportGraphFormats(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		entry, says string
	}{
		{[]string{"--format", "gconstruct"}, "gconstruct.json", "180 edges (each once, u < v)"},
		{[]string{"--format", "pyg"}, "edge_index.npy", "180 edges (360 edge lines, both directions)"},
		{[]string{"--format", "pyg", "--directions", "once"}, "edge_index.npy", "180 edges (each once, u < v)"},
		{[]string{"--directions", "once"}, "metadata.json", "180 edges (each once, u < v)"},
	} {
		dir := t.TempDir()
		code, out, stderr := cli(t, append([]string{"export-graph", "--data", small, "--out", dir}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		if !strings.Contains(out, tc.says) {
			t.Errorf("%v: printed %q, want %q", tc.args, out, tc.says)
		}
		if _, err := os.Stat(filepath.Join(dir, tc.entry)); err != nil {
			t.Errorf("%v: %v", tc.args, err)
		}
		var m graphexport.Manifest
		b, err := os.ReadFile(filepath.Join(dir, graphexport.ManifestFile))
		if err != nil || json.Unmarshal(b, &m) != nil {
			t.Fatalf("%v: export.json: %v", tc.args, err)
		}
		if want := "ilpgnn export-graph --format " + map[bool]string{true: tc.args[1], false: "dgl"}[tc.args[0] == "--format"]; m.WrittenBy != want {
			t.Errorf("%v: written_by %q, want %q", tc.args, m.WrittenBy, want)
		}
	}
}

// readPairFile reads "u v" lines.
func readPairFile(t *testing.T, path string) []graph.Edge {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []graph.Edge
	for k, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		u, v, ok := strings.Cut(line, " ")
		a, err1 := strconv.Atoi(u)
		c, err2 := strconv.Atoi(v)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: %q is not \"u v\"", path, k+1, line)
		}
		out = append(out, graph.Edge{U: int32(a), V: int32(c)})
	}
	return out
}

// TestExportOutIsAFile: export-graph and export given an --out that is a
// file, or lies inside one, say so before writing anything and leave the
// file as it was; graphexport.Write refuses it too.
func TestExportOutIsAFile(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.txt")
	const content = "a user's file, not an export\n"
	if err := os.WriteFile(keep, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export-graph", "--data", small, "--out", keep},
			"ilpgnn: error: --out " + keep + " is a file: export-graph writes a folder; give a folder's path\n"},
		{[]string{"export-graph", "--data", small, "--out", filepath.Join(keep, "sub")},
			"ilpgnn: error: --out " + filepath.Join(keep, "sub") + ": " + keep + " is a file, not a folder: export-graph writes a folder; give a folder's path\n"},
		{[]string{"export", "--checkpoint", filepath.Join(dir, "none.ckpt"), "--data", small, "--out", keep, "--bundle-only"},
			"ilpgnn: error: --out " + keep + " is a file: export writes a folder; give a folder's path\n"},
	} {
		code, stdout, stderr := cli(t, tc.args...)
		if code != 1 || stderr != tc.want || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.args, code, stdout, stderr, tc.want)
		}
		if got, err := os.ReadFile(keep); err != nil || string(got) != content {
			t.Errorf("%v: the file now holds %q (%v)", tc.args, got, err)
		}
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 1 {
		t.Errorf("the folder holds %d entries (%v), want keep.txt alone", len(entries), err)
	}
	g, err := load.Path(small)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := split.New(g, 0, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := graphexport.Write(keep, graphexport.Export{Graph: g, Split: sp}); err == nil || !strings.Contains(err.Error(), "is a file, not a folder") {
		t.Errorf("graphexport.Write into a file: %v", err)
	}
	if got, _ := os.ReadFile(keep); string(got) != content {
		t.Errorf("graphexport.Write changed the file: %q", got)
	}
}
