// Package engine is the browser's ILP-GNN engine: it answers the page's
// requests (wasm/PROTOCOL.md) with the core packages — loading graphs,
// training, explaining — and keeps checkpoints in a store.Store. It is pure
// Go, so it is tested natively; package main of wasm/worker connects it to
// the Web Worker's messages.
package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/dataset"
	"ilpgnn/core/diffusion"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/shard"
	"ilpgnn/core/split"
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
	// Models are the models the page can train; nil means models.Default().
	Models models.Registry
	// Helpers, if set, starts helpers more workers (the browser's Web
	// Workers) for a run's shards and returns the runner that hands them
	// out (shard.Coordinate); nil trains on this worker alone.
	Helpers func(ctx context.Context, kit *shard.Kit, helpers int) (shard.Runner, error)
	// Push, if set, computes a push S̃ of g under opt with helpers more
	// workers (shard.PushShared over the browser's Web Workers: the same
	// bits as diffusion.New), reporting progress as diffusion.NewWithProgress
	// does and returning ctx's error soon after ctx is done; nil pushes on
	// this worker alone, a cancel waiting for the push to end.
	Push func(ctx context.Context, g *graph.Graph, opt diffusion.Options, helpers int, progress func(done, total int)) (*diffusion.Similarity, error)
	// Cores is how many logical processors the machine has
	// (navigator.hardwareConcurrency); 0 means unknown, taken as 1.
	Cores int
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
	// trained are the models trained on data that are not kept as
	// checkpoints (the baselines), by name, for comparing their
	// explanations with the current model's.
	trained map[string]models.Trained
	// kept is the best model so far of the ILP-GNN run in progress.
	kept *keptRun
}

type loaded struct {
	d    *dataset.Dataset
	info GraphInfo
	// fingerprint is fingerprint.Of(d.Graph), hashed once on loading: the
	// models trained on, stored for and opened on the graph are checked
	// and stamped by it, and hashing a large graph's features costs more
	// than the rest of that work.
	fingerprint [32]byte
	synthetic   *Synthetic
	// prepared holds the whole graph's inputs, by the settings they were
	// prepared with.
	prepared preparedInputs
	// hard holds the hard negatives ranking drew, by the split they were
	// drawn for, so that another model on the same split ranks against
	// them without drawing again; Engine.mu guards it.
	hard map[splitKey]*hardNegatives
}

// splitKey names a model's split of a graph: its seed and held-out shares.
type splitKey struct {
	seed              uint64
	valFrac, testFrac float64
}

type model struct {
	meta store.Meta
	ck   *checkpoint.Checkpoint
	data []byte // ck's encoding
	cfg  train.Config
	m    *ilpgnn.Model
	pred *ilpgnn.Predictor // on the whole graph, as the command line explains
	// held is the predictor on the seed split's training graph (evaluate,
	// insight, fidelity, ranking), built on first use; Engine.mu guards it.
	held *heldOut
	// trainSplit and trainIn are the split and the prepared training
	// graph of the run that trained the model in this session, which
	// held then reuses (nil for a restored checkpoint).
	trainSplit *split.Split
	trainIn    *ilpgnn.Inputs
	// run is the training run behind a model trained in this session,
	// whose test evaluation evaluate finishes when the run left it
	// pending; stored says its checkpoint is in the store.
	run    *train.Result
	stored bool
}

// run is the background run the engine is busy with.
type run struct {
	id     int64
	op     string // train or tune
	cancel context.CancelFunc
}

// doing names the run for busy replies.
func (r *run) doing() string {
	if r.op == "tune" {
		return "tuning"
	}
	return "training"
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
	if e.opt.Models == nil {
		e.opt.Models = models.Default()
	}
	if e.opt.Yield == nil {
		e.opt.Yield = func() {}
	}
	info := e.info()
	e.opt.Post(Reply{V: Protocol, Type: "ready", Engine: &info})
	return e
}

// StorageLost tells the page, unasked, that the checkpoint store can no
// longer be used, and why (another tab upgraded its database, so this
// engine closed its connection): the page's storage line from ready is
// out of date. The store's own errors then say the same on every use.
func (e *Engine) StorageLost(message string) {
	e.opt.Post(Reply{V: Protocol, Type: "storage", Storage: &StorageInfo{Available: false, Message: message}})
}

func (e *Engine) info() Info {
	out := Info{Protocol: Protocol, Version: e.opt.Version, Models: make([]ModelSpec, len(e.opt.Models)),
		Cores: max(e.opt.Cores, 1), MaxWorkers: shard.Count, DefaultWorkers: min(DefaultWorkers(e.opt.Cores), shard.Count),
		Storage: StorageInfo{Available: e.persistent, Message: e.opt.StorageMessage}}
	for k, s := range e.opt.Models {
		out.Models[k] = ModelSpec{Name: s.Name, About: s.About, Learns: s.Learns, Saves: s.Saves, Explanation: s.Explanation}
	}
	return out
}

// Handle serves one request: it posts exactly one result or error reply for
// it (for train and tune, when the run ends).
func (e *Engine) Handle(ctx context.Context, req Request) {
	id := req.ID
	if req.V != Protocol {
		e.fail(id, errorf(CodeVersion, "protocol version %d is not supported (this engine speaks %d)", req.V, Protocol))
		return
	}
	if start, ok := background[req.Op]; ok {
		if err := start(e, ctx, req); err != nil {
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

// background are the requests that start a run on a goroutine of its own,
// which answers when it ends; the engine is busy until then.
var background = map[string]func(e *Engine, ctx context.Context, req Request) error{
	"train": (*Engine).startTraining,
	"tune":  (*Engine).startTuning,
}

// operation serves one kind of request.
type operation struct {
	serve func(e *Engine, ctx context.Context, req Request) (any, []byte, error)
	// idle says it reads or replaces the graph or the model, so it is
	// refused while a training run is in progress. explain and suggest
	// are not: while an ILP-GNN run trains, its best weights so far
	// answer them (answering).
	idle bool
}

// operations are the requests serve answers (train starts a run instead,
// see Handle), by name.
var operations = map[string]operation{
	"info":               {serve: func(e *Engine, _ context.Context, _ Request) (any, []byte, error) { return e.info(), nil, nil }},
	"defaults":           {serve: (*Engine).defaults},
	"cancel":             {serve: (*Engine).cancelRequest},
	"describe":           {serve: (*Engine).describe},
	"checkpoints.list":   {serve: (*Engine).list},
	"checkpoints.delete": {serve: (*Engine).deleteStored},
	"checkpoints.export": {serve: (*Engine).export},
	"load":               {serve: (*Engine).load, idle: true},
	"generate":           {serve: (*Engine).generate, idle: true},
	"evaluate":           {serve: (*Engine).evaluate, idle: true},
	"insight":            {serve: (*Engine).insight, idle: true},
	"fidelity":           {serve: (*Engine).fidelity, idle: true},
	"ranking":            {serve: (*Engine).ranking, idle: true},
	"explain":            {serve: (*Engine).explain},
	"suggest":            {serve: (*Engine).suggest},
	"compare":            {serve: (*Engine).compare, idle: true},
	"checkpoints.save":   {serve: (*Engine).saveCurrent, idle: true},
	"checkpoints.load":   {serve: (*Engine).loadStored, idle: true},
	"checkpoints.import": {serve: (*Engine).importFile, idle: true},
	"card.export":        {serve: (*Engine).cardExport, idle: true},
	"graph.export":       {serve: (*Engine).graphExport, idle: true},
}

// serve runs every operation but the background ones.
func (e *Engine) serve(ctx context.Context, req Request) (any, []byte, error) {
	op, ok := operations[req.Op]
	if !ok {
		return nil, nil, errorf(CodeBadRequest, "unknown operation %q", req.Op)
	}
	if r, busy := e.busy(); busy && op.idle {
		return nil, nil, errorf(CodeBusy, "%s: %s (request %d) is in progress; cancel it or wait", req.Op, r.doing(), r.id)
	}
	return op.serve(e, ctx, req)
}

// defaults lists a model's hyperparameters with their default values.
func (e *Engine) defaults(_ context.Context, req Request) (any, []byte, error) {
	var a struct {
		Model string `json:"model"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.Model == "" {
		a.Model = e.opt.Models[0].Name
	}
	spec, err := e.opt.Models.Lookup(a.Model)
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "defaults: unknown model: %v", err)
	}
	return map[string]any{"hyperparameters": hyperparameters(spec.New())}, nil, nil
}

// cancelRequest cancels the training run of request args.target.
func (e *Engine) cancelRequest(_ context.Context, req Request) (any, []byte, error) {
	var a struct {
		Target *int64 `json:"target"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.Target == nil {
		return nil, nil, errorf(CodeBadRequest, "cancel: args.target (the id of a train or tune request) is required")
	}
	return map[string]bool{"cancelled": e.cancel(*a.Target)}, nil, nil
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

func (e *Engine) busy() (run, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.training == nil {
		return run{}, false
	}
	return *e.training, true
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
