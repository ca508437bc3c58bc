package autograd

import (
	"math"

	"ilpgnn/core/detmath"
)

// Softplus returns log(1 + e^a) elementwise, computed as
// max(a, 0) + log(1 + e^{-|a|}) so it never overflows, with detmath's exp
// and log (the same bits natively and in WebAssembly). Its derivative is
// σ(a). GNNExplainer needs it for the entropy of a sigmoid mask,
// H(σ(m)) = softplus(m) - m·σ(m), without a log of a value near 0.
func Softplus(t *Tape, a *Var) *Var {
	out := t.result("softplus", a.Rows, a.Cols, false, softplusBackward, a, nil)
	each2(softpluses, out.Value, a.Value)
	return out
}

func softpluses(dst, x []float32) {
	for i, v := range x {
		f := float64(v)
		dst[i] = float32(max(f, 0) + detmath.Log(1+detmath.Exp(-math.Abs(f))))
	}
}

func softplusBackward(out *Var) {
	each3(softplusGrad, out.a.Grad, out.a.Value, out.Grad) // dA += σ(A) ⊙ dC
}

func softplusGrad(g, x, dc []float32) {
	for i, v := range x {
		g[i] += dc[i] * sigmoid(v)
	}
}
