package engine

import (
	"context"
	"errors"
	"math"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
	"ilpgnn/core/tune"
)

// MinTuneBudget and MaxTuneBudget bound a tune request's budget: less
// than a minute buys too few trials to choose between, and more than a
// day is no longer a tab's work.
const (
	MinTuneBudget = time.Minute
	MaxTuneBudget = 24 * time.Hour
)

// tuneRequest are the arguments of a tune request.
type tuneRequest struct {
	Model         string         `json:"model"`
	BudgetSeconds *float64       `json:"budgetSeconds"`
	Config        map[string]any `json:"config"`
	Seed          *uint64        `json:"seed"`
	Select        string         `json:"select"`
}

// startTuning checks a tune request and starts its search on a goroutine
// of its own; the search posts a progress event per trial, then its result.
func (e *Engine) startTuning(ctx context.Context, req Request) error {
	var a tuneRequest
	if err := decode(req, &a); err != nil {
		return err
	}
	if a.Model == "" {
		a.Model = e.opt.Models[0].Name
	}
	spec, err := e.opt.Models.Lookup(a.Model)
	if err != nil {
		return errorf(CodeBadRequest, "tune: unknown model: %v", err)
	}
	if len(spec.Space) == 0 {
		return errorf(CodeBadRequest, "tune: %s has no hyperparameters to search; train it as it is", spec.Name)
	}
	budget, err := tuneBudget(a.BudgetSeconds)
	if err != nil {
		return err
	}
	selection, err := engineSelection(a.Select)
	if err != nil {
		return errorf(CodeBadRequest, "tune: select: %v", err)
	}
	fixed, err := flagStrings("tune", a.Config)
	if err != nil {
		return err
	}
	base, err := tune.Configure(spec, fixed)
	var se *models.SettingError
	switch {
	case errors.As(err, &se):
		return settingError("tune", err)
	case err != nil:
		return errorf(CodeBadRequest, "tune: %v", err)
	}
	// The plan needs the graph's size; an unaffordable or too small
	// budget is refused before the engine is claimed.
	var opt tune.Options
	var est tune.Estimate
	l, runCtx, err := e.claim(ctx, req.ID, "tune", func(l *loaded) error {
		if err := affordable(&trainJob{spec: spec, config: base}, l.d.Graph); err != nil {
			return err
		}
		if err := selection.Check(l.d); err != nil {
			return errorf(CodeBadRequest, "tune: %v", err)
		}
		seeds := []uint64{runSeed(l, a.Seed, 0)}
		var err error
		opt, est, err = tune.Plan(spec, tune.SizeOf(l.d.Graph), budget, tune.Options{Seeds: seeds, Fixed: fixed, Slowdown: tune.WasmSlowdown})
		if err != nil {
			return errorf(CodeBadRequest, "%v", err)
		}
		// The tab keeps to the budget on a busy machine: trials that no
		// longer fit are left out (TuneResult.Cut).
		opt.Budget, opt.Select = budget, selection
		return nil
	})
	if err != nil {
		return err
	}
	go e.finishRun(req.ID, func() (any, error) { return e.tune(runCtx, req.ID, spec, base.Loop(), l, opt, est, budget) })
	return nil
}

// tuneBudget reads a tune request's budget, in seconds.
func tuneBudget(seconds *float64) (time.Duration, error) {
	if seconds == nil {
		return 0, errorf(CodeBadRequest, "tune: args.budgetSeconds (the time the search may take) is required")
	}
	s := *seconds
	if math.IsNaN(s) || s < MinTuneBudget.Seconds() || s > MaxTuneBudget.Seconds() {
		return 0, errorf(CodeBadRequest, "tune: a budget of %g s is out of range: give %g s (a minute) to %g s (a day); five minutes or more buys a search worth having",
			s, MinTuneBudget.Seconds(), MaxTuneBudget.Seconds())
	}
	return time.Duration(s * float64(time.Second)), nil
}

// tune runs the search of request id on l's graph and answers with its
// result; a cancelled search answers with the trials it finished.
func (e *Engine) tune(ctx context.Context, id int64, spec models.Spec, loop models.Loop, l *loaded, opt tune.Options, est tune.Estimate, budget time.Duration) (any, error) {
	out := TuneResult{Model: spec.Name, Best: map[string]string{}, Trials: []TuneTrial{},
		Plan: TunePlan{BudgetSeconds: budget.Seconds(), Candidates: opt.Candidates, Eta: opt.Eta, MinEpochs: opt.MinEpochs,
			Trials: est.Trials(), Seeds: opt.Seeds, EstimatedSeconds: est.Seconds, Summary: est.Plan()}}
	opt.Progress = func(t tune.Trial) {
		tr := tuneTrial(t)
		out.Trials = append(out.Trials, tr)
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id,
			Progress: &TuneProgress{TuneTrial: tr, Done: len(out.Trials), Planned: out.Plan.Trials}})
		e.opt.Yield()
	}
	opt.Epoch = func(t tune.Trial, done int) {
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: &TuneProgress{TuneTrial: tuneTrial(t), Done: len(out.Trials),
			Planned: out.Plan.Trials, Epoch: done, TrialEpochs: t.Epochs * len(opt.Seeds)}})
	}
	start := time.Now()
	res, err := tune.Search(ctx, e.yielding(spec), tuningData(l, loop), opt)
	out.Seconds = time.Since(start).Seconds()
	switch {
	case errors.Is(err, context.Canceled):
		out.Cancelled = true
		return out, nil
	case err != nil:
		// The graph and the current model stay as they were.
		return nil, &Error{Code: CodeBadRequest, Message: err.Error()}
	}
	out.Best, out.ValAUC, out.KeptCurrent, out.CurrentValAUC, out.Cut = res.Best, res.ValAUC, res.KeptCurrent, res.CurrentValAUC, res.Cut
	chosen, current := tuneTrial(res.Chosen), tuneTrial(res.Current)
	out.Chosen, out.Current = &chosen, &current
	return out, nil
}

// tuneTrial is t as the protocol reports it.
func tuneTrial(t tune.Trial) TuneTrial {
	return TuneTrial{Round: t.Round, Candidate: t.Candidate, Current: t.Current, Settings: t.Settings, Epochs: t.Epochs,
		Trained: t.Trained, Capped: t.Capped, SelectedOn: string(t.SelectedOn), ValScore: t.ValScore, ValAUC: t.ValAUC,
		ValP1: t.ValP1, ValP2: t.ValP2, Seconds: t.Seconds}
}

// tuningData splits l's dataset by each tuning seed with the shares the
// final training run will use; the split of a seed is made once.
func tuningData(l *loaded, loop models.Loop) tune.Data {
	splits := map[uint64]*split.Split{}
	return func(seed uint64) (*dataset.Dataset, *split.Split, error) {
		if sp, ok := splits[seed]; ok {
			return l.d, sp, nil
		}
		sp, err := l.d.Split(seed, loop.ValFrac, loop.TestFrac)
		if err != nil {
			return nil, nil, err
		}
		splits[seed] = sp
		return l.d, sp, nil
	}
}

// yielding returns spec with configurations whose training yields to the
// host after every epoch, as a train request's does: tune trains without
// progress reports, and under WebAssembly a cancel is delivered only when
// the training goroutine gives the event loop a turn.
func (e *Engine) yielding(spec models.Spec) models.Spec {
	newConfig := spec.New
	spec.New = func() models.Config { return yieldingConfig{Config: newConfig(), yield: e.opt.Yield} }
	return spec
}

// yieldingConfig is a models.Config whose Train calls yield after every
// epoch (not during the preparation, whose reports come from elsewhere).
type yieldingConfig struct {
	models.Config
	yield func()
}

// Train trains c's model, yielding after every epoch.
func (c yieldingConfig) Train(ctx context.Context, run models.Run, progress func(models.Progress)) (models.Trained, error) {
	return c.Config.Train(ctx, run, func(p models.Progress) {
		if progress != nil {
			progress(p)
		}
		if p.Prepare == nil && p.EpochDone {
			c.yield()
		}
	})
}
