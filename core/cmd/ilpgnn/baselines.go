package main

import (
	"fmt"
	"strings"
	"time"

	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/heuristic"
	"ilpgnn/core/split"
)

// modelNames lists what `train --model` accepts.
var modelNames = []string{"ilpgnn", "cn", "aa"}

const modelHelp = "link predictor: ilpgnn, or a baseline of the paper's table 1: cn (common neighbours), aa (Adamic-Adar)"

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

// runHeuristic scores a split's validation and test pairs on its training
// graph: nothing is trained, so epochs are 0.
func runHeuristic(m heuristic.Method, sp *split.Split, seed uint64) runJSON {
	start := time.Now()
	auc := func(pos, neg []graph.Edge) float64 {
		return eval.AUC(heuristic.Scores(sp.Train, m, pos), heuristic.Scores(sp.Train, m, neg))
	}
	r := runJSON{Seed: seed, TestAUC: auc(sp.TestPos, sp.TestNeg), ValAUC: auc(sp.ValPos, sp.ValNeg)}
	r.TrainSeconds = time.Since(start).Seconds()
	return r
}
