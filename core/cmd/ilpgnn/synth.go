package main

import (
	"fmt"
	"io"

	"ilpgnn/core/synth"
)

// cmdSynth generates a synthetic dataset and writes it as files the loaders
// read back (--data DIR then carries the generator's split and groundtruth).
func cmdSynth(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("synth", "--preset NAME [--seed S] --out DIR", stderr)
	preset := fs.String("preset", "medium", "sparse, medium or dense (the paper's table 4)")
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
		return err
	}
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
	fmt.Fprintf(stdout, "%s: %d nodes, %d edges (%d base, %d explained: %d train, %d validation, %d test), K_gt %d, written to %s\n",
		d.Graph.Name, d.Graph.NumNodes(), d.Graph.NumEdges(), len(d.Base), len(d.Links),
		counts[synth.Train], counts[synth.Validation], counts[synth.Test], cfg.KGT, *out)
	return nil
}
