// Package experiment reproduces the ILP-GNN paper's explanation experiments
// (sec. 5.3-5.5): explanation precision against groundtruth on synthetic
// graphs, fidelity, ablation and hyperparameter sensitivity. Each runs one
// training per seed with the same code as `ilpgnn train` and returns a
// report that renders as a markdown table shaped like the paper's, as JSON,
// and where the paper draws a figure, as CSV and SVG.
package experiment

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"time"

	"ilpgnn/core/baselines/conpi"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/gnnexplainer"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
	"ilpgnn/core/train"
)

// Options are shared by every experiment.
type Options struct {
	// Train holds the hyperparameters; each run sets its own Seed.
	Train train.Config
	// Seeds are the runs: each seed is its own split and initialisation
	// (and, for a synthetic spec without a seed, its own graph).
	Seeds []uint64
	// Log, when non-nil, gets one line per finished run.
	Log io.Writer
	// Select is the weight-selection rule (models.Run); "" is
	// models.SelectAUC. Selecting on precision keeps, on graphs with
	// groundtruth, the weights with the best validation Precision@1 +
	// Precision@2 and stops early on it (docs/model.md §8).
	Select models.Selection
	// Given names the hyperparameters of Train the user chose (models.Run).
	Given map[string]bool

	// NoBaselines skips the explainers that need a model of their own
	// (GAT attention, GNNExplainer over a GAE) in Precision and Fidelity.
	NoBaselines bool
	// Baselines, when non-nil, returns the configuration of the GAT and
	// the GAE trained beside ILP-GNN on each run's split (default
	// gnn.DefaultConfig); each run sets its own Seed.
	Baselines func(gnn.Kind) gnn.Config
	// Explainer, when non-nil, configures GNNExplainer (default
	// gnnexplainer.DefaultConfig); each run sets its own Seed.
	Explainer *gnnexplainer.Config
	// CONPI, when non-nil, configures the CONPI model trained beside
	// ILP-GNN (default conpi.DefaultConfig); each run sets its own seed.
	CONPI *conpi.Config
}

// fitted is one trained run.
type fitted struct {
	data  *dataset.Dataset
	split *split.Split
	res   *train.Result
	pred  *ilpgnn.Predictor
}

// fit trains one run of cfg on src with seed.
func fit(ctx context.Context, src *dataset.Source, opt *Options, cfg train.Config, seed uint64) (*fitted, error) {
	d, err := src.Load(seed)
	if err != nil {
		return nil, err
	}
	cfg.Seed = seed
	sp, err := d.Split(seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		return nil, err
	}
	sel := cmp.Or(opt.Select, models.SelectAUC)
	if sel == models.SelectPrecision {
		// On a graph without groundtruth there is no precision to select
		// on: the experiments that need it say so themselves.
		sel = models.SelectAuto
	}
	c := &models.ILPGNNConfig{Config: cfg}
	t, err := c.Train(ctx, models.Run{Data: d, Split: sp, Seed: seed, Select: sel, Given: opt.Given}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s seed %d: %w", src, seed, err)
	}
	res := t.(*models.ILPGNN).Run
	return &fitted{data: d, split: sp, res: res, pred: ilpgnn.NewPredictor(res.Model, res.Inputs)}, nil
}

// logf writes one progress line.
func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", args...)
	}
}

// meanStd summarises one quantity over runs.
func meanStd(runs int, get func(int) float64) (mean, std float64) {
	v := make([]float64, runs)
	for k := range v {
		v[k] = get(k)
	}
	return eval.MeanStd(v)
}

// since returns the seconds elapsed since t.
func since(t time.Time) float64 { return time.Since(t).Seconds() }
