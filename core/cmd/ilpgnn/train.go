package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/experiment"
	"ilpgnn/core/explain"
	"ilpgnn/core/gnn"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/pairfit"
	"ilpgnn/core/pairmodel"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

// dataHelp documents every --data flag.
const dataHelp = "dataset: LINQS folder, .npz file, edge list, a folder written by synth, or synth:PRESET[:seed=S] (PRESET sparse, medium or dense; without a seed, each run's seed)"

// openData parses a --data value and loads it for the run with seed.
func openData(spec string, seed uint64) (*dataset.Source, *dataset.Dataset, error) {
	src, err := dataset.Parse(spec)
	if err != nil {
		return nil, nil, err
	}
	d, err := src.Load(seed)
	if err != nil {
		return nil, nil, err
	}
	return src, d, nil
}

func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--seeds: %q is not a non-negative integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// seedsAndConfig parses --seeds and checks the hyperparameters, the two
// things every training command validates before it loads data.
func seedsAndConfig(seeds string, cfg train.Config) ([]uint64, error) {
	out, err := parseSeeds(seeds)
	if err != nil {
		return nil, err
	}
	return out, cfg.Validate()
}

type runJSON struct {
	Seed    uint64  `json:"seed"`
	TestAUC float64 `json:"test_auc"`
	// TestHits is Hits@20, @50 and @100 of the test links against the
	// test non-links, as OGB's evaluator computes them (eval.HitsAtK).
	TestHits     eval.Hits `json:"test_hits"`
	ValAUC       float64   `json:"val_auc"`
	Epochs       int       `json:"epochs"`
	BestEpoch    int       `json:"best_epoch"`
	TrainSeconds float64   `json:"train_seconds"`
	EpochMillis  float64   `json:"epoch_ms"`
	PrepSeconds  float64   `json:"prep_seconds"`
	// PhaseMillis is the mean time per epoch of each phase.
	PhaseMillis map[string]float64 `json:"phase_ms"`
	// P1 and P2 are the explanations' Precision@1 and @2 on the test links
	// of a graph with groundtruth (SPEC §7).
	P1 *float64 `json:"p_at_1,omitempty"`
	P2 *float64 `json:"p_at_2,omitempty"`
	// Warning says why the AUCs may mean little (a split with too few test
	// links).
	Warning string `json:"warning,omitempty"`
}

type trainJSON struct {
	Dataset     string    `json:"dataset"`
	Model       string    `json:"model"`
	Runs        []runJSON `json:"runs"`
	TestAUCMean float64   `json:"test_auc_mean"`
	TestAUCStd  float64   `json:"test_auc_std"`
	// TestHitsMean and TestHitsStd are the mean and std of the runs'
	// TestHits over seeds.
	TestHitsMean eval.Hits `json:"test_hits_mean"`
	TestHitsStd  eval.Hits `json:"test_hits_std"`
	ValAUCMean   float64   `json:"val_auc_mean"`
	// Error is why the command failed (it also exits non-zero); Runs holds
	// the seeds that finished before.
	Error string `json:"error,omitempty"`
}

func cmdTrain(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlags("train", "--data PATH [--model ilpgnn|cn|aa|gae|vgae|gat|seal|wp|conpi] [--seeds 0,1,2,3,4] [--json] [--save FILE] [hyperparameters]", stderr)
	data := fs.String("data", "", dataHelp)
	seedsFlag := fs.String("seeds", "0,1,2,3,4", "comma-separated seeds; each seed is its own split and initialisation (and its own graph for synth:PRESET)")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	save := fs.String("save", "", "write the checkpoint here (with several seeds, FILE gets .seedN before its extension)")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	selectOn := fs.String("select", "auto", "keep the weights with the best validation auc, or precision (P@1 + P@2, graphs with groundtruth only); auto is precision where groundtruth exists, with patience 30 unless --patience is given")
	model := fs.String("model", "ilpgnn", modelHelp)
	splitFlag := fs.String("split", "", "TRAIN/VAL/TEST shares of the edges, percentages or fractions (60/10/30 is ogbn-arxiv's); instead of --val-frac and --test-frac")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof reads it)")
	cfg := train.DefaultConfig()
	method, isHeuristic := heuristicOf(modelFlag(args))
	kind, isGNN := gnnKindOf(modelFlag(args))
	var gcfg gnn.Config
	var pair pairmodel.Trainer
	if pairmodel.Is(modelFlag(args)) {
		pair, _ = pairmodel.New(modelFlag(args))
	}
	// valFrac and testFrac point at the held-out shares the split is drawn
	// with: the model's own where its configuration has them.
	valFrac, testFrac := &cfg.ValFrac, &cfg.TestFrac
	switch {
	case isGNN:
		gcfg = gnn.DefaultConfig(kind)
		gcfg.RegisterFlags(fs)
		valFrac, testFrac = &gcfg.ValFrac, &gcfg.TestFrac
	case pair != nil:
		pair.RegisterFlags(fs)
		registerFracs(fs, valFrac, testFrac)
	case !isHeuristic:
		cfg.RegisterFlags(fs)
	default:
		registerFracs(fs, valFrac, testFrac)
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := applySplit(given(fs), *splitFlag, valFrac, testFrac); err != nil {
		return err
	}
	if err := required(fs, "data"); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	if err := checkModel(*model); err != nil {
		return err
	}
	if isHeuristic && *save != "" {
		return fmt.Errorf("--save: %s learns nothing, so there is no checkpoint to save", *model)
	}
	if (isGNN || pair != nil) && *save != "" {
		return fmt.Errorf("--save: checkpoints of %s are not supported yet", *model)
	}
	if isGNN {
		if err := gcfg.Validate(); err != nil {
			return err
		}
	}
	if pair != nil {
		if err := pair.Validate(); err != nil {
			return err
		}
	}
	if *selectOn != "auto" && *selectOn != "auc" && *selectOn != "precision" {
		return fmt.Errorf("--select: want auto, auc or precision (got %q)", *selectOn)
	}
	patienceSet := given(fs)["patience"]
	out := trainJSON{Model: *model, Runs: []runJSON{}}
	if *asJSON {
		// A failure still answers with one JSON object, saying why.
		defer func() {
			if err != nil {
				out.Error = err.Error()
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				_ = enc.Encode(out) // the command fails with err either way
			}
		}()
	}
	seeds, err := seedsAndConfig(*seedsFlag, cfg)
	if err != nil {
		return err
	}
	showProgress := !*quiet && isTerminal(stderr)
	var hb *heartbeat
	if !*quiet && !showProgress {
		// Not a terminal: say every so often what is running, so a long
		// read or run does not look hung.
		stderr = &lockedWriter{w: stderr}
		hb = startHeartbeat(stderr, heartbeatPeriod)
		defer hb.close()
	}
	// report shows seed's progress status: rewritten in place on a
	// terminal, else at the heartbeat's pace.
	report := func(seed uint64, status string) {
		if showProgress {
			fmt.Fprintf(stderr, "\rseed %d  %s ", seed, status)
		}
		hb.update(fmt.Sprintf("seed %d: training", seed), status)
	}
	hb.phase("reading " + *data)
	src, first, err := openData(*data, seeds[0])
	if err != nil {
		return err
	}
	if note := first.Graph.MissingFeaturesNote(); note != "" {
		fmt.Fprintf(stderr, "note: %s: %s\n", *data, note)
	}
	g := first.Graph
	out.Dataset = g.Name
	var tests, vals []float64
	var hits []eval.Hits
	if !*asJSON {
		fmt.Fprintf(stdout, "dataset %s: %d nodes, %d edges, %d features\n", g.Name, g.NumNodes(), g.NumEdges(), g.FeatureDim())
		fmt.Fprintf(stdout, "%6s  %8s  %8s  %26s  %6s  %8s  %9s\n", "seed", "test AUC", "val AUC", "test Hits@20 / @50 / @100", "epochs", "seconds", "ms/epoch")
	}
	for _, seed := range seeds {
		c := cfg
		c.Seed = seed
		var progress func(train.Progress)
		if !*quiet {
			progress = func(p train.Progress) {
				report(p.Seed, fmt.Sprintf("epoch %4d/%d  loss %.4f (cls %.4f pos %.4f neg %.4f)  val AUC %.4f  best %.4f @%d  %s",
					p.Epoch, p.MaxEpochs, p.Loss, p.Cls, p.Pos, p.Neg, p.ValAUC, p.BestValAUC, p.BestEpoch,
					p.Elapsed.Round(100*time.Millisecond)))
			}
		}
		switch {
		case isHeuristic:
			hb.phase(fmt.Sprintf("seed %d: splitting and scoring", seed))
		case isGNN || pair != nil:
			hb.phase(fmt.Sprintf("seed %d: splitting and preparing", seed))
		default:
			hb.phase(fmt.Sprintf("seed %d: splitting", seed)) // Prepare names its own phases
		}
		d, err := src.Load(seed)
		if err != nil {
			return err
		}
		if d.Truth != nil {
			for _, f := range []string{"split", "val-frac", "test-frac"} {
				if given(fs)[f] {
					return fmt.Errorf("--%s: %s has its own split: a synthetic graph's links get their roles (train, validation, test) when it is generated", f, *data)
				}
			}
		}
		sp, err := d.Split(seed, *valFrac, *testFrac)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		warning := train.TestWarning(sp)
		if warning != "" && !*quiet {
			fmt.Fprintf(stderr, "warning: seed %d: %s\n", seed, warning)
		}
		if isHeuristic || isGNN || pair != nil {
			var r runJSON
			switch {
			case isHeuristic:
				r = runHeuristic(method, sp, seed)
			case pair != nil:
				var pp func(pairfit.Progress)
				if !*quiet {
					pp = func(p pairfit.Progress) {
						report(seed, fmt.Sprintf("epoch %4d/%d  batch %4d/%d  loss %.4f  best val AUC %.4f @%d  %s",
							p.Epoch, p.MaxEpochs, p.Batch, p.Batches, p.Loss, p.BestValAUC, p.BestEpoch, p.Elapsed.Round(100*time.Millisecond)))
					}
				}
				r, err = runPair(ctx, d, sp, pair, seed, pp)
				if showProgress {
					fmt.Fprint(stderr, "\r\033[K")
				}
				if err != nil {
					return runError(seed, err)
				}
			default:
				gc := gcfg
				gc.Seed = seed
				var gp func(gnn.Progress)
				if !*quiet {
					gp = func(p gnn.Progress) {
						report(p.Seed, fmt.Sprintf("epoch %4d/%d  loss %.4f  val AUC %.4f  best %.4f @%d  %s",
							p.Epoch, p.MaxEpochs, p.Loss, p.ValAUC, p.BestValAUC, p.BestEpoch, p.Elapsed.Round(100*time.Millisecond)))
					}
				}
				r, err = runGNN(ctx, d, sp, gc, gp)
				if showProgress {
					fmt.Fprint(stderr, "\r\033[K")
				}
				if err != nil {
					return runError(seed, err)
				}
			}
			r.Warning = warning
			out.Runs = append(out.Runs, r)
			tests = append(tests, r.TestAUC)
			vals = append(vals, r.ValAUC)
			hits = append(hits, r.TestHits)
			if !*asJSON {
				fmt.Fprintf(stdout, "%6d  %8.4f  %8.4f  %26s  %6d  %8.1f  %9.1f\n", seed, r.TestAUC, r.ValAUC, hitsCell(r.TestHits), r.Epochs, r.TrainSeconds, r.EpochMillis)
				if r.P1 != nil {
					fmt.Fprintf(stdout, "        %s as explanation against groundtruth: Precision@1 %.3f, Precision@2 %.3f\n", explainedBy(*model), *r.P1, *r.P2)
				}
			}
			continue
		}
		var crit train.Criterion
		if d.Truth != nil && *selectOn != "auc" {
			// Explanations are best early and erode while AUC creeps up
			// (README), so a graph with groundtruth keeps the weights that
			// explain its validation links best.
			crit = experiment.PrecisionCriterion(d.Truth)
			if !patienceSet {
				c.Patience = experiment.PrecisionPatience
			}
		} else if *selectOn == "precision" {
			return fmt.Errorf("--select precision: %s has no groundtruth explanations (use synth:PRESET or a folder written by `ilpgnn synth`)", *data)
		}
		runCtx := ctx
		if !*quiet {
			runCtx = ilpgnn.WithPrepareProgress(ctx, func(p ilpgnn.PrepareProgress) {
				if showProgress {
					fmt.Fprintf(stderr, "\rseed %d  %s \033[K", seed, prepareStatus(p))
				}
				if p.Done < p.Total {
					hb.update(fmt.Sprintf("seed %d: prepare: %s", seed, p.Phase), prepareDetail(p))
					return
				}
				// A phase reports its end, not its start: name what runs
				// next, up to the first epoch (which runs until the first
				// progress report).
				switch p.Phase {
				case ilpgnn.PhaseSimilarity:
					hb.phase(fmt.Sprintf("seed %d: prepare: %s", seed, ilpgnn.PhaseFeatures))
				case ilpgnn.PhaseFeatures:
					hb.phase(fmt.Sprintf("seed %d: prepare: %s", seed, ilpgnn.PhaseAdjacency))
				case ilpgnn.PhaseAdjacency:
					hb.phase(fmt.Sprintf("seed %d: training", seed))
				}
			})
		}
		res, err := train.RunSplitSelect(runCtx, sp, c, crit, progress)
		if showProgress {
			fmt.Fprint(stderr, "\r\033[K")
		}
		if err != nil {
			return runError(seed, err)
		}
		r := runJSON{Seed: seed, TestAUC: res.TestAUC, TestHits: res.TestHits, ValAUC: res.ValAUC, Epochs: res.Epochs, BestEpoch: res.BestEpoch,
			TrainSeconds: res.TrainSeconds, EpochMillis: 1000 * res.TrainSeconds / float64(max(res.Epochs, 1)),
			PrepSeconds: res.PrepSeconds, PhaseMillis: phaseMillis(res.Phases, res.Epochs)}
		if d.Truth != nil {
			// A graph with groundtruth also says how well the model explains.
			pred := ilpgnn.NewPredictor(res.Model, res.Inputs)
			p := explain.PrecisionAt(pred.RankedNodes, d.Truth.ExplainedLinks(synth.Test), 1, 2)
			r.P1, r.P2 = &p[0], &p[1]
		}
		r.Warning = warning
		out.Runs = append(out.Runs, r)
		tests = append(tests, r.TestAUC)
		vals = append(vals, r.ValAUC)
		hits = append(hits, r.TestHits)
		if !*asJSON {
			fmt.Fprintf(stdout, "%6d  %8.4f  %8.4f  %26s  %6d  %8.1f  %9.1f  (prep %.1fs; per epoch %s)\n", seed, r.TestAUC, r.ValAUC,
				hitsCell(r.TestHits), r.Epochs, r.TrainSeconds, r.EpochMillis, r.PrepSeconds, phaseSummary(res.Phases, res.Epochs))
			if r.P1 != nil {
				fmt.Fprintf(stdout, "        explanations against groundtruth: Precision@1 %.3f, Precision@2 %.3f\n", *r.P1, *r.P2)
			}
		}
		if *save != "" {
			path := *save
			if len(seeds) > 1 {
				ext := filepath.Ext(path)
				path = fmt.Sprintf("%s.seed%d%s", strings.TrimSuffix(path, ext), seed, ext)
			}
			ck, err := res.Checkpoint(d.Graph)
			if err != nil {
				return err
			}
			if err := ck.WriteFile(path); err != nil {
				return fmt.Errorf("saving checkpoint: %w", err)
			}
			if !*asJSON {
				fmt.Fprintf(stdout, "        saved %s\n", path)
			}
		}
	}
	out.TestAUCMean, out.TestAUCStd = eval.MeanStd(tests)
	out.ValAUCMean, _ = eval.MeanStd(vals)
	out.TestHitsMean, out.TestHitsStd = eval.MeanStdHits(hits)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	m, s := out.TestHitsMean, out.TestHitsStd
	if len(seeds) == 1 {
		fmt.Fprintf(stdout, "test AUC %.4f (validation %.4f); test Hits@20 %.4f, @50 %.4f, @100 %.4f\n", out.TestAUCMean, out.ValAUCMean, m.At20, m.At50, m.At100)
		return nil
	}
	fmt.Fprintf(stdout, "test AUC %.4f ± %.4f over %d seeds (validation %.4f); test Hits@20 %.4f ± %.4f, @50 %.4f ± %.4f, @100 %.4f ± %.4f\n",
		out.TestAUCMean, out.TestAUCStd, len(seeds), out.ValAUCMean, m.At20, s.At20, m.At50, s.At50, m.At100, s.At100)
	return nil
}

// hitsCell renders Hits@20, @50 and @100 for the per-seed table.
func hitsCell(h eval.Hits) string {
	return fmt.Sprintf("%.4f / %.4f / %.4f", h.At20, h.At50, h.At100)
}

// registerFracs binds --val-frac and --test-frac for the models whose
// configuration has no held-out shares of its own (the heuristics and the
// pair models), as ILP-GNN's and the autoencoders' configurations bind
// them.
func registerFracs(fs *flag.FlagSet, valFrac, testFrac *float64) {
	fs.Float64Var(valFrac, "val-frac", *valFrac, "share of edges held out for validation")
	fs.Float64Var(testFrac, "test-frac", *testFrac, "share of edges held out for testing")
}

// applySplit sets the held-out shares from a --split value, refusing it
// beside --val-frac or --test-frac (set names the flags given).
func applySplit(set map[string]bool, value string, valFrac, testFrac *float64) error {
	if !set["split"] {
		return nil
	}
	for _, other := range []string{"val-frac", "test-frac"} {
		if set[other] {
			return fmt.Errorf("--split and --%s both set the held-out shares; give one or the other", other)
		}
	}
	v, t, err := train.ParseSplit(value)
	if err != nil {
		return err
	}
	*valFrac, *testFrac = v, t
	return nil
}

// runError prefixes the error of seed's run with the seed; a diverged
// run's also names the flag to change.
func runError(seed uint64, err error) error {
	if errors.Is(err, train.ErrDiverged) {
		return fmt.Errorf("seed %d: %w (--lr)", seed, err)
	}
	return fmt.Errorf("seed %d: %w", seed, err)
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

var phaseNames = [...]string{"encoder", "selection", "losses", "backward", "optimizer", "eval"}

func phaseList(p train.Phases) [6]time.Duration {
	return [6]time.Duration{p.Encoder, p.Selection, p.Losses, p.Backward, p.Optimizer, p.Eval}
}

// phaseMillis returns the mean milliseconds per epoch of each phase.
func phaseMillis(p train.Phases, epochs int) map[string]float64 {
	out := make(map[string]float64, len(phaseNames))
	for k, d := range phaseList(p) {
		out[phaseNames[k]] = float64(d.Microseconds()) / 1000 / float64(max(epochs, 1))
	}
	return out
}

// phaseSummary renders each phase's mean time per epoch and share.
func phaseSummary(p train.Phases, epochs int) string {
	total := p.Total()
	parts := make([]string, 0, len(phaseNames))
	for k, d := range phaseList(p) {
		parts = append(parts, fmt.Sprintf("%s %.1fms %.0f%%", phaseNames[k],
			float64(d.Microseconds())/1000/float64(max(epochs, 1)), 100*d.Seconds()/max(total.Seconds(), 1e-9)))
	}
	return strings.Join(parts, ", ")
}

// prepareStatus describes a step of the preparation, e.g. "prepare:
// structure similarity 42% (71k/169k columns, 12 s)".
func prepareStatus(p ilpgnn.PrepareProgress) string {
	secs := p.Elapsed.Round(100 * time.Millisecond)
	if p.Phase != ilpgnn.PhaseSimilarity {
		return fmt.Sprintf("prepare: %s (%v)", p.Phase, secs)
	}
	return fmt.Sprintf("prepare: %s %d%% (%s/%s columns, %v)", p.Phase, percent(p), thousands(p.Done), thousands(p.Total), secs)
}

// prepareDetail is how far a phase with countable work has got, "42%
// (71k/169k columns)", or "" for the others; the heartbeat prints it after
// the phase's name and seconds.
func prepareDetail(p ilpgnn.PrepareProgress) string {
	if p.Phase != ilpgnn.PhaseSimilarity {
		return ""
	}
	return fmt.Sprintf("%d%% (%s/%s columns)", percent(p), thousands(p.Done), thousands(p.Total))
}

func percent(p ilpgnn.PrepareProgress) int {
	if p.Total <= 0 {
		return 100
	}
	return 100 * p.Done / p.Total
}

// thousands writes n as "71k" from 10,000 on, else in full.
func thousands(n int) string {
	if n < 10000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%dk", n/1000)
}
