package seal

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
// pairfit.Run: mini-batches of sp.TrainPos with one fresh negative each,
// Adam, early stopping on validation AUC, then the test AUC of the best
// weights. progress, if non-nil, is called after every mini-batch. When
// ctx is cancelled it returns the result so far together with ctx's error.
func RunSplit(ctx context.Context, sp *split.Split, cfg Config, progress func(pairfit.Progress)) (*Result, error) {
	m, err := New(sp.Train, cfg)
	if err != nil {
		return nil, err
	}
	r, err := pairfit.Run(ctx, sp, m, cfg.Fit, progress)
	if r == nil {
		return nil, err
	}
	return &Result{Model: m, Split: sp, Config: cfg, Result: *r}, err
}
