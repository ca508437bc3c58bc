package models_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
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

// TestMeasureEnsemble measures what M models trained on the same split
// from different starts buy over one (docs/selection.md): each
// keeps its weights on validation AUC, as a graph without groundtruth
// gets them; the ensemble ranks a neighbour by its score s averaged over
// the models and predicts by the mean logit. Model 0 is the run of
// `experiment precision --select unsupervised` for the same seed. It runs
// only when ENSEMBLE_DATA names --data values, e.g.
//
//	ENSEMBLE_DATA=synth:medium,synth:dense ENSEMBLE_SEEDS=8000,8001 ENSEMBLE_M=3 \
//	  ENSEMBLE_ANCHOR=0.5 go test ./core/models -run MeasureEnsemble -v -timeout 0
func TestMeasureEnsemble(t *testing.T) {
	specs := os.Getenv("ENSEMBLE_DATA")
	if specs == "" {
		t.Skip("set ENSEMBLE_DATA to --data values to measure")
	}
	M, _ := strconv.Atoi(os.Getenv("ENSEMBLE_M"))
	M = max(M, 2)
	anchor, _ := strconv.ParseFloat(os.Getenv("ENSEMBLE_ANCHOR"), 64)
	var seeds []uint64
	for _, f := range strings.Split(os.Getenv("ENSEMBLE_SEEDS"), ",") {
		s, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			t.Fatalf("ENSEMBLE_SEEDS: %v", err)
		}
		seeds = append(seeds, s)
	}
	for _, spec := range strings.Split(specs, ",") {
		src, err := dataset.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, seed := range seeds {
			d, err := src.Load(seed)
			if err != nil {
				t.Fatal(err)
			}
			sp, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
			if err != nil {
				t.Fatal(err)
			}
			links := d.Truth.ExplainedLinks(synth.Test)
			var preds []*ilpgnn.Predictor
			var line strings.Builder
			fmt.Fprintf(&line, "%s seed %d anchor %g:", spec, seed, anchor)
			start := time.Now()
			var single [3]float64
			for m := range M {
				cfg := train.DefaultConfig()
				cfg.Model.Anchor = anchor
				cfg.Seed = seed ^ uint64(m)<<40 // model 0: the seed's own run
				res, err := train.RunSplitSelect(context.Background(), sp, cfg, nil, nil)
				if err != nil {
					t.Fatal(err)
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
			t.Log(line.String())
		}
	}
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
