package conpi

import (
	"context"

	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/split"
)

// Result is a finished (or cancelled) run.
type Result struct {
	Model  *Model // the weights with the best validation AUC
	Split  *split.Split
	Config Config
	pairfit.Result
}

// RunSplit builds a model on sp.Train (New) and trains it with
// pairfit.Run. When ctx is cancelled it returns the result so far (the best
// weights) with ctx's error.
func RunSplit(ctx context.Context, sp *split.Split, cfg Config, progress func(pairfit.Progress)) (*Result, error) {
	m, err := New(sp.Train, cfg)
	if err != nil {
		return nil, err
	}
	res, err := pairfit.Run(ctx, sp, m, cfg.Fit, progress)
	if res == nil {
		return nil, err
	}
	return &Result{Model: m, Split: sp, Config: cfg, Result: *res}, err
}
