package engine

import (
	"context"
	"errors"
	"flag"
	"sort"
	"time"

	"ilpgnn/core/conpi"
	"ilpgnn/core/explain"
	"ilpgnn/core/gnn"
	"ilpgnn/core/gnnexplainer"
	"ilpgnn/core/heuristic"
	"ilpgnn/core/pairfit"
	"ilpgnn/core/pairmodel"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
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
	if pairmodel.Is(model) {
		tr, err := pairmodel.New(model)
		if err != nil {
			return nil, errorf(CodeBadRequest, "%v", err)
		}
		return tr.RegisterFlags, nil
	}
	kind, err := gnn.ParseKind(model)
	if err != nil {
		return nil, errorf(CodeBadRequest, "unknown model %q: want ilpgnn, cn, aa, gae, vgae, gat, seal, wp or conpi", model)
	}
	c := gnn.DefaultConfig(kind)
	return c.RegisterFlags, nil
}

func (e *Engine) startBaseline(ctx context.Context, id int64, model string, overrides map[string]any, seed *uint64) error {
	if _, err := baselineFlags(model); err != nil {
		return err
	}
	if pairmodel.Is(model) {
		return e.startPair(ctx, id, model, overrides, seed)
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
	go e.finishRun(id, func() (any, error) { return e.trainBaseline(runCtx, id, l, model, method, cfg) })
	return nil
}

func (e *Engine) trainBaseline(ctx context.Context, id int64, l *loaded, model string, method heuristic.Method, cfg gnn.Config) (any, error) {
	valFrac, testFrac := cfg.ValFrac, cfg.TestFrac
	if model == "cn" || model == "aa" {
		valFrac, testFrac = split.DefaultValFrac, split.DefaultTestFrac
	}
	sp, err := l.d.Split(cfg.Seed, valFrac, testFrac)
	if err != nil {
		return nil, errorf(CodeBadRequest, "train: %v", err)
	}
	out := TrainResult{Model: model, ModelInfo: ModelInfo{Dataset: l.info.Name, Seed: cfg.Seed, Created: e.opt.Now().Unix()},
		Saved: SaveStatus{Message: "not saved: only ILP-GNN models are kept as checkpoints"}, Warning: train.TestWarning(sp)}
	if model == "cn" || model == "aa" {
		start := time.Now()
		out.ValAUC, out.TestAUC = heuristic.SplitAUC(sp, method)
		hits := heuristic.SplitHits(sp, method)
		out.TestHits = &hits
		out.TrainSeconds = time.Since(start).Seconds()
		out.Config = map[string]string{}
		return out, nil
	}
	out.Config = flagMap(cfg.RegisterFlags)
	progress := func(p gnn.Progress) {
		elapsed := p.Elapsed.Seconds() * 1000
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: &Progress{
			Epoch: p.Epoch, MaxEpochs: p.MaxEpochs, Loss: p.Loss, Cls: p.BCE,
			ValAUC: p.ValAUC, BestValAUC: p.BestValAUC, BestEpoch: p.BestEpoch, Score: p.ValAUC, BestScore: p.BestValAUC,
			ElapsedMs: elapsed, RemainingMs: remainingMs(elapsed, p.Epoch, p.MaxEpochs, p.BestEpoch, cfg.Patience),
			Patience: cfg.Patience, MemoryBytes: memoryBytes(),
		}})
		e.opt.Yield()
	}
	res, err := gnn.RunSplit(ctx, sp, cfg, progress)
	out.Cancelled = errors.Is(err, context.Canceled)
	if err != nil && !out.Cancelled {
		return nil, runFailed(err)
	}
	e.mu.Lock()
	if e.data == l {
		if e.baselines == nil {
			e.baselines = map[string]*gnn.Model{}
		}
		e.baselines[model] = res.Model
	}
	e.mu.Unlock()
	out.TestAUC, out.ValAUC, out.BestEpoch = res.TestAUC, res.ValAUC, res.BestEpoch
	out.TestHits = &res.TestHits
	out.Epochs, out.TrainSeconds = res.Epochs, res.TrainSeconds
	if l.d.Truth != nil && cfg.Kind == gnn.GAT {
		// GAT's attention is an explanation too: score it as ILP-GNN's.
		if rank, err := res.Model.AttentionRanker(sp.Train); err == nil {
			p := explain.PrecisionAt(rank, l.d.Truth.ExplainedLinks(synth.Test), 1, 2)
			out.P1, out.P2 = &p[0], &p[1]
		}
	}
	return out, nil
}

// startPair starts training a pair model (SEAL, WalkPooling or CONPI).
func (e *Engine) startPair(ctx context.Context, id int64, model string, overrides map[string]any, seed *uint64) error {
	tr, err := pairmodel.New(model)
	if err != nil {
		return errorf(CodeBadRequest, "train: %v", err)
	}
	if _, err := applyFlags(tr.RegisterFlags, overrides); err != nil {
		return err
	}
	if err := tr.Validate(); err != nil {
		return errorf(CodeBadRequest, "train: %v", err)
	}
	l, runCtx, err := e.claim(ctx, id, func(l *loaded) error { return affordable(tr, l.d.Graph.NumEdges()) })
	if err != nil {
		return err
	}
	s := runSeed(l, seed, tr.Fit().Seed)
	go e.finishRun(id, func() (any, error) { return e.trainPair(runCtx, id, l, tr, s) })
	return nil
}

// MaxTabPairs is the number of graph edges above which SEAL and
// WalkPooling refuse to train in a browser tab on every training link per
// epoch: each link costs a subgraph forward pass of its own, about 0.5 ms
// (SEAL) and 1 ms (WalkPooling) natively, so an epoch of 20,000 would take
// minutes in WebAssembly. Capping pairs-per-epoch lifts the limit.
const MaxTabPairs = 20000

// affordable refuses a subgraph model whose epochs would be too long for a
// tab, saying what to do instead.
func affordable(tr pairmodel.Trainer, edges int) error {
	if tr.Name() == "conpi" || tr.Fit().PairsPerEpoch > 0 || edges <= MaxTabPairs {
		return nil
	}
	return errorf(CodeBadRequest, "train: %s scores every pair on a subgraph of its own; with %d edges an epoch would take many minutes in a browser tab. Set pairs-per-epoch (e.g. 5000), or train it with the command line (ilpgnn train --model %s)",
		tr.Name(), edges, tr.Name())
}

// trainPair trains a pair model on the split ILP-GNN uses for seed. Its
// progress counts mini-batches, since one epoch of these models can take
// many seconds.
func (e *Engine) trainPair(ctx context.Context, id int64, l *loaded, tr pairmodel.Trainer, seed uint64) (any, error) {
	sp, err := l.d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		return nil, errorf(CodeBadRequest, "train: %v", err)
	}
	out := TrainResult{Model: tr.Name(), ModelInfo: ModelInfo{Dataset: l.info.Name, Seed: seed, Created: e.opt.Now().Unix()},
		Saved: SaveStatus{Message: "not saved: only ILP-GNN models are kept as checkpoints"}, Warning: train.TestWarning(sp)}
	out.Config = flagMap(tr.RegisterFlags)
	fit := tr.Fit()
	lastPost := time.Time{}
	progress := func(p pairfit.Progress) {
		// Batches come fast on small graphs: post at most ~10 a second,
		// and always the end of an epoch.
		if !p.EpochDone && time.Since(lastPost) < 100*time.Millisecond {
			return
		}
		lastPost = time.Now()
		elapsed := p.Elapsed.Seconds() * 1000
		// Epochs done so far, the current one in part; the epochs left are
		// as for the other models, counted from the end of this one.
		done := float64(p.Epoch-1) + float64(p.Batch)/float64(max(p.Batches, 1))
		perEpoch := elapsed / max(done, 1e-9)
		left := float64(p.Epoch) - done + float64(min(p.MaxEpochs-p.Epoch, max(fit.Patience-(p.Epoch-p.BestEpoch), 0)))
		pr := &Progress{Epoch: p.Epoch, MaxEpochs: p.MaxEpochs, Loss: p.Loss, Cls: p.Loss,
			BestValAUC: p.BestValAUC, BestEpoch: p.BestEpoch, BestScore: p.BestValAUC,
			ElapsedMs: elapsed, RemainingMs: perEpoch * left, Batch: p.Batch, Batches: p.Batches,
			Patience: fit.Patience, MemoryBytes: memoryBytes()}
		if p.EpochDone {
			pr.ValAUC, pr.Score = p.ValAUC, p.ValAUC
		}
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: pr})
		e.opt.Yield()
	}
	res, err := tr.Run(ctx, sp, seed, progress)
	out.Cancelled = errors.Is(err, context.Canceled)
	if err != nil && !out.Cancelled {
		return nil, runFailed(err)
	}
	if res == nil {
		return out, nil
	}
	if res.CONPI != nil {
		e.mu.Lock()
		if e.data == l {
			e.conpi = res.CONPI
		}
		e.mu.Unlock()
	}
	f := res.Result
	out.TestAUC, out.ValAUC, out.BestEpoch = f.TestAUC, f.ValAUC, f.BestEpoch
	out.TestHits = &f.TestHits
	out.Epochs, out.TrainSeconds = f.Epochs, f.TrainSeconds
	if rank := res.Ranker(); l.d.Truth != nil && rank != nil {
		p := explain.PrecisionAt(rank, l.d.Truth.ExplainedLinks(synth.Test), 1, 2)
		out.P1, out.P2 = &p[0], &p[1]
	}
	return out, nil
}

// flagMap returns the values of the flags register binds, by name.
func flagMap(register func(*flag.FlagSet)) map[string]string {
	out := map[string]string{}
	for _, h := range flagList(register) {
		out[h.Name] = h.Value
	}
	return out
}

// Comparison is the result of compare: which neighbours other explainers
// name for the same pair.
type Comparison struct {
	Explainers []BaselineExplanation `json:"explainers"`
	Message    string                `json:"message,omitempty"`
}

// BaselineExplanation is one explainer's answer for a pair: each end's
// neighbours, best first.
type BaselineExplanation struct {
	Model  string       `json:"model"`  // the trained baseline: gat, gae, vgae or conpi
	Method string       `json:"method"` // attention, gnnexplainer or context
	I      []RankedNode `json:"i"`
	J      []RankedNode `json:"j"`
	Millis float64      `json:"ms"` // time taken to explain
}

// RankedNode is one neighbour in an explainer's ranking; Weight is its
// GNNExplainer mask or its CONPI interaction mass (absent for attention,
// whose ranking is all it gives per pair).
type RankedNode struct {
	Node   int32    `json:"node"`
	ID     string   `json:"id"`
	Weight *float64 `json:"weight,omitempty"`
}

// compare explains a pair with every baseline trained on the loaded graph
// that can explain: GAT by its attention, GAE and VGAE by GNNExplainer,
// CONPI by its context interaction weights. Like ILP-GNN's
// explanations, they speak of the whole graph.
func (e *Engine) compare(req Request) (any, []byte, error) {
	var a struct {
		I   *int `json:"i"`
		J   *int `json:"j"`
		Top *int `json:"top"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.I == nil || a.J == nil {
		return nil, nil, errorf(CodeBadRequest, "compare: args.i and args.j (node indices) are required")
	}
	top := 5
	if a.Top != nil {
		top = *a.Top
	}
	if top < 1 {
		return nil, nil, errorf(CodeBadRequest, "compare: args.top must be at least 1 (got %d)", top)
	}
	l, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	for _, v := range []int{*a.I, *a.J} {
		if err := e.node(l, "compare", "node", v); err != nil {
			return nil, nil, err
		}
	}
	e.mu.Lock()
	names := make([]string, 0, len(e.baselines))
	models := map[string]*gnn.Model{}
	for name, m := range e.baselines {
		names = append(names, name)
		models[name] = m
	}
	cm := e.conpi
	e.mu.Unlock()
	sort.Strings(names)
	g := l.d.Graph
	ids := func(ns []int32, w func(int32) *float64) []RankedNode {
		out := make([]RankedNode, 0, min(top, len(ns)))
		for _, n := range ns[:min(top, len(ns))] {
			out = append(out, RankedNode{Node: n, ID: g.IDs[n], Weight: w(n)})
		}
		return out
	}
	noWeight := func(int32) *float64 { return nil }
	out := Comparison{Explainers: []BaselineExplanation{}}
	for _, name := range names {
		m := models[name]
		start := time.Now()
		if m.Config.Kind == gnn.GAT {
			rank, err := m.AttentionRanker(g)
			if err != nil {
				return nil, nil, errorf(CodeInternal, "compare: %v", err)
			}
			b := BaselineExplanation{Model: name, Method: "attention", I: ids(rank(*a.I, *a.J), noWeight), J: ids(rank(*a.J, *a.I), noWeight)}
			b.Millis = float64(time.Since(start).Microseconds()) / 1000
			out.Explainers = append(out.Explainers, b)
			continue
		}
		cfg := gnnexplainer.DefaultConfig()
		cfg.Seed = m.Config.Seed
		ex, err := gnnexplainer.New(m, g, cfg)
		if err != nil {
			return nil, nil, errorf(CodeInternal, "compare: %v", err)
		}
		x, err := ex.Explain(*a.I, *a.J)
		if err != nil {
			return nil, nil, errorf(CodeBadRequest, "compare: %v", err)
		}
		mask := func(s gnnexplainer.Side) func(int32) *float64 {
			return func(n int32) *float64 {
				k := sort.Search(len(s.Neighbors), func(k int) bool { return s.Neighbors[k] >= n })
				v := float64(s.Mask[k])
				return &v
			}
		}
		b := BaselineExplanation{Model: name, Method: "gnnexplainer", I: ids(x.SideI.Ranked, mask(x.SideI)), J: ids(x.SideJ.Ranked, mask(x.SideJ))}
		b.Millis = float64(time.Since(start).Microseconds()) / 1000
		out.Explainers = append(out.Explainers, b)
	}
	if cm != nil {
		// CONPI's context masses, its contexts read from the whole graph
		// as the other explainers' are; each end itself is not a reason.
		start := time.Now()
		whole, err := cm.On(g)
		if err != nil {
			return nil, nil, errorf(CodeInternal, "compare: %v", err)
		}
		x := whole.Explain(*a.I, *a.J)
		masses := func(ctx []conpi.NodeMass, self int) []RankedNode {
			out := []RankedNode{}
			for _, c := range ctx {
				if int(c.Node) == self || len(out) == top {
					continue
				}
				w := c.Mass
				out = append(out, RankedNode{Node: c.Node, ID: g.IDs[c.Node], Weight: &w})
			}
			return out
		}
		b := BaselineExplanation{Model: "conpi", Method: "context", I: masses(x.ContextI, *a.I), J: masses(x.ContextJ, *a.J)}
		b.Millis = float64(time.Since(start).Microseconds()) / 1000
		out.Explainers = append(out.Explainers, b)
	}
	if len(out.Explainers) == 0 {
		out.Message = "no baseline has been trained on this graph: train gat (attention), gae/vgae (GNNExplainer) or conpi (context interaction) to compare"
	}
	return out, nil, nil
}
