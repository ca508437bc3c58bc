package main

import (
	"flag"
	"fmt"
	"io"

	"ilpgnn/core/synth"
	"ilpgnn/core/sysmem"
	"ilpgnn/core/train"
)

// cmdSynth generates a synthetic dataset and writes it as files the loaders
// read back (--data DIR then carries the generator's split and groundtruth).
// --nodes, --edges, --dim, --groups and --kgt override the preset's knobs;
// --method picks the process (by default synth.AutoMethod of the node
// count, so presets keep the exact one).
func cmdSynth(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("synth", "[--preset NAME] [--nodes N --edges E --dim D] [--method exact|sampled] [--seed S] --out DIR", stderr)
	preset := fs.String("preset", "medium", "sparse, medium or dense (the paper's table 4): the knobs the other flags start from")
	ints := map[string]*int{
		"nodes":  fs.Int("nodes", 0, "number of nodes (default: the preset's, 1000)"),
		"edges":  fs.Int("edges", 0, "number of undirected edges, met exactly (default: the preset's)"),
		"dim":    fs.Int("dim", 0, "feature dimension (default: the preset's, 128)"),
		"groups": fs.Int("groups", 0, "number of mixture components (default: the preset's, 10)"),
		"kgt":    fs.Int("kgt", 0, "groundtruth neighbours per end of an explained link (default: the preset's)"),
	}
	method := fs.String("method", "", "exact (all node pairs, at most 5000 nodes) or sampled (linear time); default exact up to 2000 nodes, else sampled")
	seed := fs.Uint64("seed", 0, "generator seed")
	out := fs.String("out", "", "folder to write edges.csv, features.csv and groundtruth.csv into (required)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "out"); err != nil {
		return err
	}
	cfg, err := synth.Preset(*preset)
	if err != nil {
		return fmt.Errorf("--preset: %w", err)
	}
	var bad error
	fs.Visit(func(f *flag.Flag) {
		if p, ok := ints[f.Name]; ok && bad == nil {
			if *p < 1 {
				bad = fmt.Errorf("synth: --%s %d: need a positive integer", f.Name, *p)
			}
		}
	})
	if bad != nil {
		return bad
	}
	for name, field := range map[string]*int{"nodes": &cfg.Nodes, "edges": &cfg.Edges, "dim": &cfg.FeatureDim, "groups": &cfg.Groups, "kgt": &cfg.KGT} {
		if *ints[name] != 0 {
			*field = *ints[name]
		}
	}
	cfg.Method = synth.AutoMethod(cfg.Nodes)
	if *method != "" {
		if cfg.Method, err = synth.ParseMethod(*method); err != nil {
			return fmt.Errorf("synth: --method: %w", err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := checkSynthMemory(cfg); err != nil {
		return err
	}
	limit, _ := sysmem.Limit()
	fmt.Fprintf(stderr, "estimate: about %s of memory at its peak%s\n", train.Bytes(synth.EstimateMemory(cfg)), limitText(limit))
	d, err := synth.Generate(cfg, *seed)
	if err != nil {
		return err
	}
	if err := d.WriteDir(*out); err != nil {
		return err
	}
	counts := map[synth.Role]int{}
	for _, l := range d.Links {
		counts[l.Role]++
	}
	fmt.Fprintf(stdout, "%s: %d nodes, %d edges (%d base, %d explained: %d train, %d validation, %d test), K_gt %d, %s method, written to %s\n",
		d.Graph.Name, d.Graph.NumNodes(), d.Graph.NumEdges(), len(d.Base), len(d.Links),
		counts[synth.Train], counts[synth.Validation], counts[synth.Test], cfg.KGT, cfg.Method, *out)
	return nil
}

// checkSynthMemory refuses to generate a graph whose generator would need
// more memory than this machine has, saying what to change.
func checkSynthMemory(cfg synth.Config) error {
	limit, known := sysmem.Limit()
	need := synth.EstimateMemory(cfg)
	if !known || need <= limit {
		return nil
	}
	return fmt.Errorf("synth: generating %d nodes, %d edges and %d feature columns would need about %s of memory at its peak, more than this machine's memory (%s): use fewer nodes, edges or feature columns",
		cfg.Nodes, cfg.Edges, cfg.FeatureDim, train.Bytes(need), train.Bytes(limit))
}

// limitText is " (of 23.4 GiB here)" for this machine's memory limit, or
// "" when it is unknown (0).
func limitText(limit int64) string {
	if limit <= 0 {
		return ""
	}
	return fmt.Sprintf(" (of %s here)", train.Bytes(limit))
}
