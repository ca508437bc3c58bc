package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/experiment"
	"ilpgnn/core/explain"
	"ilpgnn/core/gnn"
	"ilpgnn/core/heuristic"
	"ilpgnn/core/pairfit"
	"ilpgnn/core/pairmodel"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

// modelNames lists what `train --model` accepts.
var modelNames = append([]string{"ilpgnn", "cn", "aa", "gae", "vgae", "gat"}, pairmodel.Names...)

const modelHelp = "link predictor: ilpgnn, or a baseline of the paper's table 1: cn (common neighbours), aa (Adamic-Adar), gae (GCN autoencoder), vgae (variational), gat (graph attention), seal (enclosing subgraphs, DGCNN), wp (WalkPooling), conpi (context pair interaction); each has its own hyperparameter flags (--model NAME -h)"

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

func checkModel(m string) error { return checkModelFlag("--model", m) }

// checkModelFlag reports a model name that is not one of modelNames, as
// the value of flagName.
func checkModelFlag(flagName, m string) error {
	if slices.Contains(modelNames, m) {
		return nil
	}
	return fmt.Errorf("%s: want one of %s (got %q)", flagName, strings.Join(modelNames, ", "), m)
}

// heuristicOf returns the heuristic a model name stands for.
func heuristicOf(model string) (heuristic.Method, bool) {
	switch model {
	case "cn":
		return heuristic.CommonNeighbours, true
	case "aa":
		return heuristic.AdamicAdar, true
	}
	return 0, false
}

// gnnKindOf returns the autoencoder a model name stands for.
func gnnKindOf(model string) (gnn.Kind, bool) {
	if model == "ilpgnn" || pairmodel.Is(model) {
		return 0, false
	}
	k, err := gnn.ParseKind(model)
	return k, err == nil
}

// runGNN trains one autoencoder baseline on sp. On a graph with groundtruth
// GAT's attention is also scored as an explanation (Precision@1 and @2 of
// the test links, ranked on the training graph as ILP-GNN's are).
func runGNN(ctx context.Context, d *dataset.Dataset, sp *split.Split, cfg gnn.Config, progress func(gnn.Progress)) (runJSON, error) {
	res, err := gnn.RunSplit(ctx, sp, cfg, progress)
	if err != nil {
		return runJSON{}, err
	}
	r := runJSON{Seed: cfg.Seed, TestAUC: res.TestAUC, TestHits: res.TestHits, ValAUC: res.ValAUC, Epochs: res.Epochs, BestEpoch: res.BestEpoch,
		TrainSeconds: res.TrainSeconds, EpochMillis: res.EpochMillis}
	if d.Truth != nil && cfg.Kind == gnn.GAT {
		rank, err := res.Model.AttentionRanker(sp.Train)
		if err != nil {
			return runJSON{}, err
		}
		p := explain.PrecisionAt(rank, d.Truth.ExplainedLinks(synth.Test), 1, 2)
		r.P1, r.P2 = &p[0], &p[1]
	}
	return r, nil
}

// runPair trains one pair model (SEAL, WalkPooling or CONPI) on sp. On a
// graph with groundtruth CONPI's interaction weights are also scored as
// explanations, as ILP-GNN's are.
func runPair(ctx context.Context, d *dataset.Dataset, sp *split.Split, tr pairmodel.Trainer, seed uint64, progress func(pairfit.Progress)) (runJSON, error) {
	res, err := tr.Run(ctx, sp, seed, progress)
	if err != nil {
		return runJSON{}, err
	}
	f := res.Result
	r := runJSON{Seed: seed, TestAUC: f.TestAUC, TestHits: f.TestHits, ValAUC: f.ValAUC, Epochs: f.Epochs, BestEpoch: f.BestEpoch,
		TrainSeconds: f.TrainSeconds, EpochMillis: f.EpochMillis}
	if rank := res.Ranker(); d.Truth != nil && rank != nil {
		p := explain.PrecisionAt(rank, d.Truth.ExplainedLinks(synth.Test), 1, 2)
		r.P1, r.P2 = &p[0], &p[1]
	}
	return r, nil
}

// explainedBy names what explains a baseline's predictions.
func explainedBy(model string) string {
	if model == "conpi" {
		return "context interaction"
	}
	return "attention"
}

// runHeuristic scores a split's validation and test pairs on its training
// graph: nothing is trained, so epochs are 0.
func runHeuristic(m heuristic.Method, sp *split.Split, seed uint64) runJSON {
	start := time.Now()
	r := runJSON{Seed: seed}
	r.ValAUC, r.TestAUC = heuristic.SplitAUC(sp, m)
	r.TestHits = heuristic.SplitHits(sp, m)
	r.TrainSeconds = time.Since(start).Seconds()
	return r
}

// predictors returns table 1's columns for a comma-separated list of model
// names; ILP-GNN trains with cfg and keeps the best validation AUC, as
// table 1 measures AUC. sets are MODEL.FLAG=VALUE settings of the
// baselines' hyperparameters (--set).
func predictors(names string, cfg train.Config, sets []string) ([]experiment.Predictor, error) {
	bySet, err := parseSets(sets, names)
	if err != nil {
		return nil, err
	}
	var out []experiment.Predictor
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		if err := checkModelFlag("--models", name); err != nil {
			return nil, err
		}
		if m, ok := heuristicOf(name); ok {
			out = append(out, experiment.Predictor{Name: name, Fit: func(_ context.Context, _ *dataset.Dataset, sp *split.Split, seed uint64) (experiment.Fit, error) {
				return fitOf(runHeuristic(m, sp, seed)), nil
			}})
			continue
		}
		if kind, ok := gnnKindOf(name); ok {
			base := gnn.DefaultConfig(kind)
			if err := applySets(name, base.RegisterFlags, bySet[name]); err != nil {
				return nil, err
			}
			if err := base.Validate(); err != nil {
				return nil, fmt.Errorf("--set: %w", err)
			}
			out = append(out, experiment.Predictor{Name: name, Fit: func(ctx context.Context, d *dataset.Dataset, sp *split.Split, seed uint64) (experiment.Fit, error) {
				c := base
				c.Seed = seed
				r, err := runGNN(ctx, d, sp, c, nil)
				return fitOf(r), err
			}})
			continue
		}
		if pairmodel.Is(name) {
			tr, err := pairmodel.New(name)
			if err != nil {
				return nil, err
			}
			if err := applySets(name, tr.RegisterFlags, bySet[name]); err != nil {
				return nil, err
			}
			if err := tr.Validate(); err != nil {
				return nil, fmt.Errorf("--set: %w", err)
			}
			out = append(out, experiment.Predictor{Name: name, Fit: func(ctx context.Context, d *dataset.Dataset, sp *split.Split, seed uint64) (experiment.Fit, error) {
				r, err := runPair(ctx, d, sp, tr, seed, nil)
				return fitOf(r), err
			}})
			continue
		}
		out = append(out, experiment.Predictor{Name: name, Fit: func(ctx context.Context, _ *dataset.Dataset, sp *split.Split, seed uint64) (experiment.Fit, error) {
			c := cfg
			c.Seed = seed
			res, err := train.RunSplit(ctx, sp, c, nil)
			if err != nil {
				return experiment.Fit{}, err
			}
			return experiment.Fit{TestAUC: res.TestAUC, TestHits: res.TestHits, ValAUC: res.ValAUC, Epochs: res.Epochs,
				TrainSeconds: res.TrainSeconds, EpochMillis: 1000 * res.TrainSeconds / float64(max(res.Epochs, 1))}, nil
		}})
	}
	return out, nil
}

// parseSets groups --set values MODEL.FLAG=VALUE by model; every model
// named must be among names, and be one with hyperparameters.
func parseSets(sets []string, names string) (map[string][][2]string, error) {
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
		if _, isHeuristic := heuristicOf(model); isHeuristic || model == "ilpgnn" {
			return nil, fmt.Errorf("--set %q: set ILP-GNN's hyperparameters with their own flags; %s has none to set", s, model)
		}
		out[model] = append(out[model], [2]string{name, val})
	}
	return out, nil
}

// applySets sets flags of a model's configuration (bound by register).
func applySets(model string, register func(*flag.FlagSet), sets [][2]string) error {
	fs := flag.NewFlagSet(model, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	register(fs)
	for _, kv := range sets {
		f := fs.Lookup(kv[0])
		if f == nil {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			return fmt.Errorf("--set %s.%s=%s: %s has no hyperparameter %q (it has %s)", model, kv[0], kv[1], model, kv[0], strings.Join(names, ", "))
		}
		if err := f.Value.Set(kv[1]); err != nil {
			return fmt.Errorf("--set %s.%s=%s: %q is not a value of %s's --%s: %w", model, kv[0], kv[1], kv[1], model, kv[0], err)
		}
	}
	return nil
}

// fitOf is a run's line of table 1.
func fitOf(r runJSON) experiment.Fit {
	return experiment.Fit{TestAUC: r.TestAUC, TestHits: r.TestHits, ValAUC: r.ValAUC, Epochs: r.Epochs, TrainSeconds: r.TrainSeconds, EpochMillis: r.EpochMillis}
}
