package ilpgnn_test

import (
	"testing"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/cputime"
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
	e := newPhotoEpoch(b)
	m, in, enc, pairs, labels, obj := e.model, e.in, e.hr, e.pairs, e.labels, e.obj
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

// BenchmarkLossGrad times Model.LossGrad, the tapeless losses and gradient
// that batched training uses, on the same pairs as BenchmarkLossBackward
// (whose losses-ms + backward-ms it replaces), and reports its CPU time.
func BenchmarkLossGrad(b *testing.B) {
	e := newPhotoEpoch(b)
	m, in, enc, pairs, labels, obj := e.model, e.in, e.hr, e.pairs, e.labels, e.obj
	var batch ilpgnn.Batch
	m.Build(&batch, in, enc.Value, pairs, labels, obj, 0)
	n := m.EpochNorms(in, pairs, labels, obj)
	grad := make([]float32, len(enc.Value))
	var cpu time.Duration
	for b.Loop() {
		clear(grad)
		c0 := cpuNow()
		m.LossGrad(enc.Value, grad, &batch, obj, n)
		cpu += cpuNow() - c0
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	}
}
