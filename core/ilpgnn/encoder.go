// The encoder (docs/model.md §3, eq 3-4): the weights, their initialisation and H^r.

package ilpgnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"ilpgnn/core/autograd"
)

// Model is a configured ILP-GNN with its weights. The zero value is not
// usable; build one with New.
type Model struct {
	Config Config
	// FeatureDim is d0, the input feature dimension the weights expect.
	FeatureDim int

	// The encoder of docs/model.md §3: H^m = ReLU(X W1 + b1) W2 + b2,
	// H^r = ReLU(Ã (H^m Wh + X Wx)) + H^m.
	W1, B1, W2, B2, Wh, Wx *autograd.Var

	// anchor is the frozen start behind Config.Anchor, nil when it is 0
	// or the model came without weights.
	anchor *anchor
}

// anchor is a copy of the weights New drew, which training never moves,
// and the embeddings H^0 it last computed.
type anchor struct {
	start *Model // Config.Anchor = 0
	mu    sync.Mutex
	in    *Inputs // whose H^0 h0 is
	h0    []float32
}

// paramNames are the checkpoint names of the weights, in Params order.
var paramNames = [...]string{"W1", "b1", "W2", "b2", "Wh", "Wx"}

// ParamNames returns the checkpoint names of the weights, in Params order.
func ParamNames() []string { return paramNames[:] }

// Params returns the trainable weights in a fixed order.
func (m *Model) Params() []*autograd.Var {
	return []*autograd.Var{m.W1, m.B1, m.W2, m.B2, m.Wh, m.Wx}
}

// New returns a model for features of dimension featureDim with weights
// drawn from rng as cfg.Init says: Glorot (Xavier) uniform with zero
// biases, or an isometric MLP beside a scaled Glorot GCN branch.
func New(cfg Config, featureDim int, rng *rand.Rand) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if featureDim < 0 {
		return nil, fmt.Errorf("ilpgnn: negative feature dimension %d", featureDim)
	}
	d := cfg.Hidden
	m := &Model{
		Config:     cfg,
		FeatureDim: featureDim,
		W1:         autograd.NewParam(featureDim, d),
		B1:         autograd.NewParam(1, d),
		W2:         autograd.NewParam(d, d),
		B2:         autograd.NewParam(1, d),
		Wh:         autograd.NewParam(d, d),
		Wx:         autograd.NewParam(featureDim, d),
	}
	// Wh and Wx are the two blocks of one (d+d0) x d matrix W (eq 3).
	branch := math.Sqrt(6 / float64(d+featureDim+d))
	switch cfg.Init {
	case InitIsometric:
		isometric(m, rng)
		branch *= cfg.IsometricBranch
	default:
		autograd.Glorot(m.W1, rng)
		autograd.Glorot(m.W2, rng)
	}
	autograd.Uniform(m.Wh.Value, branch, rng)
	autograd.Uniform(m.Wx.Value, branch, rng)
	if cfg.Anchor > 0 {
		start := &Model{Config: cfg, FeatureDim: featureDim}
		start.Config.Anchor = 0
		ps := make([]*autograd.Var, 0, len(paramNames))
		for _, p := range m.Params() {
			c := autograd.NewParam(p.Rows, p.Cols)
			copy(c.Value, p.Value)
			ps = append(ps, c)
		}
		start.W1, start.B1, start.W2, start.B2, start.Wh, start.Wx = ps[0], ps[1], ps[2], ps[3], ps[4], ps[5]
		m.anchor = &anchor{start: start}
	}
	return m, nil
}

// AnchorEmbeddings returns H^0 (N x d, row-major), the H^r that the
// encoder at the weights New drew gives on in (with the shift of an
// isometric start fitted to in's features, as training fits it), which
// the feature score mixes in with weight Config.Anchor. It is nil when
// that weight is 0 or the model holds no weights. The model keeps the last
// result, so asking again for the same in costs nothing; the caller must
// not change it. It is safe for concurrent use.
func (m *Model) AnchorEmbeddings(in *Inputs) []float32 {
	a := m.anchor
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.in != in {
		if a.start == nil {
			return nil // given embeddings (UseAnchorEmbeddings) of other inputs
		}
		// The fit depends on W1 and the features only, so it is the shift
		// the trained model started from.
		a.start.FitIsometricBias(in)
		a.h0 = a.start.Encode(nil, in, 0, nil).Value
		a.in = in
	}
	return a.h0
}

// UseAnchorEmbeddings gives a model without weights (a shard worker's,
// which scores with embeddings computed elsewhere) the start's H^0 on in,
// as the model that has the weights computed it (AnchorEmbeddings). The
// model keeps h0; the caller must not change it.
func (m *Model) UseAnchorEmbeddings(in *Inputs, h0 []float32) {
	m.anchor = &anchor{in: in, h0: h0}
}

// isometric sets the MLP so that H^m = X W1 at the start, with W1 a
// d0 x d matrix whose rows (d ≥ d0) or columns (d < d0, then scaled by
// √(d0/d) to keep norms on average) are orthonormal. Every entry of x W1
// for a unit-norm row x lies in [-r, r] with r the largest column norm of
// W1, so b1 = r keeps the ReLU linear and b2 = -b1 (W2 = I) removes the
// shift again.
func isometric(m *Model, rng *rand.Rand) {
	d0, d := m.W1.Rows, m.W1.Cols
	// Uniform draws, not NormFloat64: its rejection test calls math.Exp,
	// whose last bit differs between amd64 and WebAssembly. Any full-rank
	// start gives an orthonormal result; it need not be Haar-distributed.
	w := make([]float64, d0*d)
	for i := range w {
		w[i] = 2*rng.Float64() - 1
	}
	if d >= d0 {
		orthonormalize(w, d0, d) // rows
	} else {
		t := transpose(w, d0, d)
		orthonormalize(t, d, d0) // columns of w
		w = transpose(t, d, d0)
		s := math.Sqrt(float64(d0) / float64(d))
		for i := range w {
			w[i] *= s
		}
	}
	r := 0.0
	for c := range d {
		var n float64
		for i := range d0 {
			n += w[i*d+c] * w[i*d+c]
		}
		r = max(r, math.Sqrt(n))
	}
	for i, v := range w {
		m.W1.Value[i] = float32(v)
	}
	bias := float32(r * (1 + 1e-3)) // a margin for float32 rounding
	for c := range d {
		m.B1.Value[c] = bias
		m.B2.Value[c] = -bias
		m.W2.Value[c*d+c] = 1
	}
}

// FitIsometricBias lowers the shift b1 of an isometric start to what the
// features in in actually need: just enough to keep every entry of X W1 +
// b1 non-negative, with b2 = -b1 cancelling it again. The worst-case shift
// New sets is several times larger than that, and Adam's first steps on W2
// carry b1 into every embedding as a common offset (d · lr · b1 per
// coordinate and step): on Amazon Photo the worst-case shift sent the loss
// from 1.03 to 213 after one step. Call it once, before training, on a
// model whose W2 is still the identity; it does nothing under InitGlorot.
func (m *Model) FitIsometricBias(in *Inputs) {
	if m.Config.Init != InitIsometric {
		return
	}
	z := autograd.SpMM(nil, in.Features, m.W1).Value
	var need float32
	for _, v := range z {
		need = max(need, -v)
	}
	bias := need*(1+1e-3) + 1e-6 // a margin for float32 rounding
	for c := range m.B1.Value {
		m.B1.Value[c] = bias
		m.B2.Value[c] = -bias
	}
}

// orthonormalize makes the rows of the rows x cols matrix a orthonormal by
// modified Gram-Schmidt (rows ≤ cols). Plain loops keep it bit-identical
// on every platform, which a BLAS with assembly kernels would not promise.
func orthonormalize(a []float64, rows, cols int) {
	for i := range rows {
		ri := a[i*cols : (i+1)*cols]
		for k := range i {
			rk := a[k*cols : (k+1)*cols]
			var dot float64
			for c := range cols {
				dot += ri[c] * rk[c]
			}
			for c := range cols {
				ri[c] -= dot * rk[c]
			}
		}
		var n float64
		for _, v := range ri {
			n += v * v
		}
		n = math.Sqrt(n)
		for c := range ri {
			ri[c] /= n
		}
	}
}

func transpose(a []float64, rows, cols int) []float64 {
	t := make([]float64, len(a))
	for i := range rows {
		for c := range cols {
			t[c*rows+i] = a[i*cols+c]
		}
	}
	return t
}

// Encode returns H^r (N x d), docs/model.md §3 (eq 3-4):
//
//	H^m = ReLU(X W1 + b1) W2 + b2
//	H^r = ReLU(Ã (H^m Wh + X Wx)) + H^m
//
// [H^m ‖ X] W is computed as H^m Wh + X Wx so X stays sparse. dropout (a
// probability) applies to the hidden layers when t is non-nil. A nil tape
// records nothing (inference).
func (m *Model) Encode(t *autograd.Tape, in *Inputs, dropout float32, rng *rand.Rand) *autograd.Var {
	if in.Features.A.Cols != m.FeatureDim {
		panic(fmt.Sprintf("ilpgnn: model expects %d features, graph has %d", m.FeatureDim, in.Features.A.Cols))
	}
	h1 := autograd.ReLU(t, autograd.AddBias(t, autograd.SpMM(t, in.Features, m.W1), m.B1))
	h1 = autograd.Dropout(t, h1, dropout, rng)
	hm := autograd.AddBias(t, autograd.MatMul(t, h1, m.W2), m.B2)
	z := autograd.Add(t, autograd.MatMul(t, autograd.Dropout(t, hm, dropout, rng), m.Wh), autograd.SpMM(t, in.Features, m.Wx))
	hr := autograd.Add(t, autograd.ReLU(t, autograd.SpMM(t, in.Adj, z)), hm)
	return hr
}
