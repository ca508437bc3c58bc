package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/experiment"
	"ilpgnn/core/gnn"
	"ilpgnn/core/heuristic"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

// modelNames lists what `train --model` accepts.
var modelNames = []string{"ilpgnn", "cn", "aa", "gae", "vgae", "gat"}

const modelHelp = "link predictor: ilpgnn, or a baseline of the paper's table 1: cn (common neighbours), aa (Adamic-Adar), gae (GCN autoencoder), vgae (variational), gat (graph attention); each has its own hyperparameter flags (--model NAME -h)"

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

func checkModel(m string) error {
	for _, n := range modelNames {
		if m == n {
			return nil
		}
	}
	return fmt.Errorf("--model: want one of %s (got %q)", strings.Join(modelNames, ", "), m)
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
	if model == "ilpgnn" {
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
	r := runJSON{Seed: cfg.Seed, TestAUC: res.TestAUC, ValAUC: res.ValAUC, Epochs: res.Epochs, BestEpoch: res.BestEpoch,
		TrainSeconds: res.TrainSeconds, EpochMillis: res.EpochMillis}
	if d.Truth != nil && cfg.Kind == gnn.GAT {
		rank, err := res.Model.AttentionRanker(sp.Train)
		if err != nil {
			return runJSON{}, err
		}
		p := eval.PrecisionAt(rank, experiment.ExplainedLinks(d.Truth, synth.Test), 1, 2)
		r.P1, r.P2 = &p[0], &p[1]
	}
	return r, nil
}

// runHeuristic scores a split's validation and test pairs on its training
// graph: nothing is trained, so epochs are 0.
func runHeuristic(m heuristic.Method, sp *split.Split, seed uint64) runJSON {
	start := time.Now()
	r := runJSON{Seed: seed}
	r.ValAUC, r.TestAUC = heuristic.SplitAUC(sp, m)
	r.TrainSeconds = time.Since(start).Seconds()
	return r
}

// predictors returns table 1's columns for a comma-separated list of model
// names; ILP-GNN trains with cfg and keeps the best validation AUC, as
// table 1 measures AUC.
func predictors(names string, cfg train.Config) ([]experiment.Predictor, error) {
	var out []experiment.Predictor
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		if err := checkModel(name); err != nil {
			return nil, fmt.Errorf("--models: %w", err)
		}
		if m, ok := heuristicOf(name); ok {
			out = append(out, experiment.Predictor{Name: name, Fit: func(_ context.Context, _ *dataset.Dataset, sp *split.Split, seed uint64) (experiment.Fit, error) {
				r := runHeuristic(m, sp, seed)
				return experiment.Fit{TestAUC: r.TestAUC, ValAUC: r.ValAUC}, nil
			}})
			continue
		}
		if kind, ok := gnnKindOf(name); ok {
			out = append(out, experiment.Predictor{Name: name, Fit: func(ctx context.Context, d *dataset.Dataset, sp *split.Split, seed uint64) (experiment.Fit, error) {
				c := gnn.DefaultConfig(kind)
				c.Seed = seed
				r, err := runGNN(ctx, d, sp, c, nil)
				return experiment.Fit{TestAUC: r.TestAUC, ValAUC: r.ValAUC, Epochs: r.Epochs}, err
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
			return experiment.Fit{TestAUC: res.TestAUC, ValAUC: res.ValAUC, Epochs: res.Epochs}, nil
		}})
	}
	return out, nil
}
