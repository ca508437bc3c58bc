package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"ilpgnn/core/calibrate"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/models"
	"ilpgnn/core/printable"
	"ilpgnn/core/train"
	"ilpgnn/core/tune"
)

// dataHelp documents every --data flag.
const dataHelp = "dataset: LINQS folder, .npz file, edge list (CSV, TSV, semicolons), .graphml, .gexf, node-link or graphology .json, a folder written by synth, or synth:PRESET[:seed=S] (PRESET sparse, medium or dense; without a seed, each run's seed)"

// openData parses a --data value and loads it for the run with seed.
func openData(spec string, seed uint64) (*dataset.Source, *dataset.Dataset, error) {
	src, err := dataset.Parse(spec)
	if err != nil {
		return nil, nil, err
	}
	if cfg, ok := src.Generator(); ok {
		if err := checkSynthMemory(cfg); err != nil {
			return nil, nil, err
		}
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

type runJSON struct {
	Seed    uint64  `json:"seed"`
	TestAUC float64 `json:"test_auc"`
	// TestHits is Hits@20, @50 and @100 of the test links against the
	// test non-links, as OGB's evaluator computes them (eval.HitsAtK).
	TestHits eval.Hits `json:"test_hits"`
	// TestHeart ranks each test link among its own hard negatives
	// (--eval heart), and HeartNegatives says where those came from.
	TestHeart *eval.Ranking `json:"test_heart,omitempty"`
	// SuggestHits10 is the share of test links (1000 at most) whose other
	// end is among the first 10 suggestions of their first end, ranked
	// among every node not yet its neighbour (--eval heart).
	SuggestHits10  *float64   `json:"suggest_hits10,omitempty"`
	HeartNegatives *heartJSON `json:"heart_negatives,omitempty"`
	ValAUC         float64    `json:"val_auc"`
	Epochs         int        `json:"epochs"`
	BestEpoch      int        `json:"best_epoch"`
	TrainSeconds   float64    `json:"train_seconds"`
	EpochMillis    float64    `json:"epoch_ms"`
	PrepSeconds    float64    `json:"prep_seconds"`
	// PhaseMillis is the mean time per epoch of each phase.
	PhaseMillis map[string]float64 `json:"phase_ms"`
	// P1 and P2 are the explanations' Precision@1 and @2 on the test links
	// of a graph with groundtruth (docs/model.md §7).
	P1 *float64 `json:"p_at_1,omitempty"`
	P2 *float64 `json:"p_at_2,omitempty"`
	// ValP1 and ValP2 are the same on the validation links, what weights
	// kept on precision were kept on.
	ValP1 *float64 `json:"val_p_at_1,omitempty"`
	ValP2 *float64 `json:"val_p_at_2,omitempty"`
	// SelectedOn is the rule that kept the weights ("precision" or
	// "auc") for models that can select on their explanations.
	SelectedOn models.Selection `json:"selected_on,omitempty"`
	// Calibration is the test pairs' calibration (ece, ece_uncalibrated,
	// temperature, reliability) of models whose probabilities are
	// calibrated (package calibrate).
	*calibrate.Calibration
	// Warning says why the AUCs may mean little (a split with too few test
	// links).
	Warning string `json:"warning,omitempty"`

	phases []models.Phase
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
	// TestHeartMean and TestHeartStd are the mean and std of the runs'
	// TestHeart (--eval heart).
	TestHeartMean *eval.Ranking `json:"test_heart_mean,omitempty"`
	TestHeartStd  *eval.Ranking `json:"test_heart_std,omitempty"`
	// SuggestHits10Mean is the mean of the runs' SuggestHits10.
	SuggestHits10Mean *float64 `json:"suggest_hits10_mean,omitempty"`
	ValAUCMean        float64  `json:"val_auc_mean"`
	// ECEMean and ECEUncalibratedMean are the means over seeds of the runs'
	// calibration errors, when the model is calibrated.
	ECEMean             *float64 `json:"ece_mean,omitempty"`
	ECEUncalibratedMean *float64 `json:"ece_uncalibrated_mean,omitempty"`
	// Notes are what the loader did not take from the data as it stands
	// (graph.Graph.InputNotes).
	Notes []string `json:"notes,omitempty"`
	// FeaturesMadeUp is graph.Graph.MadeUpFeatures: what the features are
	// when the input gave none, and why.
	FeaturesMadeUp string `json:"features_made_up,omitempty"`
	// MemoryEstimate is the estimated peak memory of training the model
	// on the graph (models.MemoryEstimator), MemoryLimit this machine's
	// memory where known, and EpochSecondsEstimate the estimated seconds
	// of an epoch (tune.EpochSeconds; ILP-GNN's on as many threads as
	// GOMAXPROCS, EpochThreads); set before training, for the models that
	// have them.
	MemoryEstimate       *train.MemoryEstimate `json:"memory_estimate,omitempty"`
	MemoryLimit          int64                 `json:"memory_limit,omitempty"`
	EpochSecondsEstimate float64               `json:"epoch_seconds_estimate,omitempty"`
	EpochThreads         int                   `json:"epoch_threads,omitempty"`
	// Error is why the command failed (it also exits non-zero); Runs holds
	// the seeds that finished before.
	Error string `json:"error,omitempty"`
}

// trainRun is what cmdTrain parsed from its flags.
type trainRun struct {
	data, seeds, save, split, cpuProfile string
	json, quiet                          bool
	selection                            models.Selection
	eval                                 evalFlags
	spec                                 models.Spec
	config                               models.Config
	given                                map[string]bool
}

func cmdTrain(ctx context.Context, reg models.Registry, args []string, stdout, stderr io.Writer) (err error) {
	tr, err := parseTrain(reg, args, stderr)
	if err != nil {
		return err
	}
	if tr.cpuProfile != "" {
		stopProfile, err := startCPUProfile(tr.cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	out := trainJSON{Model: tr.spec.Name, Runs: []runJSON{}}
	if tr.json {
		// A failure still answers with one JSON object, saying why.
		defer func() {
			if err != nil {
				out.Error = err.Error()
				_ = writeJSON(stdout, out) // the command fails with err either way
			}
		}()
	}
	seeds, err := parseSeeds(tr.seeds)
	if err != nil {
		return err
	}
	if err := tr.config.Validate(); err != nil {
		return err
	}
	rep := newReporter(stderr, tr.quiet)
	defer rep.close()
	rep.hb.phase("reading " + tr.data)
	src, first, err := openData(tr.data, seeds[0])
	if err != nil {
		return err
	}
	g := first.Graph
	out.Dataset = g.Name
	out.Notes = g.InputNotes()
	out.FeaturesMadeUp = g.MadeUpFeatures
	if err := out.estimate(tr, g); err != nil {
		return err
	}
	if !tr.json {
		fmt.Fprintf(stdout, "dataset %s: %d nodes, %d edges, %s\n", printable.Name(g.Name), g.NumNodes(), g.NumEdges(), g.FeatureSummary())
		for _, note := range out.Notes {
			fmt.Fprintf(stdout, "note: %s\n", note)
		}
		if m := out.MemoryEstimate; m != nil {
			fmt.Fprintf(stdout, "estimate: about %s of memory at its peak%s, about %s an epoch%s\n",
				train.Bytes(m.Bytes), limitText(out.MemoryLimit), epochText(out.EpochSecondsEstimate), threadsText(out.EpochThreads))
		}
		fmt.Fprintf(stdout, "%6s  %8s  %8s  %26s  %6s  %8s  %9s\n", "seed", "test AUC", "val AUC", "test Hits@20 / @50 / @100", "epochs", "seconds", "ms/epoch")
	}
	for _, seed := range seeds {
		r, err := tr.runSeed(ctx, src, seed, rep, stdout, len(seeds) > 1)
		if err != nil {
			return err
		}
		out.Runs = append(out.Runs, r)
	}
	out.summarise()
	if tr.json {
		return writeJSON(stdout, out)
	}
	out.printSummary(stdout)
	return nil
}

// parseTrain parses train's flags: the model named by --model brings its
// own hyperparameter flags.
func parseTrain(reg models.Registry, args []string, stderr io.Writer) (*trainRun, error) {
	fs := newFlags("train", "--data PATH [--model "+strings.Join(reg.Names(), "|")+"] [--seeds 0,1,2,3,4] [--json] [--save FILE] [hyperparameters]", stderr)
	tr := &trainRun{}
	fs.StringVar(&tr.data, "data", "", dataHelp)
	fs.StringVar(&tr.seeds, "seeds", "0,1,2,3,4", "comma-separated seeds; each seed is its own split and initialisation (and its own graph for synth:PRESET)")
	fs.BoolVar(&tr.json, "json", false, "print one JSON object on stdout")
	fs.StringVar(&tr.save, "save", "", "write the checkpoint here (with several seeds, FILE gets .seedN before its extension)")
	fs.BoolVar(&tr.quiet, "quiet", false, "no progress lines on stderr")
	selectOn := fs.String("select", "auto", "keep the weights with the best validation auc, or precision (P@1 + P@2, graphs with groundtruth only), or as on a graph without groundtruth (unsupervised: reads none, even where it exists), or rank (ILP-GNN, with --eval heart: the best MRR of the validation links among hard negatives of their own); auto is precision where groundtruth exists, with patience 30 unless --patience is given, and unsupervised elsewhere")
	model := fs.String("model", "ilpgnn", modelHelp(reg))
	fs.StringVar(&tr.split, "split", "", "TRAIN/VAL/TEST shares of the edges, percentages or fractions (60/10/30 is ogbn-arxiv's); instead of --val-frac and --test-frac")
	fs.StringVar(&tr.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof reads it)")
	config := fs.String("config", "", "read hyperparameters from this settings file (as tune --settings writes it); flags given here win")
	tr.eval.register(fs)
	// An unknown --model still gets ILP-GNN's flags, so that the error
	// names the model rather than a flag.
	spec, lookupErr := reg.Lookup(modelFlag(args))
	if lookupErr != nil {
		spec = reg[0]
	}
	tr.config = spec.New()
	tr.config.RegisterFlags(fs)
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	tr.given = given(fs)
	if err := applySplit(fs, tr.given, tr.split); err != nil {
		return nil, err
	}
	tr.eval.rank = *selectOn == string(models.SelectRank)
	if err := tr.eval.validate(tr.given); err != nil {
		return nil, err
	}
	if err := required(fs, "data"); err != nil {
		return nil, err
	}
	spec, err := reg.Lookup(*model)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	tr.spec = spec
	if *config != "" {
		if err := applySettings(tr.config, tr.given, *config, spec.Name); err != nil {
			return nil, err
		}
	}
	switch {
	case !spec.Learns && tr.save != "":
		return nil, fmt.Errorf("--save: %s learns nothing, so there is no checkpoint to save", spec.Name)
	case !spec.Saves && tr.save != "":
		return nil, fmt.Errorf("--save: checkpoints of %s are not supported yet", spec.Name)
	case tr.save != "":
		if err := checkWritable(tr.save); err != nil {
			return nil, fmt.Errorf("--save: %w", err)
		}
	}
	if tr.selection, err = models.ParseSelection(*selectOn); err != nil {
		return nil, fmt.Errorf("--select: %w", err)
	}
	return tr, nil
}

// runSeed trains one seed's run and prints its line.
func (tr *trainRun) runSeed(ctx context.Context, src *dataset.Source, seed uint64, rep *reporter, stdout io.Writer, manySeeds bool) (runJSON, error) {
	if tr.spec.Learns {
		rep.hb.phase(fmt.Sprintf("seed %d: splitting and preparing", seed))
	} else {
		rep.hb.phase(fmt.Sprintf("seed %d: splitting and scoring", seed))
	}
	d, err := src.Load(seed)
	if err != nil {
		return runJSON{}, err
	}
	if d.Truth != nil {
		for _, f := range []string{"split", "val-frac", "test-frac"} {
			if tr.given[f] {
				return runJSON{}, fmt.Errorf("--%s: %s has its own split: a synthetic graph's links get their roles (train, validation, test) when it is generated", f, tr.data)
			}
		}
	}
	if err := tr.selection.Check(d); err != nil {
		return runJSON{}, fmt.Errorf("--select precision: %s has no groundtruth explanations (use synth:PRESET or a folder written by `ilpgnn synth`)", tr.data)
	}
	loop := tr.config.Loop()
	sp, err := d.Split(seed, loop.ValFrac, loop.TestFrac)
	if err != nil {
		return runJSON{}, fmt.Errorf("seed %d: %w", seed, err)
	}
	warning := train.TestWarning(sp)
	if warning != "" && !tr.json {
		// In the report itself, where --quiet does not hide it.
		fmt.Fprintf(stdout, "%6d  warning: %s\n", seed, warning)
	}
	hard, err := tr.eval.attach(d, sp, seed)
	if err != nil {
		return runJSON{}, err
	}
	run := models.Run{Data: d, Split: sp, Seed: seed, Select: tr.selection, Given: tr.given}
	byPrecision := tr.selection == models.SelectPrecision || tr.selection == models.SelectAuto && d.Truth != nil
	t, err := tr.config.Train(ctx, run, rep.progress(seed, byPrecision))
	rep.clearLine()
	if err != nil {
		return runJSON{}, runError(seed, err)
	}
	r := runOf(seed, t.Result())
	r.P1, r.P2 = models.TrainedPrecision(t, d.Truth)
	r.ValP1, r.ValP2 = models.ValidationPrecision(t, d.Truth)
	r.Warning = warning
	r.HeartNegatives = hard
	if !tr.json {
		r.print(stdout, tr.spec)
		if r.TestHeart != nil {
			printRanking(stdout, r.TestHeart, r.SuggestHits10, hard)
		}
	}
	if tr.save != "" {
		return r, tr.saveRun(t, d, seed, manySeeds, stdout)
	}
	return r, nil
}

// saveRun writes t's checkpoint to --save, seed's own file when there are
// several seeds.
func (tr *trainRun) saveRun(t models.Trained, d *dataset.Dataset, seed uint64, manySeeds bool, stdout io.Writer) error {
	path := tr.save
	if manySeeds {
		ext := filepath.Ext(path)
		path = fmt.Sprintf("%s.seed%d%s", strings.TrimSuffix(path, ext), seed, ext)
	}
	ck, err := t.Checkpoint(d.Graph, fingerprint.Of(d.Graph))
	if err != nil {
		return err
	}
	if err := ck.WriteFile(path); err != nil {
		return fmt.Errorf("saving checkpoint: %w", err)
	}
	if !tr.json {
		fmt.Fprintf(stdout, "        saved %s\n", path)
	}
	return nil
}

// estimate sets the model's estimates of memory and time on g, and
// refuses to train when the memory is over what this machine has.
func (out *trainJSON) estimate(tr *trainRun, g *graph.Graph) error {
	out.EpochSecondsEstimate = tune.EpochSeconds(tr.spec.Name, tune.SizeOf(g))
	if tr.spec.Name == "ilpgnn" && out.EpochSecondsEstimate > 0 {
		// Only ILP-GNN's epoch divides between threads as measured.
		out.EpochThreads = runtime.GOMAXPROCS(0)
		out.EpochSecondsEstimate = tune.OnThreads(out.EpochSecondsEstimate, out.EpochThreads)
	}
	var err error
	out.MemoryEstimate, out.MemoryLimit, err = checkMemory(tr.config, g)
	return err
}

// threadsText names the threads an estimated epoch runs on: " on 2
// threads", nothing where the estimate does not count them.
func threadsText(threads int) string {
	switch threads {
	case 0:
		return ""
	case 1:
		return " on one thread"
	}
	return fmt.Sprintf(" on %d threads", threads)
}

// epochText writes an estimated epoch for people: "2.2 ms", "123 ms",
// "3.2 s", "4 min".
func epochText(s float64) string {
	switch {
	case s < 0.01:
		return fmt.Sprintf("%.1f ms", 1000*s)
	case s < 1:
		return fmt.Sprintf("%.0f ms", 1000*s)
	case s < 10:
		return fmt.Sprintf("%.1f s", s)
	}
	return tune.Seconds(s)
}

// checkWritable makes sure, before any training, that a file can be
// written at path: its folder exists and takes a new file, and path is
// not a folder.
func checkWritable(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s is a folder; name the file to write", path)
	}
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: the folder %s does not exist", path, dir)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s: %s is not a folder", path, dir)
	}
	probe, err := os.CreateTemp(dir, ".ilpgnn-save-check-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s: %w", path, dir, errors.Unwrap(err))
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// runOf is a run's line of the report.
func runOf(seed uint64, res models.Result) runJSON {
	r := runJSON{Seed: seed, TestAUC: res.TestAUC, TestHits: res.TestHits, TestHeart: res.TestRanking, SuggestHits10: res.SuggestHits10, ValAUC: res.ValAUC, Epochs: res.Epochs, BestEpoch: res.BestEpoch,
		TrainSeconds: res.TrainSeconds, EpochMillis: res.EpochMillis, PrepSeconds: res.PrepSeconds, phases: res.Phases,
		Calibration: res.Calibration, SelectedOn: res.SelectedOn}
	if len(res.Phases) > 0 {
		r.PhaseMillis = make(map[string]float64, len(res.Phases))
		for _, p := range res.Phases {
			r.PhaseMillis[p.Name] = p.Millis
		}
	}
	return r
}

// print writes the run's line of the table, with its explanations'
// precision where the graph has groundtruth.
func (r runJSON) print(w io.Writer, spec models.Spec) {
	fmt.Fprintf(w, "%6d  %8.4f  %8.4f  %26s  %6d  %8.1f  %9.1f", r.Seed, r.TestAUC, r.ValAUC, hitsCell(r.TestHits), r.Epochs, r.TrainSeconds, r.EpochMillis)
	if len(r.phases) > 0 {
		fmt.Fprintf(w, "  (prep %.1fs; per epoch %s)", r.PrepSeconds, phaseSummary(r.phases))
	}
	fmt.Fprintln(w)
	switch {
	case r.Calibration != nil && r.Applied:
		fmt.Fprintf(w, "        calibration on test pairs: ECE %.4f with temperature %.3f and bias %.3f (%.4f uncalibrated)\n", r.ECE, r.Temperature, r.Bias, r.ECEUncalibrated)
	case r.Calibration != nil:
		fmt.Fprintf(w, "        not calibrated: %s; p is the model's own sigmoid(logit) (ECE %.4f on test pairs)\n", r.NotApplied, r.ECE)
	}
	if r.P1 != nil {
		fmt.Fprintf(w, "        %s as explanation against groundtruth: Precision@1 %.3f, Precision@2 %.3f", spec.Explanation, *r.P1, *r.P2)
		if r.ValP1 != nil {
			fmt.Fprintf(w, " (validation %.3f, %.3f)", *r.ValP1, *r.ValP2)
		}
		fmt.Fprintln(w)
	}
	if r.SelectedOn == models.SelectAUC && r.P1 == nil {
		fmt.Fprintf(w, "        weights kept on validation AUC: %s\n", models.AUCSelectionCaveat)
	}
}

// summarise sets the means over the runs.
func (out *trainJSON) summarise() {
	var tests, vals, eces, raws []float64
	var hits []eval.Hits
	for _, r := range out.Runs {
		tests, vals, hits = append(tests, r.TestAUC), append(vals, r.ValAUC), append(hits, r.TestHits)
		if r.Calibration != nil {
			eces, raws = append(eces, r.ECE), append(raws, r.ECEUncalibrated)
		}
	}
	if len(eces) > 0 && len(eces) == len(out.Runs) {
		e, _ := eval.MeanStd(eces)
		u, _ := eval.MeanStd(raws)
		out.ECEMean, out.ECEUncalibratedMean = &e, &u
	}
	out.TestAUCMean, out.TestAUCStd = eval.MeanStd(tests)
	out.ValAUCMean, _ = eval.MeanStd(vals)
	out.TestHitsMean, out.TestHitsStd = eval.MeanStdHits(hits)
	rankings, suggest := make([]*eval.Ranking, len(out.Runs)), make([]*float64, len(out.Runs))
	for k, r := range out.Runs {
		rankings[k], suggest[k] = r.TestHeart, r.SuggestHits10
	}
	out.TestHeartMean, out.TestHeartStd = eval.MeanStdRanking(rankings)
	out.SuggestHits10Mean = eval.MeanOfAll(suggest)
}

// printSummary writes the closing line of the table.
func (out *trainJSON) printSummary(w io.Writer) {
	m, s := out.TestHitsMean, out.TestHitsStd
	if len(out.Runs) == 1 {
		fmt.Fprintf(w, "test AUC %.4f (validation %.4f); test Hits@20 %.4f, @50 %.4f, @100 %.4f\n", out.TestAUCMean, out.ValAUCMean, m.At20, m.At50, m.At100)
	} else {
		fmt.Fprintf(w, "test AUC %.4f ± %.4f over %d seeds (validation %.4f); test Hits@20 %.4f ± %.4f, @50 %.4f ± %.4f, @100 %.4f ± %.4f\n",
			out.TestAUCMean, out.TestAUCStd, len(out.Runs), out.ValAUCMean, m.At20, s.At20, m.At50, s.At50, m.At100, s.At100)
	}
	if h, hs := out.TestHeartMean, out.TestHeartStd; h != nil {
		fmt.Fprintf(w, "HeaRT: MRR %.4f ± %.4f, Hits@1 %.4f ± %.4f, @10 %.4f ± %.4f, @100 %.4f ± %.4f", h.MRR, hs.MRR, h.Hits1, hs.Hits1, h.Hits10, hs.Hits10, h.Hits100, hs.Hits100)
		if out.SuggestHits10Mean != nil {
			fmt.Fprintf(w, "; test links among the first 10 suggestions %.4f", *out.SuggestHits10Mean)
		}
		fmt.Fprintln(w)
	}
}

// hitsCell renders Hits@20, @50 and @100 for the per-seed table.
func hitsCell(h eval.Hits) string {
	return fmt.Sprintf("%.4f / %.4f / %.4f", h.At20, h.At50, h.At100)
}

// applySplit sets the held-out shares (the flags val-frac and test-frac
// of fs) from a --split value, refusing it beside either of them (set names
// the flags given).
func applySplit(fs *flag.FlagSet, set map[string]bool, value string) error {
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
	for name, share := range map[string]float64{"val-frac": v, "test-frac": t} {
		if err := fs.Set(name, strconv.FormatFloat(share, 'g', -1, 64)); err != nil {
			return fmt.Errorf("--split: %w", err)
		}
	}
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

// phaseSummary renders each phase's mean time per epoch and share.
func phaseSummary(phases []models.Phase) string {
	var total float64
	for _, p := range phases {
		total += p.Millis
	}
	parts := make([]string, 0, len(phases))
	for _, p := range phases {
		parts = append(parts, fmt.Sprintf("%s %.1fms %.0f%%", p.Name, p.Millis, 100*p.Millis/max(total, 1e-9)))
	}
	return strings.Join(parts, ", ")
}
