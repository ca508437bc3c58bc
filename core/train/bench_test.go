package train

import (
	"context"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/datasets"
	"ilpgnn/core/load"
	"ilpgnn/core/optim"
	"ilpgnn/core/split"
)

func loadCora(tb testing.TB) *graph.Graph {
	g, err := load.Path(datasets.Path(tb, "cora"))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// epochRunner holds everything one training epoch needs, so the benchmark
// measures the epoch alone.
type epochRunner struct {
	model   *ilpgnn.Model
	in      *ilpgnn.Inputs
	sp      *split.Split
	adam    *optim.Adam
	sampler *split.NegativeSampler
	tape    *autograd.Tape
	batch   ilpgnn.Batch
	pairs   []graph.Edge
	labels  []float32
	obj     ilpgnn.Objective
	phases  Phases
}

func newEpochRunner(tb testing.TB, g *graph.Graph, cfg Config) *epochRunner {
	sp, err := split.New(g, cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		tb.Fatal(err)
	}
	in, err := ilpgnn.Prepare(sp.Train, cfg.Model)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := NewModel(cfg, g.FeatureDim())
	if err != nil {
		tb.Fatal(err)
	}
	P := len(sp.TrainPos)
	r := &epochRunner{model: m, in: in, sp: sp, adam: optim.NewAdam(m.Params(), cfg.LR),
		sampler: split.NewNegativeSampler(cfg.Seed), tape: autograd.NewTape(),
		pairs: make([]graph.Edge, 2*P), labels: make([]float32, 2*P), obj: cfg.Objective}
	copy(r.pairs, sp.TrainPos)
	for k := range P {
		r.labels[k] = 1
	}
	return r
}

func (r *epochRunner) step(epoch int) {
	r.tape.Reset()
	for _, p := range r.model.Params() {
		p.ZeroGrad()
	}
	hr := r.model.Encode(r.tape, r.in, 0, nil)
	r.sampler.Sample(r.pairs[len(r.sp.TrainPos):], r.sp.Train)
	r.model.Build(&r.batch, r.in, hr.Value, r.pairs, r.labels, r.obj, uint64(epoch))
	loss := r.model.Loss(r.tape, hr, &r.batch, r.obj)
	r.tape.Backward(loss.Total)
	r.adam.Step()
}

// BenchmarkEpoch times one full-batch training epoch on Cora with the
// default configuration (validation excluded).
func BenchmarkEpoch(b *testing.B) {
	g := loadCora(b)
	r := newEpochRunner(b, g, DefaultConfig())
	r.step(0) // warm the tape's buffers
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		r.step(n + 1)
	}
}

// BenchmarkPrepare times the per-graph precomputation (diffusion, Ã,
// feature normalisation) on Cora's training graph.
func BenchmarkPrepare(b *testing.B) {
	g := loadCora(b)
	sp, err := split.New(g, 0, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		b.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		if _, err := ilpgnn.Prepare(sp.Train, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRunCoraShort is a smoke test on real data: a few epochs on Cora run
// and give a finite AUC above chance.
func TestRunCoraShort(t *testing.T) {
	g := loadCora(t)
	c := DefaultConfig()
	c.Epochs = 5
	c.LR = 0.01
	res, err := Run(context.Background(), g, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(res.TestAUC > 0.6) {
		t.Errorf("Cora test AUC after 5 epochs = %v, want > 0.6", res.TestAUC)
	}
}
