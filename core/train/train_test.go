package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/randgraph"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
)

// plantedGraph is randgraph.Planted(n, seed): 4 groups, 16 features per
// node, a same-group AUC of about 0.86.
func plantedGraph(t testing.TB, n int, seed uint64) *graph.Graph {
	t.Helper()
	g, err := randgraph.Planted(n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func quickConfig(seed uint64) Config {
	c := DefaultConfig()
	c.Model.Hidden = 16
	c.Epochs = 40
	c.Patience = 40
	c.LR = 0.01
	c.Seed = seed
	return c
}

// TestRunLearns: a short run on a planted partition gets close to the
// same-group AUC of ≈ 0.86 (far above chance), and the kept epoch has the best validation AUC of the
// history.
func TestRunLearns(t *testing.T) {
	g := plantedGraph(t, 200, 1)
	res, err := Run(context.Background(), g, quickConfig(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TestAUC < 0.8 { // chance is 0.5
		t.Errorf("test AUC %.3f, want >= 0.8", res.TestAUC)
	}
	for _, h := range res.History {
		if h.ValAUC > res.ValAUC {
			t.Errorf("epoch %d val AUC %.4f beats the kept %.4f", h.Epoch, h.ValAUC, res.ValAUC)
		}
	}
	if res.History[res.BestEpoch-1].ValAUC != res.ValAUC {
		t.Errorf("best epoch %d has val AUC %.4f, result says %.4f", res.BestEpoch, res.History[res.BestEpoch-1].ValAUC, res.ValAUC)
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// TestCancel: a cancelled context stops the run and still returns a model.
func TestCancel(t *testing.T) {
	g := plantedGraph(t, 120, 3)
	ctx, cancel := context.WithCancel(context.Background())
	c := quickConfig(0)
	c.Epochs = 1000
	res, err := Run(ctx, g, c, func(p Progress) {
		if p.Epoch == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res == nil || res.Epochs != 3 || res.Model == nil {
		t.Fatalf("cancelled run: %+v", res)
	}
}

// TestValidate names the bad setting.
func TestValidate(t *testing.T) {
	c := DefaultConfig()
	c.LR = -1
	if err := c.Validate(); err == nil || !bytes.Contains([]byte(err.Error()), []byte("-1")) {
		t.Errorf("Validate with lr -1: %v", err)
	}
}

// TestWarmup: with a warmup of W epochs the first update is exactly the
// update of a run at LR/W (later steps cannot be replayed by a constant
// rate, since Adam's moments carry over), and it differs from the first
// update without warmup.
func TestWarmup(t *testing.T) {
	g := plantedGraph(t, 60, 5)
	sp, err := split.New(g, 1, 0.1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	// Keep the weights of epoch 2, evaluated after exactly one update.
	afterOneStep := func(c Config) []*autograd.Var {
		c.Epochs, c.Patience = 2, 10
		epoch := 0
		keepSecond := func(*ilpgnn.Predictor) float64 { epoch++; return float64(min(epoch, 2)) }
		res, err := RunSplitSelect(context.Background(), sp, c, keepSecond, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.BestEpoch != 2 {
			t.Fatalf("kept epoch %d, want 2", res.BestEpoch)
		}
		return res.Model.Params()
	}
	warm := quickConfig(3)
	warm.Warmup = 4
	flat := quickConfig(3)
	flat.LR, flat.Warmup = warm.LR/4, 0
	cold := quickConfig(3)
	cold.Warmup = 0
	a, b, c := afterOneStep(warm), afterOneStep(flat), afterOneStep(cold)
	for k := range a {
		if !equalF32(a[k].Value, b[k].Value) {
			t.Fatalf("%s after one warm step differs from one step at LR/4", ilpgnn.ParamNames()[k])
		}
	}
	same := true
	for k := range a {
		same = same && equalF32(a[k].Value, c[k].Value)
	}
	if same {
		t.Fatal("warmup changed nothing")
	}
	bad := quickConfig(1)
	bad.Warmup = -1
	if err := bad.Validate(); err == nil {
		t.Fatal("negative warmup validated")
	}
}

// TestDiverges: at lr 1e9 without warmup the weights blow up after the
// first updates. The run stops with ErrDiverged naming the first epoch
// whose loss or weights are not finite: every epoch before it completed
// with a finite loss (the history), the same run capped one epoch earlier
// succeeds, and the weights kept are finite.
func TestDiverges(t *testing.T) {
	g := plantedGraph(t, 120, 3)
	c := quickConfig(0)
	c.LR, c.Warmup = 1e9, 0
	res, err := Run(context.Background(), g, c, nil)
	if !errors.Is(err, ErrDiverged) {
		t.Fatalf("err = %v, want ErrDiverged", err)
	}
	t.Log(err)
	bad := len(res.History) + 1
	if bad >= c.Epochs {
		t.Fatalf("stopped at epoch %d of %d: no divergence to test", bad, c.Epochs)
	}
	if want := fmt.Sprintf("epoch %d: ", bad); !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "lower learning rate") {
		t.Errorf("err = %q, want it to name %q and suggest a lower learning rate", err, want)
	}
	for _, p := range res.History {
		if math.IsNaN(p.Loss) || math.IsInf(p.Loss, 0) {
			t.Errorf("epoch %d reported loss %v", p.Epoch, p.Loss)
		}
	}
	for _, p := range res.Model.Params() {
		for _, w := range p.Value {
			if math.IsNaN(float64(w)) || math.IsInf(float64(w), 0) {
				t.Fatalf("kept weight %v", w)
			}
		}
	}
	if math.IsNaN(res.TestAUC) {
		t.Error("test AUC of the kept weights is NaN")
	}
	c.Epochs = bad - 1
	if _, err := Run(context.Background(), g, c, nil); err != nil {
		t.Errorf("the same run capped at %d epochs: %v", c.Epochs, err)
	}

	// Beyond float32's range the first update makes a weight infinite.
	c.LR, c.Epochs = 1e39, 5
	if _, err := Run(context.Background(), g, c, nil); !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "epoch 1: a weight became") {
		t.Errorf("lr 1e39: err = %v, want ErrDiverged at epoch 1's update", err)
	}
}

// TestValidateLR refuses learning rates that are not positive finite
// numbers.
func TestValidateLR(t *testing.T) {
	for _, lr := range []float64{0, -1, math.Inf(1), math.Inf(-1), math.NaN()} {
		c := DefaultConfig()
		c.LR = lr
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "learning rate must be positive and finite") {
			t.Errorf("lr %v: %v", lr, err)
		}
	}
}

// TestPlateauSchedule: a criterion that never rises after epoch 1 makes,
// with patience 1 and two decays by half, the learning rate 0.01, 0.01,
// 0.005, 0.0025 over epochs 1 to 4 (a decay acts from the next update)
// and stops the run after epoch 4, which every report says in advance.
func TestPlateauSchedule(t *testing.T) {
	g := plantedGraph(t, 60, 5)
	c := quickConfig(2)
	c.Warmup, c.Patience, c.Decays, c.DecayFactor = 0, 1, 2, 0.5
	flat := func(*ilpgnn.Predictor) float64 { return 1 }
	sp, err := split.New(g, 1, 0.1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunSplitSelect(context.Background(), sp, c, flat, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.01, 0.01, 0.005, 0.0025}
	if len(res.History) != len(want) || res.BestEpoch != 1 {
		t.Fatalf("%d epochs, best %d; want 4, best 1", len(res.History), res.BestEpoch)
	}
	for k, h := range res.History {
		if h.LR != want[k] || h.StopEpoch != 4 {
			t.Errorf("epoch %d: lr %g, stop epoch %d; want %g, 4", h.Epoch, h.LR, h.StopEpoch, want[k])
		}
	}
}

// TestKept: WithKept hands out a copy of the best weights at every epoch
// that judged better ones; the last one handed out is the run's kept
// model, weight for weight and logit for logit, and training does not
// change a copy it handed out.
func TestKept(t *testing.T) {
	g := plantedGraph(t, 200, 1)
	var got []Kept
	var firstW1 []float32
	ctx := WithKept(context.Background(), func(k Kept) {
		if len(got) == 0 {
			firstW1 = append([]float32(nil), k.Model.W1.Value...)
		}
		got = append(got, k)
	})
	c := quickConfig(0)
	c.Epochs = 12
	res, err := Run(ctx, g, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no kept weights handed out")
	}
	last := got[len(got)-1]
	if last.Epoch != res.BestEpoch || last.Split != res.Split || last.Inputs != res.Inputs {
		t.Fatalf("last kept epoch %d (split %p, inputs %p), run kept %d (%p, %p)", last.Epoch, last.Split, last.Inputs, res.BestEpoch, res.Split, res.Inputs)
	}
	for k, p := range res.Model.Params() {
		if !equalF32(p.Value, last.Model.Params()[k].Value) {
			t.Fatalf("kept copy's weight %s differs from the run's kept weights", ilpgnn.ParamNames()[k])
		}
	}
	pairs := append(append([]graph.Edge{}, res.Split.TestPos...), res.Split.TestNeg...)
	if a, b := ilpgnn.NewPredictor(res.Model, res.Inputs).Logits(pairs), ilpgnn.NewPredictor(last.Model, last.Inputs).Logits(pairs); !equalF32(a, b) {
		t.Error("the kept copy's logits differ from the run's model's")
	}
	for k := 1; k < len(got); k++ {
		if got[k].Epoch <= got[k-1].Epoch {
			t.Errorf("kept epochs %d then %d: want increasing", got[k-1].Epoch, got[k].Epoch)
		}
	}
	if len(got) > 1 && !equalF32(got[0].Model.W1.Value, firstW1) {
		t.Error("training changed the first copy it handed out")
	}
}

// TestTestLater: a run cancelled under WithTestLater comes back without
// its test evaluation, with the calibration's temperature and bias
// already chosen; FinishTest then gives the test AUC, Hits and
// calibration of a run that evaluated at once, bit for bit. A run that
// ends by itself evaluates at once all the same.
func TestTestLater(t *testing.T) {
	g := plantedGraph(t, 200, 3)
	c := quickConfig(0)
	c.Epochs = 1000
	run := func(later bool) *Result {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if later {
			ctx = WithTestLater(ctx)
		}
		res, err := Run(ctx, g, c, func(p Progress) {
			if p.Epoch == 3 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("later %v: err %v, want cancelled", later, err)
		}
		return res
	}
	now, later := run(false), run(true)
	if now.TestPending() || !later.TestPending() || later.TestAUC != 0 {
		t.Fatalf("pending: at once %v, later %v (test AUC %v)", now.TestPending(), later.TestPending(), later.TestAUC)
	}
	if later.Calibration.Temperature != now.Calibration.Temperature || later.Calibration.Bias != now.Calibration.Bias {
		t.Fatalf("calibration before the test: %+v, at once %+v", later.Calibration, now.Calibration)
	}
	later.FinishTest()
	if later.TestPending() || later.TestAUC != now.TestAUC || later.TestHits != now.TestHits || later.Calibration.ECE != now.Calibration.ECE {
		t.Fatalf("finished later: AUC %v hits %v ECE %v; at once %v %v %v", later.TestAUC, later.TestHits, later.Calibration.ECE, now.TestAUC, now.TestHits, now.Calibration.ECE)
	}
	done, err := Run(WithTestLater(context.Background()), g, quickConfig(0), nil)
	if err != nil || done.TestPending() || done.TestAUC == 0 {
		t.Fatalf("a completed run under WithTestLater: err %v, pending %v, test AUC %v", err, done.TestPending(), done.TestAUC)
	}
}

// TestKeptValidationLogits: the validation logits handed out with the
// kept weights are those of their predictor on the training graph, bit
// for bit, in one batch, in shards and with dropout (where the epoch's
// encoding is not the predictor's); so the run's calibration, chosen on
// the best epoch's logits without encoding again, is Calibrate's.
func TestKeptValidationLogits(t *testing.T) {
	g := plantedGraph(t, 200, 1)
	for _, tc := range []struct {
		name    string
		batch   int
		dropout float64
	}{{"one batch", 0, 0}, {"shards", 64, 0}, {"dropout", 0, 0.3}} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Kept
			ctx := WithKept(context.Background(), func(k Kept) { got = append(got, k) })
			c := quickConfig(0)
			c.Epochs = 8
			c.BatchSize = tc.batch
			c.Dropout = tc.dropout
			res, err := Run(ctx, g, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				t.Fatal("no kept weights handed out")
			}
			for _, k := range got {
				want := ilpgnn.NewPredictor(k.Model, k.Inputs).Logits(loop.ValidationPairs(k.Split))
				if !equalF32(k.ValLogits, want) {
					t.Fatalf("epoch %d: the validation logits handed out are not its predictor's", k.Epoch)
				}
			}
			want := Calibrate(ilpgnn.NewPredictor(res.Model, res.Inputs), res.Split)
			if res.Calibration.Temperature != want.Temperature || res.Calibration.Bias != want.Bias {
				t.Fatalf("calibration %v, %v; Calibrate's %v, %v", res.Calibration.Temperature, res.Calibration.Bias, want.Temperature, want.Bias)
			}
		})
	}
}
