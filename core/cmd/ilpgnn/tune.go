package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/graph"
	"ilpgnn/core/heart"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
	"ilpgnn/core/sysmem"
	"ilpgnn/core/train"
	"ilpgnn/core/tune"
	"ilpgnn/core/userfile"
)

// settingsFile is what tune --settings writes and train --config reads.
type settingsFile struct {
	Model string `json:"model"`
	// Settings are hyperparameters by their flag names.
	Settings map[string]string `json:"settings"`
	// How they were chosen: on which data and tuning seeds, with what
	// mean validation AUC, and by which search (the budget that planned
	// it, its rounds and the seed that drew its candidates), so that the
	// file says how to choose them again.
	Data     string       `json:"data,omitempty"`
	Seeds    []uint64     `json:"seeds,omitempty"`
	ValAUC   float64      `json:"val_auc,omitempty"`
	Budget   string       `json:"budget,omitempty"`
	Rounds   []tune.Round `json:"rounds,omitempty"`
	DrawSeed uint64       `json:"draw_seed,omitempty"`
}

// readSettings reads a settings file, naming it in every error.
func readSettings(path string) (*settingsFile, error) {
	b, err := userfile.ReadFile(path, userfile.Settings)
	if err != nil {
		return nil, fmt.Errorf("--config: %w", err)
	}
	var s settingsFile
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("--config: %s: not a settings file (as tune --settings writes): %w", path, err)
	}
	if s.Model == "" {
		return nil, fmt.Errorf("--config: %s: names no model", path)
	}
	return &s, nil
}

// applySettings applies to cfg, model's configuration, every setting of
// the file at path that the command line did not give (given).
func applySettings(cfg models.Config, given map[string]bool, path, model string) error {
	s, err := readSettings(path)
	if err != nil {
		return err
	}
	if s.Model != model {
		return fmt.Errorf("--config: %s holds settings of %s, not %s (add --model %s)", path, s.Model, model, s.Model)
	}
	rest := map[string]string{}
	for name, v := range s.Settings {
		// The command line wins; --split gives both held-out shares.
		if !given[name] && !(given["split"] && (name == "val-frac" || name == "test-frac")) {
			rest[name] = v
		}
	}
	var se *models.SettingError
	switch err := models.Set(cfg, rest); {
	case errors.As(err, &se) && se.Err == nil:
		return fmt.Errorf("--config: %s: %s has no hyperparameter %q", path, model, se.Name)
	case err != nil:
		return fmt.Errorf("--config: %s: %w", path, err)
	}
	return nil
}

// cmdTune chooses a model's hyperparameters on what train keeps its
// weights by: validation AUC, or explanation precision on a graph with
// groundtruth.
func cmdTune(ctx context.Context, reg models.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune", "--data PATH [--model NAME] [--budget 20m] [--seeds 0] [--trials 9] [--eta 3] [--min-epochs 20] [--settings FILE] [--json] [hyperparameters to keep fixed]", stderr)
	data := fs.String("data", "", dataHelp)
	seedsFlag := fs.String("seeds", "0", "comma-separated tuning seeds: a candidate's score is its mean over one run per seed; report test results on other seeds")
	selectOn := fs.String("select", "auto", "the weight selection train will use (auto, auc, precision or unsupervised, as train's --select): every trial keeps its weights so, and candidates are compared on what it keeps them by")
	model := fs.String("model", "ilpgnn", modelHelp(reg))
	budget := fs.Duration("budget", 0, "time budget (a Go duration: 20m, 1h): plans the search (candidates, eta, first round's epochs) from the model and the graph's size by a cost model measured natively, so the same command plans the same search everywhere; on a machine slower than planned, candidates whose trial would not fit what is left are left out, and the output says so; --trials, --eta and --min-epochs given beside it win over the plan's")
	opt := tune.DefaultOptions()
	fs.IntVar(&opt.Candidates, "trials", opt.Candidates, "candidate settings drawn from the model's search space (given beside --budget, wins over the plan's)")
	fs.IntVar(&opt.Eta, "eta", opt.Eta, "each round keeps 1/eta of the candidates and trains them eta times longer (given beside --budget, wins over the plan's)")
	fs.IntVar(&opt.MinEpochs, "min-epochs", opt.MinEpochs, "epochs of the first round (given beside --budget, wins over the plan's)")
	fs.Uint64Var(&opt.Seed, "draw-seed", opt.Seed, "draws the candidates")
	out := fs.String("settings", "", "write the chosen settings to this file, for train --config")
	asJSON := fs.Bool("json", false, "print the search as one JSON object on stdout")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	var ev evalFlags
	ev.registerTune(fs)
	spec, lookupErr := reg.Lookup(modelFlag(args))
	if lookupErr != nil {
		spec = reg[0]
	}
	if err := registerModelFlags(fs, spec); err != nil {
		return err
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "data"); err != nil {
		return err
	}
	spec, err := reg.Lookup(*model)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if opt.Seeds, err = parseSeeds(*seedsFlag); err != nil {
		return err
	}
	if *budget < 0 {
		return fmt.Errorf("--budget: want a positive duration (got %v)", *budget)
	}
	if err := ev.validate(given(fs)); err != nil {
		return err
	}
	if opt.Select, err = models.ParseSelection(*selectOn); err != nil {
		return fmt.Errorf("--select: %w", err)
	}
	opt.Fixed = fixedSettings(fs)
	opt.Budget = *budget
	src, err := dataset.Parse(*data)
	if err != nil {
		return err
	}
	if !*quiet {
		opt.Progress = func(t tune.Trial) {
			fmt.Fprintf(stderr, "round %d  candidate %s  %s  %s  %5.1fs  %s\n", t.Round, candidateName(t, 2), epochsText(t), scoresText(t), t.Seconds, settingsText(t.Settings))
		}
	}
	s, err := runTune(ctx, spec, src, *budget, opt, given(fs), ev, stderr)
	if err != nil {
		return err
	}
	if *out != "" {
		f := settingsFile{Model: spec.Name, Settings: s.Best, Data: *data, Seeds: opt.Seeds, ValAUC: s.ValAUC,
			Budget: s.Budget, Rounds: s.Plan, DrawSeed: opt.Seed}
		if err := writeFile(*out, func(w io.Writer) error { return writeJSON(w, f) }); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, s)
	}
	printSearch(stdout, s.Result, opt.Seeds, *data, *out)
	return nil
}

// checkSearchMemory refuses a search whose trials would need more memory
// than this machine has: the model's default settings with fixed set,
// which the searched settings (learning rate, decay, dropout, β) do not
// grow.
func checkSearchMemory(spec models.Spec, fixed map[string]string, g *graph.Graph) error {
	cfg := spec.New()
	if err := models.Set(cfg, fixed); err != nil {
		return nil // the search reports a bad setting itself
	}
	_, _, err := checkMemory(cfg, g)
	return err
}

// checkMemory estimates the peak memory of training with cfg on g, for
// the models that have an estimate (models.MemoryEstimator; nil
// otherwise), and refuses it over this machine's memory, limit (0 where
// that is unknown).
func checkMemory(cfg models.Config, g *graph.Graph) (est *train.MemoryEstimate, limit int64, err error) {
	me, ok := cfg.(models.MemoryEstimator)
	if !ok {
		return nil, 0, nil
	}
	m := me.EstimateMemory(g)
	limit, _ = sysmem.Limit()
	return &m, limit, m.Refusal(limit, "this machine's memory")
}

// searched is a finished search with its plan, as tune --json prints it.
type searched struct {
	*tune.Result
	// Budget is --budget, "" without one.
	Budget string `json:"budget,omitempty"`
	// Plan is the search's rounds; EstimatedSeconds its native time by
	// the cost model, every trial running all its epochs; Seconds (of
	// Result) the actual time.
	Plan             []tune.Round `json:"plan"`
	EstimatedSeconds float64      `json:"estimated_seconds"`
}

// runTune searches spec's settings on src with opt, its size planned from
// budget when positive (the flags of given among trials, eta and
// min-epochs winning), and writes the plan with its estimate before the
// first trial and the actual time after the last to log.
func runTune(ctx context.Context, spec models.Spec, src *dataset.Source, budget time.Duration, opt tune.Options, given map[string]bool, ev evalFlags, log io.Writer) (*searched, error) {
	opt.Rank = ev.eval == "heart"
	if len(spec.Space) == 0 {
		return nil, tune.ErrNothingToTune
	}
	if len(opt.Seeds) == 0 {
		return nil, errors.New("tune: no tuning seeds")
	}
	d, err := src.Load(opt.Seeds[0])
	if err != nil {
		return nil, err
	}
	if err := checkSearchMemory(spec, opt.Fixed, d.Graph); err != nil {
		return nil, err
	}
	size := tune.SizeOf(d.Graph)
	if budget > 0 {
		planned, _, err := tune.Plan(spec, size, budget, opt)
		if err != nil {
			return nil, err
		}
		if !given["trials"] {
			opt.Candidates = planned.Candidates
		}
		if !given["eta"] {
			opt.Eta = planned.Eta
		}
		if !given["min-epochs"] {
			opt.MinEpochs = planned.MinEpochs
		}
	}
	est, err := tune.EstimateOf(spec, size, opt)
	if err != nil {
		return nil, err
	}
	within := ""
	if budget > 0 {
		within = " (budget " + tune.Duration(budget) + ")"
	}
	fmt.Fprintf(log, "plan: %s%s, %s here\n", spec.Name, within, est)
	res, err := tune.Search(ctx, spec, tuningData(src, ev), opt)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "tune: %s took %s (estimated at most %s)\n", spec.Name, tune.Seconds(res.Seconds), tune.Seconds(est.Seconds))
	if res.Cut != "" {
		fmt.Fprintf(log, "tune: %s: the machine ran slower than planned: %s\n", spec.Name, res.Cut)
	}
	s := &searched{Result: res, Plan: est.Rounds, EstimatedSeconds: est.Seconds}
	if budget > 0 {
		s.Budget = tune.Duration(budget)
	}
	return s, nil
}

// tuningData loads a tuning seed's dataset and its split with the default
// shares.
//
// Under --eval heart each split's validation links get their hard
// negatives, drawn once per seed for every trial.
func tuningData(src *dataset.Source, ev evalFlags) tune.Data {
	hard := map[uint64][]graph.Edge{}
	return func(seed uint64) (*dataset.Dataset, *split.Split, error) {
		d, err := src.Load(seed)
		if err != nil {
			return nil, nil, err
		}
		sp, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
		if err != nil {
			return nil, nil, fmt.Errorf("seed %d: %w", seed, err)
		}
		if ev.eval == "heart" {
			if pairs, ok := hard[seed]; ok {
				sp.ValHard, sp.HardPerLink = pairs, heart.DefaultOptions().PerLink
			} else {
				if err := ev.attachValidation(d, sp, seed); err != nil {
					return nil, nil, err
				}
				hard[seed] = sp.ValHard
			}
		}
		return d, sp, nil
	}
}

// fixedSettings are the model's hyperparameters given on the command line.
func fixedSettings(fs *flag.FlagSet) map[string]string {
	out := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if !isTuneFlag(f.Name) {
			out[f.Name] = f.Value.String()
		}
	})
	return out
}

// isTuneFlag reports whether name is one of tune's own flags; the rest
// are the model's.
func isTuneFlag(name string) bool {
	switch name {
	case "data", "seeds", "model", "budget", "trials", "eta", "min-epochs", "draw-seed", "settings", "json", "quiet", "select", "eval", "negatives":
		return true
	}
	return false
}

// registerModelFlags adds spec's hyperparameter flags to fs, refusing a
// model whose flag has the name of one of tune's own.
func registerModelFlags(fs *flag.FlagSet, spec models.Spec) error {
	cfg := spec.New()
	scratch := flag.NewFlagSet(spec.Name, flag.ContinueOnError)
	cfg.RegisterFlags(scratch)
	var clash []string
	scratch.VisitAll(func(f *flag.Flag) {
		if fs.Lookup(f.Name) != nil {
			clash = append(clash, "--"+f.Name)
		}
	})
	if len(clash) > 0 {
		return fmt.Errorf("tune: %s's hyperparameters %s share names with tune's own flags", spec.Name, strings.Join(clash, ", "))
	}
	cfg.RegisterFlags(fs)
	return nil
}

// settingsText writes settings as --flag value pairs in name order.
func settingsText(s map[string]string) string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for k, n := range names {
		parts[k] = "--" + n + " " + s[n]
	}
	return strings.Join(parts, " ")
}

// candidateName is t's candidate number, or "current" for the current
// settings, right-aligned in width.
func candidateName(t tune.Trial, width int) string {
	if t.Current {
		return fmt.Sprintf("%*s", width, "current")
	}
	return fmt.Sprintf("%*d", width, t.Candidate)
}

// epochsText says how long t trained: "100 epochs", "57 of 100 epochs"
// when its runs stopped early, "127 epochs, stopped early" for the
// current settings, which train to the user's maximum.
func epochsText(t tune.Trial) string {
	switch {
	case t.Current && !t.Capped:
		return fmt.Sprintf("%4d epochs, stopped early", t.Trained)
	case t.Capped:
		return fmt.Sprintf("%4d epochs", t.Epochs)
	}
	return fmt.Sprintf("%4d of %d epochs", t.Trained, t.Epochs)
}

// scoresText writes t's validation scores, the one its weights were kept
// on first: "val P@1 0.952 P@2 0.901 AUC 0.9165" or "val AUC 0.9213".
func scoresText(t tune.Trial) string {
	if t.ValMRR != nil {
		return fmt.Sprintf("val MRR %.4f AUC %.4f", *t.ValMRR, t.ValAUC)
	}
	if t.ValP1 == nil {
		return fmt.Sprintf("val AUC %.4f", t.ValAUC)
	}
	if t.SelectedOn == models.SelectPrecision {
		return fmt.Sprintf("val P@1 %.3f P@2 %.3f AUC %.4f", *t.ValP1, *t.ValP2, t.ValAUC)
	}
	return fmt.Sprintf("val AUC %.4f P@1 %.3f P@2 %.3f", t.ValAUC, *t.ValP1, *t.ValP2)
}

// keptOn names what the trials kept their weights by.
func keptOn(t tune.Trial) string {
	if t.SelectedOn == models.SelectPrecision {
		return "validation explanation precision (P@1 + P@2, as train keeps weights on this graph), with no lower validation AUC"
	}
	return "validation AUC"
}

// printSearch writes the trials in the order they ran, the choice with
// the tuning seeds that made it, and the command that trains with it on
// data.
func printSearch(w io.Writer, res *tune.Result, seeds []uint64, data, out string) {
	fmt.Fprintf(w, "%5s  %9s  %-26s  %-34s  %s\n", "round", "candidate", "epochs", "validation", "settings")
	for _, t := range res.Trials {
		fmt.Fprintf(w, "%5d  %9s  %-26s  %-34s  %s\n", t.Round, candidateName(t, 9), strings.TrimSpace(epochsText(t)), scoresText(t), settingsText(t.Settings))
	}
	if res.Cut != "" {
		fmt.Fprintf(w, "the budget cut the search: %s\n", res.Cut)
	}
	switch {
	case res.KeptCurrent && res.Current.Trained == 0:
		fmt.Fprintf(w, "the current settings stay: %s\n", settingsText(res.Best))
	case res.KeptCurrent:
		fmt.Fprintf(w, "no candidate beat the current settings on %s (%s), so they stay: %s\n", keptOn(res.Current), scoresText(res.Current), settingsText(res.Best))
	default:
		fmt.Fprintf(w, "chosen for %s on tuning seeds %v by %s (%s against %s for the current settings; measure test numbers on other seeds): %s\n",
			res.Model, seeds, keptOn(res.Chosen), scoresText(res.Chosen), scoresText(res.Current), settingsText(res.Best))
	}
	if res.Current.Capped {
		fmt.Fprintf(w, "the current settings trained all %d epochs without stopping early\n", res.Current.Epochs)
	}
	if out != "" {
		fmt.Fprintf(w, "written to %s: ilpgnn train --data %s --model %s --config %s\n", out, shellQuote(data), res.Model, shellQuote(out))
	}
}

// shellQuote returns s as one word of a POSIX shell command: as it is
// when it holds only characters no shell treats specially, else in single
// quotes.
func shellQuote(s string) string {
	safe := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r))
	}) < 0
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
