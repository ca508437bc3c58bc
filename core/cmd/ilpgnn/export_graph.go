package main

import (
	"fmt"
	"io"

	"ilpgnn/core/dglexport"
	"ilpgnn/core/loop"
	"ilpgnn/core/printable"
	"ilpgnn/core/split"
	"ilpgnn/core/train"
)

// cmdExportGraph writes a graph, its features, the split train uses for
// the same seed and shares, and a synthetic graph's groundtruth in DGL's
// chunked graph format (package dglexport), for DistDGL and GraphStorm.
func cmdExportGraph(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export-graph", "[--format dgl] --data PATH --out DIR [--seed S] [--split TRAIN/VAL/TEST]", stderr)
	format := fs.String("format", "dgl", "output format: dgl, DGL's chunked graph format, which DistDGL and GraphStorm partition")
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
	if *format != "dgl" {
		return fmt.Errorf("--format %q: the formats are dgl (DGL's chunked graph format)", *format)
	}
	if err := loop.ValidateShares(valFrac, testFrac); err != nil {
		return err
	}
	_, d, err := openData(*data, *seed)
	if err != nil {
		return err
	}
	e := dglexport.Export{Graph: d.Graph, Source: *data, Seed: *seed, ValFrac: valFrac, TestFrac: testFrac}
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
	m, err := dglexport.Write(*out, e)
	if err != nil {
		return err
	}
	printExport(stdout, m, *out)
	return nil
}

// printExport says what export-graph wrote, and that sparse features
// were written dense.
func printExport(w io.Writer, m *dglexport.Manifest, dir string) {
	fmt.Fprintf(w, "%s: %d nodes, %d edges, %d features per node, written to %s in DGL's chunked graph format\n",
		printable.Name(m.GraphName), m.Nodes, m.Edges, m.FeatureDim, printable.Name(dir))
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
	fmt.Fprintf(w, "partitioning it for DistDGL or GraphStorm: %s/README.md\n", printable.Name(dir))
}
