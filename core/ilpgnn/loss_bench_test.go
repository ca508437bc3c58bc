package ilpgnn_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/cputime"
	"ilpgnn/core/internal/datasets"
	"ilpgnn/core/load"
	"ilpgnn/core/split"
)

// BenchmarkLossBackward times the pair-specific losses (Model.Loss, the
// "losses" phase of an epoch) and their backward pass into H^r (the part
// of the "backward" phase that is not the encoder's) over one epoch's
// pairs of Amazon Photo, with the neighbours selected once beforehand on
// the untrained model's embeddings. It reports the two parts as
// losses-ms/op and backward-ms/op of wall time and, where the process's
// CPU time is known, losses-cpu-ms/op and backward-cpu-ms/op, which a
// busy machine disturbs less (run with GOMAXPROCS=1 to compare the work).
// The tape is lean, as in training.
func BenchmarkLossBackward(b *testing.B) {
	g, err := load.Path(datasets.Path(b, "amazon_photo"))
	if err != nil {
		b.Fatal(err)
	}
	sp, err := split.New(g, 0, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		b.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	in, err := ilpgnn.Prepare(sp.Train, cfg)
	if err != nil {
		b.Fatal(err)
	}
	m, err := ilpgnn.New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(0, 1)))
	if err != nil {
		b.Fatal(err)
	}
	m.FitIsometricBias(in)
	enc := m.Encode(nil, in, 0, nil)
	P := len(sp.TrainPos)
	pairs := make([]graph.Edge, 2*P)
	labels := make([]float32, 2*P)
	copy(pairs, sp.TrainPos)
	for k := range P {
		labels[k] = 1
	}
	split.NewNegativeSampler(0).Sample(pairs[P:], sp.Train)
	obj := ilpgnn.Objective{Lambda: 0.1, Delta: 0.5} // train.DefaultConfig's
	var batch ilpgnn.Batch
	m.Build(&batch, in, enc.Value, pairs, labels, obj, 0)
	hr := autograd.NewParam(enc.Rows, enc.Cols)
	copy(hr.Value, enc.Value)
	tape := autograd.NewTape()
	tape.SetLean(true)
	var losses, backward, lossesCPU, backwardCPU time.Duration
	for b.Loop() {
		tape.Reset()
		hr.ZeroGrad()
		t0, c0 := time.Now(), cpuNow()
		l := m.Loss(tape, hr, &batch, obj)
		t1, c1 := time.Now(), cpuNow()
		tape.Backward(l.Total)
		losses += t1.Sub(t0)
		backward += time.Since(t1)
		lossesCPU += c1 - c0
		backwardCPU += cpuNow() - c1
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 / float64(b.N) }
	b.ReportMetric(ms(losses), "losses-ms/op")
	b.ReportMetric(ms(backward), "backward-ms/op")
	if lossesCPU > 0 {
		b.ReportMetric(ms(lossesCPU), "losses-cpu-ms/op")
		b.ReportMetric(ms(backwardCPU), "backward-cpu-ms/op")
	}
}

// cpuNow is the process's CPU time so far, 0 where it is not known.
func cpuNow() time.Duration {
	d, _ := cputime.Used()
	return d
}
