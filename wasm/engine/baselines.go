package engine

import (
	"context"
	"errors"
	"flag"
	"time"

	"ilpgnn/core/eval"
	"ilpgnn/core/experiment"
	"ilpgnn/core/gnn"
	"ilpgnn/core/heuristic"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
)

// The baselines of the paper's table 1 train here on exactly the splits and
// negatives ILP-GNN uses, so the page can compare them. They report metrics
// only: the current model (the explainer) stays ILP-GNN's.

// baselineFlags returns the hyperparameter flags of a baseline model.
func baselineFlags(model string) (func(*flag.FlagSet), error) {
	switch model {
	case "cn", "aa":
		return func(*flag.FlagSet) {}, nil
	}
	kind, err := gnn.ParseKind(model)
	if err != nil {
		return nil, errorf(CodeBadRequest, "unknown model %q: want ilpgnn, cn, aa, gae, vgae or gat", model)
	}
	c := gnn.DefaultConfig(kind)
	return c.RegisterFlags, nil
}

func (e *Engine) startBaseline(ctx context.Context, id int64, model string, overrides map[string]any, seed *uint64) error {
	if _, err := baselineFlags(model); err != nil {
		return err
	}
	var (
		method heuristic.Method
		cfg    gnn.Config
	)
	switch model {
	case "cn":
		method = heuristic.CommonNeighbours
	case "aa":
		method = heuristic.AdamicAdar
	default:
		kind, _ := gnn.ParseKind(model)
		cfg = gnn.DefaultConfig(kind)
	}
	if _, err := applyFlags(func(fs *flag.FlagSet) {
		if model != "cn" && model != "aa" {
			cfg.RegisterFlags(fs)
		}
	}, overrides); err != nil {
		return err
	}
	if model != "cn" && model != "aa" {
		if err := cfg.Validate(); err != nil {
			return errorf(CodeBadRequest, "train: %v", err)
		}
	}
	l, runCtx, err := e.claim(ctx, id, func(*loaded) error { return nil })
	if err != nil {
		return err
	}
	cfg.Seed = runSeed(l, seed, cfg.Seed)
	go e.trainBaseline(runCtx, id, l, model, method, cfg)
	return nil
}

func (e *Engine) trainBaseline(ctx context.Context, id int64, l *loaded, model string, method heuristic.Method, cfg gnn.Config) {
	defer e.release()
	defer func() {
		if r := recover(); r != nil {
			e.fail(id, errorf(CodeInternal, "train: internal error: %v", r))
		}
	}()
	valFrac, testFrac := cfg.ValFrac, cfg.TestFrac
	if model == "cn" || model == "aa" {
		valFrac, testFrac = split.DefaultValFrac, split.DefaultTestFrac
	}
	sp, err := l.d.Split(cfg.Seed, valFrac, testFrac)
	if err != nil {
		e.fail(id, errorf(CodeBadRequest, "train: %v", err))
		return
	}
	out := TrainResult{Model: model, ModelInfo: ModelInfo{Dataset: l.info.Name, Seed: cfg.Seed, Created: e.opt.Now().Unix()},
		Saved: SaveStatus{Message: "not saved: only ILP-GNN models are kept as checkpoints"}}
	if model == "cn" || model == "aa" {
		start := time.Now()
		out.ValAUC, out.TestAUC = heuristic.SplitAUC(sp, method)
		out.TrainSeconds = time.Since(start).Seconds()
		out.Config = map[string]string{}
		e.opt.Post(Reply{V: Protocol, Type: "result", ID: &id, Result: out})
		return
	}
	out.Config = flagMap(cfg.RegisterFlags)
	progress := func(p gnn.Progress) {
		elapsed := p.Elapsed.Seconds() * 1000
		remaining := elapsed / float64(p.Epoch) * float64(min(p.MaxEpochs-p.Epoch, max(cfg.Patience-(p.Epoch-p.BestEpoch), 0)))
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: &Progress{
			Epoch: p.Epoch, MaxEpochs: p.MaxEpochs, Loss: p.Loss, Cls: p.BCE,
			ValAUC: p.ValAUC, BestValAUC: p.BestValAUC, BestEpoch: p.BestEpoch, Score: p.ValAUC, BestScore: p.BestValAUC,
			ElapsedMs: elapsed, RemainingMs: remaining,
		}})
		e.opt.Yield()
	}
	res, err := gnn.RunSplit(ctx, sp, cfg, progress)
	out.Cancelled = errors.Is(err, context.Canceled)
	if err != nil && !out.Cancelled {
		e.fail(id, errorf(CodeBadRequest, "train: %v", err))
		return
	}
	out.TestAUC, out.ValAUC, out.BestEpoch = res.TestAUC, res.ValAUC, res.BestEpoch
	out.Epochs, out.TrainSeconds = res.Epochs, res.TrainSeconds
	if l.d.Truth != nil && cfg.Kind == gnn.GAT {
		// GAT's attention is an explanation too: score it as ILP-GNN's.
		if rank, err := res.Model.AttentionRanker(sp.Train); err == nil {
			p := eval.PrecisionAt(rank, experiment.ExplainedLinks(l.d.Truth, synth.Test), 1, 2)
			out.P1, out.P2 = &p[0], &p[1]
		}
	}
	e.opt.Post(Reply{V: Protocol, Type: "result", ID: &id, Result: out})
}

// flagMap returns the values of the flags register binds, by name.
func flagMap(register func(*flag.FlagSet)) map[string]string {
	out := map[string]string{}
	for _, h := range flagList(register) {
		out[h.Name] = h.Value
	}
	return out
}
