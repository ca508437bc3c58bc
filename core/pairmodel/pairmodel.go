// Package pairmodel names the link predictors that score each pair from a
// computation of its own (package pairfit trains them) — SEAL, WalkPooling
// and CONPI — so the command line, the experiments and the browser engine
// configure and run them in one way.
package pairmodel

import (
	"context"
	"flag"
	"fmt"

	"ilpgnn/core/conpi"
	"ilpgnn/core/explain"
	"ilpgnn/core/pairfit"
	"ilpgnn/core/seal"
	"ilpgnn/core/split"
	"ilpgnn/core/walkpool"
)

// Names are the models' names, as `ilpgnn train --model` takes them.
var Names = []string{"seal", "wp", "conpi"}

// Trainer is one model's configuration, ready to run on splits.
type Trainer interface {
	// Name is the model's name (one of Names).
	Name() string
	// RegisterFlags binds the configuration to flags of fs (never seed,
	// model or data).
	RegisterFlags(fs *flag.FlagSet)
	// Validate reports the first setting out of range.
	Validate() error
	// Fit returns the training loop's settings.
	Fit() pairfit.Config
	// Run trains on sp with seed (the configuration's own seed is
	// ignored). On cancellation it returns the model so far with ctx's
	// error.
	Run(ctx context.Context, sp *split.Split, seed uint64, progress func(pairfit.Progress)) (*Trained, error)
}

// Trained is a finished run.
type Trained struct {
	Model  pairfit.Model
	Result pairfit.Result
	// CONPI is the model when it is CONPI, whose interaction weights
	// explain its predictions; nil otherwise.
	CONPI *conpi.Model
}

// Ranker returns the model's explanation ranking, nil when it has none.
func (t *Trained) Ranker() explain.Ranker {
	if t.CONPI == nil {
		return nil
	}
	return t.CONPI.Ranker()
}

// New returns the default Trainer of the named model.
func New(name string) (Trainer, error) {
	switch name {
	case "seal":
		return &sealTrainer{seal.DefaultConfig()}, nil
	case "wp":
		return &wpTrainer{walkpool.DefaultConfig()}, nil
	case "conpi":
		return &conpiTrainer{conpi.DefaultConfig()}, nil
	}
	return nil, fmt.Errorf("pairmodel: unknown model %q (want seal, wp or conpi)", name)
}

// Is reports whether name is one of Names.
func Is(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

type sealTrainer struct{ cfg seal.Config }

func (s *sealTrainer) Name() string                   { return "seal" }
func (s *sealTrainer) RegisterFlags(fs *flag.FlagSet) { s.cfg.RegisterFlags(fs) }
func (s *sealTrainer) Validate() error                { return s.cfg.Validate() }
func (s *sealTrainer) Fit() pairfit.Config            { return s.cfg.Fit }
func (s *sealTrainer) Run(ctx context.Context, sp *split.Split, seed uint64, progress func(pairfit.Progress)) (*Trained, error) {
	c := s.cfg
	c.Fit.Seed = seed
	res, err := seal.RunSplit(ctx, sp, c, progress)
	if res == nil {
		return nil, err
	}
	return &Trained{Model: res.Model, Result: res.Result}, err
}

type wpTrainer struct{ cfg walkpool.Config }

func (w *wpTrainer) Name() string                   { return "wp" }
func (w *wpTrainer) RegisterFlags(fs *flag.FlagSet) { w.cfg.RegisterFlags(fs) }
func (w *wpTrainer) Validate() error                { return w.cfg.Validate() }
func (w *wpTrainer) Fit() pairfit.Config            { return w.cfg.Fit }
func (w *wpTrainer) Run(ctx context.Context, sp *split.Split, seed uint64, progress func(pairfit.Progress)) (*Trained, error) {
	c := w.cfg
	c.Fit.Seed = seed
	res, err := walkpool.RunSplit(ctx, sp, c, progress)
	if res == nil {
		return nil, err
	}
	return &Trained{Model: res.Model, Result: res.Result}, err
}

type conpiTrainer struct{ cfg conpi.Config }

func (c *conpiTrainer) Name() string                   { return "conpi" }
func (c *conpiTrainer) RegisterFlags(fs *flag.FlagSet) { c.cfg.RegisterFlags(fs) }
func (c *conpiTrainer) Validate() error                { return c.cfg.Validate() }
func (c *conpiTrainer) Fit() pairfit.Config            { return c.cfg.Fit }
func (c *conpiTrainer) Run(ctx context.Context, sp *split.Split, seed uint64, progress func(pairfit.Progress)) (*Trained, error) {
	cfg := c.cfg
	cfg.Fit.Seed = seed
	res, err := conpi.RunSplit(ctx, sp, cfg, progress)
	if res == nil {
		return nil, err
	}
	return &Trained{Model: res.Model, Result: res.Result, CONPI: res.Model}, err
}
