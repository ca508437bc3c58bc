package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/models"
	"ilpgnn/core/paper/experiment"
	"ilpgnn/core/split"
	"ilpgnn/core/train"
	"ilpgnn/core/tune"
)

// modelHelp documents --model with the registry's models.
func modelHelp(reg models.Registry) string {
	parts := make([]string, len(reg))
	for k, s := range reg {
		parts[k] = fmt.Sprintf("%s (%s)", s.Name, s.About)
	}
	return "link predictor: " + strings.Join(parts, ", ") + "; each has its own hyperparameter flags (--model NAME -h)"
}

// modelFlag returns the value of --model in args, before the flags are
// defined: each model brings its own hyperparameter flags. It is "ilpgnn"
// when absent; a bad value is reported by checkModel after parsing.
func modelFlag(args []string) string {
	for k, a := range args {
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "model" {
			continue
		}
		if hasVal {
			return val
		}
		if k+1 < len(args) {
			return args[k+1]
		}
	}
	return "ilpgnn"
}

// predictors returns table 1's columns for a comma-separated list of model
// names; ILP-GNN trains with ilp and keeps the best validation AUC, as
// table 1 measures AUC. sets are MODEL.FLAG=VALUE settings of the
// baselines' hyperparameters (--set).
func predictors(reg models.Registry, names string, ilp train.Config, sets []string) ([]experiment.Predictor, error) {
	bySet, err := parseSets(reg, sets, names)
	if err != nil {
		return nil, err
	}
	var out []experiment.Predictor
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		spec, err := reg.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("--models: %w", err)
		}
		cfg := spec.New()
		if c, ok := cfg.(*models.ILPGNNConfig); ok {
			c.Config = ilp
		}
		if err := applySets(name, cfg, bySet[name]); err != nil {
			return nil, err
		}
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("--set: %w", err)
		}
		out = append(out, experiment.Predictor{Name: name, Fit: fitWith(cfg)})
	}
	return out, nil
}

// fitWith returns table 1's run of cfg: trained on the split, keeping the
// weights of the best validation AUC.
func fitWith(cfg models.Config) experiment.FitFunc {
	return func(ctx context.Context, d *dataset.Dataset, sp *split.Split, seed uint64) (experiment.Fit, error) {
		t, err := cfg.Train(ctx, models.Run{Data: d, Split: sp, Seed: seed, Select: models.SelectAUC}, nil)
		if err != nil {
			return experiment.Fit{}, err
		}
		r := t.Result()
		return experiment.Fit{TestAUC: r.TestAUC, TestHits: r.TestHits, TestHeart: r.TestRanking, SuggestHits10: r.SuggestHits10, ValAUC: r.ValAUC, Epochs: r.Epochs,
			TrainSeconds: r.TrainSeconds, EpochMillis: r.EpochMillis}, nil
	}
}

// tableTuning is experiment table1 --tune: every learned model's settings
// chosen by tune with the same budget on the same tuning seeds.
type tableTuning struct {
	budget time.Duration
	seeds  []uint64
	// fixed are the settings the user gave, by model: ILP-GNN's flags and
	// the baselines' --set; tune keeps them.
	fixed map[string]map[string]string
	log   io.Writer // plan, progress and time lines; nil for none
	// eval is table1's --eval: under heart, candidates are compared on
	// the validation links' MRR among hard negatives.
	eval evalFlags
}

// options are the search options of spec's tuning: the tuning seeds and
// the settings the user fixed for it.
func (tt tableTuning) options(spec models.Spec) tune.Options {
	opt := tune.DefaultOptions()
	// Table 1 keeps weights on validation AUC (fitWith), and its searches
	// run as planned on any machine: no budget cuts them.
	opt.Seeds, opt.Fixed, opt.Select = tt.seeds, tt.fixed[spec.Name], models.SelectAUC
	return opt
}

// checkBudgets plans every tuned predictor's search on every dataset of
// specs before any of them runs, so that a budget too small for one of
// them is refused at once, not after hours of the others' work.
func checkBudgets(reg models.Registry, preds []experiment.Predictor, specs string, tt tableTuning) error {
	sources, err := parseSources(specs)
	if err != nil {
		return err
	}
	var errs []error
	for _, src := range sources {
		d, err := src.Load(tt.seeds[0])
		if err != nil {
			return err
		}
		for _, p := range preds {
			spec, err := reg.Lookup(p.Name)
			if err != nil || p.Tune == nil {
				continue
			}
			if _, _, err := tune.Plan(spec, tune.SizeOf(d.Graph), tt.budget, tt.options(spec)); err != nil {
				errs = append(errs, fmt.Errorf("--tune on %s: %w", src.Name(), err))
			}
		}
	}
	return errors.Join(errs...)
}

// tuned gives every learned predictor of preds a Tune that searches its
// settings with tt's budget and seeds, and measures the choice with the
// same run as train --config would.
func tuned(reg models.Registry, preds []experiment.Predictor, tt tableTuning) error {
	for k := range preds {
		spec, err := reg.Lookup(preds[k].Name)
		if err != nil {
			return fmt.Errorf("--models: %w", err)
		}
		if !spec.Learns || len(spec.Space) == 0 {
			continue // heuristics are measured as they are
		}
		preds[k].Tune = func(ctx context.Context, src *dataset.Source) (experiment.FitFunc, *experiment.Tuning, error) {
			opt := tt.options(spec)
			log := tt.log
			if log == nil {
				log = io.Discard
			} else {
				opt.Progress = func(t tune.Trial) {
					fmt.Fprintf(log, "tune %s %s round %d candidate %2d  %4d epochs  val AUC %.4f  %5.1fs\n", src.Name(), spec.Name, t.Round, t.Candidate, t.Epochs, t.ValAUC, t.Seconds)
				}
			}
			s, err := runTune(ctx, spec, src, tt.budget, opt, nil, tt.eval, log)
			if err != nil {
				return nil, nil, err
			}
			cfg, err := tune.Configure(spec, s.Best)
			if err != nil {
				return nil, nil, err
			}
			est := tune.Estimate{Rounds: s.Plan, Seconds: s.EstimatedSeconds}
			return fitWith(cfg), &experiment.Tuning{Settings: s.Best, Seeds: tt.seeds, ValAUC: s.ValAUC, Budget: s.Budget,
				Plan: est.Plan(), EstimatedSeconds: s.EstimatedSeconds, Seconds: s.Seconds}, nil
		}
	}
	return nil
}

// parseSets groups --set values MODEL.FLAG=VALUE by model; every model
// named must be among names, and be one with hyperparameters.
func parseSets(reg models.Registry, sets []string, names string) (map[string][][2]string, error) {
	// As predictors reads --models: spaces around a name are not part of it.
	models := strings.Split(names, ",")
	for k := range models {
		models[k] = strings.TrimSpace(models[k])
	}
	out := map[string][][2]string{}
	for _, s := range sets {
		key, val, ok := strings.Cut(s, "=")
		model, name, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 || model == "" || name == "" {
			return nil, fmt.Errorf("--set %q: want MODEL.FLAG=VALUE", s)
		}
		if !slices.Contains(models, model) {
			return nil, fmt.Errorf("--set %q: %s is not among --models %s", s, model, names)
		}
		if spec, err := reg.Lookup(model); err == nil && (!spec.Learns || isILPGNN(spec)) {
			return nil, fmt.Errorf("--set %q: set ILP-GNN's hyperparameters with their own flags; %s has none to set", s, model)
		}
		out[model] = append(out[model], [2]string{name, val})
	}
	return out, nil
}

// applySets applies --set values to cfg, model's configuration (the last
// of a flag's values wins).
func applySets(model string, cfg models.Config, sets [][2]string) error {
	byName := map[string]string{}
	for _, kv := range sets {
		byName[kv[0]] = kv[1]
	}
	var se *models.SettingError
	if err := models.Set(cfg, byName); errors.As(err, &se) {
		if se.Err == nil {
			var names []string
			for _, h := range models.Hyperparameters(cfg) {
				names = append(names, h.Name)
			}
			return fmt.Errorf("--set %s.%s=%s: %s has no hyperparameter %q (it has %s)", model, se.Name, se.Value, model, se.Name, strings.Join(names, ", "))
		}
		return fmt.Errorf("--set %s.%s=%s: %q is not a value of %s's --%s: %w", model, se.Name, se.Value, se.Value, model, se.Name, se.Err)
	}
	return nil
}

// isILPGNN reports whether spec is ILP-GNN, whose hyperparameters the
// experiment command takes as flags of its own.
func isILPGNN(spec models.Spec) bool {
	_, ok := spec.New().(*models.ILPGNNConfig)
	return ok
}
