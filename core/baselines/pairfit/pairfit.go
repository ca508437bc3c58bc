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
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/optim"
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

// Progress reports a finished mini-batch or epoch.
type Progress struct {
	Epoch, MaxEpochs int // Epoch is 1-based
	Batch, Batches   int // mini-batches done in this epoch, of Batches
	// EpochDone is set on the report that closes an epoch; only it carries
	// ValAUC. Loss is the mean loss of the epoch's batches so far.
	EpochDone  bool
	Loss       float64
	ValAUC     float64
	BestValAUC float64
	BestEpoch  int
	Elapsed    time.Duration
}

// Result is a finished (or cancelled) run; the model holds the weights of
// the best validation AUC.
type Result struct {
	Epochs       int     // epochs completed
	BestEpoch    int     // epoch whose weights were kept
	ValAUC       float64 // of the kept weights
	TestAUC      float64
	TestHits     eval.Hits // Hits@20, @50 and @100 of the test links (OGB's protocol)
	TrainSeconds float64   // the epochs, validation included
	EpochMillis  float64   // TrainSeconds per epoch, in milliseconds
	TestSeconds  float64
	History      []Progress // one entry per epoch
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
// cfg.Patience epochs without improvement. The best weights are restored
// into m and scored on the test pairs. progress, if non-nil, is called
// after every mini-batch. When ctx is cancelled Run stops within one
// mini-batch, restores the best weights so far and returns ctx's error
// with the result; when a batch's loss or a weight stops being finite it
// does the same with an error wrapping optim.ErrDiverged that names the
// epoch.
func Run(ctx context.Context, sp *split.Split, m Model, cfg Config, progress func(Progress)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	params := m.Params()
	best := autograd.Snapshot(params, nil)
	adam := optim.NewAdam(params, cfg.LR)
	adam.WeightDecay = cfg.WeightDecay
	ep := newEpochPairs(sp, cfg)
	t := &batchTrainer{m: m, cfg: cfg, params: params, adam: adam, tape: autograd.NewTape(),
		dropRNG: rand.New(rand.NewPCG(cfg.Seed, streamDropout)), progress: progress,
		batchPairs: make([]graph.Edge, 0, cfg.BatchSize), batchLabels: make([]float32, 0, cfg.BatchSize)}
	valPairs := append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...)
	batches := (len(ep.order) + cfg.BatchSize - 1) / cfg.BatchSize

	res := &Result{ValAUC: -1}
	t.start = time.Now()
	var runErr error
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		ep.draw(sp)
		lossSum, err := t.epoch(ctx, ep, epoch, batches, res)
		if err != nil {
			runErr = err
			break
		}
		s := m.Logits(valPairs)
		valAUC := eval.AUC(s[:len(sp.ValPos)], s[len(sp.ValPos):])
		if valAUC > res.ValAUC {
			res.ValAUC, res.BestEpoch = valAUC, epoch
			best = autograd.Snapshot(params, best)
		}
		res.Epochs = epoch
		pr := Progress{Epoch: epoch, MaxEpochs: cfg.Epochs, Batch: batches, Batches: batches, EpochDone: true,
			Loss: lossSum / float64(batches), ValAUC: valAUC, BestValAUC: res.ValAUC, BestEpoch: res.BestEpoch,
			Elapsed: time.Since(t.start)}
		res.History = append(res.History, pr)
		if progress != nil {
			progress(pr)
		}
		if epoch-res.BestEpoch >= cfg.Patience {
			break
		}
	}
	if res.Epochs > 0 || errors.Is(runErr, optim.ErrDiverged) {
		// A diverged first epoch goes back to the initial weights.
		autograd.Restore(params, best)
	}
	res.TrainSeconds = time.Since(t.start).Seconds()
	res.EpochMillis = 1000 * res.TrainSeconds / float64(max(res.Epochs, 1))
	testStart := time.Now()
	testPairs := append(append([]graph.Edge{}, sp.TestPos...), sp.TestNeg...)
	s := m.Logits(testPairs)
	nPos := len(sp.TestPos)
	res.TestAUC, res.TestHits = eval.AUC(s[:nPos], s[nPos:]), eval.HitsOf(s[:nPos], s[nPos:])
	res.TestSeconds = time.Since(testStart).Seconds()
	return res, runErr
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
	params      []*autograd.Var
	adam        *optim.Adam
	tape        *autograd.Tape
	dropRNG     *rand.Rand
	progress    func(Progress)
	start       time.Time
	batchPairs  []graph.Edge
	batchLabels []float32
}

// epoch steps Adam once per batch of ep's pairs and returns the sum of
// the batches' losses. It stops at the first batch after ctx is cancelled,
// or whose loss or weights are not finite, with an error saying so.
func (t *batchTrainer) epoch(ctx context.Context, ep *epochPairs, epoch, batches int, res *Result) (float64, error) {
	cfg := t.cfg
	var lossSum float64
	for b := range batches {
		if err := ctx.Err(); err != nil {
			return lossSum, err
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
		if err := optim.CheckLoss(epoch, float64(loss.Value[0]), cfg.LR); err != nil {
			return lossSum, fmt.Errorf("%w (batch %d of %d)", err, b+1, batches)
		}
		t.tape.Backward(loss)
		t.adam.Step()
		if err := t.adam.CheckWeights(epoch); err != nil {
			return lossSum, fmt.Errorf("%w (batch %d of %d)", err, b+1, batches)
		}
		lossSum += float64(loss.Value[0])
		if t.progress != nil && b+1 < batches {
			t.progress(Progress{Epoch: epoch, MaxEpochs: cfg.Epochs, Batch: b + 1, Batches: batches,
				Loss: lossSum / float64(b+1), BestValAUC: res.ValAUC, BestEpoch: res.BestEpoch, Elapsed: time.Since(t.start)})
		}
	}
	return lossSum, nil
}
