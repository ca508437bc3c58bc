package optim

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
)

// TestAdamFirstSteps checks two updates against the update rule worked out
// by hand: after bias correction the first step moves every weight by
// lr·sign(g) (m̂ = g, v̂ = g²).
func TestAdamFirstSteps(t *testing.T) {
	p := autograd.NewParam(1, 3)
	copy(p.Value, []float32{1, -2, 0.5})
	a := NewAdam([]*autograd.Var{p}, 0.1)
	copy(p.Grad, []float32{0.3, -4, 0})
	a.Step()
	want := []float64{0.9, -1.9, 0.5}
	for n := range want {
		if math.Abs(float64(p.Value[n])-want[n]) > 1e-6 {
			t.Errorf("step 1: w[%d] = %v, want %v", n, p.Value[n], want[n])
		}
	}
	// Second step with gradient g2: m = 0.9·0.1·g1 ... computed in float64.
	g1, g2 := 0.3, 0.6
	m := 0.9*(0.1*g1) + 0.1*g2
	v := 0.999*(0.001*g1*g1) + 0.001*g2*g2
	mh, vh := m/(1-0.81), v/(1-0.999*0.999)
	wantW0 := 0.9 - 0.1*mh/(math.Sqrt(vh)+1e-8)
	copy(p.Grad, []float32{float32(g2), 0, 0})
	a.Step()
	if math.Abs(float64(p.Value[0])-wantW0) > 1e-6 {
		t.Errorf("step 2: w[0] = %v, want %v", p.Value[0], wantW0)
	}
}

// TestAdamWeightDecay: with a zero gradient, decay alone moves a weight
// towards 0 by lr on the first step.
func TestAdamWeightDecay(t *testing.T) {
	p := autograd.NewParam(1, 2)
	copy(p.Value, []float32{2, -3})
	a := NewAdam([]*autograd.Var{p}, 0.01)
	a.WeightDecay = 0.5
	a.Step()
	if math.Abs(float64(p.Value[0])-1.99) > 1e-6 || math.Abs(float64(p.Value[1])+2.99) > 1e-6 {
		t.Errorf("got %v, want [1.99 -2.99]", p.Value)
	}
}

// TestAdamSplitMatchesSerial: a parameter large enough to be updated on
// several goroutines ends bit-identical to the serial update.
func TestAdamSplitMatchesSerial(t *testing.T) {
	run := func(procs int) []float32 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		p := autograd.NewParam(300, 400) // 120000 weights: split at 2 CPUs
		r := rand.New(rand.NewPCG(5, 5))
		for i := range p.Value {
			p.Value[i] = r.Float32() - 0.5
		}
		a := NewAdam([]*autograd.Var{p}, 0.01)
		a.WeightDecay = 1e-3
		for range 3 {
			for i := range p.Grad {
				p.Grad[i] = r.Float32() - 0.5
			}
			a.Step()
		}
		return p.Value
	}
	serial, split := run(1), run(2)
	for i := range serial {
		if math.Float32bits(serial[i]) != math.Float32bits(split[i]) {
			t.Fatalf("w[%d] = %v serially, %v split", i, serial[i], split[i])
		}
	}
}

// TestDivergenceChecks: a learning rate beyond float32's range turns a
// weight infinite in one step (lr·sign(g) with lr 1e39 rounds to +Inf), and
// CheckWeights names the epoch; a zero gradient leaves weights finite.
func TestDivergenceChecks(t *testing.T) {
	p := autograd.NewParam(1, 2)
	copy(p.Value, []float32{1, -1})
	a := NewAdam([]*autograd.Var{p}, 1e39)
	a.Step() // zero gradient: no move
	if err := a.CheckWeights(1); err != nil {
		t.Fatalf("finite weights: %v", err)
	}
	copy(p.Grad, []float32{0, 0.5})
	a.Step()
	err := a.CheckWeights(2)
	if !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "epoch 2:") || !math.IsInf(float64(p.Value[1]), -1) {
		t.Fatalf("w = %v, err %v; want w[1] = -Inf and ErrDiverged at epoch 2", p.Value, err)
	}
	for _, loss := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := CheckLoss(7, loss, 0.5); !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "epoch 7: the loss is") {
			t.Errorf("loss %v: err %v", loss, err)
		}
	}
	if err := CheckLoss(7, 1e30, 0.5); err != nil {
		t.Errorf("finite loss: %v", err)
	}
}
