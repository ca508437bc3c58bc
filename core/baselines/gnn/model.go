// Package gnn holds the graph autoencoder baselines of the ILP-GNN paper's
// table 1 — GAE, VGAE (Kipf & Welling 2016) and a GAT encoder (Veličković
// et al. 2018) — each with an inner-product decoder, logit z_i·z_j. They are
// trained exactly as ILP-GNN is (package train): the same split, one fresh
// training negative per positive per epoch from split.NewNegativeSampler,
// Adam, early stopping on validation AUC, message passing on the training
// graph only.
//
// Everything runs on the package autograd float32 kernels; every random
// draw comes from a PCG stream seeded with the run's seed, and exponentials
// and logarithms from detmath, so a seed gives the same weights natively
// and in WebAssembly, on any number of CPUs.
package gnn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"ilpgnn/core/autograd"
	"ilpgnn/core/detmath"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Model is a baseline's configuration and weights. Build one with New.
type Model struct {
	Config     Config
	FeatureDim int // input feature dimension the weights expect

	// GAE: Z = Ã ReLU(Ã X W1) W2. VGAE: μ = Ã H W2, log σ = Ã H WLogStd
	// with H = ReLU(Ã X W1). The GCN layers have no bias, as the
	// reference implementation.
	W1, W2, WLogStd *autograd.Var

	// GAT: two attention layers.
	Layer1, Layer2 *attentionLayer
}

// attentionLayer is one GAT layer: per head k a projection W[k] and the
// two halves of the attention vector a = [ADst ‖ ASrc] (e_ic =
// LeakyReLU(ADst·W h_i + ASrc·W h_c)), and one bias after the heads are
// combined.
type attentionLayer struct {
	W, ADst, ASrc []*autograd.Var
	Bias          *autograd.Var
	concat        bool // concatenate the heads (else average them)
}

func newAttentionLayer(heads, in, out int, concat bool, rng *rand.Rand) *attentionLayer {
	l := &attentionLayer{concat: concat}
	width := out
	if concat {
		width = heads * out
	}
	for range heads {
		w, ad, as := autograd.NewParam(in, out), autograd.NewParam(out, 1), autograd.NewParam(out, 1)
		autograd.Glorot(w, rng)
		// The reference GAT draws a (2F x 1) Glorot: limit √(6/(2F+1)).
		lim := math.Sqrt(6 / float64(2*out+1))
		autograd.Uniform(ad.Value, lim, rng)
		autograd.Uniform(as.Value, lim, rng)
		l.W, l.ADst, l.ASrc = append(l.W, w), append(l.ADst, ad), append(l.ASrc, as)
	}
	l.Bias = autograd.NewParam(1, width)
	return l
}

func (l *attentionLayer) params(prefix string) ([]*autograd.Var, []string) {
	var ps []*autograd.Var
	var names []string
	for k := range l.W {
		ps = append(ps, l.W[k], l.ADst[k], l.ASrc[k])
		names = append(names, fmt.Sprintf("%s.W%d", prefix, k), fmt.Sprintf("%s.aDst%d", prefix, k), fmt.Sprintf("%s.aSrc%d", prefix, k))
	}
	return append(ps, l.Bias), append(names, prefix+".b")
}

// Random streams drawn from the run's seed, one per use, so that adding a
// use never shifts another's numbers (ASCII "gnn" and a digit; distinct
// from split's streams).
const (
	streamInit    uint64 = 0x676e6e_31
	streamDropout uint64 = 0x676e6e_32
	streamNoise   uint64 = 0x676e6e_33
)

// New returns a model of cfg.Kind for features of dimension featureDim,
// with Glorot-uniform weights (zero biases) drawn from rng.
func New(cfg Config, featureDim int, rng *rand.Rand) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if featureDim < 0 {
		return nil, fmt.Errorf("gnn: negative feature dimension %d", featureDim)
	}
	m := &Model{Config: cfg, FeatureDim: featureDim}
	switch cfg.Kind {
	case GAE, VGAE:
		m.W1 = autograd.NewParam(featureDim, cfg.Hidden)
		m.W2 = autograd.NewParam(cfg.Hidden, cfg.Out)
		autograd.Glorot(m.W1, rng)
		autograd.Glorot(m.W2, rng)
		if cfg.Kind == VGAE {
			m.WLogStd = autograd.NewParam(cfg.Hidden, cfg.Out)
			autograd.Glorot(m.WLogStd, rng)
		}
	case GAT:
		m.Layer1 = newAttentionLayer(cfg.Heads, featureDim, cfg.Hidden/cfg.Heads, true, rng)
		m.Layer2 = newAttentionLayer(cfg.OutHeads, cfg.Hidden, cfg.Out, false, rng)
	}
	return m, nil
}

// Params returns the trainable weights in a fixed order (ParamNames).
func (m *Model) Params() []*autograd.Var {
	ps, _ := m.named()
	return ps
}

// ParamNames returns a name for each of Params, in the same order.
func (m *Model) ParamNames() []string {
	_, names := m.named()
	return names
}

func (m *Model) named() ([]*autograd.Var, []string) {
	switch m.Config.Kind {
	case GAE:
		return []*autograd.Var{m.W1, m.W2}, []string{"W1", "W2"}
	case VGAE:
		return []*autograd.Var{m.W1, m.W2, m.WLogStd}, []string{"W1", "Wmu", "Wlogstd"}
	}
	p1, n1 := m.Layer1.params("gat1")
	p2, n2 := m.Layer2.params("gat2")
	return append(p1, p2...), append(n1, n2...)
}

// Inputs is what a model reads from one message-passing graph, computed
// once per graph and shared by training and inference.
type Inputs struct {
	Graph    *graph.Graph
	Adj      *autograd.Sparse // Ã = D̂^-1/2 (A+I) D̂^-1/2 (GAE, VGAE)
	Features *autograd.Sparse // X, row-normalised when configured

	// The attention entries of GAT: the pattern of A+I in CSR order.
	// Entries Offsets[i]..Offsets[i+1] are the pairs (Dst = i, Src = c)
	// for c in N(i) ∪ {i}, c ascending.
	Offsets, Dst, Src []int32
}

// Prepare computes the Inputs of g for models configured as cfg.
func Prepare(g *graph.Graph, cfg Config) *Inputs {
	x := g.Features
	if cfg.NormalizeFeatures {
		x = x.NormalizeRows()
	}
	in := &Inputs{Graph: g, Features: autograd.NewSparse(x)}
	a := withSelfLoops(g)
	if cfg.Kind == GAT {
		in.Offsets, in.Src = a.Indptr, a.Indices
		in.Dst = make([]int32, len(a.Indices))
		for i := range a.Rows {
			for k := a.Indptr[i]; k < a.Indptr[i+1]; k++ {
				in.Dst[k] = int32(i)
			}
		}
	} else {
		// Symmetric normalisation of A+I: entry (i, c) is 1/√(d̂_i d̂_c).
		inv := make([]float64, a.Rows)
		for i := range inv {
			inv[i] = 1 / math.Sqrt(float64(a.Indptr[i+1]-a.Indptr[i]))
		}
		a.Values = make([]float32, len(a.Indices))
		for i := range a.Rows {
			for k := a.Indptr[i]; k < a.Indptr[i+1]; k++ {
				a.Values[k] = float32(inv[i] * inv[a.Indices[k]])
			}
		}
		in.Adj = autograd.NewSparse(a)
	}
	return in
}

// withSelfLoops returns the pattern of A+I (values nil), neighbours sorted.
func withSelfLoops(g *graph.Graph) *f32.CSR {
	n := g.NumNodes()
	a := &f32.CSR{Rows: n, Cols: n, Indptr: make([]int32, n+1), Indices: make([]int32, 0, len(g.Indices)+n)}
	for i := range n {
		self := false
		for _, c := range g.Neighbors(i) {
			if !self && int(c) > i {
				a.Indices = append(a.Indices, int32(i))
				self = true
			}
			a.Indices = append(a.Indices, c)
		}
		if !self {
			a.Indices = append(a.Indices, int32(i))
		}
		a.Indptr[i+1] = int32(len(a.Indices))
	}
	return a
}

// forward is what one encoder pass gives: the embeddings Z, VGAE's heads
// Mu and LogStd (nil for the other kinds), and GAT's second-layer attention
// coefficients Alpha, one E×1 column per head.
type forward struct {
	Z, Mu, LogStd *autograd.Var
	Alpha         []*autograd.Var
}

// encode is one pass of the encoder. With a nil tape it is the evaluation
// pass: no dropout, and VGAE returns z = μ. Otherwise dropout (probability
// p) draws from dropRNG and VGAE's ε from noiseRNG.
func (m *Model) encode(t *autograd.Tape, in *Inputs, p float32, dropRNG, noiseRNG *rand.Rand) forward {
	if in.Features.A.Cols != m.FeatureDim {
		panic(fmt.Sprintf("gnn: model expects %d features, graph has %d", m.FeatureDim, in.Features.A.Cols))
	}
	switch m.Config.Kind {
	case GAE, VGAE:
		h := autograd.ReLU(t, autograd.SpMM(t, in.Adj, autograd.SpMM(t, in.Features, m.W1)))
		h = autograd.Dropout(t, h, p, dropRNG)
		mu := autograd.SpMM(t, in.Adj, autograd.MatMul(t, h, m.W2))
		if m.Config.Kind == GAE {
			return forward{Z: mu}
		}
		logStd := autograd.SpMM(t, in.Adj, autograd.MatMul(t, h, m.WLogStd))
		if t == nil {
			return forward{Z: mu, Mu: mu, LogStd: logStd}
		}
		noise := make([]float32, mu.Rows*mu.Cols)
		detmath.Normals(noise, noiseRNG)
		eps := autograd.Const(mu.Rows, mu.Cols, noise)
		z := autograd.Add(t, mu, autograd.Mul(t, autograd.Exp(t, logStd), eps))
		return forward{Z: z, Mu: mu, LogStd: logStd}
	}
	l1 := m.Layer1
	heads := make([]*autograd.Var, len(l1.W))
	for k := range l1.W {
		heads[k], _ = attend(t, in, autograd.SpMM(t, in.Features, l1.W[k]), l1.ADst[k], l1.ASrc[k], p, dropRNG)
	}
	h := autograd.ELU(t, autograd.AddBias(t, autograd.ConcatColsAll(t, heads), l1.Bias))
	h = autograd.Dropout(t, h, p, dropRNG)
	l2 := m.Layer2
	var z *autograd.Var
	alpha := make([]*autograd.Var, len(l2.W))
	for k := range l2.W {
		var o *autograd.Var
		o, alpha[k] = attend(t, in, autograd.MatMul(t, h, l2.W[k]), l2.ADst[k], l2.ASrc[k], p, dropRNG)
		if z == nil {
			z = o
		} else {
			z = autograd.Add(t, z, o)
		}
	}
	if len(l2.W) > 1 {
		z = autograd.Scale(t, z, 1/float32(len(l2.W)))
	}
	return forward{Z: autograd.AddBias(t, z, l2.Bias), Alpha: alpha}
}

// attend is one attention head on projected features wh (N×F):
//
//	e_ic = LeakyReLU_0.2(aDst·wh_i + aSrc·wh_c),  c ∈ N(i) ∪ {i}
//	α_i· = softmax over c of e_ic
//	out_i = Σ_c α_ic wh_c
//
// It returns out and α (E×1, before dropout). Dropout p applies to α in
// training, as the GAT paper does.
func attend(t *autograd.Tape, in *Inputs, wh, aDst, aSrc *autograd.Var, p float32, rng *rand.Rand) (out, alpha *autograd.Var) {
	sd := autograd.MatMul(t, wh, aDst) // N×1
	ss := autograd.MatMul(t, wh, aSrc) // N×1
	e := autograd.Add(t, autograd.GatherRows(t, sd, in.Dst), autograd.GatherRows(t, ss, in.Src))
	alpha = autograd.SegmentSoftmax(t, autograd.LeakyReLU(t, e, 0.2), in.Offsets)
	a := autograd.Dropout(t, alpha, p, rng)
	return autograd.SegmentGatherSum(t, a, wh, in.Src, in.Offsets), alpha
}

// Embed returns the evaluation-mode embeddings Z of g's nodes (N×Out; for
// VGAE z = μ), message passing on g. It panics if g's feature dimension is
// not the model's.
func (m *Model) Embed(g *graph.Graph) *autograd.Var {
	return m.EmbedInputs(Prepare(g, m.Config))
}

// EmbedInputs is Embed on prepared inputs.
func (m *Model) EmbedInputs(in *Inputs) *autograd.Var {
	return m.encode(nil, in, 0, nil, nil).Z
}

// Logits returns the decoder's logit z_i·z_j for each pair, with the
// evaluation-mode embeddings of g (Embed). The link probability is its
// sigmoid.
func (m *Model) Logits(g *graph.Graph, pairs []graph.Edge) []float32 {
	return logits(m.Embed(g), pairs)
}

func logits(z *autograd.Var, pairs []graph.Edge) []float32 {
	ia, ib := endpoints(pairs)
	return autograd.GatherDot(nil, z, z, ia, ib).Value
}

func endpoints(pairs []graph.Edge) (ia, ib []int32) {
	ia, ib = make([]int32, len(pairs)), make([]int32, len(pairs))
	for k, e := range pairs {
		ia[k], ib[k] = e.U, e.V
	}
	return ia, ib
}

// loss records the training objective on pairs with labels (1 link, 0 not):
// the mean binary cross-entropy of σ(z_i·z_j), plus for VGAE KL/N with
//
//	KL = -½ · (1/N) Σ_i Σ_d (1 + 2 log σ_id - μ_id² - σ_id²)
//
// as the reference VGAE implementation weights it. It returns the total,
// its two terms (kl is nil except for VGAE) and the embeddings the pairs
// were scored with.
func (m *Model) loss(t *autograd.Tape, in *Inputs, ia, ib []int32, labels []float32, p float32, dropRNG, noiseRNG *rand.Rand) (total, bce, kl, z *autograd.Var) {
	f := m.encode(t, in, p, dropRNG, noiseRNG)
	bce = autograd.BCEWithLogits(t, autograd.GatherDot(t, f.Z, f.Z, ia, ib), labels)
	if m.Config.Kind != VGAE {
		return bce, bce, nil, f.Z
	}
	twoLog := autograd.Scale(t, f.LogStd, 2)
	terms := autograd.AddScalar(t, autograd.Sub(t, autograd.Sub(t, twoLog, autograd.Square(t, f.Mu)), autograd.Exp(t, twoLog)), 1)
	n := float64(f.Mu.Rows)
	kl = autograd.Scale(t, autograd.Sum(t, terms), float32(-0.5/(n*n)))
	return autograd.Add(t, bce, kl), bce, kl, f.Z
}
