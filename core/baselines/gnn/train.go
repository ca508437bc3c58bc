package gnn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/optim"
	"ilpgnn/core/split"
)

// Progress reports one epoch.
type Progress struct {
	Seed      uint64
	Kind      Kind
	Epoch     int // 1-based; the model evaluated has had Epoch-1 updates
	MaxEpochs int
	Loss      float64 // the total minimised
	BCE       float64 // its cross-entropy term
	KL        float64 // VGAE's KL/N term (0 otherwise)
	ValAUC    float64
	// BestValAUC is the best validation AUC so far, at BestEpoch.
	BestValAUC float64
	BestEpoch  int
	Elapsed    time.Duration
}

// Result is a finished (or cancelled) run.
type Result struct {
	Model  *Model // the weights with the best validation AUC
	Split  *split.Split
	Inputs *Inputs // of the training graph
	Config Config

	Epochs       int     // epochs run
	BestEpoch    int     // epoch whose weights were kept
	ValAUC       float64 // of the kept weights
	TestAUC      float64
	TestHits     eval.Hits // Hits@20, @50 and @100 of the test links (OGB's protocol)
	TrainSeconds float64   // the epochs, validation included
	EpochMillis  float64   // TrainSeconds per epoch, in milliseconds
	TestSeconds  float64
	History      []Progress
}

// Run splits g with cfg's seed and shares (split.New, as ILP-GNN's
// train.Run does) and trains on the split; see RunSplit.
func Run(ctx context.Context, g *graph.Graph, cfg Config, progress func(Progress)) (*Result, error) {
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
func RunSplit(ctx context.Context, sp *split.Split, cfg Config, progress func(Progress)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	in := Prepare(sp.Train, cfg)
	model, err := New(cfg, sp.Train.FeatureDim(), rand.New(rand.NewPCG(cfg.Seed, streamInit)))
	if err != nil {
		return nil, fmt.Errorf("gnn: %w", err)
	}
	res := &Result{Model: model, Split: sp, Inputs: in, Config: cfg}

	params := model.Params()
	best := autograd.Snapshot(params, nil)
	adam := optim.NewAdam(params, cfg.LR)
	adam.WeightDecay = cfg.WeightDecay
	sampler := split.NewNegativeSampler(cfg.Seed)
	dropRNG := rand.New(rand.NewPCG(cfg.Seed, streamDropout))
	noiseRNG := rand.New(rand.NewPCG(cfg.Seed, streamNoise))

	P := len(sp.TrainPos)
	pairs := make([]graph.Edge, 2*P)
	copy(pairs, sp.TrainPos)
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	ia, ib := make([]int32, 2*P), make([]int32, 2*P)
	valPairs := append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...)
	// The training pass computes the evaluation embeddings too when it is
	// deterministic (no dropout, no VGAE noise): one forward pass saved.
	reuse := cfg.Dropout == 0 && cfg.Kind != VGAE
	tape := autograd.NewTape()
	res.ValAUC = -1
	start := time.Now()

	var runErr error
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			runErr = err
			break
		}
		tape.Reset()
		for _, p := range params {
			p.ZeroGrad()
		}
		sampler.Sample(pairs[P:], sp.Train)
		for k, e := range pairs {
			ia[k], ib[k] = e.U, e.V
		}
		loss, bce, kl, z := model.loss(tape, in, ia, ib, labels, float32(cfg.Dropout), dropRNG, noiseRNG)
		if err := optim.CheckLoss(epoch, scalar(loss), cfg.LR); err != nil {
			runErr = fmt.Errorf("gnn: %w", err)
			break
		}

		// Validation AUC of the current weights, before they are updated.
		if !reuse {
			z = model.EmbedInputs(in)
		}
		valAUC := aucOf(z, valPairs, len(sp.ValPos))
		if valAUC > res.ValAUC {
			res.ValAUC, res.BestEpoch = valAUC, epoch
			best = autograd.Snapshot(params, best)
		}

		tape.Backward(loss)
		adam.Step()
		res.Epochs = epoch
		if err := adam.CheckWeights(epoch); err != nil {
			runErr = fmt.Errorf("gnn: %w", err)
			break
		}

		pr := Progress{
			Seed: cfg.Seed, Kind: cfg.Kind, Epoch: epoch, MaxEpochs: cfg.Epochs,
			Loss: scalar(loss), BCE: scalar(bce), KL: scalar(kl),
			ValAUC: valAUC, BestValAUC: res.ValAUC, BestEpoch: res.BestEpoch,
			Elapsed: time.Since(start),
		}
		res.History = append(res.History, pr)
		if progress != nil {
			progress(pr)
		}
		if epoch-res.BestEpoch >= cfg.Patience {
			break
		}
	}
	autograd.Restore(params, best)
	res.TrainSeconds = time.Since(start).Seconds()
	res.EpochMillis = 1000 * res.TrainSeconds / float64(max(res.Epochs, 1))
	testStart := time.Now()
	testPairs := append(append([]graph.Edge{}, sp.TestPos...), sp.TestNeg...)
	s := logits(model.EmbedInputs(in), testPairs)
	nPos := len(sp.TestPos)
	res.TestAUC, res.TestHits = eval.AUC(s[:nPos], s[nPos:]), eval.HitsOf(s[:nPos], s[nPos:])
	res.TestSeconds = time.Since(testStart).Seconds()
	return res, runErr
}

// aucOf returns the AUC of the inner-product scores of z on pairs whose
// first nPos are links and the rest non-links.
func aucOf(z *autograd.Var, pairs []graph.Edge, nPos int) float64 {
	s := logits(z, pairs)
	return eval.AUC(s[:nPos], s[nPos:])
}

func scalar(v *autograd.Var) float64 {
	if v == nil {
		return 0
	}
	return float64(v.Value[0])
}
