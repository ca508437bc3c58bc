// Package conpi is CONPI (Wang, Zong & Sun, "Modeling Context Pair
// Interaction for Pairwise Tasks on Graphs", WSDM 2021) as a
// self-explaining link predictor: a pair is scored from how the contexts of
// its two ends interact, and the interaction weights say which neighbours
// mattered.
//
// Our rendering:
//
//   - Node encoder: h_v = W2ᵀ dropout(ReLU(W1ᵀ x_v + b1)) + b2, from the
//     sparse features alone. The graph enters only through the context
//     sets, so the interaction weights are the complete account of which
//     neighbours matter, and deleting an edge changes a score exactly by
//     dropping a neighbour from a context set (Model.LogitWithout).
//   - Context sets: C(u | v) = {u} ∪ (N(u) \ {v}) in the message-passing
//     graph. v is always excluded, so a training link never sees itself.
//     When N(u) \ {v} has more than MaxContext nodes, MaxContext of them
//     are drawn by a generator seeded from (seed, min(u,v), max(u,v), u):
//     the choice depends on the pair only, never on the batch, and
//     training and evaluation use the same rule.
//   - Interaction: every a ∈ C(u|v), b ∈ C(v|u) scores
//     s_ab = (h_a W_q)·(h_b W_q)/√d_q with one shared W_q (so the model is
//     symmetric in u and v); α is the softmax of s over all |C(u)|·|C(v)|
//     pairs and r = Σ α_ab h_a ⊙ h_b, computed as Σ_a h_a ⊙ (Σ_b α_ab h_b)
//     so that no |C(u)|·|C(v)|×d matrix is ever built.
//   - Predictor: [r ‖ h_u ⊙ h_v] (the direct term when Config.Direct)
//     through an MLP with one ReLU hidden layer (dropout) to a logit.
//
// A pair is always computed in the orientation (min, max), so the logit of
// (u, v) equals that of (v, u) bit for bit. Training runs through
// pairfit.Run.
//
// Explanations: the mass of a context node a of u is Σ_b α_ab, its share
// of the interaction; masses of each side sum to 1. Model.Ranker ranks a
// node's neighbours by it, Model.Explain lists the masses and the top
// interacting pairs.
package conpi

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"ilpgnn/core/autograd"
	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Random streams drawn from the run's seed (ASCII "cnp" and a digit),
// distinct from pairfit's and split's.
const (
	streamInit    uint64 = 0x636e70_31
	streamContext uint64 = 0x636e70_32
)

// Model is CONPI's configuration and weights, bound to its message-passing
// graph. Build one with New.
type Model struct {
	Config Config

	// Encoder h = (ReLU(x W1 + B1)) W2 + B2; query projection WQ;
	// predictor logit = ReLU(z P1 + C1) P2 + C2.
	W1, B1, W2, B2 *autograd.Var
	WQ             *autograd.Var
	P1, C1, P2, C2 *autograd.Var

	g *graph.Graph
	x *f32.CSR // the features the encoder reads (row-normalised when configured)
}

// New returns a model on the message-passing graph g with Glorot-uniform
// weights (zero biases) drawn from cfg.Fit.Seed.
func New(g *graph.Graph, cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if g == nil || g.Features == nil {
		return nil, fmt.Errorf("conpi: no graph or no features")
	}
	m := &Model{Config: cfg, g: g, x: g.Features}
	if cfg.NormalizeFeatures {
		m.x = g.Features.NormalizeRows()
	}
	rng := rand.New(rand.NewPCG(cfg.Fit.Seed, streamInit))
	in := cfg.Dim
	if cfg.Direct {
		in = 2 * cfg.Dim
	}
	m.W1, m.B1 = autograd.NewGlorot(g.FeatureDim(), cfg.Hidden, rng), autograd.NewParam(1, cfg.Hidden)
	m.W2, m.B2 = autograd.NewGlorot(cfg.Hidden, cfg.Dim, rng), autograd.NewParam(1, cfg.Dim)
	m.WQ = autograd.NewGlorot(cfg.Dim, cfg.QueryDim, rng)
	m.P1, m.C1 = autograd.NewGlorot(in, cfg.PredHidden, rng), autograd.NewParam(1, cfg.PredHidden)
	m.P2, m.C2 = autograd.NewGlorot(cfg.PredHidden, 1, rng), autograd.NewParam(1, 1)
	return m, nil
}

// Graph returns the message-passing graph the model reads contexts from.
func (m *Model) Graph() *graph.Graph { return m.g }

// On returns the model with its weights shared, reading contexts and
// features from g instead: a model trained on a split's training graph
// explains pairs of the whole graph this way. g must have the features
// the weights expect.
func (m *Model) On(g *graph.Graph) (*Model, error) {
	if g == nil || g.Features == nil || g.FeatureDim() != m.g.FeatureDim() {
		return nil, fmt.Errorf("conpi: the model reads %d features; the graph has none or another number", m.g.FeatureDim())
	}
	o := *m
	o.g, o.x = g, g.Features
	if m.Config.NormalizeFeatures {
		o.x = g.Features.NormalizeRows()
	}
	return &o, nil
}

// Params returns the trainable weights in a fixed order.
func (m *Model) Params() []*autograd.Var {
	return []*autograd.Var{m.W1, m.B1, m.W2, m.B2, m.WQ, m.P1, m.C1, m.P2, m.C2}
}

// mix is splitmix64's finaliser: it spreads the pair and end into a PCG
// stream so that nearby pairs draw unrelated samples.
func mix(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	return z ^ z>>31
}

// context appends C(u | v) to dst: u, then the nodes of nb (u's
// neighbours, ascending) other than v, subsampled to MaxContext by the
// pair's own generator when there are more; the kept nodes stay
// ascending.
func (m *Model) context(dst []int32, nb []int32, u, v int32) []int32 {
	dst = append(dst, u)
	start := len(dst)
	for _, c := range nb {
		if c != v && c != u {
			dst = append(dst, c)
		}
	}
	cand := dst[start:]
	if k := m.Config.MaxContext; len(cand) > k {
		lo, hi := min(u, v), max(u, v)
		key := mix(streamContext ^ mix(uint64(uint32(lo))<<32|uint64(uint32(hi))) ^ mix(uint64(uint32(u))+0x9e3779b97f4a7c15))
		rng := rand.New(rand.NewPCG(m.Config.Fit.Seed, key))
		for i := range k { // partial Fisher-Yates: cand[:k] is a uniform k-subset
			r := i + rng.IntN(len(cand)-i)
			cand[i], cand[r] = cand[r], cand[i]
		}
		slices.Sort(cand[:k])
		dst = dst[:start+k]
	}
	return dst
}

// layout is the index lists of one batch of pairs, each in the orientation
// (min, max) = (u, v). Rows index the encoded nodes Nodes.
type layout struct {
	Nodes []int32 // the nodes to encode, in order of first use
	U, V  []int32 // rows of each pair's ends
	// CtxU holds the rows of C(u|v) for every pair, pair p's in
	// CtxU[CtxOff[p]:CtxOff[p+1]] (u first); likewise CtxV for C(v|u).
	CtxU, CtxV      []int32
	CtxOff, CtxVOff []int32
	// The interactions (a, b), a over C(u|v) outer, b over C(v|u) inner:
	// IA, IB their rows; PairOff[p] the first of pair p, RowOff[r] the
	// first of context row r = CtxU index.
	IA, IB          []int32
	PairOff, RowOff []int32
}

// neighbors gives the neighbour list of a node (the model's graph, or one
// with edges removed).
type neighbors func(u int32) []int32

// buildLayout lays out pairs. With all set, every node of the graph is a
// row (row = node), for scoring against one encoding of the whole graph.
func (m *Model) buildLayout(pairs []graph.Edge, nb neighbors, all bool) *layout {
	l := &layout{CtxOff: []int32{0}, CtxVOff: []int32{0}, PairOff: []int32{0}, RowOff: []int32{0}}
	var rowOf map[int32]int32
	if !all {
		rowOf = make(map[int32]int32)
	}
	row := func(n int32) int32 {
		if all {
			return n
		}
		r, ok := rowOf[n]
		if !ok {
			r = int32(len(l.Nodes))
			rowOf[n] = r
			l.Nodes = append(l.Nodes, n)
		}
		return r
	}
	var cu, cv []int32
	for _, e := range pairs {
		u, v := min(e.U, e.V), max(e.U, e.V)
		cu = m.context(cu[:0], nb(u), u, v)
		cv = m.context(cv[:0], nb(v), v, u)
		l.U, l.V = append(l.U, row(u)), append(l.V, row(v))
		v0 := len(l.CtxV)
		for _, b := range cv {
			l.CtxV = append(l.CtxV, row(b))
		}
		for _, a := range cu {
			ra := row(a)
			l.CtxU = append(l.CtxU, ra)
			for _, rb := range l.CtxV[v0:] {
				l.IA, l.IB = append(l.IA, ra), append(l.IB, rb)
			}
			l.RowOff = append(l.RowOff, int32(len(l.IA)))
		}
		l.CtxOff = append(l.CtxOff, int32(len(l.CtxU)))
		l.CtxVOff = append(l.CtxVOff, int32(len(l.CtxV)))
		l.PairOff = append(l.PairOff, int32(len(l.IA)))
	}
	return l
}

// encode returns h for the given nodes (nil: every node, row = node), in
// training mode when t is non-nil and dropout is positive.
func (m *Model) encode(t *autograd.Tape, nodes []int32, rng *rand.Rand) *autograd.Var {
	x := m.x
	if nodes != nil {
		x = rowsOf(m.x, nodes)
	}
	h := autograd.ReLU(t, autograd.AddBias(t, autograd.SpMM(t, autograd.NewSparse(x), m.W1), m.B1))
	if t != nil {
		h = autograd.Dropout(t, h, float32(m.Config.Dropout), rng)
	}
	return autograd.AddBias(t, autograd.MatMul(t, h, m.W2), m.B2)
}

// rowsOf returns the rows of x named by nodes, in that order.
func rowsOf(x *f32.CSR, nodes []int32) *f32.CSR {
	out := &f32.CSR{Rows: len(nodes), Cols: x.Cols, Indptr: make([]int32, 1, len(nodes)+1)}
	for _, n := range nodes {
		idx, val := x.Row(int(n))
		out.Indices = append(out.Indices, idx...)
		out.Values = append(out.Values, val...)
		out.Indptr = append(out.Indptr, int32(len(out.Indices)))
	}
	return out
}

// forwardOut is what a forward pass leaves for explanations.
type forwardOut struct {
	Logits *autograd.Var // P×1
	Alpha  *autograd.Var // interaction weights, laid out as layout.IA/IB
	Z      *autograd.Var // the predictor's input, P×Dim (×2 with Direct)
}

// forward scores the pairs of l from their encodings h.
func (m *Model) forward(t *autograd.Tape, h *autograd.Var, l *layout, rng *rand.Rand) forwardOut {
	q := autograd.MatMul(t, h, m.WQ)
	s := autograd.Scale(t, autograd.GatherDot(t, q, q, l.IA, l.IB), float32(1/math.Sqrt(float64(m.Config.QueryDim))))
	alpha := autograd.SegmentSoftmax(t, s, l.PairOff)
	// r = Σ_a h_a ⊙ (Σ_b α_ab h_b): first the inner sum per context row a.
	inner := autograd.SegmentGatherSum(t, alpha, h, l.IB, l.RowOff)
	prod := autograd.Mul(t, autograd.GatherRows(t, h, l.CtxU), inner)
	ones := make([]float32, len(l.CtxU))
	for k := range ones {
		ones[k] = 1
	}
	r := autograd.SegmentWeightedSum(t, autograd.Const(len(ones), 1, ones), prod, l.CtxOff)
	z := r
	if m.Config.Direct {
		z = autograd.ConcatCols(t, r, autograd.Mul(t, autograd.GatherRows(t, h, l.U), autograd.GatherRows(t, h, l.V)))
	}
	hid := autograd.ReLU(t, autograd.AddBias(t, autograd.MatMul(t, z, m.P1), m.C1))
	if t != nil {
		hid = autograd.Dropout(t, hid, float32(m.Config.Dropout), rng)
	}
	return forwardOut{Logits: autograd.AddBias(t, autograd.MatMul(t, hid, m.P2), m.C2), Alpha: alpha, Z: z}
}

// graphNeighbors reads contexts from the model's graph.
func (m *Model) graphNeighbors(u int32) []int32 { return m.g.Neighbors(int(u)) }

// Loss records on t the mean binary cross-entropy of the logits of pairs
// against labels, in training mode (dropout from rng). Only the nodes the
// batch's contexts touch are encoded.
func (m *Model) Loss(t *autograd.Tape, pairs []graph.Edge, labels []float32, rng *rand.Rand) *autograd.Var {
	if len(labels) != len(pairs) {
		panic(fmt.Sprintf("conpi: Loss: %d labels for %d pairs", len(labels), len(pairs)))
	}
	l := m.buildLayout(pairs, m.graphNeighbors, false)
	h := m.encode(t, l.Nodes, rng)
	return autograd.BCEWithLogits(t, m.forward(t, h, l, rng).Logits, labels)
}

// logitChunk is the number of pairs Logits scores per task.
const logitChunk = 256

// Logits returns the evaluation-mode logit of each pair: the whole graph
// is encoded once, then the pairs are scored in parallel chunks. Every
// pair's arithmetic is its own (row-wise kernels, per-pair segments), so
// the result does not depend on grouping or order.
func (m *Model) Logits(pairs []graph.Edge) []float32 {
	h := m.encode(nil, nil, nil)
	return pairfit.InChunks(pairs, logitChunk, func(ps []graph.Edge) []float32 {
		return m.forward(nil, h, m.buildLayout(ps, m.graphNeighbors, true), nil).Logits.Value
	})
}
