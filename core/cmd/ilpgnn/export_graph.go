package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"ilpgnn/core/graphexport"
	"ilpgnn/core/loop"
	"ilpgnn/core/printable"
	"ilpgnn/core/split"
	"ilpgnn/core/train"
)

// cmdExportGraph writes a graph, its features, the split train uses for
// the same seed and shares, and a synthetic graph's groundtruth in the
// input format of another tool (package graphexport): DGL's chunked graph
// format for DistDGL and GraphStorm's GSPartition, GraphStorm's gconstruct
// tables, or PyTorch Geometric's arrays.
func cmdExportGraph(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export-graph", "[--format dgl|gconstruct|pyg] --data PATH --out DIR [--seed S] [--split TRAIN/VAL/TEST] [--directions both|once]", stderr)
	format := fs.String("format", "dgl", "output format: dgl (DGL's chunked graph format, which DistDGL and GraphStorm's GSPartition partition), gconstruct (tables and a configuration for GraphStorm's construct_graph) or pyg (NumPy arrays for PyTorch Geometric)")
	directions := fs.String("directions", "both", "dgl and pyg: write each edge in both directions (both, what a GNN passes messages along; partitioning adds no reverse edges) or once, u < v (once); gconstruct writes it once and construct_graph's --add-reverse-edges adds the other")
	data := fs.String("data", "", dataHelp)
	out := fs.String("out", "", "folder to write metadata.json and the data files into (required)")
	seed := fs.Uint64("seed", 0, "the split's seed, as one of train's --seeds (and the graph's, for synth:PRESET without seed=)")
	splitFlag := fs.String("split", "", "TRAIN/VAL/TEST shares of the edges, as train takes them; instead of --val-frac and --test-frac")
	valFrac, testFrac := split.DefaultValFrac, split.DefaultTestFrac
	loop.RegisterShares(fs, &valFrac, &testFrac)
	if err := parse(fs, args); err != nil {
		return err
	}
	set := given(fs)
	if err := applySplit(fs, set, *splitFlag); err != nil {
		return err
	}
	if err := required(fs, "data", "out"); err != nil {
		return err
	}
	if err := checkOutFolder("export-graph", *out); err != nil {
		return err
	}
	f, err := graphexport.ParseFormat(*format)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	if *directions != "both" && *directions != "once" {
		return fmt.Errorf("--directions %q: both or once", *directions)
	}
	if f == graphexport.FormatGConstruct && set["directions"] && *directions == "both" {
		return fmt.Errorf("--directions both: a gconstruct export writes each edge once; construct_graph --add-reverse-edges adds the other direction")
	}
	if err := loop.ValidateShares(valFrac, testFrac); err != nil {
		return err
	}
	_, d, err := openData(*data, *seed)
	if err != nil {
		return err
	}
	e := graphexport.Export{Graph: d.Graph, Source: *data, Seed: *seed, ValFrac: valFrac, TestFrac: testFrac,
		Format: f, OneDirection: *directions == "once"}
	if d.Truth != nil {
		for _, f := range []string{"split", "val-frac", "test-frac"} {
			if set[f] {
				return fmt.Errorf("--%s: %s has its own split: a synthetic graph's links get their roles (train, validation, test) when it is generated", f, *data)
			}
		}
		e.Links = d.Truth.Links
	}
	if e.Split, err = d.Split(*seed, valFrac, testFrac); err != nil {
		return fmt.Errorf("seed %d: %w", *seed, err)
	}
	m, err := graphexport.Write(*out, e)
	if err != nil {
		return err
	}
	printExport(stdout, m, *out)
	return nil
}

// checkOutFolder refuses, before anything is read or written, an --out
// that names a file, or lies inside one, for cmd, which writes a folder
// there: the writes would otherwise fail halfway with the operating
// system's words. A path that does not exist yet is fine: cmd makes it;
// one it cannot reach is left for the writes to report.
func checkOutFolder(cmd, out string) error {
	for p := filepath.Clean(out); ; {
		info, err := os.Stat(p)
		switch {
		case err == nil && info.IsDir():
			return nil
		case err == nil && p == filepath.Clean(out):
			return fmt.Errorf("--out %s is a file: %s writes a folder; give a folder's path", printable.Name(out), cmd)
		case err == nil:
			return fmt.Errorf("--out %s: %s is a file, not a folder: %s writes a folder; give a folder's path", printable.Name(out), printable.Name(p), cmd)
		}
		// Not there (or not reachable): the folder above decides.
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}

// printExport says what export-graph wrote, and that sparse features
// were written dense.
func printExport(w io.Writer, m *graphexport.Manifest, dir string) {
	fmt.Fprintf(w, "%s: %d nodes, %d edges (%s), %d features per node, written to %s %s\n",
		printable.Name(m.GraphName), m.Nodes, m.Edges, directionsPhrase(m), m.FeatureDim, printable.Name(dir), formatPhrase[m.Format])
	if cells := int64(m.Nodes) * int64(m.FeatureDim); int64(m.FeatureNNZ) < cells {
		fmt.Fprintf(w, "note: the features are written dense, %s (%.1f%% of the values are nonzero)\n",
			train.Bytes(4*cells), 100*float64(m.FeatureNNZ)/float64(max(cells, 1)))
	}
	s := m.Split
	fmt.Fprintf(w, "split (seed %d): %d train, %d validation, %d test positives; %d validation, %d test negatives\n",
		m.Seed, s["train_pos"].Count, s["val_pos"].Count, s["test_pos"].Count, s["val_neg"].Count, s["test_neg"].Count)
	if m.Groundtruth != nil {
		fmt.Fprintf(w, "groundtruth: %d explained links, K_gt %d, in %s\n", m.Groundtruth.Count, m.KGT, m.Groundtruth.File)
	}
	fmt.Fprintf(w, "%s: %s/README.md\n", nextStep[m.Format], printable.Name(dir))
}

// formatPhrase and nextStep name each manifest format in export-graph's
// report.
var (
	formatPhrase = map[string]string{
		"dgl-chunked":           "in DGL's chunked graph format",
		"graphstorm-gconstruct": "for GraphStorm's construct_graph",
		"pyg-npy":               "for PyTorch Geometric",
	}
	nextStep = map[string]string{
		"dgl-chunked":           "partitioning it for DistDGL or GraphStorm",
		"graphstorm-gconstruct": "building it with GraphStorm",
		"pyg-npy":               "loading it in PyTorch Geometric",
	}
)

// directionsPhrase says how the edge file holds the edges.
func directionsPhrase(m *graphexport.Manifest) string {
	if m.Directions == "both" {
		return fmt.Sprintf("%d edge lines, both directions", m.EdgeLines)
	}
	return "each once, u < v"
}
