package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/split"
)

// plantedGraph is a planted-partition graph: 4 groups of n/4 nodes, 97% of
// edges within groups, features a noisy one-hot of the group. Scoring pairs
// by "same group" alone gives AUC ≈ 0.97·0.75 + (0.97·0.25 + 0.03·0.75)/2 ≈
// 0.86 (a positive is in-group w.p. 0.97, a random negative w.p. 0.25).
func plantedGraph(t testing.TB, n int, seed uint64) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	group := func(i int) int { return i * 4 / n }
	var edges []graph.Edge
	for len(edges) < 3*n {
		i, j := rng.IntN(n), rng.IntN(n)
		if group(i) == group(j) || rng.Float64() < 0.01 {
			edges = append(edges, graph.Edge{U: int32(i), V: int32(j)})
		}
	}
	const d0 = 16
	x := &f32.CSR{Rows: n, Cols: d0, Indptr: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		for c := 0; c < d0; c++ {
			v := 0.3 * rng.NormFloat64()
			if c/4 == group(i) {
				v += 1
			}
			x.Indices = append(x.Indices, int32(c))
			x.Values = append(x.Values, float32(v))
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.Name = "planted"
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

// TestDeterministicCheckpoint: the same seed twice gives byte-identical
// checkpoints; another seed does not; a checkpoint round-trips into a
// model with the same test AUC.
func TestDeterministicCheckpoint(t *testing.T) {
	g := plantedGraph(t, 120, 2)
	ckBytes := func(seed uint64) ([]byte, *Result) {
		c := quickConfig(seed)
		c.Epochs = 8
		return trainedCheckpoint(t, g, c)
	}
	a, res := ckBytes(3)
	b, _ := ckBytes(3)
	c, _ := ckBytes(4)
	if !bytes.Equal(a, b) {
		t.Error("same seed, different checkpoint bytes")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds, identical checkpoints")
	}
	ck, err := checkpoint.Unmarshal(a)
	if err != nil {
		t.Fatal(err)
	}
	m, cfg, err := LoadModel(ck, g)
	if err != nil {
		t.Fatal(err)
	}
	if cfg != res.Config {
		t.Errorf("config round trip: %+v, want %+v", cfg, res.Config)
	}
	for k, p := range m.Params() {
		if !equalF32(p.Value, res.Model.Params()[k].Value) {
			t.Errorf("weight %d differs after round trip", k)
		}
	}
	other := plantedGraph(t, 120, 9)
	if _, _, err := LoadModel(ck, other); !errors.Is(err, checkpoint.ErrForeignGraph) {
		t.Errorf("loading on another graph: %v, want ErrForeignGraph", err)
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

// TestDeterministicAcrossCPUs: training on a graph large enough for every
// kernel, the selection and the scatter ops to split their work gives the
// same checkpoint bytes with 1 and 2 goroutines.
func TestDeterministicAcrossCPUs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains twice on 2000 nodes")
	}
	g := plantedGraph(t, 2000, 5)
	ck := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := quickConfig(1)
		c.Model.Hidden = 64
		c.Epochs = 3
		b, _ := trainedCheckpoint(t, g, c)
		return b
	}
	if !bytes.Equal(ck(1), ck(2)) {
		t.Error("checkpoints differ between GOMAXPROCS 1 and 2")
	}
}

// trainedCheckpoint trains on g with c and returns the run's checkpoint
// bytes.
func trainedCheckpoint(t *testing.T, g *graph.Graph, c Config) ([]byte, *Result) {
	t.Helper()
	res, err := Run(context.Background(), g, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := res.Checkpoint(g)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ck.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b, res
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
