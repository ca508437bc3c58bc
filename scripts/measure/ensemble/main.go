// Command ensemble measures what M models trained on the same split from
// different starts buy over one (docs/selection.md, "Several starts"): each
// keeps its weights on validation AUC, as a graph without groundtruth gets
// them; the ensemble ranks a neighbour by its score s averaged over the
// models and predicts by the mean logit. Model 0 is the run of
// `ilpgnn experiment precision --select unsupervised` for the same seed.
// It prints one line per dataset and seed: each model's test Precision@1,
// @2 and AUC, their mean, and the ensemble's.
//
//	go run ./scripts/measure/ensemble --data synth:sparse,synth:medium,synth:dense --seeds 9000,9001,9002 --m 3 --anchor 0.5
//
// Every hyperparameter flag of `ilpgnn train` (ILP-GNN's) is taken too.
// The precision needs groundtruth: --data takes synth:PRESET values or
// folders written by `ilpgnn synth`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

func main() {
	fs := flag.NewFlagSet("ensemble", flag.ExitOnError)
	data := fs.String("data", "", "comma-separated --data values with groundtruth (synth:PRESET, or a folder written by ilpgnn synth) (required)")
	seedsFlag := fs.String("seeds", "0", "comma-separated seeds")
	m := fs.Int("m", 3, "models per ensemble, at least 2")
	cfg := train.DefaultConfig()
	cfg.RegisterFlags(fs)
	fs.Parse(os.Args[1:])
	if *data == "" || *m < 2 || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: ensemble --data SPEC[,SPEC] [--seeds 0,1] [--m 3] [ilpgnn train's hyperparameter flags]")
		os.Exit(2)
	}
	if err := run(*data, *seedsFlag, *m, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "ensemble:", err)
		os.Exit(1)
	}
}

func run(specs, seedsFlag string, M int, base train.Config) error {
	var seeds []uint64
	for f := range strings.SplitSeq(seedsFlag, ",") {
		s, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return fmt.Errorf("--seeds %q: %v", seedsFlag, err)
		}
		seeds = append(seeds, s)
	}
	for spec := range strings.SplitSeq(specs, ",") {
		src, err := dataset.Parse(spec)
		if err != nil {
			return err
		}
		for _, seed := range seeds {
			d, err := src.Load(seed)
			if err != nil {
				return err
			}
			if d.Truth == nil {
				return fmt.Errorf("%s has no groundtruth to measure the explanations against", spec)
			}
			sp, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
			if err != nil {
				return err
			}
			links := d.Truth.ExplainedLinks(synth.Test)
			var preds []*ilpgnn.Predictor
			var line strings.Builder
			fmt.Fprintf(&line, "%s seed %d anchor %g:", spec, seed, base.Model.Anchor)
			start := time.Now()
			var single [3]float64
			for m := range M {
				cfg := base
				cfg.Seed = seed ^ uint64(m)<<40 // model 0: the seed's own run
				res, err := train.RunSplitSelect(context.Background(), sp, cfg, nil, nil)
				if err != nil {
					return err
				}
				p := ilpgnn.NewPredictor(res.Model, res.Inputs)
				preds = append(preds, p)
				pk := explain.PrecisionAt(p.RankedNodes, links, 1, 2)
				single[0] += pk[0] / float64(M)
				single[1] += pk[1] / float64(M)
				single[2] += res.TestAUC / float64(M)
				fmt.Fprintf(&line, " model %d: P@1 %.2f P@2 %.2f AUC %.2f (epoch %d);", m, 100*pk[0], 100*pk[1], 100*res.TestAUC, res.BestEpoch)
			}
			elapsed := time.Since(start)
			ens := explain.PrecisionAt(meanRanker(preds), links, 1, 2)
			auc := meanLogitAUC(preds, sp.TestPos, sp.TestNeg)
			fmt.Fprintf(&line, " mean of singles: P@1 %.2f P@2 %.2f AUC %.2f; ensemble of %d: P@1 %.2f P@2 %.2f AUC %.2f; %.0f s",
				100*single[0], 100*single[1], 100*single[2], M, 100*ens[0], 100*ens[1], 100*auc, elapsed.Seconds())
			fmt.Println(line.String())
		}
	}
	return nil
}

// meanRanker ranks the neighbours of i against j by their score s averaged
// over the predictors (the same graph and candidates for each).
func meanRanker(preds []*ilpgnn.Predictor) explain.Ranker {
	return func(i, j int) []int32 {
		sum := map[int32]float64{}
		var nodes []int32
		for _, p := range preds {
			for _, c := range p.Ranked(i, j) {
				if _, ok := sum[c.Node]; !ok {
					nodes = append(nodes, c.Node)
				}
				sum[c.Node] += float64(c.S)
			}
		}
		score := make([]float64, len(nodes))
		for k, c := range nodes {
			score[k] = sum[c]
		}
		return explain.ByScore(nodes, score)
	}
}

// meanLogitAUC is the AUC of the logits averaged over the predictors.
func meanLogitAUC(preds []*ilpgnn.Predictor, pos, neg []graph.Edge) float64 {
	mean := func(pairs []graph.Edge) []float32 {
		out := make([]float32, len(pairs))
		for _, p := range preds {
			for k, l := range p.Logits(pairs) {
				out[k] += l / float32(len(preds))
			}
		}
		return out
	}
	return eval.AUC(mean(pos), mean(neg))
}
