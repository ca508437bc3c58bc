package train

import (
	"fmt"
	"math"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/dataset"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/loop"
	"ilpgnn/core/shard"
	"ilpgnn/core/split"
)

// sparseSplit is synth:sparse (generator seed 3) split with cfg's seed.
func sparseSplit(t *testing.T, cfg Config) (*graph.Graph, *split.Split) {
	t.Helper()
	src, err := dataset.Parse("synth:sparse:seed=3")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		t.Fatal(err)
	}
	return d.Graph, sp
}

// epochGradient is the first epoch's gradient of a fresh model (seed
// cfg.Seed, no dropout) on sp: H^r's (nil when the encoder's tape is lean,
// which releases it) and the weights', and the loss terms.
type epochGradient struct {
	hr     []float32
	params [][]float32
	loss   epochLoss
}

func firstEpochGradient(t *testing.T, sp *split.Split, in *ilpgnn.Inputs, cfg Config, lean bool) epochGradient {
	t.Helper()
	model, err := NewModel(cfg, sp.Train.FeatureDim())
	if err != nil {
		t.Fatal(err)
	}
	model.FitIsometricBias(in)
	P := len(sp.TrainPos)
	pairs := append(append([]graph.Edge{}, sp.TrainPos...), make([]graph.Edge, P)...)
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	split.NewNegativeSampler(cfg.Seed).Sample(pairs[P:], sp.Train)
	tape := autograd.NewTape()
	tape.SetLean(lean)
	hr := model.Encode(tape, in, 0, nil)
	ep, err := newEpochPass(t.Context(), model, in, cfg, tape, sp.TrainPos, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ph Phases
	el, err := ep.lossAndBackward(t.Context(), hr, pairs, labels, &loop.Epoch{Index: 1, LR: cfg.LR}, &ph, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := epochGradient{loss: el}
	if !lean {
		g.hr = append([]float32(nil), hr.Grad...)
	}
	for _, p := range model.Params() {
		g.params = append(g.params, append([]float32(nil), p.Grad...))
	}
	return g
}

// maxRelDiff is max |a-b| over max |a|: how far b is from a, relative to
// a's scale.
func maxRelDiff(a, b []float32) float64 {
	var d, s float64
	for k := range a {
		d = max(d, math.Abs(float64(a[k])-float64(b[k])))
		s = max(s, math.Abs(float64(a[k])))
	}
	return d / s
}

// TestBatchedGradientIsFullBatch: splitting an epoch's pairs into batches
// of 7 (not a divisor of the pairs) or 100 gives the same loss terms and
// the same gradients of H^r and of every weight as the whole epoch at
// once, up to float32 rounding, with the encoder recorded on an ordinary
// tape or (100) a lean one, which on its own changes no bit (0); λ = 1 makes the explanation losses (their
// epoch-wide normalisers, the random neighbours' streams) weigh as much as
// L_cls. The same check sees batch-dependent random neighbours
// (batchLocalStreams).
//
// With an anchor too: the shards' workers then score with the start's H^0
// that the kit carries, the whole epoch with the model's own.
func TestBatchedGradientIsFullBatch(t *testing.T) {
	for _, anchor := range []float64{0, 0.5} {
		t.Run(fmt.Sprintf("anchor=%v", anchor), func(t *testing.T) { batchedGradientIsFullBatch(t, anchor) })
	}
}

func batchedGradientIsFullBatch(t *testing.T, anchor float64) {
	cfg := DefaultConfig()
	cfg.Seed = 3
	cfg.Objective.Lambda = 1
	cfg.Model.Anchor = anchor
	_, sp := sparseSplit(t, cfg)
	in, err := ilpgnn.Prepare(sp.Train, cfg.Model)
	if err != nil {
		t.Fatal(err)
	}
	full := firstEpochGradient(t, sp, in, cfg, false)
	if full.loss.contributing == 0 || full.loss.pos == 0 || full.loss.neg == 0 {
		t.Fatalf("the epoch does not exercise every loss term: %+v", full.loss)
	}
	const tol = 1e-5
	for _, bs := range []int{7, 100, 0} {
		cfg.BatchSize = bs
		lean := bs != 7 // the training loop's lean encoder tape
		got := firstEpochGradient(t, sp, in, cfg, lean)
		w, g := full.loss, got.loss
		if w.contributing != g.contributing {
			t.Errorf("batch %d: %d contributing positives, want %d", bs, g.contributing, w.contributing)
		}
		for _, term := range [][3]any{{"total", w.total, g.total}, {"cls", w.cls, g.cls}, {"pos", w.pos, g.pos}, {"neg", w.neg, g.neg}} {
			want, got := term[1].(float64), term[2].(float64)
			if !(math.Abs(got-want) <= tol*math.Abs(want)) {
				t.Errorf("batch %d: loss %s = %.9g, whole epoch %.9g", bs, term[0], got, want)
			}
		}
		if !lean {
			if d := maxRelDiff(full.hr, got.hr); !(d <= tol) {
				t.Errorf("batch %d: dH^r differs by %.3g of its scale", bs, d)
			}
		}
		for k, name := range ilpgnn.ParamNames() {
			if d := maxRelDiff(full.params[k], got.params[k]); !(d <= tol) {
				t.Errorf("batch %d: d%s differs by %.3g of its scale", bs, name, d)
			}
		}
		if bs == 0 {
			for k, name := range ilpgnn.ParamNames() {
				if !equalF32(full.params[k], got.params[k]) {
					t.Errorf("a lean encoder tape changes d%s", name)
				}
			}
		}
		t.Logf("batch %d (lean %v): dW1 within %.3g of its scale", bs, lean, maxRelDiff(full.params[0], got.params[0]))
	}
	cfg.BatchSize = 0
	d := maxRelDiff(full.hr, batchLocalStreams(t, sp, in, cfg))
	if !(d > 1e-3) {
		t.Errorf("batch-local random streams change dH^r by only %.3g of its scale; the tolerance would not see them", d)
	}
	t.Logf("batch-local random streams: dH^r off by %.3g of its scale", d)
}

// batchLocalStreams is dH^r of the first epoch in batches of 100 whose
// random neighbours of L^p_dis are wrongly drawn from the streams of the
// batch's own indices 0, 1, ...: TestBatchedGradientIsFullBatch checks
// that its tolerance sees the difference.
func batchLocalStreams(t *testing.T, sp *split.Split, in *ilpgnn.Inputs, cfg Config) []float32 {
	t.Helper()

	model, err := NewModel(cfg, sp.Train.FeatureDim())
	if err != nil {
		t.Fatal(err)
	}
	model.FitIsometricBias(in)
	P := len(sp.TrainPos)
	pairs := append(append([]graph.Edge{}, sp.TrainPos...), make([]graph.Edge, P)...)
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	split.NewNegativeSampler(cfg.Seed).Sample(pairs[P:], sp.Train)
	tape := autograd.NewTape()
	hr := model.Encode(tape, in, 0, nil)
	norms := model.EpochNorms(in, pairs, labels, cfg.Objective)
	var b ilpgnn.Batch
	const bs = 100
	for lo := 0; lo < len(pairs); lo += bs {
		hi := min(lo+bs, len(pairs))
		bt := autograd.NewTape()
		model.BuildAt(&b, in, hr.Value, pairs[lo:hi], labels[lo:hi], cfg.Objective, cfg.Seed^1<<20, 0) // wrong: local streams
		bt.Backward(model.LossOver(bt, hr.Leaf(), &b, cfg.Objective, norms).Total)
	}
	return hr.Grad
}

// TestBatchedRunLearns: training in batches of 64 pairs (the planted graph
// has ~640 training pairs per epoch) reaches the same AUC bar as the whole
// epoch at once.
func TestBatchedRunLearns(t *testing.T) {
	g := plantedGraph(t, 200, 1)
	c := quickConfig(0)
	c.BatchSize = 64
	res, err := Run(t.Context(), g, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TestAUC < 0.8 { // chance is 0.5
		t.Errorf("test AUC %.3f with batches of 64, want >= 0.8", res.TestAUC)
	}
}

// TestShardValidationIsHere: a sharded run whose runner computes the
// validation logits (AUC, no dropout) keeps the same weights, epoch by
// epoch the same validation AUCs, as the same run validating here (a
// criterion that is the validation AUC, which the runner leaves to the
// loop).
func TestShardValidationIsHere(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Seed, cfg.Epochs, cfg.BatchSize, cfg.LR, cfg.Warmup = 3, 5, 200, 0.01, 0
	_, sp := sparseSplit(t, cfg)
	val := append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...)
	here := func(p *ilpgnn.Predictor) float64 { return loop.AUC(p.Logits(val), len(sp.ValPos)) }
	a, err := RunSplitSelect(t.Context(), sp, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunSplitSelect(t.Context(), sp, cfg, here, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Workers != 1 || len(a.History) != cfg.Epochs || len(b.History) != cfg.Epochs {
		t.Fatalf("runs of %d and %d epochs, %d workers", len(a.History), len(b.History), a.Workers)
	}
	for k := range a.History {
		if a.History[k].ValAUC != b.History[k].ValAUC || a.History[k].Loss != b.History[k].Loss {
			t.Fatalf("epoch %d: val AUC %v and loss %v, validating here %v and %v", k+1,
				a.History[k].ValAUC, a.History[k].Loss, b.History[k].ValAUC, b.History[k].Loss)
		}
	}
	if a.BestEpoch != b.BestEpoch || a.TestAUC != b.TestAUC {
		t.Fatalf("kept epoch %d (test AUC %v), validating here %d (%v)", a.BestEpoch, a.TestAUC, b.BestEpoch, b.TestAUC)
	}
	pa, pb := a.Model.Params(), b.Model.Params()
	for k, name := range ilpgnn.ParamNames() {
		if !equalF32(pa[k].Value, pb[k].Value) {
			t.Fatalf("%s differs", name)
		}
	}
}

// TestShardedEpochReports: a sharded epoch reports from within, through
// the run's one progress: encoder, validation, each shard as it finishes
// (1 to shard.Count, in order) and the backward, all before the report
// that ends the epoch, carrying the loss terms of the epoch before.
func TestShardedEpochReports(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Seed, cfg.Epochs, cfg.BatchSize, cfg.LR, cfg.Warmup = 3, 3, 200, 0.01, 0
	_, sp := sparseSplit(t, cfg)
	var reports []Progress
	res, err := RunSplit(t.Context(), sp, cfg, func(p Progress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(err)
	}
	var within []Progress
	prevLoss := 0.0
	for _, p := range reports {
		if !p.EpochDone {
			within = append(within, p)
			continue
		}
		want := []string{PhaseEncoder, PhaseValidation}
		for range shard.Count {
			want = append(want, PhaseShards)
		}
		want = append(want, PhaseBackward)
		if len(within) != len(want) {
			t.Fatalf("epoch %d: %d reports within, want %d: %+v", p.Epoch, len(within), len(want), within)
		}
		done := 0
		for k, w := range within {
			if w.Phase != want[k] || w.Epoch != p.Epoch || w.Batches != shard.Count || w.Loss != prevLoss {
				t.Fatalf("epoch %d, report %d within: %+v; want phase %q, epoch %d, %d batches, loss %v",
					p.Epoch, k, w, want[k], p.Epoch, shard.Count, prevLoss)
			}
			if w.Phase == PhaseShards {
				done++
				if w.Batch != done {
					t.Fatalf("epoch %d: shard report %d says %d done", p.Epoch, done, w.Batch)
				}
			}
		}
		within, prevLoss = nil, p.Loss
	}
	if len(within) != 0 || len(res.History) != cfg.Epochs {
		t.Fatalf("%d reports after the last epoch; %d epochs", len(within), len(res.History))
	}
}
