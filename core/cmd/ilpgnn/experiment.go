package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"ilpgnn/core/baselines/conpi"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/gnnexplainer"
	"ilpgnn/core/dataset"
	"ilpgnn/core/models"
	"ilpgnn/core/paper/experiment"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

const experimentUsage = `NAME [--data SPEC[,SPEC...]] [--seeds 0,1,2,3,4] [--json] [--out DIR] [hyperparameters]

experiments (the paper's sec. 5.3-5.5):
  precision    Precision@1/@2 of explanations against groundtruth, beside
               Random, raw-feature cosine, GAT attention and GNNExplainer
               over a GAE (tables 2 and 3);
               --data defaults to synth:sparse,synth:medium,synth:dense;
               selects on validation precision with patience 30 by default
  fidelity     test AUC drop when the top-M neighbours are removed,
               M = 1..4, also for GAT attention and GNNExplainer (figure 3)
  ablation     the model without structure score, feature score, both, or
               the explanation losses (figure 7)
  sensitivity  test AUC for K in {1, 2, 4, 6} and λ in {0.1, 0.3, 0.5, 0.7}
               (figure 5)
  table1       test AUC of every link predictor we have (--models) on the
               same splits, beside the paper's table 1; --tune BUDGET first
               chooses every learned model's settings with tune on
               --tune-seeds (10,11), with the same budget for each

Run "ilpgnn experiment NAME -h" for the flags.`

// cmdExperiment runs one of the paper's experiments.
func cmdExperiment(ctx context.Context, reg models.Registry, args []string, stdout, stderr io.Writer) error {
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
	modelsFlag := fs.String("models", strings.Join(reg.Names(), ","), "table1: comma-separated link predictors, as train --model names them")
	selectOn := fs.String("select", "auc", "on graphs with groundtruth, keep the weights with the best validation auc or precision (P@1 + P@2, with patience 30 unless --patience is given), or as on a graph without groundtruth (unsupervised: reads none); the precision experiment defaults to precision")
	noBaselines := fs.Bool("no-baselines", false, "precision, fidelity: skip GAT attention, GNNExplainer and CONPI, which train a GAT, a GAE and a CONPI per seed (their defaults; an explicit --epochs caps their epochs and GNNExplainer's steps too)")
	tuneBudget := fs.Duration("tune", 0, "table1: choose every learned model's settings first, with tune and this time budget each (a Go duration: 5m), on --tune-seeds, then measure them on --seeds; heuristics are measured as they are")
	tuneSeeds := fs.String("tune-seeds", "10,11", "table1 --tune: the seeds that choose the settings, on validation AUC alone; none of them may be among --seeds")
	var sets []string
	fs.Func("set", "table1: MODEL.FLAG=VALUE sets one hyperparameter of a baseline, as train --model MODEL --FLAG VALUE would (repeatable), e.g. conpi.lr=0.001", func(v string) error {
		sets = append(sets, v)
		return nil
	})
	var ev evalFlags
	ev.register(fs) // table1 only
	cfg := train.DefaultConfig()
	cfg.RegisterFlags(fs)
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
	set := given(fs)
	if err := ev.validate(set); err != nil {
		return err
	}
	if name != "table1" && (set["eval"] || set["negatives"]) {
		return fmt.Errorf("--eval and --negatives: table1 only")
	}
	if name == "precision" && !set["select"] {
		// Explanation precision peaks early (epochs 10-60 on every preset)
		// and then drifts down while AUC still creeps up, so this
		// experiment selects on validation precision (with the shorter
		// patience that goes with it, models.PrecisionPatience) unless
		// told otherwise.
		*selectOn = "precision"
	}
	if *selectOn != "auc" && *selectOn != "precision" && *selectOn != "unsupervised" {
		return fmt.Errorf("--select: want auc, precision or unsupervised (got %q)", *selectOn)
	}
	opt := experiment.Options{Train: cfg, Seeds: seeds, Select: models.Selection(*selectOn), Given: set, NoBaselines: *noBaselines}
	if set["epochs"] {
		capEpochs(&opt, cfg.Epochs)
	}
	if !*quiet {
		opt.Log = stderr
	}
	specs := *data
	switch name {
	case "precision":
		return runPrecision(ctx, specs, opt, stdout, *outDir, *asJSON)
	case "table1":
		if specs == "" {
			fmt.Fprintf(stderr, "ilpgnn experiment %s: --data is required\n", name)
			return errUsage
		}
		preds, err := predictors(reg, *modelsFlag, cfg, sets)
		if err != nil {
			return err
		}
		if err := tuneTable1(reg, fs, preds, specs, seeds, sets, *modelsFlag, *tuneBudget, *tuneSeeds, ev, opt.Log); err != nil {
			return err
		}
		return runTable1(ctx, specs, preds, seeds, ev, opt.Log, stdout, *outDir, *asJSON)
	case "fidelity", "ablation", "sensitivity":
		if specs == "" {
			fmt.Fprintf(stderr, "ilpgnn experiment %s: --data is required\n", name)
			return errUsage
		}
		return runFigureExperiment(ctx, name, specs, opt, stdout, *outDir, *asJSON)
	default:
		fmt.Fprintf(stderr, "ilpgnn experiment: unknown experiment %q\n\nusage: ilpgnn experiment %s\n", name, experimentUsage)
		return errUsage
	}
}

// tuneTable1 gives table1's learned predictors the settings tune chooses
// for them under --tune (nothing without it), after checking every plan
// fits the budget on every dataset of specs.
func tuneTable1(reg models.Registry, fs *flag.FlagSet, preds []experiment.Predictor, specs string, seeds []uint64, sets []string,
	names string, budget time.Duration, tuneSeeds string, ev evalFlags, log io.Writer) error {
	set := given(fs)
	if set["tune-seeds"] && !set["tune"] {
		return fmt.Errorf("--tune-seeds: give --tune BUDGET too")
	}
	if !set["tune"] {
		return nil
	}
	tt, err := tableTune(reg, fs, budget, tuneSeeds, seeds, sets, names)
	if err != nil {
		return err
	}
	tt.log, tt.eval = log, ev
	if err := tuned(reg, preds, tt); err != nil {
		return err
	}
	return checkBudgets(reg, preds, specs, tt)
}

// tableTune reads table1's --tune and --tune-seeds, refusing tuning seeds
// among the measuring ones, with the settings the user fixed: ILP-GNN's
// flags given to fs and the baselines' --set.
func tableTune(reg models.Registry, fs *flag.FlagSet, budget time.Duration, tuneSeeds string, seeds []uint64, sets []string, names string) (tableTuning, error) {
	if budget <= 0 {
		return tableTuning{}, fmt.Errorf("--tune: want a positive duration (got %v)", budget)
	}
	ts, err := parseSeeds(tuneSeeds)
	if err != nil {
		return tableTuning{}, fmt.Errorf("--tune-seeds: %w", err)
	}
	for _, s := range ts {
		if slices.Contains(seeds, s) {
			return tableTuning{}, fmt.Errorf("--tune-seeds %s and --seeds share seed %d: the seeds that choose the settings must not measure them", tuneSeeds, s)
		}
	}
	fixed := map[string]map[string]string{}
	ilp := flag.NewFlagSet("ilpgnn", flag.ContinueOnError)
	ilpCfg := train.DefaultConfig()
	ilpCfg.RegisterFlags(ilp)
	fs.Visit(func(f *flag.Flag) {
		if ilp.Lookup(f.Name) != nil {
			if fixed["ilpgnn"] == nil {
				fixed["ilpgnn"] = map[string]string{}
			}
			fixed["ilpgnn"][f.Name] = f.Value.String()
		}
	})
	bySet, err := parseSets(reg, sets, names)
	if err != nil {
		return tableTuning{}, err
	}
	for model, kvs := range bySet {
		fixed[model] = map[string]string{}
		for _, kv := range kvs {
			fixed[model][kv[0]] = kv[1]
		}
	}
	return tableTuning{budget: budget, seeds: ts, fixed: fixed}, nil
}

// capEpochs makes an explicit --epochs a budget for every optimisation
// the experiment runs: the baselines' training (the GAT, the GAE and
// CONPI) and GNNExplainer's steps per pair are capped by it too (quick
// runs stay quick).
func capEpochs(opt *experiment.Options, budget int) {
	opt.Baselines = func(k gnn.Kind) gnn.Config {
		c := gnn.DefaultConfig(k)
		c.Epochs = min(c.Epochs, budget)
		return c
	}
	ex := gnnexplainer.DefaultConfig()
	ex.Epochs = min(ex.Epochs, budget)
	opt.Explainer = &ex
	cc := conpi.DefaultConfig()
	cc.Fit.Epochs = min(cc.Fit.Epochs, budget)
	opt.CONPI = &cc
}

// runPrecision runs the precision experiment on each dataset, every
// synthetic preset by default.
func runPrecision(ctx context.Context, specs string, opt experiment.Options, stdout io.Writer, dir string, asJSON bool) error {
	if specs == "" {
		var all []string
		for _, p := range synth.Presets() {
			all = append(all, "synth:"+p)
		}
		specs = strings.Join(all, ",")
	}
	sources, err := parseSources(specs)
	if err != nil {
		return err
	}
	var reps []*experiment.PrecisionReport
	for _, src := range sources {
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
	return emit(stdout, dir, "precision", asJSON, report, func(w io.Writer) error {
		return experiment.WritePrecisionTable(w, reps)
	})
}

// runTable1 fits every predictor on the same splits of each dataset.
func runTable1(ctx context.Context, specs string, preds []experiment.Predictor, seeds []uint64, ev evalFlags, log io.Writer, stdout io.Writer, dir string, asJSON bool) error {
	sources, err := parseSources(specs)
	if err != nil {
		return err
	}
	var hard experiment.HardNegatives
	if ev.eval == "heart" {
		hard = func(d *dataset.Dataset, sp *split.Split, seed uint64) error {
			_, err := ev.attach(d, sp, seed)
			return err
		}
	}
	rep, err := experiment.Table1(ctx, sources, preds, seeds, hard, log)
	if err != nil {
		return err
	}
	return emit(stdout, dir, "table1", asJSON, rep, func(w io.Writer) error {
		return experiment.WriteTable1(w, rep)
	})
}

// runFigureExperiment runs an experiment that the paper draws as a figure
// on each dataset, and with --out also writes its CSV and SVG.
func runFigureExperiment(ctx context.Context, name, specs string, opt experiment.Options, stdout io.Writer, dir string, asJSON bool) error {
	sources, err := parseSources(specs)
	if err != nil {
		return err
	}
	var (
		report  any
		table   func(io.Writer) error
		csv     func(io.Writer) error
		figures map[string]func(io.Writer) error
	)
	if name == "fidelity" {
		var reps []*experiment.FidelityReport
		for _, src := range sources {
			rep, err := experiment.Fidelity(ctx, src, opt, 4)
			if err != nil {
				return err
			}
			reps = append(reps, rep)
		}
		report = reps
		table = func(w io.Writer) error { return experiment.WriteFidelityTable(w, reps) }
		csv = func(w io.Writer) error { return experiment.WriteFidelityCSV(w, reps) }
		figures = map[string]func(io.Writer) error{name: experiment.FidelityFigure(reps).WriteSVG}
	} else {
		var reps []*experiment.SweepReport
		for _, src := range sources {
			if name == "ablation" {
				rep, err := experiment.Ablation(ctx, src, opt)
				if err != nil {
					return err
				}
				reps = append(reps, rep)
				continue
			}
			two, err := experiment.Sensitivity(ctx, src, opt)
			if err != nil {
				return err
			}
			reps = append(reps, two...)
		}
		report = reps
		table = func(w io.Writer) error { return experiment.WriteSweepTable(w, reps) }
		csv = func(w io.Writer) error { return experiment.WriteSweepCSV(w, reps) }
		figures = experiment.SweepFigures(reps)
	}
	if err := emit(stdout, dir, name, asJSON, report, table); err != nil {
		return err
	}
	if dir == "" {
		return nil
	}
	if err := writeFile(filepath.Join(dir, name+".csv"), csv); err != nil {
		return err
	}
	for stem, draw := range figures {
		if err := writeFile(filepath.Join(dir, stem+".svg"), draw); err != nil {
			return err
		}
	}
	return nil
}

// parseSources parses a comma-separated list of --data values.
func parseSources(specs string) ([]*dataset.Source, error) {
	var out []*dataset.Source
	for _, spec := range strings.Split(specs, ",") {
		src, err := dataset.Parse(strings.TrimSpace(spec))
		if err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, nil
}

// writeFile writes what fill produces to path.
func writeFile(path string, fill func(io.Writer) error) error {
	var b strings.Builder
	if err := fill(&b); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// emit prints a report as JSON or as its markdown table, and with an output
// folder also writes NAME.md and NAME.json there.
func emit(stdout io.Writer, dir, name string, asJSON bool, report any, table func(io.Writer) error) error {
	asReport := func(w io.Writer) error { return writeJSON(w, report) }
	show := table
	if asJSON {
		show = asReport
	}
	if err := show(stdout); err != nil {
		return err
	}
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, name+".md"), table); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, name+".json"), asReport)
}
