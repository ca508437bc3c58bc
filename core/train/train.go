// Package train fits an ILP-GNN model on one split of a graph: full-batch
// Adam on the training edges with fresh negatives every epoch, early
// stopping on validation AUC, and the test AUC of the kept model (docs/model.md §1,
// §5, §7).
package train

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/calibrate"
	"ilpgnn/core/graph"
	"ilpgnn/core/heart"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/loop"
	"ilpgnn/core/optim"
	"ilpgnn/core/shard"
	"ilpgnn/core/split"
)

// Config is everything one training run depends on, besides the graph.
type Config struct {
	Model     ilpgnn.Config
	Objective ilpgnn.Objective

	LR float64 // Adam learning rate
	// Warmup raises the learning rate linearly from LR/Warmup to LR over
	// the first Warmup epochs (0 or 1: none).
	Warmup      int
	WeightDecay float64 // L2 weight decay added to the gradient
	Dropout     float64 // dropout on the encoder's hidden layers
	Epochs      int     // at most this many updates
	// Patience is how many epochs without progress (a validation score
	// MinDelta above the last progress) end a wait: the first Decays
	// waits multiply the learning rate by DecayFactor, the next stops the
	// run (loop.Plateau).
	Patience    int
	MinDelta    float64 `json:"MinDelta,omitempty"`
	Decays      int     `json:"Decays,omitempty"`
	DecayFactor float64 `json:"DecayFactor,omitempty"`
	ValFrac     float64 // share of edges held out for validation
	TestFrac    float64 // share of edges held out for testing
	Seed        uint64  // the split, the weights, the negatives: everything random
	// BatchSize splits each epoch's pairs into batches of this many, each
	// recorded, back-propagated into H^r and freed before the next, so the
	// memory of the pair-specific part is bounded by one batch; the encoder
	// runs once per epoch and there is still one Adam step per epoch on the
	// full-epoch gradient (up to float rounding). 0 records the whole epoch
	// at once. omitempty keeps the checkpoints of 0 byte-identical to those
	// written before the field existed.
	BatchSize int `json:"BatchSize,omitempty"`
	// HardNegatives is the share of each epoch's negatives that are hard
	// ones: for a training link, a pair drawn from HardPool candidates
	// that heuristics rank highest for one of its ends on the training
	// graph (package heart), instead of a uniformly random non-edge. 0,
	// the default, draws them all uniformly.
	HardNegatives float64 `json:"HardNegatives,omitempty"`
	HardPool      int     `json:"HardPool,omitempty"` // 0: defaultHardPool
}

// defaultHardPool is the hard candidates kept per training link when
// Config.HardPool is 0.
const defaultHardPool = 20

// DefaultConfig returns the defaults of docs/model.md §5 except β = 0.5 and
// λ = 0.1, chosen on validation (docs/defaults.md), with a 20-epoch warmup of
// the learning rate, a patience of 50 epochs and batches of 65,536 pairs.
func DefaultConfig() Config {
	return Config{
		Model:     ilpgnn.DefaultConfig(),
		Objective: ilpgnn.Objective{Lambda: 0.1, Delta: 0.5},
		LR:        0.001,
		// A warmup keeps Adam's first full-size steps from knocking the
		// isometric start over (docs/defaults.md).
		Warmup: 20,
		Epochs: 1000,
		// On Cora a wait of 50 keeps the same epochs as 100 and ends
		// 50 epochs sooner; Photo's longest wait for a better epoch
		// (33) still fits (docs/defaults.md).
		Patience: 50,
		// Batches of 65,536 pairs bound the memory of an epoch's
		// pair-specific tape to one batch; the gradient is the whole
		// epoch's (up to float rounding), so nothing needs retuning, and
		// graphs with fewer pairs (Cora, Citeseer, the synthetic presets)
		// keep the unbatched path and its exact weights.
		BatchSize: 65536,
		ValFrac:   split.DefaultValFrac,
		TestFrac:  split.DefaultTestFrac,
	}
}

// Validate reports the first setting out of range, quoting its value.
func (c Config) Validate() error {
	if err := c.Model.Validate(); err != nil {
		return err
	}
	switch {
	case !(c.Objective.Lambda >= 0):
		return fmt.Errorf("lambda must be non-negative (got %g)", c.Objective.Lambda)
	case !(c.Objective.Delta >= 0):
		return fmt.Errorf("delta must be non-negative (got %g)", c.Objective.Delta)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fmt.Errorf("dropout must be in [0, 1) (got %g)", c.Dropout)
	case c.Warmup < 0:
		return fmt.Errorf("warmup must be non-negative (got %d)", c.Warmup)
	case c.BatchSize < 0:
		return fmt.Errorf("batch size must be non-negative (got %d)", c.BatchSize)
	case !(c.HardNegatives >= 0 && c.HardNegatives <= 1):
		return fmt.Errorf("hard-negatives must be a share in [0, 1] (got %g)", c.HardNegatives)
	case c.HardPool != 0 && (c.HardPool < 2 || c.HardPool%2 != 0):
		return fmt.Errorf("hard-pool must be even and at least 2, or 0 for %d (got %d)", defaultHardPool, c.HardPool)
	}
	if err := c.loop().Validate(); err != nil {
		return err
	}
	if err := loop.ValidatePlateau(c.MinDelta, c.Decays, c.DecayFactor); err != nil {
		return err
	}
	return loop.ValidateShares(c.ValFrac, c.TestFrac)
}

// loop points at the settings every training loop shares.
func (c *Config) loop() loop.Settings {
	return loop.Settings{Epochs: &c.Epochs, Patience: &c.Patience, LR: &c.LR, WeightDecay: &c.WeightDecay}
}

// plateau is the run's early stopping and learning-rate decay.
func (c *Config) plateau() *loop.Plateau {
	return &loop.Plateau{Patience: c.Patience, MinDelta: c.MinDelta, Decays: c.Decays, Factor: c.DecayFactor}
}

// Phases is where an epoch's time goes.
type Phases struct {
	Encoder   time.Duration // H^r forward
	Selection time.Duration // negatives, neighbour scoring and top-K selection
	Losses    time.Duration // eq 5-13 recorded on the tape (batched: also their gradient into H^r, see epochPass.batched)
	Backward  time.Duration // the tape's backward pass (batched: the encoder's alone)
	Optimizer time.Duration // Adam
	Eval      time.Duration // validation AUC
}

// Total is the sum of the phases.
func (p Phases) Total() time.Duration {
	return p.Encoder + p.Selection + p.Losses + p.Backward + p.Optimizer + p.Eval
}

func (p *Phases) add(q Phases) {
	p.Encoder += q.Encoder
	p.Selection += q.Selection
	p.Losses += q.Losses
	p.Backward += q.Backward
	p.Optimizer += q.Optimizer
	p.Eval += q.Eval
}

// Progress is the report of an epoch (loop.Progress): the loop's fields
// with the loss terms Loss, Cls, Pos, Neg and PosShare.
type Progress = loop.Progress

// The phases of an epoch, as its reports from within name them
// (Progress.Phase, with Batch of Batches the shards done).
const (
	PhaseEncoder    = "encoder"              // H^r forward
	PhaseValidation = "validation"           // the validation AUC of the epoch's weights
	PhaseShards     = "selection and losses" // the shards, as they finish
	PhaseBackward   = "backward"             // the encoder's backward and Adam's step
)

// Result is a finished (or cancelled) run: the training loop's result
// with the model, which holds the weights of the best score, and what
// ILP-GNN adds.
type Result struct {
	loop.Result
	Model  *ilpgnn.Model
	Split  *split.Split
	Inputs *ilpgnn.Inputs // of the training graph
	Config Config

	PrepSeconds float64 // split, diffusion and feature preparation
	// Calibration is the temperature and bias fitted on the validation
	// pairs with the kept weights (Calibrate) and the test pairs'
	// calibration before and after them.
	Calibration calibrate.Calibration
	Phases      Phases // summed over epochs
	// Workers is how many workers computed the shards of batched epochs
	// (0: the epochs fit one batch and were not sharded).
	Workers int
	// pending is the test evaluation still to do (TestPending).
	pending *pendingTest
}

// ErrDiverged marks a run stopped by a non-finite loss or weight; it is
// optim.ErrDiverged, shared by every model's training loop.
var ErrDiverged = optim.ErrDiverged

// Random streams drawn from the run's seed, one per use, so that adding a
// use never shifts another's numbers.
const (
	streamInit uint64 = iota + 1
	streamDropout
	streamHard
)

// NewModel returns the model a run with cfg starts from, for features of
// dimension featureDim: the weights drawn from cfg.Seed. Opening a saved
// model draws them again, because the frozen start of a model with an
// anchor (cfg.Model.Anchor) is regenerated from the seed, not stored.
func NewModel(cfg Config, featureDim int) (*ilpgnn.Model, error) {
	return ilpgnn.New(cfg.Model, featureDim, rand.New(rand.NewPCG(cfg.Seed, streamInit)))
}

// Run splits g with cfg's seed and shares (split.New) and trains a model on
// the split with cfg; see RunSplit.
func Run(ctx context.Context, g *graph.Graph, cfg Config, progress func(Progress)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	sp, err := split.New(g, cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	splitSeconds := time.Since(start).Seconds()
	res, err := RunSplit(ctx, sp, cfg, progress)
	if res != nil {
		res.PrepSeconds += splitSeconds
	}
	return res, err
}

// RunSplit trains a model on the training graph of sp with cfg (whose split
// shares it ignores), stopping early on validation AUC, and reports the test
// AUC of the kept weights. progress, if non-nil, is called after every
// epoch. When ctx is cancelled RunSplit stops within one epoch and returns
// the best model so far together with ctx's error. When the loss or a
// weight stops being finite it stops at once, unreported, and returns the
// best model so far with an error wrapping ErrDiverged that names the
// epoch.
func RunSplit(ctx context.Context, sp *split.Split, cfg Config, progress func(Progress)) (*Result, error) {
	return RunSplitSelect(ctx, sp, cfg, nil, progress)
}

// Criterion scores the weights of an epoch on held-out data for model
// selection and early stopping; higher is better. It must not keep p.
type Criterion func(p *ilpgnn.Predictor) float64

// RunSplitSelect is RunSplit with the kept weights and early stopping
// decided by crit instead of validation AUC (which is still reported); a
// nil crit is validation AUC. Synthetic graphs use it to select on
// validation Precision@k (docs/model.md §8).
func RunSplitSelect(ctx context.Context, sp *split.Split, cfg Config, crit Criterion, progress func(Progress)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	in, err := ilpgnn.PrepareContext(ctx, sp.Train, cfg.Model)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	model, err := NewModel(cfg, sp.Train.FeatureDim())
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	model.FitIsometricBias(in)
	res := &Result{Model: model, Split: sp, Inputs: in, Config: cfg, PrepSeconds: time.Since(start).Seconds()}
	r := newRun(sp, cfg, crit, model, in, res)
	if cfg.HardNegatives > 0 {
		// Drawn on the training graph alone: its links are all a
		// training run may know.
		o := heart.DefaultOptions()
		o.PerLink = cmp.Or(cfg.HardPool, defaultHardPool)
		if r.hard, err = heart.Sample(sp.Train, sp.Train, sp.TrainPos, cfg.Seed, o); err != nil {
			return nil, fmt.Errorf("train: hard negatives: %w", err)
		}
		r.hardRNG = rand.New(rand.NewPCG(cfg.Seed, streamHard))
		res.PrepSeconds = time.Since(start).Seconds()
	}
	var shardVal []graph.Edge
	if cfg.Dropout == 0 && crit == nil {
		shardVal = r.valPairs
	}
	r.ep, err = newEpochPass(ctx, model, in, cfg, r.tape, sp.TrainPos, shardVal, r.reportWithin)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if r.ep.runner != nil {
		defer r.ep.runner.Close()
		res.Workers = r.ep.runner.Workers()
	}

	opt := loop.Options{Seed: cfg.Seed, Params: r.params, LR: cfg.LR, Warmup: cfg.Warmup,
		WeightDecay: cfg.WeightDecay, Epochs: cfg.Epochs, Stop: *cfg.plateau(), Progress: progress}
	kept, _ := ctx.Value(keptKey{}).(func(Kept))
	opt.Kept = func(epoch int, weights [][]float32) {
		r.best = append(r.best[:0], r.judged...)
		if kept == nil {
			return
		}
		m, err := NewModel(cfg, sp.Train.FeatureDim())
		if err != nil {
			return // cfg was validated above, so NewModel accepts it
		}
		autograd.Restore(m.Params(), weights)
		kept(Kept{Epoch: epoch, Model: m, Inputs: in, Split: sp, Config: cfg, ValLogits: slices.Clone(r.best)})
	}
	run, runErr := loop.Run(ctx, r, opt)
	res.Result = *run
	// The kept weights' validation logits, as their epoch judged them, are
	// the predictor's on the training graph to the bit; a run that judged
	// nothing scores them afresh.
	logits := r.best
	if run.BestEpoch == 0 || len(logits) != len(r.valPairs) {
		logits = ilpgnn.NewPredictor(model, in).Logits(r.valPairs)
	}
	choice := calibrate.Choose(logits, calibrate.Labels(len(sp.ValPos), len(sp.ValNeg)))
	res.Calibration = calibrate.Calibration{Temperature: choice.Temperature, Bias: choice.Bias, Applied: choice.Applied, NotApplied: choice.Why}
	res.pending = &pendingTest{model: model, in: in, choice: choice}
	if later, _ := ctx.Value(testLaterKey{}).(bool); !later || !errors.Is(runErr, context.Canceled) {
		res.FinishTest()
	}
	return res, runErr
}

// pendingTest is what evaluating a run's kept weights on its test pairs
// takes: their predictor on the training graph and the calibration
// chosen on the validation pairs.
type pendingTest struct {
	model  *ilpgnn.Model
	in     *ilpgnn.Inputs
	choice calibrate.Choice
}

type testLaterKey struct{}

// WithTestLater returns a copy of ctx that makes RunSplitSelect return a
// cancelled run before evaluating its test pairs: the caller, who wants
// the best weights back at once (the browser's engine, after the user
// stopped the run), calls Result.FinishTest when it has time.
func WithTestLater(ctx context.Context) context.Context {
	return context.WithValue(ctx, testLaterKey{}, true)
}

// TestPending reports whether the test pairs are still to be evaluated
// (WithTestLater): until FinishTest, TestAUC and TestHits are 0 and the
// Calibration holds the temperature and bias alone.
func (r *Result) TestPending() bool { return r.pending != nil }

// FinishTest evaluates the kept weights on the test pairs, if that is
// still to be done: their AUC and Hits, and how well the calibrated
// probabilities match the links observed there.
func (r *Result) FinishTest() {
	p := r.pending
	if p == nil {
		return
	}
	r.pending = nil
	s := r.Test(r.Split, ilpgnn.NewPredictor(p.model, p.in).Logits)
	start := time.Now()
	r.Calibration = calibrate.MeasureChoice(s, len(r.Split.TestPos), p.choice)
	r.TestSeconds += time.Since(start).Seconds()
}

// Kept is a run's best weights so far, handed out while it trains
// (WithKept): a model of its own holding them, which the receiver may
// keep and use while training goes on, with what it was trained on.
type Kept struct {
	Epoch  int           // the epoch whose weights these are (Result.BestEpoch, were the run to end now)
	Model  *ilpgnn.Model // a copy: training never changes it
	Inputs *ilpgnn.Inputs
	Split  *split.Split
	Config Config
	// ValLogits are the weights' logits of the validation pairs
	// (loop.ValidationPairs of Split) on Inputs, as their epoch judged them.
	ValLogits []float32
}

type keptKey struct{}

// WithKept returns a copy of ctx that makes RunSplitSelect hand kept the
// run's best weights whenever an epoch judges better ones
// (loop.Options.Kept: before that epoch's progress report, maybe from a
// goroutine of the shards' runner): so a caller far above the run, such
// as the browser's engine, can answer with the best model so far while
// it trains.
func WithKept(ctx context.Context, kept func(Kept)) context.Context {
	return context.WithValue(ctx, keptKey{}, kept)
}

// run is ILP-GNN's epoch (loop.Trainer) with the state it keeps from one
// epoch to the next.
type run struct {
	sp       *split.Split
	cfg      Config
	crit     Criterion
	model    *ilpgnn.Model
	in       *ilpgnn.Inputs
	res      *Result
	params   []*autograd.Var
	sampler  *split.NegativeSampler
	dropRNG  *rand.Rand
	hard     *heart.Negatives // each training link's hard candidates (HardNegatives > 0)
	hardRNG  *rand.Rand
	pairs    []graph.Edge // the training links, then as many negatives
	labels   []float32
	valPairs []graph.Edge // the validation links, then their negatives
	tape     *autograd.Tape
	ep       *epochPass
	epoch    *loop.Epoch // the epoch under way
	last     Progress    // the loss terms of the epoch before it
	// judged are the validation logits of the weights the epoch under way
	// judges (on valPairs), and best those of the best weights so far:
	// the kept weights' calibration is chosen on them, encoding nothing.
	judged, best []float32
}

func newRun(sp *split.Split, cfg Config, crit Criterion, model *ilpgnn.Model, in *ilpgnn.Inputs, res *Result) *run {
	pairs, labels := loop.TrainingPairs(sp)
	tape := autograd.NewTape()
	// Nothing reads the tape's results after Backward, so it can allocate
	// the gradients as the pass reaches them and release what it passed:
	// the encoder's N x d matrices then peak at their values alone.
	tape.SetLean(true)
	return &run{sp: sp, cfg: cfg, crit: crit, model: model, in: in, res: res, params: model.Params(),
		sampler: split.NewNegativeSampler(cfg.Seed), dropRNG: rand.New(rand.NewPCG(cfg.Seed, streamDropout)),
		pairs: pairs, labels: labels, valPairs: loop.ValidationPairs(sp), tape: tape}
}

// hardenNegatives replaces a HardNegatives share of the epoch's
// negatives, the one of training link k by one of k's hard pairs.
func (r *run) hardenNegatives(P int) {
	if r.hard == nil {
		return
	}
	per, half := r.hard.PerLink, r.hard.PerLink/2
	for k := range P {
		if r.hardRNG.Float64() >= r.cfg.HardNegatives {
			continue
		}
		m := r.hardRNG.IntN(per)
		x := r.hard.Nodes[k*per+m]
		l := r.hard.Links[k]
		if m < half {
			r.pairs[P+k] = graph.Edge{U: l.U, V: x}
		} else {
			r.pairs[P+k] = graph.Edge{U: x, V: l.V}
		}
	}
}

// Epoch trains epoch e.Index: it encodes, judges the weights it starts
// from on validation, draws the negatives, and steps Adam once on the
// epoch's loss. An epoch cancelled within is not counted.
func (r *run) Epoch(ctx context.Context, e *loop.Epoch) (Progress, error) {
	cfg, ep := r.cfg, r.ep
	r.epoch = e
	var ph Phases
	if ep.runner != nil {
		ep.report(PhaseEncoder, 0)
	}
	t0 := time.Now()
	r.tape.Reset()
	for _, p := range r.params {
		p.ZeroGrad()
	}
	hr := r.model.Encode(r.tape, r.in, float32(cfg.Dropout), r.dropRNG)
	t1 := time.Now()
	ph.Encoder = t1.Sub(t0)

	// Validation AUC of the current weights, before they are updated: by
	// the runner of shards, alongside its helpers' first shards, when the
	// logits of H^r are what it needs; else here.
	nVal := len(r.sp.ValPos)
	validate := func(logits []float32) {
		r.judged = logits
		auc := loop.AUC(logits, nVal)
		e.Judge(auc, auc)
	}
	if !ep.validates {
		if ep.runner != nil {
			ep.report(PhaseValidation, 0)
		}
		e.Judge(r.validateHere(hr))
		validate = nil
	}
	t2 := time.Now()
	ph.Eval = t2.Sub(t1)

	P := len(r.sp.TrainPos)
	r.sampler.Sample(r.pairs[P:], r.sp.Train)
	r.hardenNegatives(P)
	ph.Selection = time.Since(t2)
	el, err := ep.lossAndBackward(ctx, hr, r.pairs, r.labels, e, &ph, validate)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return Progress{}, err // cancelled within the epoch: it is not counted
		}
		return Progress{}, fmt.Errorf("train: %w", err)
	}
	t5 := time.Now()
	err = e.Step()
	ph.Optimizer = time.Since(t5)
	r.res.Phases.add(ph)
	if err != nil {
		return Progress{}, fmt.Errorf("train: %w", err)
	}
	r.last = Progress{Loss: el.total, Cls: el.cls, Pos: el.pos, Neg: el.neg,
		PosShare: float64(el.contributing) / float64(max(P, 1))}
	return r.last, nil
}

// reportWithin reports where a sharded epoch has got: phase, with done of
// shard.Count shards, and the loss terms of the epoch before (this one's
// are not known until its last shard).
func (r *run) reportWithin(phase string, done int) {
	p := r.last
	p.PosShare = 0
	p.Phase, p.Batch, p.Batches = phase, done, shard.Count
	r.epoch.Report(p)
}

// validateHere scores the weights an epoch starts from, whose H^r is hr:
// their validation AUC, and the run's criterion (the AUC when it has
// none).
func (r *run) validateHere(hr *autograd.Var) (auc, score float64) {
	var pred *ilpgnn.Predictor
	if r.cfg.Dropout == 0 {
		pred = ilpgnn.PredictorFrom(r.model, r.in, hr.Value)
	} else {
		pred = ilpgnn.NewPredictor(r.model, r.in)
	}
	r.judged = pred.Logits(r.valPairs)
	auc = loop.AUC(r.judged, len(r.sp.ValPos))
	score = auc
	if r.crit != nil {
		score = r.crit(pred)
	}
	return auc, score
}

// Calibrate chooses the temperature and bias of p's probabilities on the
// validation pairs of sp (calibrate.Choose, which fits calibrate.FitPlatt:
// temperature alone leaves ILP-GNN's ECE where it was, see
// docs/calibration.md). Where there are too few validation pairs, or
// the fit would not lower their ECE, they are 1 and 0, the model's own
// sigmoid, and the choice says why.
func Calibrate(p *ilpgnn.Predictor, sp *split.Split) calibrate.Choice {
	return calibrate.Choose(p.Logits(loop.ValidationPairs(sp)), calibrate.Labels(len(sp.ValPos), len(sp.ValNeg)))
}

// epochLoss is an epoch's loss terms and its count of positives feeding
// L^p_dis.
type epochLoss struct {
	total, cls, pos, neg float64
	contributing         int
}

// epochPass is the pair-specific part of training (selection, losses and
// their backward) with the buffers it reuses from epoch to epoch.
type epochPass struct {
	model *ilpgnn.Model
	in    *ilpgnn.Inputs
	cfg   Config
	tape  *autograd.Tape // the encoder's, which recorded H^r
	batch ilpgnn.Batch
	// runner computes the shards of batched epochs (nil when the epoch
	// fits one batch); report tells the caller how far an epoch is.
	runner shard.Runner
	// validates says the runner computes the validation logits.
	validates bool
	report    func(phase string, shards int)
}

// newEpochPass returns the epoch pass of a run on the training links pos,
// with a runner of shards (from ctx's shard.Starter) when an epoch's
// 2·len(pos) pairs need more than one batch; that runner also computes
// the validation logits of val when val is not empty (the validation AUC
// of H^r as the encoder gives it: no dropout, no other criterion). report
// may be nil.
func newEpochPass(ctx context.Context, model *ilpgnn.Model, in *ilpgnn.Inputs, cfg Config, tape *autograd.Tape, pos, val []graph.Edge, report func(phase string, done int)) (*epochPass, error) {
	if report == nil {
		report = func(string, int) {}
	}
	ep := &epochPass{model: model, in: in, cfg: cfg, tape: tape, report: report}
	if cfg.BatchSize > 0 && cfg.BatchSize < 2*len(pos) {
		kit := &shard.Kit{Model: cfg.Model, Objective: cfg.Objective, BatchSize: cfg.BatchSize, Inputs: in, Pos: pos, Val: val,
			Anchor: model.AnchorEmbeddings(in)}
		r, err := shard.StarterFrom(ctx)(ctx, kit)
		if err != nil {
			return nil, err
		}
		ep.runner = r
		ep.validates = len(val) > 0
	}
	return ep, nil
}

// lossAndBackward selects the neighbours of the epoch's labelled pairs
// given H^r = hr (recorded on ep.tape), records the losses and runs the
// backward pass into the parameters' gradients. With cfg.BatchSize set
// (and below the number of pairs) it does so shard by shard, each in
// batches (see sharded), and returns ctx's error if ctx is done between
// two shards. A non-finite loss is returned as an error before any
// backward step. It adds its time to ph.
func (ep *epochPass) lossAndBackward(ctx context.Context, hr *autograd.Var, pairs []graph.Edge, labels []float32, e *loop.Epoch, ph *Phases, validate func(logits []float32)) (epochLoss, error) {
	cfg := ep.cfg
	epoch := e.Index
	seed := cfg.Seed ^ uint64(epoch)<<20
	if ep.runner == nil {
		t0 := time.Now()
		ep.model.Build(&ep.batch, ep.in, hr.Value, pairs, labels, cfg.Objective, seed)
		t1 := time.Now()
		loss := ep.model.Loss(ep.tape, hr, &ep.batch, cfg.Objective)
		t2 := time.Now()
		ph.Selection += t1.Sub(t0)
		ph.Losses += t2.Sub(t1)
		el := epochLoss{scalar(loss.Total), scalar(loss.Cls), scalar(loss.Pos), scalar(loss.Neg), ep.batch.ContributingPositives()}
		if err := e.CheckLoss(el.total); err != nil {
			return el, err
		}
		ep.tape.Backward(loss.Total)
		ph.Backward += time.Since(t2)
		return el, nil
	}
	el, err := ep.sharded(ctx, hr, pairs, labels, seed, epoch, ph, validate)
	if err != nil {
		return el, err
	}
	if err := e.CheckLoss(el.total); err != nil {
		return el, err
	}
	ep.report(PhaseBackward, shard.Count)
	t0 := time.Now()
	ep.tape.BackwardFrom(hr)
	ph.Backward += time.Since(t0)
	return el, nil
}

// sharded runs the pair-specific part of an epoch as shard.Count shards
// (package shard): each shard's neighbours are selected in batches of
// cfg.BatchSize pairs and its losses' gradient with respect to H^r
// computed without a tape (Model.LossGrad); the shards' gradients are
// added up in shard order into hr.Grad, so the epoch has
// the same bits however many workers ep.runner has. The losses are
// normalised by the epoch's counts, so hr.Grad holds the gradient of the
// whole epoch's loss (up to float rounding); the caller then runs the
// encoder's backward from hr. It returns the epoch's loss terms, the sums
// of the shards'.
func (ep *epochPass) sharded(ctx context.Context, hr *autograd.Var, pairs []graph.Edge, labels []float32, seed uint64, epoch int, ph *Phases, validate func(logits []float32)) (epochLoss, error) {
	obj := ep.cfg.Objective
	t0 := time.Now()
	norms := ep.model.EpochNorms(ep.in, pairs, labels, obj)
	ph.Selection += time.Since(t0)
	grad := hr.Leaf().Grad // allocates hr's gradient on the encoder's tape
	P := len(pairs) / 2
	e := &shard.Epoch{Index: epoch, Seed: seed, Norms: norms, HR: hr.Value, Neg: pairs[P:]}
	t1 := time.Now()
	var tv time.Duration
	if validate != nil {
		ep.report(PhaseValidation, 0)
		e.Validate = func(logits []float32) {
			validate(logits)
			tv = time.Since(t1)
		}
	}
	losses, err := ep.runner.Epoch(ctx, e, grad, func(done int) { ep.report(PhaseShards, done) })
	// Selection and the losses interleave shard by shard; their time is
	// booked to the losses, and that until the validation to it.
	ph.Eval += tv
	ph.Losses += time.Since(t1) - tv
	if err != nil {
		return epochLoss{}, err
	}
	sum := losses.Sum()
	return epochLoss{sum.Total, sum.Cls, sum.Pos, sum.Neg, sum.Contributing}, nil
}

// MinTestLinks is the fewest test links whose AUC means something: with
// fewer, one pair moves the AUC by a tenth or more.
const MinTestLinks = 10

// TestWarning says why the test AUC of sp means little when sp has fewer
// than MinTestLinks test links, and is "" otherwise. Every model's AUC on
// the split has the problem, so the command line and the app show it for
// all of them.
func TestWarning(sp *split.Split) string {
	n := len(sp.TestPos)
	if n >= MinTestLinks {
		return ""
	}
	links := "links"
	if n == 1 {
		links = "link"
	}
	return fmt.Sprintf("the test AUC is not meaningful: the split holds out only %d test %s (fewer than %d); use a larger graph or a larger test share (test-frac)", n, links, MinTestLinks)
}

func scalar(v *autograd.Var) float64 { return float64(v.Value[0]) }
