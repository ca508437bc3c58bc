package models_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/randgraph"
	"ilpgnn/core/models"
	"ilpgnn/core/train"
)

// untrainedCheckpoint packs a freshly initialised model for g: OpenILPGNN
// does not care whether the weights were trained.
func untrainedCheckpoint(t testing.TB, g *graph.Graph, hidden int) *checkpoint.Checkpoint {
	t.Helper()
	c := quickConfig(7)
	c.Model.Hidden = hidden
	m, err := ilpgnn.New(c.Model, g.FeatureDim(), rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	ck, err := models.ILPGNNCheckpoint(&train.Result{Model: m, Config: c}, g, fingerprint.Of(g))
	if err != nil {
		t.Fatal(err)
	}
	return ck
}

// resum re-marshals c, which recomputes every checksum, and decodes it
// again: a checkpoint edited by someone who knows the format.
func resum(t testing.TB, c *checkpoint.Checkpoint) *checkpoint.Checkpoint {
	t.Helper()
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := checkpoint.Unmarshal(b)
	if err != nil {
		t.Fatalf("an edited and re-summed checkpoint must pass the format's checks: %v", err)
	}
	return back
}

// editConfig rewrites the checkpoint's config JSON: edit gets the decoded
// object ({"config": {...}, "feature_dim": n}).
func editConfig(t testing.TB, c *checkpoint.Checkpoint, edit func(map[string]any)) {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(c.Config, &v); err != nil {
		t.Fatal(err)
	}
	edit(v)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	c.Config = b
}

func modelConfig(v map[string]any) map[string]any {
	return v["config"].(map[string]any)["Model"].(map[string]any)
}

func tensor(t testing.TB, c *checkpoint.Checkpoint, name string) *checkpoint.Tensor {
	t.Helper()
	x, err := c.Tensor(name)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// cutRows keeps the first rows rows of tensor name.
func cutRows(t testing.TB, c *checkpoint.Checkpoint, name string, rows int) {
	x := tensor(t, c, name)
	x.Rows, x.Data = rows, x.Data[:rows*x.Cols]
}

// hostileCase is a checkpoint edited to lie while passing every checksum,
// and what OpenILPGNN must say about it.
type hostileCase struct {
	name string
	edit func(testing.TB, *checkpoint.Checkpoint)
	want []string // substrings of the error
	// graphOnly: the file is consistent in itself, only the graph shows
	// the lie, so VerifyILPGNN without a graph accepts it.
	graphOnly bool
}

// hostileCases edit a checkpoint of a hidden-8 model on a graph with 16
// features.
func hostileCases() []hostileCase {
	return []hostileCase{
		{name: "feature_dim 10, tensors cut to match", graphOnly: true,
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				editConfig(t, c, func(v map[string]any) { v["feature_dim"] = 10 })
				cutRows(t, c, "W1", 10)
				cutRows(t, c, "Wx", 10)
			},
			want: []string{"feature_dim is 10", `graph "planted" has 16 features per node`}},
		{name: "hidden 200000000",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				editConfig(t, c, func(v map[string]any) { modelConfig(v)["Hidden"] = 200_000_000 })
			},
			want: []string{"tensor W1 is 16x8", "hidden 200000000", "needs 16x200000000"}},
		{name: "feature_dim 1<<40",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				editConfig(t, c, func(v map[string]any) { v["feature_dim"] = 1 << 40 })
			},
			want: []string{"feature_dim is 1099511627776"}},
		{name: "negative feature_dim",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				editConfig(t, c, func(v map[string]any) { v["feature_dim"] = -3 })
			},
			want: []string{"feature_dim is -3"}},
		{name: "hidden 0",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				editConfig(t, c, func(v map[string]any) { modelConfig(v)["Hidden"] = 0 })
			},
			want: []string{"checkpoint: config: ", "hidden must be at least 1 (got 0)"}},
		{name: "W1 transposed",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				x := tensor(t, c, "W1")
				x.Rows, x.Cols = x.Cols, x.Rows
			},
			want: []string{"tensor W1 is 8x16", "needs 16x8"}},
		{name: "b2 longer",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				x := tensor(t, c, "b2")
				x.Cols, x.Data = 9, append(x.Data, 1)
			},
			want: []string{"tensor b2 is 1x9", "needs 1x8"}},
		{name: "NaN weights",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				for i := range c.Tensors {
					for j := range c.Tensors[i].Data {
						c.Tensors[i].Data[j] = float32(math.NaN())
					}
				}
			},
			want: []string{"tensor W1 has a non-finite weight, NaN, at index 0 (row 0, col 0)"}},
		{name: "one +Inf",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				tensor(t, c, "W2").Data[13] = float32(math.Inf(1))
			},
			want: []string{"tensor W2 has a non-finite weight, +Inf, at index 13 (row 1, col 5)"}},
		{name: "one -Inf in the last bias",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				tensor(t, c, "b2").Data[7] = float32(math.Inf(-1))
			},
			want: []string{"tensor b2 has a non-finite weight, -Inf, at index 7 (row 0, col 7)"}},
		{name: "missing tensor",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				c.Tensors = c.Tensors[:5]
			},
			want: []string{`no tensor "Wx"`}},
		{name: "extra tensor",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				c.Tensors = append(c.Tensors, checkpoint.Tensor{Name: "W3", Rows: 1, Cols: 1, Data: []float32{1}})
			},
			want: []string{`tensor "W3" is not a weight`}},
		{name: "other model",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) { c.Model = "seal" },
			want: []string{`holds a "seal" model`}},
		{name: "config not JSON",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) { c.Config = []byte("hidden=8") },
			want: []string{"checkpoint: config: invalid character"}},
		{name: "negative temperature",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				c.Metrics = append(c.Metrics, checkpoint.Metric{Name: "temperature", Value: -2})
			},
			want: []string{"checkpoint: metric temperature is -2, want one in [0.01, 100]"}},
		{name: "bias 1e9",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				c.Metrics = append(c.Metrics, checkpoint.Metric{Name: "bias", Value: 1e9})
			},
			want: []string{"checkpoint: metric bias is 1e+09, want one in [-50, 50]"}},
		{name: "calibration error 3",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				c.Metrics = append(c.Metrics, checkpoint.Metric{Name: "ece", Value: 3})
			},
			want: []string{"checkpoint: metric ece is 3, want a calibration error in [0, 1]"}},
		{name: "NaN alpha",
			edit: func(t testing.TB, c *checkpoint.Checkpoint) {
				editConfig(t, c, func(v map[string]any) { modelConfig(v)["Alpha"] = "NaN" })
			},
			want: []string{"checkpoint: config: "}},
	}
}

// TestOpenILPGNNHostile: every checkpoint edited to lie and re-summed is
// refused by OpenILPGNN with an error naming the field or tensor and the
// sizes, without allocating what the lie claims; VerifyILPGNN without a graph
// refuses the same ones except the lie only the graph can show; and the
// unedited checkpoint loads with its exact weights.
func TestOpenILPGNNHostile(t *testing.T) {
	g := plantedGraph(t, 40, 1)
	good := untrainedCheckpoint(t, g, 8)
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			c := resum(t, good) // a deep copy
			tc.edit(t, c)
			c = resum(t, c)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			m, _, err := models.OpenILPGNN(c, g)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatalf("OpenILPGNN accepted it (a model of %d features)", m.FeatureDim)
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			// The good model is 2·16·8 + 2·8·8 + 2·8 weights; refusing
			// a lie must not allocate anything near what it claims.
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("refusing it allocated %d bytes", n)
			}
			_, _, verr := models.VerifyILPGNN(c, nil)
			if tc.graphOnly != (verr == nil) {
				t.Errorf("VerifyILPGNN without the graph: %v", verr)
			}
		})
	}
	m, _, err := models.OpenILPGNN(resum(t, good), g)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range m.Params() {
		if !slices.Equal(p.Value, good.Tensors[k].Data) {
			t.Errorf("tensor %s differs after loading", good.Tensors[k].Name)
		}
	}
	if _, _, err := models.VerifyILPGNN(good, nil); err != nil {
		t.Errorf("VerifyILPGNN(good, nil): %v", err)
	}
	if _, _, err := models.OpenILPGNN(good, plantedGraph(t, 40, 2)); !errors.Is(err, checkpoint.ErrForeignGraph) {
		t.Errorf("another graph: %v, want ErrForeignGraph", err)
	}
}

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

// quickConfig is a small model trained for at most 40 epochs.
func quickConfig(seed uint64) train.Config {
	c := train.DefaultConfig()
	c.Model.Hidden = 16
	c.Epochs = 40
	c.Patience = 40
	c.LR = 0.01
	c.Seed = seed
	return c
}

// TestDeterministicCheckpoint: the same seed twice gives byte-identical
// checkpoints; another seed does not; a checkpoint round-trips into a
// model with the same test AUC.
func TestDeterministicCheckpoint(t *testing.T) {
	g := plantedGraph(t, 120, 2)
	ckBytes := func(seed uint64) ([]byte, *train.Result) {
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
	m, cfg, err := models.OpenILPGNN(ck, g)
	if err != nil {
		t.Fatal(err)
	}
	if cfg != res.Config {
		t.Errorf("config round trip: %+v, want %+v", cfg, res.Config)
	}
	for k, p := range m.Params() {
		if !slices.Equal(p.Value, res.Model.Params()[k].Value) {
			t.Errorf("weight %d differs after round trip", k)
		}
	}
	other := plantedGraph(t, 120, 9)
	if _, _, err := models.OpenILPGNN(ck, other); !errors.Is(err, checkpoint.ErrForeignGraph) {
		t.Errorf("loading on another graph: %v, want ErrForeignGraph", err)
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
		// A coarser push keeps S̃'s work small; it is split across threads
		// all the same (core/diffusion checks its bits per thread count).
		c.Model.Diffusion.Epsilon = 1e-3
		b, _ := trainedCheckpoint(t, g, c)
		return b
	}
	if !bytes.Equal(ck(1), ck(2)) {
		t.Error("checkpoints differ between GOMAXPROCS 1 and 2")
	}
}

// trainedCheckpoint trains on g with c and returns the run's checkpoint
// bytes.
func trainedCheckpoint(t *testing.T, g *graph.Graph, c train.Config) ([]byte, *train.Result) {
	t.Helper()
	res, err := train.Run(context.Background(), g, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := models.ILPGNNCheckpoint(res, g, fingerprint.Of(g))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ck.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b, res
}

// TestBatchedRunDeterministic: with a batch size, the same seed gives the
// same checkpoint bytes with one thread and two, on a graph large enough
// for the kernels and the selection to split their work; the checkpoint
// records the batch size, and a batch size of 0 is not written at all
// (which keeps older checkpoints' bytes).
func TestBatchedRunDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four times on 2000 nodes")
	}
	g := plantedGraph(t, 2000, 5)
	run := func(bs, procs int) []byte { // the same seed each time
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := quickConfig(1)
		c.Model.Hidden = 64
		c.Epochs = 3
		c.Dropout = 0.1
		c.BatchSize = bs
		c.Model.Diffusion.Epsilon = 1e-3 // as in TestDeterministicAcrossCPUs
		b, res := trainedCheckpoint(t, g, c)
		ck, err := models.ILPGNNCheckpoint(res, g, fingerprint.Of(g))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(ck.Config, []byte(`"BatchSize":1000`)) {
			t.Errorf("the checkpoint does not record batch size %d: %s", bs, ck.Config)
		}
		return b
	}
	if !bytes.Equal(run(1000, 2), run(1000, 1)) {
		t.Error("batch size 1000: checkpoints differ between GOMAXPROCS 2 and 1")
	}
	c0 := quickConfig(1)
	c0.BatchSize = 0
	zero, err := json.Marshal(c0)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(zero, []byte("BatchSize")) {
		t.Errorf("batch size 0 is written into the checkpoint's config: %s", zero)
	}
}

// TestOpenPredictor: the predictor opened from a run's checkpoint is the
// run's model prepared on the whole graph, with the run's seed: its logits
// and its explanations (whose counterfactuals draw from the seed) are
// bit-identical to those of a predictor built from the trained model
// directly. A lying checkpoint and one of another graph are refused with
// the checkpoint's errors, not ErrPreparing.
func TestOpenPredictor(t *testing.T) {
	g := plantedGraph(t, 120, 2)
	c := quickConfig(5)
	c.Epochs = 6
	c.ValFrac = 0.1 // enough validation pairs to calibrate on (calibrate.MinPairsPerLabel)
	_, res := trainedCheckpoint(t, g, c)
	ck, err := models.ILPGNNCheckpoint(res, g, fingerprint.Of(g))
	if err != nil {
		t.Fatal(err)
	}
	p, cfg, err := models.OpenPredictor(resum(t, ck), g)
	if err != nil {
		t.Fatal(err)
	}
	if cfg != res.Config || p.Seed != 5 {
		t.Fatalf("config %+v, seed %d; want %+v, 5", cfg, p.Seed, res.Config)
	}
	in, err := ilpgnn.Prepare(g, res.Config.Model)
	if err != nil {
		t.Fatal(err)
	}
	// The calibration travels with the checkpoint.
	cal := res.Calibration
	if cal.Temperature == 1 || cal.Bias == 0 || p.Temperature != cal.Temperature || p.Bias != cal.Bias || p.CalibrationError != cal.ECE || !(cal.ECE > 0) {
		t.Fatalf("opened temperature %v, bias %v and calibration error %v, the run's %+v", p.Temperature, p.Bias, p.CalibrationError, cal)
	}
	want := ilpgnn.NewPredictor(res.Model, in)
	want.Seed = res.Config.Seed
	want.Temperature, want.Bias, want.CalibrationError = cal.Temperature, cal.Bias, cal.ECE
	pairs := []graph.Edge{{U: 0, V: 1}, {U: 3, V: 40}, {U: 7, V: 100}, {U: 59, V: 60}}
	got, exp := p.Logits(pairs), want.Logits(pairs)
	for k := range pairs {
		if math.Float32bits(got[k]) != math.Float32bits(exp[k]) {
			t.Errorf("%v: logit %v, the trained model's %v", pairs[k], got[k], exp[k])
		}
		a, err := p.Explain(int(pairs[k].U), int(pairs[k].V))
		if err != nil {
			t.Fatal(err)
		}
		// p = sigmoid(logit/T + b), to float32's rounding.
		if w := 1 / (1 + math.Exp(-(float64(got[k])/cal.Temperature + cal.Bias))); math.Abs(a.Prob-w) > 1e-6 {
			t.Errorf("%v: p %v, want sigmoid(%v/%v + %v) = %v", pairs[k], a.Prob, got[k], cal.Temperature, cal.Bias, w)
		}
		b, err := want.Explain(int(pairs[k].U), int(pairs[k].V))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%v: explanation %+v, the trained model's %+v", pairs[k], a, b)
		}
	}

	// A checkpoint from before calibration (no temperature, no ece) opens
	// uncalibrated.
	old := resum(t, ck)
	old.Metrics = slices.DeleteFunc(old.Metrics, func(m checkpoint.Metric) bool {
		return m.Name == "temperature" || m.Name == "bias" || m.Name == "ece"
	})
	po, _, err := models.OpenPredictor(resum(t, old), g)
	if err != nil {
		t.Fatal(err)
	}
	if po.Temperature != 1 || po.Bias != 0 || po.CalibrationError != 0 {
		t.Errorf("old checkpoint: temperature %v, bias %v, calibration error %v; want 1, 0 and 0", po.Temperature, po.Bias, po.CalibrationError)
	}
	if a, err := po.Explain(0, 1); err != nil || math.Abs(a.Prob-1/(1+math.Exp(-float64(got[0])))) > 1e-6 {
		t.Errorf("old checkpoint: p(0, 1) = %v (%v), want sigmoid(%v)", a, err, got[0])
	}

	bad := resum(t, ck)
	tensor(t, bad, "W1").Data[0] = float32(math.NaN())
	bad = resum(t, bad)
	if _, _, err := models.OpenPredictor(bad, g); err == nil || errors.Is(err, models.ErrPreparing) ||
		!strings.Contains(err.Error(), "checkpoint: tensor W1 has a non-finite weight") {
		t.Errorf("a NaN weight: %v", err)
	}
	if _, _, err := models.OpenPredictor(ck, plantedGraph(t, 120, 9)); !errors.Is(err, checkpoint.ErrForeignGraph) || errors.Is(err, models.ErrPreparing) {
		t.Errorf("another graph: %v, want ErrForeignGraph", err)
	}
}

// TestOpenPredictorAnchored: a model with an anchor stores only its
// trained weights; opening it draws the frozen start again from the run's
// seed, so the opened predictor's start embeddings, logits and
// explanations are bit-identical to those of the trained model itself.
func TestOpenPredictorAnchored(t *testing.T) {
	g := plantedGraph(t, 120, 2)
	c := quickConfig(6)
	c.Epochs = 6
	c.Model.Anchor = 0.5
	_, res := trainedCheckpoint(t, g, c)
	ck, err := models.ILPGNNCheckpoint(res, g, fingerprint.Of(g))
	if err != nil {
		t.Fatal(err)
	}
	if len(ck.Tensors) != len(ilpgnn.ParamNames()) {
		t.Fatalf("%d tensors saved, want the %d trained weights alone", len(ck.Tensors), len(ilpgnn.ParamNames()))
	}
	p, _, err := models.OpenPredictor(resum(t, ck), g)
	if err != nil {
		t.Fatal(err)
	}
	in, err := ilpgnn.Prepare(g, res.Config.Model)
	if err != nil {
		t.Fatal(err)
	}
	want := ilpgnn.NewPredictor(res.Model, in)
	want.Seed, want.Temperature, want.Bias, want.CalibrationError = p.Seed, p.Temperature, p.Bias, p.CalibrationError
	if p.Anchor == nil || !slices.Equal(p.Anchor, want.Anchor) {
		t.Fatal("the opened start embeddings differ from the trained model's")
	}
	if slices.Equal(p.Anchor, p.Hr) {
		t.Fatal("H^0 equals H^r after training: the anchor is not the start")
	}
	pairs := []graph.Edge{{U: 0, V: 1}, {U: 3, V: 40}, {U: 7, V: 100}, {U: 59, V: 60}}
	got, exp := p.Logits(pairs), want.Logits(pairs)
	for k, e := range pairs {
		if math.Float32bits(got[k]) != math.Float32bits(exp[k]) {
			t.Errorf("%v: logit %v, the trained model's %v", e, got[k], exp[k])
		}
		a, err := p.Explain(int(e.U), int(e.V))
		if err != nil {
			t.Fatal(err)
		}
		b, err := want.Explain(int(e.U), int(e.V))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%v: explanation %+v, the trained model's %+v", e, a, b)
		}
	}
}

// TestOpenPredictorReusing: opened with a predictor of the same model on
// the same inputs, a checkpoint takes its embeddings instead of encoding,
// and explains exactly as opened without it; a predictor of other weights,
// of another start (another seed) or on other inputs is not reused.
func TestOpenPredictorReusing(t *testing.T) {
	g := plantedGraph(t, 120, 2)
	c := quickConfig(6)
	c.Epochs = 6
	c.Model.Anchor = 0.5
	_, res := trainedCheckpoint(t, g, c)
	ck, err := models.ILPGNNCheckpoint(res, g, fingerprint.Of(g))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ilpgnn.Prepare(g, res.Config.Model)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _, err := models.OpenPredictorOn(ck, g, in)
	if err != nil {
		t.Fatal(err)
	}
	like := ilpgnn.NewPredictor(res.Model, in)
	reused, _, err := models.OpenPredictorReusing(ck, g, fingerprint.Of(g), in, like, nil)
	if err != nil {
		t.Fatal(err)
	}
	if &reused.Hr[0] != &like.Hr[0] || &reused.Anchor[0] != &like.Anchor[0] {
		t.Fatal("the same model's embeddings were not reused")
	}
	for _, pr := range [][2]int{{0, 1}, {3, 40}, {59, 60}} {
		a, err1 := reused.Explain(pr[0], pr[1])
		b, err2 := fresh.Explain(pr[0], pr[1])
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("%v: reusing explains %+v (%v), encoding %+v (%v)", pr, a, err1, b, err2)
		}
	}

	// Other weights, another start, other inputs: encoded afresh.
	other, _, err := models.OpenILPGNN(ck, g)
	if err != nil {
		t.Fatal(err)
	}
	other.W2.Value[0] += 1
	otherSeed := res.Config
	otherSeed.Seed++
	start, err := train.NewModel(otherSeed, g.FeatureDim())
	if err != nil {
		t.Fatal(err)
	}
	autograd.Restore(start.Params(), autograd.Snapshot(res.Model.Params(), nil))
	in2, err := ilpgnn.Prepare(g, res.Config.Model)
	if err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]*ilpgnn.Predictor{
		"other weights": ilpgnn.NewPredictor(other, in),
		"another start": ilpgnn.NewPredictor(start, in),
		"other inputs":  ilpgnn.NewPredictor(res.Model, in2),
	} {
		p, _, err := models.OpenPredictorReusing(ck, g, fingerprint.Of(g), in, l, nil)
		if err != nil {
			t.Fatal(err)
		}
		if &p.Hr[0] == &l.Hr[0] || &p.Anchor[0] == &l.Anchor[0] || !slices.Equal(p.Hr, fresh.Hr) {
			t.Errorf("%s: reused, or not encoded as without it", name)
		}
	}

	// A model of the same run with other weights gives its H^0 (start),
	// not its H^r; one of another start gives nothing.
	for name, c := range map[string]struct {
		start  *ilpgnn.Model
		shared bool
	}{"other weights": {other, true}, "another start": {start, false}} {
		c.start.AnchorEmbeddings(in)
		p, _, err := models.OpenPredictorReusing(ck, g, fingerprint.Of(g), in, nil, c.start)
		if err != nil {
			t.Fatal(err)
		}
		if got := &p.Anchor[0] == &c.start.AnchorEmbeddings(in)[0]; got != c.shared {
			t.Errorf("start of %s: H^0 shared %v, want %v", name, got, c.shared)
		}
		if !slices.Equal(p.Anchor, fresh.Anchor) || !slices.Equal(p.Hr, fresh.Hr) {
			t.Errorf("start of %s: the embeddings are not those encoded without it", name)
		}
		a, err1 := p.Explain(3, 40)
		b, err2 := fresh.Explain(3, 40)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("start of %s: explains %+v (%v), encoding %+v (%v)", name, a, err1, b, err2)
		}
	}
}
