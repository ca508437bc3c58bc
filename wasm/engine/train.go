package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/diffusion"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/shard"
	"ilpgnn/core/train"
	"ilpgnn/wasm/store"
)

// trainRequest are the arguments of a train request.
type trainRequest struct {
	Model        string         `json:"model"`
	Config       map[string]any `json:"config"`
	Seed         *uint64        `json:"seed"`
	Select       string         `json:"select"`
	Save         *bool          `json:"save"`
	SaveOnCancel bool           `json:"saveOnCancel"`
	Workers      *int           `json:"workers"`
}

// trainJob is a train request, checked and ready to run.
type trainJob struct {
	id           int64
	spec         models.Spec
	config       models.Config
	given        map[string]bool
	selection    models.Selection
	save         bool // keep the checkpoint (models that save)
	saveOnCancel bool
	workers      int // asked for; 0: the default
	// used is how many workers compute the run's shards, set when its
	// runner starts (0: its epochs are not sharded).
	used int
}

// errNoRank refuses models.SelectRank: the engine draws no hard negatives
// for the validation links (the command line does, with --eval heart).
var errNoRank = errors.New(`"rank" keeps weights on hard negatives of the validation links, which the engine does not draw: want auto, auc, precision or unsupervised`)

// engineSelection reads a selection rule the engine runs: any of
// models.ParseSelection's but rank.
func engineSelection(s string) (models.Selection, error) {
	sel, err := models.ParseSelection(s)
	switch {
	case err == nil && sel == models.SelectRank:
		return "", errNoRank
	case err != nil:
		return "", fmt.Errorf("want auto, auc, precision or unsupervised (got %q)", s)
	}
	return sel, nil
}

// startTraining checks a train request and starts its run on a goroutine
// of its own; the run posts progress events, then its result.
func (e *Engine) startTraining(ctx context.Context, req Request) error {
	var a trainRequest
	if err := decode(req, &a); err != nil {
		return err
	}
	job, err := e.newJob(req.ID, a)
	if err != nil {
		return err
	}
	l, runCtx, err := e.claim(ctx, req.ID, "train", func(l *loaded) error {
		if err := job.selection.Check(l.d); err != nil {
			return errorf(CodeBadRequest, "train: %v", err)
		}
		return affordable(job, l.d.Graph)
	})
	if err != nil {
		return err
	}
	seed := runSeed(l, a.Seed, 0)
	go e.finishRun(req.ID, func() (any, error) { return e.train(runCtx, job, l, seed) })
	return nil
}

// newJob reads a train request's model, hyperparameters and rules.
func (e *Engine) newJob(id int64, a trainRequest) (*trainJob, error) {
	if a.Model == "" {
		a.Model = e.opt.Models[0].Name
	}
	spec, err := e.opt.Models.Lookup(a.Model)
	if err != nil {
		return nil, errorf(CodeBadRequest, "train: unknown model: %v", err)
	}
	job := &trainJob{id: id, spec: spec, config: spec.New(), save: a.Save == nil || *a.Save, saveOnCancel: a.SaveOnCancel}
	if job.given, err = applyFlags(job.config, a.Config); err != nil {
		return nil, err
	}
	if err := job.config.Validate(); err != nil {
		return nil, errorf(CodeBadRequest, "train: %v", err)
	}
	if job.selection, err = engineSelection(a.Select); err != nil {
		return nil, errorf(CodeBadRequest, "train: select: %v", err)
	}
	if a.Workers != nil {
		if *a.Workers < 1 || *a.Workers > shard.Count {
			return nil, errorf(CodeBadRequest, "train: workers must be 1 to %d (got %d)", shard.Count, *a.Workers)
		}
		job.workers = *a.Workers
	}
	return job, nil
}

// MaxTabPairs is the number of graph edges above which SEAL and
// WalkPooling refuse to train in a browser tab on every training link per
// epoch: each link costs a subgraph forward pass of its own, so an epoch
// of 20,000 would take minutes in WebAssembly. Capping pairs-per-epoch
// lifts the limit.
const MaxTabPairs = 20000

// TabMemory is the most memory the engine can hold in a tab: a
// WebAssembly module's 32-bit address space, 4 GiB.
const TabMemory = 4 << 30

// affordable refuses training the tab cannot hold (models.MemoryEstimator
// over TabMemory) and a subgraph model whose epochs would be too long for
// a tab, saying what to do instead.
func affordable(job *trainJob, g *graph.Graph) error {
	if me, ok := job.config.(models.MemoryEstimator); ok {
		if err := me.EstimateMemory(g).Refusal(TabMemory, "a tab's engine holds"); err != nil {
			return errorf(CodeBadRequest, "train: %v; the command line (ilpgnn train) has all of the machine's memory", err)
		}
	}
	edges := g.NumEdges()
	pc, ok := job.config.(*models.PairConfig)
	if !ok || !pc.PerPairSubgraph() || pc.Fit().PairsPerEpoch > 0 || edges <= MaxTabPairs {
		return nil
	}
	name := job.spec.Name
	return errorf(CodeBadRequest, "train: %s scores every pair on a subgraph of its own; with %d edges an epoch would take many minutes in a browser tab. Set pairs-per-epoch (e.g. 5000), or train it with the command line (ilpgnn train --model %s)",
		name, edges, name)
}

// train runs job on l's graph with seed and answers with its result.
func (e *Engine) train(ctx context.Context, job *trainJob, l *loaded, seed uint64) (any, error) {
	loop := job.config.Loop()
	sp, err := l.d.Split(seed, loop.ValFrac, loop.TestFrac)
	if err != nil {
		return nil, errorf(CodeBadRequest, "train: %v", err)
	}
	run := models.Run{Data: l.d, Split: sp, Seed: seed, Select: job.selection, Given: job.given}
	ctx = shard.WithStarter(ctx, e.starter(job))
	ctx = e.sharingPush(ctx, job.workers)
	progress := e.progress(job)
	if ic, ok := job.config.(*models.ILPGNNConfig); ok {
		// The whole graph's inputs first: the run's best weights answer
		// explanations on them while it trains, and the finished model
		// needs them at once.
		whole, err := e.prepared(e.reportPreparing(ctx, job, ic, PrepareWhole), l, ic.Model)
		if err != nil {
			return e.notPrepared(ctx, job, l, seed, err)
		}
		// Stopped by the user, the run answers with its best weights at
		// once; evaluate measures them on the test pairs afterwards.
		ctx = train.WithTestLater(ctx)
		ctx = train.WithKept(ctx, func(k train.Kept) { e.keep(job.id, k, whole) })
	}
	t, err := job.config.Train(ctx, run, progress)
	cancelled := errors.Is(err, context.Canceled)
	if err != nil && !cancelled {
		// The graph and the current model stay as they were.
		return nil, runFailed(err)
	}
	if job.spec.Saves {
		if t == nil { // cancelled while preparing the training graph
			return e.notPrepared(ctx, job, l, seed, err)
		}
		return e.adoptRun(ctx, job, t, l, cancelled)
	}
	out := TrainResult{Model: job.spec.Name, ModelInfo: ModelInfo{Dataset: l.info.Name, Seed: seed, Created: e.opt.Now().Unix()},
		Cancelled: cancelled, Warning: train.TestWarning(sp),
		Saved: SaveStatus{Message: "not saved: only ILP-GNN models are kept as checkpoints"}}
	out.Config = models.Settings(job.config)
	if t == nil {
		return out, nil
	}
	e.keepTrained(l, job.spec.Name, t)
	r := t.Result()
	out.TestAUC, out.ValAUC, out.BestEpoch = r.TestAUC, r.ValAUC, r.BestEpoch
	out.TestHits = &r.TestHits
	out.Epochs, out.TrainSeconds, out.SelectedOn = r.Epochs, r.TrainSeconds, string(r.SelectedOn)
	out.P1, out.P2 = models.TrainedPrecision(t, l.d.Truth)
	return out, nil
}

// adoptRun makes a finished run of a model that saves the current model,
// and stores its checkpoint when asked to.
func (e *Engine) adoptRun(ctx context.Context, job *trainJob, t models.Trained, l *loaded, cancelled bool) (any, error) {
	mo, err := e.adopt(t, l, cancelled)
	if err != nil {
		return nil, err
	}
	if it, ok := t.(*models.ILPGNN); ok {
		e.mu.Lock()
		mo.trainSplit, mo.trainIn, mo.run = it.Run.Split, it.Run.Inputs, it.Run
		e.mu.Unlock()
	}
	r := t.Result()
	out := TrainResult{ModelInfo: modelInfo(mo), Model: job.spec.Name, Cancelled: cancelled, Epochs: r.Epochs, TrainSeconds: r.TrainSeconds,
		TestHits: &r.TestHits, Warning: train.TestWarning(r.Split), SelectedOn: string(r.SelectedOn), Workers: job.used,
		StoppedDuring: r.StoppedDuring}
	switch {
	case job.save && (!cancelled || job.saveOnCancel):
		out.Saved = e.save(context.WithoutCancel(ctx), mo)
		mo.stored = out.Saved.Key != ""
	case cancelled:
		out.Saved = SaveStatus{Message: "not saved: training was cancelled"}
	default:
		out.Saved = SaveStatus{Message: "not saved: saving was not requested"}
	}
	return out, nil
}

// adopt makes a finished run the current model. It goes through the
// checkpoint's bytes, exactly as loading a stored checkpoint does, so a
// model explains the same before and after a reload. A cancelled run's
// checkpoint says so (store.CancelledMetric), so that restoring "the
// newest model" later can pass it over.
func (e *Engine) adopt(t models.Trained, l *loaded, cancelled bool) (*model, error) {
	ck, err := t.Checkpoint(l.d.Graph, l.fingerprint)
	if err != nil {
		return nil, errorf(CodeInternal, "packing the checkpoint: %v", err)
	}
	ck.Created = e.opt.Now().Unix()
	if p1, p2 := models.TrainedPrecision(t, l.d.Truth); p1 != nil {
		ck.Metrics = append(ck.Metrics, checkpoint.Metric{Name: "p_at_1", Value: *p1}, checkpoint.Metric{Name: "p_at_2", Value: *p2})
	}
	if cancelled {
		ck.Metrics = append(ck.Metrics, checkpoint.Metric{Name: store.CancelledMetric, Value: float64(t.Result().Epochs)})
	}
	data, err := ck.MarshalBinary()
	if err != nil {
		return nil, errorf(CodeInternal, "encoding the checkpoint: %v", err)
	}
	// The predictor that answered while the run trained holds the
	// embeddings of the weights it kept, when they are these.
	like, start := e.keptPredictor()
	return e.open(data, l, like, start)
}

// keepTrained keeps a model that is not saved, for compare, while l is the
// loaded graph.
func (e *Engine) keepTrained(l *loaded, name string, t models.Trained) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.data != l {
		return
	}
	if e.trained == nil {
		e.trained = map[string]models.Trained{}
	}
	e.trained[name] = t
}

// WorkersBudget is the memory all of a run's workers may hold together:
// the number of workers is cut until the estimates fit.
const WorkersBudget = 2 << 30

// Workers is how many workers a run on kit gets when asked for asked (0:
// the default, DefaultWorkers) on a machine with cores: at most
// shard.Count, and no more than the coordinator's estimate (coordinator
// bytes) and the helpers' (shard.HelperMemory) fit in WorkersBudget; at
// least 1.
func Workers(asked, cores int, coordinator int64, kit *shard.Kit) int {
	n := askedWorkers(asked, cores)
	if helper := shard.HelperMemory(kit); helper > 0 {
		n = min(n, 1+int(max(WorkersBudget-coordinator, 0)/helper))
	}
	return max(n, 1)
}

// askedWorkers is the number of workers asked for (0: DefaultWorkers of
// cores), within 1 and shard.Count.
func askedWorkers(asked, cores int) int {
	if asked == 0 {
		asked = DefaultWorkers(cores)
	}
	return min(max(asked, 1), shard.Count)
}

// DefaultWorkers is the number of workers a run gets unasked on a
// machine with cores: one fewer than the cores, leaving one to the page,
// except on two cores, where a second worker still shortens an epoch
// far more than the page loses (docs/scale.md measures both), so both
// train.
func DefaultWorkers(cores int) int {
	return max(cores-1, min(cores, 2), 1)
}

// sharingPush returns a copy of ctx that makes preparation share S̃'s push
// between as many workers as a run asking for asked gets (0: the
// default), with Options.Push; ctx itself without it. The push's workers
// hold the graph's adjacency and a push's state, far less than a run's,
// so they are not cut to WorkersBudget.
func (e *Engine) sharingPush(ctx context.Context, asked int) context.Context {
	if e.opt.Push == nil {
		return ctx
	}
	helpers := askedWorkers(asked, e.opt.Cores) - 1
	return ilpgnn.WithSimilarity(ctx, func(ctx context.Context, g *graph.Graph, opt diffusion.Options, progress func(done, total int)) (*diffusion.Similarity, error) {
		return e.opt.Push(ctx, g, opt, helpers, progress)
	})
}

// starter returns the shard.Starter of job's run: Options.Helpers with
// the run's number of workers less this one, or shard.Local.
func (e *Engine) starter(job *trainJob) shard.Starter {
	return func(ctx context.Context, kit *shard.Kit) (shard.Runner, error) {
		var coordinator int64
		if me, ok := job.config.(models.MemoryEstimator); ok {
			coordinator = me.EstimateMemory(kit.Inputs.Graph).Bytes
		}
		if n := Workers(job.workers, e.opt.Cores, coordinator, kit); n > 1 && e.opt.Helpers != nil {
			if r, err := e.opt.Helpers(ctx, kit, n-1); err == nil {
				job.used = r.Workers()
				return r, nil
			}
			// Training still works on this worker alone.
		}
		job.used = 1
		return shard.Local(ctx, kit)
	}
}

// progress returns the callback that posts a run's progress events. The
// reports of models that step per mini-batch, and those within an
// ILP-GNN epoch, come fast on small graphs: at most ~10 a second are
// posted, besides the end of every epoch and the start of every phase.
// Each report within an epoch yields to the event loop, posted or not, so
// a cancel takes effect before the next shard.
func (e *Engine) progress(job *trainJob) func(models.Progress) {
	var lastPost time.Time
	var lastPhase string
	id := job.id
	return func(p models.Progress) {
		if p.Batches > 0 && !p.EpochDone && p.Phase == lastPhase && time.Since(lastPost) < 100*time.Millisecond {
			e.opt.Yield()
			return
		}
		lastPost, lastPhase = time.Now(), p.Phase
		pr := &Progress{Epoch: p.Epoch, MaxEpochs: p.MaxEpochs, Loss: p.Loss, Cls: p.Cls, Pos: p.Pos, Neg: p.Neg,
			BestValAUC: p.BestValAUC, BestEpoch: p.BestEpoch, BestScore: p.BestScore,
			ElapsedMs: millis(p.Elapsed), RemainingMs: millis(p.Remaining()), Batch: p.Batch, Batches: p.Batches,
			Patience: p.Patience, StopEpoch: p.StopEpoch, MemoryBytes: memoryBytes(), Phase: p.Phase, Workers: job.used,
			KeptEpoch: e.keptEpoch(job.id)}
		if p.EpochDone {
			pr.ValAUC, pr.Score = p.ValAUC, p.Score
		}
		if p.Prepare != nil {
			pr = &Progress{MaxEpochs: p.MaxEpochs, ElapsedMs: millis(p.Elapsed), MemoryBytes: memoryBytes(),
				Prepare: &PrepareProgress{Phase: p.Prepare.Phase, Done: p.Prepare.Done, Total: p.Prepare.Total, Graph: PrepareTraining}}
		}
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: pr})
		if p.Prepare == nil {
			e.opt.Yield()
		}
	}
}

// millis is d in milliseconds.
func millis(d time.Duration) float64 { return d.Seconds() * 1000 }

// claim reserves the engine for request id of op (train or tune) on the
// loaded graph, after check accepts it, and returns the graph and the
// run's context; the run releases it when it ends.
func (e *Engine) claim(ctx context.Context, id int64, op string, check func(*loaded) error) (*loaded, context.Context, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.training != nil {
		return nil, nil, errorf(CodeBusy, "%s: %s (request %d) is already in progress", op, e.training.doing(), e.training.id)
	}
	if e.data == nil {
		return nil, nil, errorf(CodeNoGraph, "%s: no graph is loaded", op)
	}
	if err := check(e.data); err != nil {
		return nil, nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	e.training = &run{id: id, op: op, cancel: cancel}
	return e.data, runCtx, nil
}

// release ends the training run (finishRun calls it when a run ends).
func (e *Engine) release() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.training.cancel()
	e.training = nil
	e.kept = nil
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

// reportPreparing returns ctx carrying a progress function that posts the
// preparation of graph (PrepareWhole or PrepareTraining) as job's
// progress events, yielding to the event loop after each so that a
// cancel is read.
func (e *Engine) reportPreparing(ctx context.Context, job *trainJob, ic *models.ILPGNNConfig, graph string) context.Context {
	id := job.id
	return ilpgnn.WithPrepareProgress(ctx, func(p ilpgnn.PrepareProgress) {
		pr := &Progress{MaxEpochs: ic.Epochs, ElapsedMs: millis(p.Elapsed), MemoryBytes: memoryBytes(),
			Prepare: &PrepareProgress{Phase: p.Phase, Done: p.Done, Total: p.Total, Graph: graph}}
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: pr})
		e.opt.Yield()
	})
}

// notPrepared answers a run whose graphs could not be prepared: a cancel
// during the preparation ends it with nothing trained (no key; the
// current model stays); any other error fails it.
func (e *Engine) notPrepared(ctx context.Context, job *trainJob, l *loaded, seed uint64, err error) (any, error) {
	if !errors.Is(err, context.Canceled) || ctx.Err() == nil {
		return nil, runFailed(err)
	}
	out := TrainResult{Model: job.spec.Name, ModelInfo: ModelInfo{Dataset: l.info.Name, Seed: seed, Created: e.opt.Now().Unix()},
		Cancelled: true, Saved: SaveStatus{Message: "not saved: training was cancelled before its first epoch"}}
	out.Config = models.Settings(job.config)
	return out, nil
}
