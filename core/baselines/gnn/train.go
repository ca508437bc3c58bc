package gnn

import (
	"context"
	"fmt"
	"math/rand/v2"

	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
)

// Result is a finished (or cancelled) run: the training loop's result
// with the model, which holds the weights of the best validation AUC.
type Result struct {
	loop.Result
	Model  *Model
	Split  *split.Split
	Inputs *Inputs // of the training graph
	Config Config
}

// Run splits g with cfg's seed and shares (split.New, as ILP-GNN's
// train.Run does) and trains on the split; see RunSplit.
func Run(ctx context.Context, g *graph.Graph, cfg Config, progress func(loop.Progress)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	sp, err := split.New(g, cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		return nil, fmt.Errorf("gnn: %w", err)
	}
	return RunSplit(ctx, sp, cfg, progress)
}

// RunSplit trains a cfg.Kind model on sp (whose shares cfg's ValFrac and
// TestFrac do not change): full batch, message passing on sp.Train, the
// positives sp.TrainPos and one fresh negative per positive per epoch from
// split.NewNegativeSampler(cfg.Seed) — the pairs ILP-GNN trains on —, Adam,
// the validation AUC of every epoch's weights before their update, early
// stopping after cfg.Patience epochs without a better one, and the test
// AUC of the best. progress, if non-nil, is called after every epoch. When
// ctx is cancelled RunSplit stops within one epoch and returns the best
// model so far together with ctx's error; when the loss or a weight stops
// being finite it stops at once and returns the best model so far with an
// error wrapping optim.ErrDiverged that names the epoch.
func RunSplit(ctx context.Context, sp *split.Split, cfg Config, progress func(loop.Progress)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	in := Prepare(sp.Train, cfg)
	model, err := New(cfg, sp.Train.FeatureDim(), rand.New(rand.NewPCG(cfg.Seed, streamInit)))
	if err != nil {
		return nil, fmt.Errorf("gnn: %w", err)
	}
	t := newTrainer(sp, cfg, model, in)
	run, err := loop.Run(ctx, t, loop.Options{Seed: cfg.Seed, Params: t.params, LR: cfg.LR, WeightDecay: cfg.WeightDecay,
		Epochs: cfg.Epochs, Stop: loop.Plateau{Patience: cfg.Patience}, Progress: progress})
	res := &Result{Result: *run, Model: model, Split: sp, Inputs: in, Config: cfg}
	res.Test(sp, func(pairs []graph.Edge) []float32 { return logits(model.EmbedInputs(in), pairs) })
	return res, err
}

// trainer is the autoencoders' epoch: full batch, message passing on the
// training graph, the training links and one fresh negative each.
type trainer struct {
	model    *Model
	in       *Inputs
	cfg      Config
	params   []*autograd.Var
	sampler  *split.NegativeSampler
	dropRNG  *rand.Rand
	noiseRNG *rand.Rand
	train    *graph.Graph
	pairs    []graph.Edge // the training links, then as many negatives
	labels   []float32
	ia, ib   []int32
	valPairs []graph.Edge // the validation links, then their negatives
	nVal     int
	tape     *autograd.Tape
}

func newTrainer(sp *split.Split, cfg Config, model *Model, in *Inputs) *trainer {
	pairs, labels := loop.TrainingPairs(sp)
	P := len(sp.TrainPos)
	return &trainer{model: model, in: in, cfg: cfg, params: model.Params(), sampler: split.NewNegativeSampler(cfg.Seed),
		dropRNG: rand.New(rand.NewPCG(cfg.Seed, streamDropout)), noiseRNG: rand.New(rand.NewPCG(cfg.Seed, streamNoise)),
		train: sp.Train, pairs: pairs, labels: labels, ia: make([]int32, 2*P), ib: make([]int32, 2*P),
		valPairs: loop.ValidationPairs(sp), nVal: len(sp.ValPos), tape: autograd.NewTape()}
}

// Epoch records the loss, judges the weights it starts from on the
// validation pairs and steps Adam once.
func (t *trainer) Epoch(_ context.Context, e *loop.Epoch) (loop.Progress, error) {
	t.tape.Reset()
	for _, p := range t.params {
		p.ZeroGrad()
	}
	P := len(t.pairs) / 2
	t.sampler.Sample(t.pairs[P:], t.train)
	for k, p := range t.pairs {
		t.ia[k], t.ib[k] = p.U, p.V
	}
	loss, bce, kl, z := t.model.loss(t.tape, t.in, t.ia, t.ib, t.labels, float32(t.cfg.Dropout), t.dropRNG, t.noiseRNG)
	if err := e.CheckLoss(scalar(loss)); err != nil {
		return loop.Progress{}, fmt.Errorf("gnn: %w", err)
	}
	// The training pass computes the evaluation embeddings too when it is
	// deterministic (no dropout, no VGAE noise): one forward pass saved.
	if t.cfg.Dropout != 0 || t.cfg.Kind == VGAE {
		z = t.model.EmbedInputs(t.in)
	}
	auc := aucOf(z, t.valPairs, t.nVal)
	e.Judge(auc, auc)
	t.tape.Backward(loss)
	if err := e.Step(); err != nil {
		return loop.Progress{}, fmt.Errorf("gnn: %w", err)
	}
	return loop.Progress{Loss: scalar(loss), Cls: scalar(bce), KL: scalar(kl)}, nil
}

// aucOf returns the AUC of the inner-product scores of z on pairs whose
// first nPos are links and the rest non-links.
func aucOf(z *autograd.Var, pairs []graph.Edge, nPos int) float64 {
	return loop.AUC(logits(z, pairs), nPos)
}

func scalar(v *autograd.Var) float64 {
	if v == nil {
		return 0
	}
	return float64(v.Value[0])
}
