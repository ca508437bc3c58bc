package walkpool

import (
	"context"

	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/split"
)

// Result is a finished (or cancelled) run: the model holds the weights of
// the best validation AUC.
type Result struct {
	Model  *Model
	Split  *split.Split
	Config Config
	pairfit.Result
}

// RunSplit builds a model on sp.Train with cfg and trains it with
// pairfit.Run. When ctx is cancelled it returns the result so far (best
// weights restored and scored) together with ctx's error.
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
