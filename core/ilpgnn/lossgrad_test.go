package ilpgnn

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"ilpgnn/core/autograd"
)

// TestLossGradMatchesTape checks LossGrad's loss terms and gradient with
// respect to H^r against the tape's (LossOver, then Backward), which
// TestLossGradient checks against finite differences: with β on and off,
// a temperature, the relaxed L^p_dis and L^n_dis as a mean, λ 0, and epoch
// counts larger than the batch's. The graph has more pairs than
// lossGradChunk, so the pass crosses chunks, and hubs whose gradient rows
// take updates from many pairs; and with an anchor, whose share of the
// scores is a constant to both.
func TestLossGradMatchesTape(t *testing.T) {
	g := testGraph(t, 900, 3, 5, 9)
	for _, tc := range []struct {
		beta, tau float64
		obj       Objective
		scale     int // the epoch's counts are scale times the batch's
		anchor    float64
	}{
		{1, 1, Objective{Lambda: 0.7, Delta: 0.5}, 1, 0},
		{0.5, 0.3, Objective{Lambda: 0.3, Delta: 0.5, Relaxed: true, NegMean: true}, 3, 0},
		{0, 1, Objective{Lambda: 0.5, Delta: 0.5}, 2, 0},
		{1, 1, Objective{Lambda: 0, Delta: 0.5}, 1, 0},
		{0.5, 1, Objective{Lambda: 0.7, Delta: 0.5}, 1, 0.5},
	} {
		t.Run(fmt.Sprintf("beta=%v,tau=%v,%+v,anchor=%v", tc.beta, tc.tau, tc.obj, tc.anchor), func(t *testing.T) {
			cfg := smallConfig()
			cfg.Beta, cfg.Tau, cfg.Anchor = tc.beta, tc.tau, tc.anchor
			cfg.Diffusion.Method = DefaultConfig().Diffusion.Method // exact PPR is slow at 900 nodes
			m, in := testModel(t, g, cfg)
			enc := m.Encode(nil, in, 0, nil)
			b := trainingBatch(t, m, in, enc.Value, tc.obj)
			if len(b.Pairs) <= lossGradChunk || b.ContributingPositives() == 0 {
				t.Fatalf("%d pairs, %d contributing: the test needs more than %d pairs and some contributing", len(b.Pairs), b.ContributingPositives(), lossGradChunk)
			}
			n := m.EpochNorms(in, b.Pairs, b.Labels, tc.obj)
			n.Pairs, n.Negatives, n.Contributing = n.Pairs*tc.scale, n.Negatives*tc.scale, n.Contributing*tc.scale

			hr := autograd.NewParam(enc.Rows, enc.Cols)
			copy(hr.Value, enc.Value)
			tape := autograd.NewTape()
			l := m.LossOver(tape, hr, b, tc.obj, n)
			tape.Backward(l.Total)

			grad := make([]float32, len(hr.Value))
			got := m.LossGrad(hr.Value, grad, b, tc.obj, n)
			for _, c := range []struct {
				name      string
				got, want float64
			}{
				{"total", got.Total, float64(l.Total.Value[0])},
				{"cls", got.Cls, float64(l.Cls.Value[0])},
				{"pos", got.Pos, float64(l.Pos.Value[0])},
				{"neg", got.Neg, float64(l.Neg.Value[0])},
			} {
				if math.Abs(c.got-c.want) > 1e-5*(1e-3+math.Abs(c.want)) {
					t.Errorf("%s: LossGrad %v, tape %v", c.name, c.got, c.want)
				}
			}
			if tc.obj.Lambda != 0 && (got.Pos == 0 || got.Neg == 0) {
				t.Errorf("an explanation term is zero (pos %v, neg %v): the case tests less than it says", got.Pos, got.Neg)
			}
			var norm float64
			for _, v := range hr.Grad {
				norm = max(norm, math.Abs(float64(v)))
			}
			bad := 0
			for k, want := range hr.Grad {
				if d := math.Abs(float64(grad[k] - want)); d > 1e-4*norm+1e-3*math.Abs(float64(want)) {
					if bad++; bad <= 5 {
						t.Errorf("dH^r[%d,%d] = %v, tape %v (largest gradient %v)", k/enc.Cols, k%enc.Cols, grad[k], want, norm)
					}
				}
			}
			if norm == 0 {
				t.Error("the tape's gradient is zero")
			}
		})
	}
}

// TestLossGradDeterministic: the gradient and losses are the same bits
// with one goroutine or several, and adding into a gradient adds.
func TestLossGradDeterministic(t *testing.T) {
	g := testGraph(t, 900, 3, 5, 10)
	cfg := smallConfig()
	cfg.Diffusion.Method = DefaultConfig().Diffusion.Method
	m, in := testModel(t, g, cfg)
	enc := m.Encode(nil, in, 0, nil)
	obj := Objective{Lambda: 0.3, Delta: 0.5}
	b := trainingBatch(t, m, in, enc.Value, obj)
	n := m.EpochNorms(in, b.Pairs, b.Labels, obj)
	run := func(procs int, start float32) ([]float32, LossValues) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		grad := make([]float32, len(enc.Value))
		for k := range grad {
			grad[k] = start
		}
		v := m.LossGrad(enc.Value, grad, b, obj, n)
		return grad, v
	}
	g1, v1 := run(1, 0)
	g4, v4 := run(4, 0)
	if v1 != v4 {
		t.Errorf("losses: %+v with one goroutine, %+v with four", v1, v4)
	}
	for k := range g1 {
		if math.Float32bits(g1[k]) != math.Float32bits(g4[k]) {
			t.Fatalf("dH^r[%d] = %v with one goroutine, %v with four", k, g1[k], g4[k])
		}
	}
	gs, _ := run(2, 0.25)
	for k := range g1 {
		if want := g1[k] + 0.25; math.Abs(float64(gs[k]-want)) > 1e-5 {
			t.Fatalf("starting from 0.25: dH^r[%d] = %v, want %v", k, gs[k], want)
		}
	}
}
