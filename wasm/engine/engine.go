// Package engine is the browser's ILP-GNN engine: it answers the page's
// requests (wasm/PROTOCOL.md) with the core packages — loading graphs,
// training, explaining — and keeps checkpoints in a store.Store. It is pure
// Go, so it is tested natively; package main of wasm/worker connects it to
// the Web Worker's messages.
package engine

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/conpi"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/experiment"
	"ilpgnn/core/explain"
	"ilpgnn/core/gnn"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/load"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
	"ilpgnn/wasm/store"
)

// Options configure an Engine.
type Options struct {
	// Post sends a reply to the page. It is called from the goroutine that
	// handles the request, or from the training goroutine.
	Post func(Reply)
	// Store keeps checkpoints; nil means an in-memory store (lost with the
	// worker), with StorageMessage saying why.
	Store          store.Store
	StorageMessage string
	// Yield, if set, is called after every training epoch so the host can
	// deliver pending messages (a cancel) before the next one. Under
	// WebAssembly the training goroutine otherwise never gives the event
	// loop a turn.
	Yield func()
	// Now is the clock for checkpoint dates; nil means time.Now.
	Now func() time.Time
	// Version names the build in the ready message.
	Version string
}

// Engine holds one graph and at most one model. Handle serves requests in
// order; a training run proceeds in its own goroutine.
type Engine struct {
	opt        Options
	persistent bool

	mu       sync.Mutex
	data     *loaded
	model    *model
	training *run
	// baselines are the GNN baselines trained on data, by model name, for
	// comparing their explanations with ILP-GNN's.
	baselines map[string]*gnn.Model
	// conpi is the CONPI model last trained on data: its context
	// interaction weights are one more explanation to compare.
	conpi *conpi.Model
}

type loaded struct {
	d         *dataset.Dataset
	info      GraphInfo
	synthetic *Synthetic
}

type model struct {
	meta store.Meta
	ck   *checkpoint.Checkpoint
	data []byte // ck's encoding
	cfg  train.Config
	m    *ilpgnn.Model
	pred *ilpgnn.Predictor // on the whole graph, as the command line explains
	// held is the predictor on the seed split's training graph (evaluate,
	// insight, fidelity), built on first use; Engine.mu guards it.
	held *heldOut
}

type run struct {
	id     int64
	cancel context.CancelFunc
}

// New returns an engine and posts its ready message.
func New(opt Options) *Engine {
	e := &Engine{opt: opt, persistent: opt.Store != nil}
	if e.opt.Store == nil {
		e.opt.Store = &store.Memory{}
	}
	if e.opt.Now == nil {
		e.opt.Now = time.Now
	}
	if e.opt.Yield == nil {
		e.opt.Yield = func() {}
	}
	info := e.info()
	e.opt.Post(Reply{V: Protocol, Type: "ready", Engine: &info})
	return e
}

func (e *Engine) info() Info {
	return Info{Protocol: Protocol, Version: e.opt.Version,
		Storage: StorageInfo{Available: e.persistent, Message: e.opt.StorageMessage}}
}

// Handle serves one request: it posts exactly one result or error reply for
// it (for train, when the run ends).
func (e *Engine) Handle(ctx context.Context, req Request) {
	id := req.ID
	if req.V != Protocol {
		e.fail(id, errorf(CodeVersion, "protocol version %d is not supported (this engine speaks %d)", req.V, Protocol))
		return
	}
	if req.Op == "train" {
		if err := e.startTraining(ctx, req); err != nil {
			e.fail(id, err)
		}
		return
	}
	res, bytes, err := e.serve(ctx, req)
	if err != nil {
		e.fail(id, err)
		return
	}
	e.opt.Post(Reply{V: Protocol, Type: "result", ID: &id, Result: res, Bytes: bytes})
}

func (e *Engine) fail(id int64, err error) {
	var pe *Error
	if !errors.As(err, &pe) {
		pe = &Error{Code: CodeInternal, Message: err.Error()}
	}
	e.opt.Post(Reply{V: Protocol, Type: "error", ID: &id, Error: pe})
}

// serve runs every operation but train.
func (e *Engine) serve(ctx context.Context, req Request) (any, []byte, error) {
	switch req.Op {
	case "info":
		return e.info(), nil, nil
	case "defaults":
		var a struct {
			Model string `json:"model"`
		}
		if err := decode(req, &a); err != nil {
			return nil, nil, err
		}
		if a.Model == "" || a.Model == "ilpgnn" {
			return map[string]any{"hyperparameters": hyperparameters(train.DefaultConfig())}, nil, nil
		}
		register, err := baselineFlags(a.Model)
		if err != nil {
			return nil, nil, err
		}
		return map[string]any{"hyperparameters": flagList(register)}, nil, nil
	case "cancel":
		var a struct {
			Target *int64 `json:"target"`
		}
		if err := decode(req, &a); err != nil {
			return nil, nil, err
		}
		if a.Target == nil {
			return nil, nil, errorf(CodeBadRequest, "cancel: args.target (the id of a train request) is required")
		}
		return map[string]bool{"cancelled": e.cancel(*a.Target)}, nil, nil
	case "describe":
		d, err := e.graph()
		if err != nil {
			return nil, nil, err
		}
		return describe(d), nil, nil
	case "checkpoints.list":
		return e.list(ctx)
	case "checkpoints.delete":
		key, err := keyArg(req)
		if err != nil {
			return nil, nil, err
		}
		if err := e.opt.Store.Delete(ctx, key); err != nil {
			return nil, nil, storageError("deleting", err)
		}
		return map[string]bool{"deleted": true}, nil, nil
	case "checkpoints.export":
		return e.export(ctx, req)
	}
	// Everything below reads or replaces the graph or the model.
	if id, busy := e.busy(); busy {
		return nil, nil, errorf(CodeBusy, "%s: training (request %d) is in progress; cancel it or wait", req.Op, id)
	}
	switch req.Op {
	case "load":
		return e.load(req)
	case "generate":
		return e.generate(req)
	case "evaluate":
		return e.evaluate()
	case "insight":
		return e.insight(req)
	case "fidelity":
		return e.fidelity(req)
	case "explain":
		return e.explain(req)
	case "suggest":
		return e.suggest(req)
	case "compare":
		return e.compare(req)
	case "checkpoints.save":
		mo, err := e.current()
		if err != nil {
			return nil, nil, err
		}
		return e.save(ctx, mo), nil, nil
	case "checkpoints.load":
		return e.loadStored(ctx, req)
	case "checkpoints.import":
		return e.importFile(ctx, req)
	}
	return nil, nil, errorf(CodeBadRequest, "unknown operation %q", req.Op)
}

func decode(req Request, v any) error {
	if len(req.Args) == 0 || string(req.Args) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(req.Args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(CodeBadRequest, "%s: bad args: %v", req.Op, err)
	}
	return nil
}

func keyArg(req Request) (string, error) {
	var a struct {
		Key string `json:"key"`
	}
	if err := decode(req, &a); err != nil {
		return "", err
	}
	if a.Key == "" {
		return "", errorf(CodeBadRequest, "%s: args.key is required", req.Op)
	}
	return a.Key, nil
}

func (e *Engine) busy() (int64, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.training == nil {
		return 0, false
	}
	return e.training.id, true
}

func (e *Engine) cancel(target int64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.training == nil || e.training.id != target {
		return false
	}
	e.training.cancel()
	return true
}

func (e *Engine) graph() (*loaded, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.data == nil {
		return nil, errorf(CodeNoGraph, "no graph is loaded: load a file or generate a synthetic graph first")
	}
	return e.data, nil
}

func (e *Engine) current() (*model, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.model == nil {
		return nil, errorf(CodeNoModel, "no model: train one or load a checkpoint first")
	}
	return e.model, nil
}

// setGraph replaces the graph; a model of another graph goes with it.
func (e *Engine) setGraph(l *loaded) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.model != nil && e.model.meta.Fingerprint != l.info.Fingerprint {
		e.model = nil
	}
	if e.data == nil || e.data.info.Fingerprint != l.info.Fingerprint {
		e.baselines = nil
		e.conpi = nil
	}
	e.data = l
}

func newLoaded(d *dataset.Dataset, syn *Synthetic) *loaded {
	g := d.Graph
	st := g.Stats()
	fp := g.Fingerprint()
	return &loaded{d: d, synthetic: syn, info: GraphInfo{
		Name: g.Name, Fingerprint: hex.EncodeToString(fp[:]),
		Nodes: st.Nodes, Edges: st.Edges, FeatureDim: st.FeatureDim,
		Stats: GraphStats{Density: st.Density, MinDegree: st.MinDegree, MaxDegree: st.MaxDegree,
			MeanDegree: st.MeanDegree, MedianDegree: st.MedianDegree, Isolated: st.Isolated,
			Components: st.Components, LargestComponent: st.LargestComponent},
		HasLabels: g.Labels != nil, HasGroundtruth: d.Truth != nil, Synthetic: syn,
		MissingFeatures: st.MissingFeatures, MissingFeatureIDs: append([]string{}, st.MissingFeatureIDs...),
	}}
}

func (e *Engine) load(req Request) (any, []byte, error) {
	var a struct {
		Name string `json:"name"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if len(req.Files) == 0 {
		return nil, nil, errorf(CodeBadRequest, "load: no files were given")
	}
	d, err := loadFiles(req.Files)
	if err != nil {
		return nil, nil, inputError(err)
	}
	if a.Name != "" {
		d.Graph.Name = a.Name
	}
	l := newLoaded(d, nil)
	e.setGraph(l)
	return l.info, nil, nil
}

// loadFiles reads what the command line's --data reads, from bytes: the
// three files `ilpgnn synth` writes (with their groundtruth), or anything
// load.Bytes detects.
func loadFiles(files map[string][]byte) (*dataset.Dataset, error) {
	if _, ok := files[synth.GroundtruthFile]; ok {
		t, err := synth.ReadFiles("synthetic", files)
		if err != nil {
			return nil, err
		}
		return &dataset.Dataset{Graph: t.Graph, Truth: t}, nil
	}
	g, err := load.Bytes(files)
	if err != nil {
		return nil, err
	}
	// Featureless graphs get the command line's fallback features, so a
	// checkpoint trained here explains the same there.
	return &dataset.Dataset{Graph: graph.WithFallbackFeatures(g, 0)}, nil
}

// inputError turns a loader's error into a bad_input reply naming the file
// and line.
func inputError(err error) *Error {
	out := &Error{Code: CodeBadInput, Message: err.Error()}
	var le *load.Error
	if errors.As(err, &le) {
		out.File, out.Line = le.File, le.Line
	}
	return out
}

func (e *Engine) generate(req Request) (any, []byte, error) {
	var a struct {
		Preset string  `json:"preset"`
		Seed   *uint64 `json:"seed"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.Seed == nil {
		return nil, nil, errorf(CodeBadRequest, "generate: args.seed is required")
	}
	src, err := dataset.Parse(fmt.Sprintf("synth:%s:seed=%d", a.Preset, *a.Seed))
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "generate: %v", err)
	}
	d, err := src.Load(*a.Seed)
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "generate: %v", err)
	}
	l := newLoaded(d, &Synthetic{Preset: a.Preset, Seed: *a.Seed})
	e.setGraph(l)
	return l.info, nil, nil
}

func describe(l *loaded) Description {
	g := l.d.Graph
	n := g.NumNodes()
	out := Description{GraphInfo: l.info, IDs: g.IDs, Degrees: make([]int, n), Labels: g.Labels,
		ClassNames: g.ClassNames, EdgeList: make([]int32, 0, 2*g.NumEdges())}
	for i := range n {
		out.Degrees[i] = g.Degree(i)
		for _, j := range g.Neighbors(i) {
			if int(j) > i {
				out.EdgeList = append(out.EdgeList, int32(i), j)
			}
		}
	}
	return out
}

// hyperparameters lists every setting of c by its command-line name.
func hyperparameters(c train.Config) []Hyperparameter { return flagList(c.RegisterFlags) }

// flagList lists the flags register binds, with their values and help.
func flagList(register func(*flag.FlagSet)) []Hyperparameter {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	register(fs)
	var out []Hyperparameter
	fs.VisitAll(func(f *flag.Flag) {
		out = append(out, Hyperparameter{Name: f.Name, Value: f.Value.String(), Help: f.Usage})
	})
	return out
}

// configOf applies overrides, by command-line name, to ILP-GNN's
// defaults. It reports which names were given.
func configOf(overrides map[string]any) (train.Config, map[string]bool, error) {
	c := train.DefaultConfig()
	given, err := applyFlags(c.RegisterFlags, overrides)
	if err != nil {
		return c, nil, err
	}
	if err := c.Validate(); err != nil {
		return c, nil, errorf(CodeBadRequest, "train: %v", err)
	}
	return c, given, nil
}

// applyFlags sets the flags that register binds, by name, from overrides
// (strings, numbers or booleans, as JSON gives them), reporting which were
// given.
func applyFlags(register func(*flag.FlagSet), overrides map[string]any) (map[string]bool, error) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	register(fs)
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	sort.Strings(names) // deterministic error messages
	given := map[string]bool{}
	for _, name := range names {
		var s string
		switch v := overrides[name].(type) {
		case string:
			s = v
		case bool:
			s = strconv.FormatBool(v)
		case float64:
			s = strconv.FormatFloat(v, 'g', -1, 64)
		default:
			return nil, errorf(CodeBadRequest, "train: config.%s: want a string, number or boolean", name)
		}
		if fs.Lookup(name) == nil {
			return nil, errorf(CodeBadRequest, "train: unknown hyperparameter %q (the defaults operation lists them)", name)
		}
		if err := fs.Set(name, s); err != nil {
			return nil, errorf(CodeBadRequest, "train: config.%s: %v", name, err)
		}
		given[name] = true
	}
	return given, nil
}

func configMap(c train.Config) map[string]string { return flagMap(c.RegisterFlags) }

func (e *Engine) startTraining(ctx context.Context, req Request) error {
	var a struct {
		Model        string         `json:"model"`
		Config       map[string]any `json:"config"`
		Seed         *uint64        `json:"seed"`
		Select       string         `json:"select"`
		Save         *bool          `json:"save"`
		SaveOnCancel bool           `json:"saveOnCancel"`
	}
	if err := decode(req, &a); err != nil {
		return err
	}
	if a.Model != "" && a.Model != "ilpgnn" {
		return e.startBaseline(ctx, req.ID, a.Model, a.Config, a.Seed)
	}
	cfg, given, err := configOf(a.Config)
	if err != nil {
		return err
	}
	switch a.Select {
	case "":
		a.Select = "auto"
	case "auto", "auc", "precision":
	default:
		return errorf(CodeBadRequest, "train: select must be auto, auc or precision (got %q)", a.Select)
	}
	l, runCtx, err := e.claim(ctx, req.ID, func(l *loaded) error {
		if a.Select == "precision" && l.d.Truth == nil {
			return errorf(CodeBadRequest, "train: select precision needs groundtruth explanations, which only synthetic graphs have")
		}
		return nil
	})
	if err != nil {
		return err
	}
	cfg.Seed = runSeed(l, a.Seed, cfg.Seed)
	save := a.Save == nil || *a.Save
	go e.finishRun(req.ID, func() (any, error) {
		return e.train(runCtx, req.ID, l, cfg, a.Select != "auc", given["patience"], save, a.SaveOnCancel)
	})
	return nil
}

// claim reserves the engine for training request id on the loaded graph,
// after check accepts it, and returns the graph and the run's context;
// the run releases it when it ends.
func (e *Engine) claim(ctx context.Context, id int64, check func(*loaded) error) (*loaded, context.Context, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.training != nil {
		return nil, nil, errorf(CodeBusy, "train: training (request %d) is already in progress", e.training.id)
	}
	if e.data == nil {
		return nil, nil, errorf(CodeNoGraph, "train: no graph is loaded")
	}
	if err := check(e.data); err != nil {
		return nil, nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	e.training = &run{id: id, cancel: cancel}
	return e.data, runCtx, nil
}

// release ends the training run (finishRun calls it when a run ends).
func (e *Engine) release() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.training.cancel()
	e.training = nil
}

// runSeed is the seed of a run: the one asked for, else a synthetic
// graph's generator seed (as `ilpgnn train --data synth:PRESET` does), else
// def.
func runSeed(l *loaded, asked *uint64, def uint64) uint64 {
	switch {
	case asked != nil:
		return *asked
	case l.synthetic != nil:
		return l.synthetic.Seed
	}
	return def
}

// finishRun runs a training run's body on its goroutine and replies with
// its result or error. The engine is released before the reply is posted,
// so a request the page sends on seeing the result is never refused as busy.
func (e *Engine) finishRun(id int64, body func() (any, error)) {
	var out any
	var err error
	func() {
		// A bug here must not take the worker down with the page's data.
		defer func() {
			if r := recover(); r != nil {
				err = errorf(CodeInternal, "train: internal error: %v", r)
			}
		}()
		out, err = body()
	}()
	e.release()
	if err != nil {
		e.fail(id, err)
		return
	}
	e.opt.Post(Reply{V: Protocol, Type: "result", ID: &id, Result: out})
}

func (e *Engine) train(ctx context.Context, id int64, l *loaded, cfg train.Config, byPrecision, patienceGiven, save, saveOnCancel bool) (any, error) {
	res, err := e.runTraining(ctx, id, l, cfg, byPrecision, patienceGiven)
	cancelled := errors.Is(err, context.Canceled)
	if err != nil && !cancelled {
		// The graph and the current model stay as they were.
		return nil, runFailed(err)
	}
	mo, err := e.adopt(res, l, cancelled)
	if err != nil {
		return nil, err
	}
	out := TrainResult{ModelInfo: modelInfo(mo), Model: train.ModelName, Cancelled: cancelled, Epochs: res.Epochs, TrainSeconds: res.TrainSeconds,
		TestHits: &res.TestHits, Warning: train.TestWarning(res.Split)}
	switch {
	case save && (!cancelled || saveOnCancel):
		out.Saved = e.save(context.WithoutCancel(ctx), mo)
	case cancelled:
		out.Saved = SaveStatus{Message: "not saved: training was cancelled"}
	default:
		out.Saved = SaveStatus{Message: "not saved: saving was not requested"}
	}
	return out, nil
}

func (e *Engine) runTraining(ctx context.Context, id int64, l *loaded, cfg train.Config, byPrecision, patienceGiven bool) (*train.Result, error) {
	sp, err := l.d.Split(cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		return nil, err
	}
	var crit train.Criterion
	if l.d.Truth != nil && byPrecision {
		// As `ilpgnn train --select auto`: a graph with groundtruth keeps
		// the weights that explain its validation links best.
		crit = experiment.PrecisionCriterion(l.d.Truth)
		if !patienceGiven {
			cfg.Patience = experiment.PrecisionPatience
		}
	}
	progress := func(p train.Progress) {
		elapsed := p.Elapsed.Seconds() * 1000
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: &Progress{
			Epoch: p.Epoch, MaxEpochs: p.MaxEpochs, Loss: p.Loss, Cls: p.Cls, Pos: p.Pos, Neg: p.Neg,
			ValAUC: p.ValAUC, BestValAUC: p.BestValAUC, BestEpoch: p.BestEpoch, Score: p.Score, BestScore: p.BestScore,
			ElapsedMs: elapsed, RemainingMs: remainingMs(elapsed, p.Epoch, p.MaxEpochs, p.BestEpoch, cfg.Patience),
			Patience: cfg.Patience, MemoryBytes: memoryBytes(),
		}})
		e.opt.Yield()
	}
	prepare := func(p ilpgnn.PrepareProgress) {
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: &Progress{
			MaxEpochs: cfg.Epochs, ElapsedMs: p.Elapsed.Seconds() * 1000, MemoryBytes: memoryBytes(),
			Prepare: &PrepareProgress{Phase: p.Phase, Done: p.Done, Total: p.Total},
		}})
	}
	return train.RunSplitSelect(ilpgnn.WithPrepareProgress(ctx, prepare), sp, cfg, crit, progress)
}

// adopt makes a finished run the current model. It goes through the
// checkpoint's bytes, exactly as loading a stored checkpoint does, so a
// model explains the same before and after a reload. A cancelled run's
// checkpoint says so (store.CancelledMetric), so that restoring "the
// newest model" later can pass it over.
func (e *Engine) adopt(res *train.Result, l *loaded, cancelled bool) (*model, error) {
	ck, err := res.Checkpoint(l.d.Graph)
	if err != nil {
		return nil, errorf(CodeInternal, "packing the checkpoint: %v", err)
	}
	ck.Created = e.opt.Now().Unix()
	if l.d.Truth != nil {
		pred := ilpgnn.NewPredictor(res.Model, res.Inputs)
		p := explain.PrecisionAt(pred.RankedNodes, l.d.Truth.ExplainedLinks(synth.Test), 1, 2)
		ck.Metrics = append(ck.Metrics, checkpoint.Metric{Name: "p_at_1", Value: p[0]}, checkpoint.Metric{Name: "p_at_2", Value: p[1]})
	}
	if cancelled {
		ck.Metrics = append(ck.Metrics, checkpoint.Metric{Name: store.CancelledMetric, Value: float64(res.Epochs)})
	}
	data, err := ck.MarshalBinary()
	if err != nil {
		return nil, errorf(CodeInternal, "encoding the checkpoint: %v", err)
	}
	return e.open(data, l)
}

// open builds the model of an encoded checkpoint on l's graph and makes it
// current.
func (e *Engine) open(data []byte, l *loaded) (*model, error) {
	meta, err := store.MetaOf(data)
	if err != nil {
		return nil, errorf(CodeBadInput, "not a usable checkpoint: %v", err)
	}
	if meta.Fingerprint != l.info.Fingerprint {
		return nil, errorf(CodeMismatch, "checkpoint %q was trained on another graph (dataset %q) than the loaded %q; load that graph first",
			meta.Key, meta.Dataset, l.info.Name)
	}
	ck, err := checkpoint.Unmarshal(data)
	if err != nil {
		return nil, errorf(CodeBadInput, "not a usable checkpoint: %v", err)
	}
	m, cfg, err := train.LoadModel(ck, l.d.Graph)
	if err != nil {
		return nil, errorf(CodeBadInput, "checkpoint %q: %v", meta.Key, err)
	}
	in, err := ilpgnn.Prepare(l.d.Graph, cfg.Model)
	if err != nil {
		return nil, errorf(CodeInternal, "preparing the graph: %v", err)
	}
	pred := ilpgnn.NewPredictor(m, in)
	pred.Seed = cfg.Seed
	mo := &model{meta: meta, ck: ck, data: data, cfg: cfg, m: m, pred: pred}
	e.mu.Lock()
	e.model = mo
	e.mu.Unlock()
	return mo, nil
}

func modelInfo(mo *model) ModelInfo {
	h := mo.meta
	out := ModelInfo{Key: h.Key, Dataset: h.Dataset, Seed: h.Seed, Created: h.Created,
		TestAUC: h.Metrics["test_auc"], ValAUC: h.Metrics["val_auc"], BestEpoch: int(h.Metrics["best_epoch"]),
		Config: configMap(mo.cfg)}
	if v, ok := h.Metrics["p_at_1"]; ok {
		out.P1 = &v
	}
	if v, ok := h.Metrics["p_at_2"]; ok {
		out.P2 = &v
	}
	if n, ok := h.CancelledAt(); ok {
		out.CancelledAtEpoch = &n
	}
	return out
}

// save stores mo's checkpoint. Failure is a status, not an error: the model
// stays usable, only not kept. Without persistent storage the checkpoint is
// held in memory, so it can still be listed, loaded and exported until the
// page closes, and the status says it was not saved.
func (e *Engine) save(ctx context.Context, mo *model) SaveStatus {
	if _, cancelled := mo.meta.CancelledAt(); cancelled {
		if st, ok := e.keepCompleted(ctx, mo.meta.Key); !ok {
			return st
		}
	}
	return e.put(ctx, mo.meta, mo.data)
}

// keepCompleted refuses to store a cancelled run's checkpoint under key
// when a completed run of the same graph and settings is stored there:
// that one would be lost for weights that are at best as good.
func (e *Engine) keepCompleted(ctx context.Context, key string) (SaveStatus, bool) {
	metas, err := e.opt.Store.List(ctx)
	if err != nil {
		return SaveStatus{Message: "not saved: " + err.Error()}, false
	}
	for _, m := range metas {
		if _, cancelled := m.CancelledAt(); m.Key == key && !cancelled {
			return SaveStatus{Message: "not saved: a completed run with the same settings is stored under this key and is kept"}, false
		}
	}
	return SaveStatus{}, true
}

func (e *Engine) put(ctx context.Context, m store.Meta, data []byte) SaveStatus {
	if err := e.opt.Store.Put(ctx, m, data); err != nil {
		return SaveStatus{Message: "not saved: " + err.Error()}
	}
	if !e.persistent {
		// Loadable for the rest of the session all the same.
		return SaveStatus{Key: m.Key, Message: "not saved: " + e.opt.StorageMessage}
	}
	return SaveStatus{Saved: true, Key: m.Key}
}

func storageError(doing string, err error) *Error {
	if errors.Is(err, store.ErrNotFound) {
		return errorf(CodeNotFound, "%s: %v", doing, err)
	}
	return errorf(CodeStorage, "%s: %v", doing, err)
}

func (e *Engine) list(ctx context.Context) (any, []byte, error) {
	metas, err := e.opt.Store.List(ctx)
	if err != nil {
		return nil, nil, storageError("listing checkpoints", err)
	}
	fp := ""
	if l, err := e.graph(); err == nil {
		fp = l.info.Fingerprint
	}
	out := CheckpointList{Available: e.persistent, Checkpoints: make([]CheckpointEntry, 0, len(metas))}
	if !e.persistent {
		out.Message = e.opt.StorageMessage
	}
	for _, m := range metas {
		out.Checkpoints = append(out.Checkpoints, CheckpointEntry{Meta: m, Matches: m.Fingerprint == fp})
	}
	return out, nil, nil
}

func (e *Engine) loadStored(ctx context.Context, req Request) (any, []byte, error) {
	key, err := keyArg(req)
	if err != nil {
		return nil, nil, err
	}
	l, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	data, err := e.opt.Store.Get(ctx, key)
	if err != nil {
		return nil, nil, storageError("loading checkpoint "+key, err)
	}
	mo, err := e.open(data, l)
	if err != nil {
		return nil, nil, err
	}
	return modelInfo(mo), nil, nil
}

func (e *Engine) export(ctx context.Context, req Request) (any, []byte, error) {
	var a struct {
		Key string `json:"key"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	var data []byte
	if a.Key == "" {
		mo, err := e.current()
		if err != nil {
			return nil, nil, err
		}
		data = mo.data
	} else {
		var err error
		if data, err = e.opt.Store.Get(ctx, a.Key); err != nil {
			return nil, nil, storageError("exporting checkpoint "+a.Key, err)
		}
	}
	meta, err := store.MetaOf(data)
	if err != nil {
		return nil, nil, errorf(CodeInternal, "stored checkpoint is damaged: %v", err)
	}
	name := fmt.Sprintf("%s-seed%d-%s.ckpt", meta.Dataset, meta.Seed, meta.Key[len(meta.Key)-16:])
	return map[string]string{"filename": name}, data, nil
}

func (e *Engine) importFile(ctx context.Context, req Request) (any, []byte, error) {
	if len(req.Files) != 1 {
		return nil, nil, errorf(CodeBadRequest, "checkpoints.import: want exactly one file, got %d", len(req.Files))
	}
	for name, data := range req.Files {
		meta, err := store.MetaOf(data)
		if err != nil {
			return nil, nil, &Error{Code: CodeBadInput, Message: fmt.Sprintf("%s: %v", name, err), File: name}
		}
		// The checksums only catch accidents: refuse a file whose sizes or
		// weights lie before it is stored, checked against the loaded graph
		// when it is the checkpoint's (else that check waits for loading).
		fp := ""
		var g *graph.Graph
		if l, err := e.graph(); err == nil {
			fp = l.info.Fingerprint
			if fp == meta.Fingerprint {
				g = l.d.Graph
			}
		}
		ck, err := checkpoint.Unmarshal(data)
		if err == nil {
			_, _, err = train.Verify(ck, g)
		}
		if err != nil {
			return nil, nil, &Error{Code: CodeBadInput, Message: fmt.Sprintf("%s: not a usable checkpoint: %v", name, err), File: name}
		}
		st := e.put(ctx, meta, data)
		return map[string]any{"meta": CheckpointEntry{Meta: meta, Matches: meta.Fingerprint == fp}, "status": st}, nil, nil
	}
	panic("unreachable")
}

func (e *Engine) evaluate() (any, []byte, error) {
	l, _, h, err := e.heldModel()
	if err != nil {
		return nil, nil, err
	}
	sp, pred := h.split, h.pred
	scores := func(pos, neg []graph.Edge) ([]float32, []float32) {
		s := pred.Logits(append(append([]graph.Edge{}, pos...), neg...))
		return s[:len(pos)], s[len(pos):]
	}
	testPos, testNeg := scores(sp.TestPos, sp.TestNeg)
	out := Evaluation{TestAUC: eval.AUC(testPos, testNeg), TestHits: eval.HitsOf(testPos, testNeg), ValAUC: eval.AUC(scores(sp.ValPos, sp.ValNeg))}
	if l.d.Truth != nil {
		p := explain.PrecisionAt(pred.RankedNodes, l.d.Truth.ExplainedLinks(synth.Test), 1, 2)
		out.P1, out.P2 = &p[0], &p[1]
	}
	return out, nil, nil
}

func (e *Engine) node(l *loaded, op, name string, v int) error {
	if n := l.d.Graph.NumNodes(); v < 0 || v >= n {
		return errorf(CodeNotFound, "%s: %s %d is not a node (the graph has nodes 0 to %d)", op, name, v, n-1)
	}
	return nil
}

func (e *Engine) explain(req Request) (any, []byte, error) {
	var a struct {
		I *int `json:"i"`
		J *int `json:"j"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.I == nil || a.J == nil {
		return nil, nil, errorf(CodeBadRequest, "explain: args.i and args.j (node indices) are required")
	}
	l, mo, err := e.modelAndGraph()
	if err != nil {
		return nil, nil, err
	}
	for _, x := range []struct {
		name string
		v    int
	}{{"i", *a.I}, {"j", *a.J}} {
		if err := e.node(l, "explain", x.name, x.v); err != nil {
			return nil, nil, err
		}
	}
	ex, err := mo.pred.Explain(*a.I, *a.J)
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "explain: %v", err)
	}
	return e.withGroundtruth(l, ex), nil, nil
}

func (e *Engine) suggest(req Request) (any, []byte, error) {
	var a struct {
		Node *int `json:"node"`
		Top  *int `json:"top"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.Node == nil {
		return nil, nil, errorf(CodeBadRequest, "suggest: args.node (a node index) is required")
	}
	top := 10
	if a.Top != nil {
		top = *a.Top
	}
	if top < 1 {
		return nil, nil, errorf(CodeBadRequest, "suggest: args.top must be at least 1 (got %d)", top)
	}
	l, mo, err := e.modelAndGraph()
	if err != nil {
		return nil, nil, err
	}
	if err := e.node(l, "suggest", "node", *a.Node); err != nil {
		return nil, nil, err
	}
	s, err := mo.pred.Suggest(*a.Node, top)
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "suggest: %v", err)
	}
	return s, nil, nil
}

// runFailed is the reply to a training run that failed, such as one that
// diverged (its message names the epoch and the learning rate).
func runFailed(err error) *Error {
	msg := err.Error()
	if !strings.HasPrefix(msg, "train: ") {
		msg = "train: " + msg
	}
	return &Error{Code: CodeBadRequest, Message: msg}
}

// memoryBytes is the memory the Go runtime has obtained from the system
// (runtime/metrics' total, which reads without stopping the world). Under
// js/wasm that is the linear memory grown so far, the figure the browser's
// limit applies to.
func memoryBytes() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// remainingMs estimates the time left after epoch, from the mean epoch so
// far: at most maxEpochs run, and early stopping ends the run patience
// epochs after the best one unless a better one comes.
func remainingMs(elapsedMs float64, epoch, maxEpochs, bestEpoch, patience int) float64 {
	left := min(maxEpochs-epoch, max(patience-(epoch-bestEpoch), 0))
	return elapsedMs / float64(epoch) * float64(left)
}
