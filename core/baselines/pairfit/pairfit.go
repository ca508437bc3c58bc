// Package pairfit trains link predictors that score each candidate pair
// from a computation of its own — an enclosing subgraph (SEAL,
// WalkPooling) or the pair's neighbour contexts (CONPI) — rather than from
// one embedding of the whole graph. They train as ILP-GNN does (package
// train): the same split, message passing on the training graph only, the
// training links and one fresh negative per link per epoch from
// split.NewNegativeSampler(seed), Adam, and early stopping on validation
// AUC; but they step once per mini-batch of pairs, since each pair costs a
// forward pass of its own.
package pairfit

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"

	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
)

// Model is a pair classifier bound to its message-passing graph.
type Model interface {
	// Params returns the trainable weights.
	Params() []*autograd.Var
	// Loss records on t the mean binary cross-entropy of the logits of
	// pairs against labels (1 link, 0 not), in training mode: dropout and
	// any other random choice draw from rng.
	Loss(t *autograd.Tape, pairs []graph.Edge, labels []float32, rng *rand.Rand) *autograd.Var
	// Logits returns the evaluation-mode logit of each pair. It must not
	// depend on how the pairs are grouped, and may run in parallel.
	Logits(pairs []graph.Edge) []float32
}

// Config is the training loop's part of a model's configuration.
type Config struct {
	LR          float64 // Adam learning rate
	WeightDecay float64 // L2 weight decay added to the gradient
	Epochs      int     // at most this many passes over the training pairs
	Patience    int     // stop after this many epochs without a better validation AUC
	BatchSize   int     // pairs per Adam step
	// PairsPerEpoch, when positive, caps the training links of one epoch
	// at this many, drawn afresh each epoch (each with its negative), for
	// graphs whose every link would make an epoch too long.
	PairsPerEpoch int
	Seed          uint64 // weights, negatives, batches and dropout
}

// Validate reports the first setting out of range.
func (c Config) Validate() error {
	if err := c.loop().Validate(); err != nil {
		return err
	}
	switch {
	case c.BatchSize < 1:
		return fmt.Errorf("batch size must be at least 1 (got %d)", c.BatchSize)
	case c.PairsPerEpoch < 0:
		return fmt.Errorf("pairs per epoch must be non-negative (got %d)", c.PairsPerEpoch)
	}
	return nil
}

// loop points at the settings every training loop shares.
func (c *Config) loop() loop.Settings {
	return loop.Settings{Epochs: &c.Epochs, Patience: &c.Patience, LR: &c.LR, WeightDecay: &c.WeightDecay}
}

// RegisterFlags binds c to flags of fs: the ones every model shares
// (package loop), plus batch-size and pairs-per-epoch. The seed is the
// command line's own.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	c.loop().Register(fs, "validation AUC")
	fs.IntVar(&c.BatchSize, "batch-size", c.BatchSize, "pairs per optimiser step")
	fs.IntVar(&c.PairsPerEpoch, "pairs-per-epoch", c.PairsPerEpoch, "training links per epoch, drawn afresh each epoch (0: all)")
}

// Fitted is a model of type M trained by Fit, with the split it trained
// on; the model holds the weights of the best validation AUC.
type Fitted[M Model] struct {
	loop.Result
	Model M
	Split *split.Split
}

// Fit builds a model on sp.Train with build and trains it with Run. When
// ctx is cancelled it returns the result so far (the best weights) with
// ctx's error.
func Fit[M Model](ctx context.Context, sp *split.Split, cfg Config, build func(train *graph.Graph) (M, error), progress func(loop.Progress)) (*Fitted[M], error) {
	m, err := build(sp.Train)
	if err != nil {
		return nil, err
	}
	res, err := Run(ctx, sp, m, cfg, progress)
	if res == nil {
		return nil, err
	}
	return &Fitted[M]{Result: *res, Model: m, Split: sp}, err
}

// Random streams drawn from the seed (ASCII "pf" and a digit), distinct
// from the model packages' weight streams and from split's.
const (
	streamOrder   uint64 = 0x7066_31
	streamDropout uint64 = 0x7066_32
	streamSubset  uint64 = 0x7066_33
)

// Run trains m on sp with cfg: every epoch takes sp.TrainPos (or
// cfg.PairsPerEpoch of them) with one fresh negative each, shuffles the
// pairs, and steps Adam once per cfg.BatchSize of them; after every epoch
// it scores the validation pairs, keeps the best weights, and stops after
// cfg.Patience epochs without improvement. The best weights (the initial
// ones when no epoch completed) are restored into m and scored on the test
// pairs. progress, if non-nil, is called after every mini-batch. When ctx
// is cancelled Run stops within one mini-batch and returns ctx's error
// with the result; when a batch's loss or a weight stops being finite it
// does the same with an error wrapping optim.ErrDiverged that names the
// epoch and the batch.
func Run(ctx context.Context, sp *split.Split, m Model, cfg Config, progress func(loop.Progress)) (*loop.Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	t := &batchTrainer{m: m, cfg: cfg, params: m.Params(), tape: autograd.NewTape(), ep: newEpochPairs(sp, cfg), sp: sp,
		dropRNG:    rand.New(rand.NewPCG(cfg.Seed, streamDropout)),
		batchPairs: make([]graph.Edge, 0, cfg.BatchSize), batchLabels: make([]float32, 0, cfg.BatchSize),
		valPairs: loop.ValidationPairs(sp)}
	t.batches = (len(t.ep.order) + cfg.BatchSize - 1) / cfg.BatchSize
	res, err := loop.Run(ctx, t, loop.Options{Seed: cfg.Seed, Params: t.params, LR: cfg.LR, WeightDecay: cfg.WeightDecay,
		Epochs: cfg.Epochs, Stop: loop.Plateau{Patience: cfg.Patience}, Progress: progress})
	res.Test(sp, m.Logits)
	return res, err
}

// epochPairs draws each epoch's pairs: P training links (all of them, or
// a fresh subset of cfg.PairsPerEpoch), one fresh negative each, in a
// shuffled order.
type epochPairs struct {
	positives []graph.Edge
	p         int          // links per epoch
	pairs     []graph.Edge // the links, then their negatives
	order     []int        // the order the pairs are visited in
	sampler   *split.NegativeSampler
	orderRNG  *rand.Rand
	subsetRNG *rand.Rand
}

func newEpochPairs(sp *split.Split, cfg Config) *epochPairs {
	positives := append([]graph.Edge(nil), sp.TrainPos...)
	p := len(positives)
	if cfg.PairsPerEpoch > 0 {
		p = min(p, cfg.PairsPerEpoch)
	}
	return &epochPairs{positives: positives, p: p, pairs: make([]graph.Edge, 2*p), order: make([]int, 2*p),
		sampler:   split.NewNegativeSampler(cfg.Seed),
		orderRNG:  rand.New(rand.NewPCG(cfg.Seed, streamOrder)),
		subsetRNG: rand.New(rand.NewPCG(cfg.Seed, streamSubset))}
}

// draw takes the next epoch's links, negatives and order.
func (ep *epochPairs) draw(sp *split.Split) {
	if ep.p < len(ep.positives) {
		// A fresh subset: a partial Fisher-Yates shuffle of all links.
		for k := range ep.p {
			r := k + ep.subsetRNG.IntN(len(ep.positives)-k)
			ep.positives[k], ep.positives[r] = ep.positives[r], ep.positives[k]
		}
	}
	copy(ep.pairs, ep.positives[:ep.p])
	ep.sampler.Sample(ep.pairs[ep.p:], sp.Train)
	for k := range ep.order {
		ep.order[k] = k
	}
	ep.orderRNG.Shuffle(len(ep.order), func(a, b int) { ep.order[a], ep.order[b] = ep.order[b], ep.order[a] })
}

// batchTrainer steps a model's weights one mini-batch at a time.
type batchTrainer struct {
	m           Model
	cfg         Config
	sp          *split.Split
	params      []*autograd.Var
	tape        *autograd.Tape
	ep          *epochPairs
	batches     int
	dropRNG     *rand.Rand
	batchPairs  []graph.Edge
	batchLabels []float32
	valPairs    []graph.Edge // the validation links, then their negatives
}

// Epoch steps Adam once per batch of the epoch's pairs, then judges the
// updated weights on the validation pairs. It stops at the first batch
// after ctx is cancelled, or whose loss or weights are not finite, with an
// error saying so.
func (t *batchTrainer) Epoch(ctx context.Context, e *loop.Epoch) (loop.Progress, error) {
	cfg, ep := t.cfg, t.ep
	ep.draw(t.sp)
	var lossSum float64
	for b := range t.batches {
		if err := ctx.Err(); err != nil {
			return loop.Progress{}, err
		}
		t.batchPairs, t.batchLabels = t.batchPairs[:0], t.batchLabels[:0]
		for _, k := range ep.order[b*cfg.BatchSize : min((b+1)*cfg.BatchSize, len(ep.order))] {
			label := float32(0)
			if k < ep.p {
				label = 1
			}
			t.batchPairs, t.batchLabels = append(t.batchPairs, ep.pairs[k]), append(t.batchLabels, label)
		}
		t.tape.Reset()
		for _, p := range t.params {
			p.ZeroGrad()
		}
		loss := t.m.Loss(t.tape, t.batchPairs, t.batchLabels, t.dropRNG)
		if err := e.CheckLoss(float64(loss.Value[0])); err != nil {
			return loop.Progress{}, fmt.Errorf("%w (batch %d of %d)", err, b+1, t.batches)
		}
		t.tape.Backward(loss)
		if err := e.Step(); err != nil {
			return loop.Progress{}, fmt.Errorf("%w (batch %d of %d)", err, b+1, t.batches)
		}
		lossSum += float64(loss.Value[0])
		if b+1 < t.batches {
			mean := lossSum / float64(b+1)
			e.Report(loop.Progress{Batch: b + 1, Batches: t.batches, Loss: mean, Cls: mean})
		}
	}
	auc := loop.AUC(t.m.Logits(t.valPairs), len(t.sp.ValPos))
	e.Judge(auc, auc)
	mean := lossSum / float64(t.batches)
	return loop.Progress{Batch: t.batches, Batches: t.batches, Loss: mean, Cls: mean}, nil
}
