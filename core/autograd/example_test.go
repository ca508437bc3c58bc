package autograd_test

import (
	"fmt"

	"ilpgnn/core/autograd"
)

// A logistic-regression step: record the loss on a tape, run Backward, read
// the gradient. Reset would let the next step reuse the tape's buffers. The
// printed numbers agree with a float64 evaluation of the same formulas
// (L = mean(max(z,0) - z·y + log1p(e^-|z|)), dL/dw = Xᵀ(σ(z) - y)/3).
func ExampleTape() {
	w := autograd.NewParam(2, 1)
	copy(w.Value, []float32{0.5, -0.25})
	x := autograd.Const(3, 2, []float32{1, 2, 3, 4, 5, 6})
	labels := []float32{1, 0, 1}

	t := autograd.NewTape()
	logits := autograd.MatMul(t, x, w)
	loss := autograd.BCEWithLogits(t, logits, labels)
	t.Backward(loss)

	fmt.Printf("%v = %.4f\n", loss, loss.Value[0])
	fmt.Printf("dL/dw = %.4f\n", w.Grad)

	// Inference: a nil tape records nothing and allocates no gradient.
	p := autograd.Sigmoid(nil, autograd.MatMul(nil, x, w))
	fmt.Printf("p = %.4f, grad allocated: %v\n", p.Value, p.Grad != nil)
	// Output:
	// bce 1x1 = 0.6602
	// dL/dw = [0.0076 -0.0413]
	// p = [0.5000 0.6225 0.7311], grad allocated: false
}
