// Package optim updates model weights from their gradients.
package optim

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"ilpgnn/core/autograd"
)

// Adam is the optimiser of Kingma & Ba (2015) with optional L2 weight decay
// added to the gradient (as PyTorch's Adam does):
//
//	g ← ∇ + wd·θ
//	m ← β1 m + (1-β1) g;  v ← β2 v + (1-β2) g²
//	θ ← θ - lr · (m / (1-β1^t)) / (sqrt(v / (1-β2^t)) + ε)
//
// The moment estimates are float64 per weight, so the update does not drift
// with float32 rounding.
type Adam struct {
	LR, Beta1, Beta2, Eps, WeightDecay float64

	params []*autograd.Var
	m, v   [][]float64
	step   int
}

// NewAdam returns Adam over params with learning rate lr and the usual
// β1 = 0.9, β2 = 0.999, ε = 1e-8.
func NewAdam(params []*autograd.Var, lr float64) *Adam {
	a := &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, params: params}
	for _, p := range params {
		a.m = append(a.m, make([]float64, len(p.Value)))
		a.v = append(a.v, make([]float64, len(p.Value)))
	}
	return a
}

// Steps returns how many updates have been made.
func (a *Adam) Steps() int { return a.step }

// Step updates every parameter from its Grad. It panics if a parameter's
// shape changed since NewAdam.
func (a *Adam) Step() {
	a.step++
	c1 := 1 - math.Pow(a.Beta1, float64(a.step))
	c2 := 1 - math.Pow(a.Beta2, float64(a.step))
	for k, p := range a.params {
		if len(p.Value) != len(a.m[k]) || len(p.Grad) != len(p.Value) {
			panic(fmt.Sprintf("optim: parameter %d changed shape", k))
		}
		a.update(p.Value, p.Grad, a.m[k], a.v[k], c1, c2)
	}
}

// update applies one step to a parameter's weights w, each of which depends
// on its own gradient and moments only: large parameters are split over
// goroutines without changing any result. The closure is built only when
// the work is split, so small parameters allocate nothing.
func (a *Adam) update(w, grad []float32, m, v []float64, c1, c2 float64) {
	const piece = 1 << 15
	p := min(runtime.GOMAXPROCS(0), len(w)/piece)
	if p <= 1 {
		a.updateRange(w, grad, m, v, c1, c2, 0, len(w))
		return
	}
	var wg sync.WaitGroup
	for g := 1; g < p; g++ {
		wg.Go(func() { a.updateRange(w, grad, m, v, c1, c2, g*len(w)/p, (g+1)*len(w)/p) })
	}
	a.updateRange(w, grad, m, v, c1, c2, 0, len(w)/p)
	wg.Wait()
}

// updateRange is update on the weights [lo, hi).
func (a *Adam) updateRange(w, grad []float32, m, v []float64, c1, c2 float64, lo, hi int) {
	for n := lo; n < hi; n++ {
		g := float64(grad[n]) + a.WeightDecay*float64(w[n])
		m[n] = a.Beta1*m[n] + (1-a.Beta1)*g
		v[n] = a.Beta2*v[n] + (1-a.Beta2)*g*g
		w[n] -= float32(a.LR * (m[n] / c1) / (math.Sqrt(v[n]/c2) + a.Eps))
	}
}

// ErrDiverged marks a training run stopped because its loss or its weights
// stopped being finite numbers, almost always from too high a learning
// rate. Errors wrapping it name the epoch.
var ErrDiverged = errors.New("training diverged")

// CheckLoss returns an error wrapping ErrDiverged, naming epoch and the
// learning rate lr, if loss is not a finite number.
func CheckLoss(epoch int, loss, lr float64) error {
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return fmt.Errorf("epoch %d: the loss is %g: %w; try a lower learning rate than %g", epoch, loss, ErrDiverged, lr)
	}
	return nil
}

// CheckWeights returns an error wrapping ErrDiverged, naming epoch and the
// learning rate of a, if a weight a updates is not a finite number. It is
// called after Step, so that no non-finite weight is ever evaluated or
// kept as the best.
func (a *Adam) CheckWeights(epoch int) error {
	for _, p := range a.params {
		for _, w := range p.Value {
			// w-w is 0 for a finite w and NaN for ±Inf and NaN.
			if w-w != 0 {
				return fmt.Errorf("epoch %d: a weight became %g in the update: %w; try a lower learning rate than %g", epoch, w, ErrDiverged, a.LR)
			}
		}
	}
	return nil
}
