package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"ilpgnn/core/dataset"
	"ilpgnn/core/experiment"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

const experimentUsage = `NAME [--data SPEC[,SPEC...]] [--seeds 0,1,2,3,4] [--json] [--out DIR] [hyperparameters]

experiments (the paper's sec. 5.3-5.5):
  precision    Precision@1/@2 of explanations against groundtruth, beside
               Random and raw-feature cosine (tables 2 and 3);
               --data defaults to synth:sparse,synth:medium,synth:dense`

// cmdExperiment runs one of the paper's experiments.
func cmdExperiment(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, "usage: ilpgnn experiment %s\n", experimentUsage)
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			return nil
		}
		return errUsage
	}
	name := args[0]
	fs := newFlags("experiment "+name, experimentUsage, stderr)
	data := fs.String("data", "", "comma-separated datasets (paths or synth:PRESET[:seed=S])")
	seedsFlag := fs.String("seeds", "0,1,2,3,4", "comma-separated seeds")
	asJSON := fs.Bool("json", false, "print the report as JSON on stdout")
	outDir := fs.String("out", "", "also write the report (markdown, JSON, and CSV/SVG for figures) into this folder")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	selectOn := fs.String("select", "auc", "on graphs with groundtruth, keep the weights with the best validation auc or precision (P@1 + P@2)")
	cfg := train.DefaultConfig()
	hyperFlags(fs, &cfg)
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	seeds, err := parseSeeds(*seedsFlag)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if *selectOn != "auc" && *selectOn != "precision" {
		return fmt.Errorf("--select: want auc or precision (got %q)", *selectOn)
	}
	opt := experiment.Options{Train: cfg, Seeds: seeds, SelectOnPrecision: *selectOn == "precision"}
	if !*quiet {
		opt.Log = stderr
	}
	specs := *data
	switch name {
	case "precision":
		if specs == "" {
			var all []string
			for _, p := range synth.Presets() {
				all = append(all, "synth:"+p)
			}
			specs = strings.Join(all, ",")
		}
		var reps []*experiment.PrecisionReport
		for _, spec := range strings.Split(specs, ",") {
			src, err := dataset.Parse(strings.TrimSpace(spec))
			if err != nil {
				return err
			}
			rep, err := experiment.Precision(ctx, src, opt)
			if err != nil {
				return err
			}
			reps = append(reps, rep)
		}
		var report any = reps
		if len(reps) == 1 {
			report = reps[0]
		}
		return emit(stdout, *outDir, name, *asJSON, report, func(w io.Writer) error {
			return experiment.WritePrecisionTable(w, reps)
		})
	default:
		fmt.Fprintf(stderr, "ilpgnn experiment: unknown experiment %q\n\nusage: ilpgnn experiment %s\n", name, experimentUsage)
		return errUsage
	}
}

// emit prints a report as JSON or as its markdown table, and with an output
// folder also writes NAME.md and NAME.json there.
func emit(stdout io.Writer, dir, name string, asJSON bool, report any, table func(io.Writer) error) error {
	if asJSON {
		if err := writeJSON(stdout, report); err != nil {
			return err
		}
	} else if err := table(stdout); err != nil {
		return err
	}
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var md strings.Builder
	if err := table(&md); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(md.String()), 0o644); err != nil {
		return err
	}
	var js strings.Builder
	if err := writeJSON(&js, report); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".json"), []byte(js.String()), 0o644)
}
