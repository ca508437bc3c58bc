// Package walkpool is the WalkPooling link predictor (Pan, Shi & Dokmanić,
// "Neural Link Prediction with Walk Pooling", ICLR 2022) as a baseline of
// ILP-GNN: each candidate pair (x, y) is classified from random-walk
// statistics of its enclosing subgraph, whose transition probabilities are
// learned by attention on GCN node representations.
//
// Per pair: the h-hop enclosing subgraph of the training graph
// (subgraph.ExtractBatch; the target link is never inside), G− as
// extracted and G+ with x–y added. Node inputs are the one-hot DRNL label
// (capped at MaxLabel) beside the node's sparse features; a GCN on G−
// (self-loops, symmetric or row normalisation) gives Z, shared by G+ and
// G−. Per head, Q = MLP_Q(Z), K = MLP_K(Z) and every directed edge (i, j)
// scores w_ij = Q_i·K_j/√d; P± is the softmax of the scores over each
// node's neighbours in G±. The walk profile reads, for τ = 2..τc, the
// node-level (P^τ)_xx + (P^τ)_yy and link-level (P^τ)_xy + (P^τ)_yx values
// of both G+ and G− and the difference of the traces tr(P+^τ) − tr(P−^τ)
// (WalkPooling's perturbation), plus (P+)_xy + (P+)_yx; an MLP on the
// profiles of all heads gives the logit — by default together with
// Z_x ⊙ Z_y (Config.PairProduct, not in the paper; it adds ~4.5 points of
// validation AUC on Cora). The profile is one hand-written
// autograd op (walkProfile), dense n×n per subgraph and run in parallel
// over subgraphs, so MaxPerHop keeps its cost down.
//
// Training is pairfit.Run's: mini-batches of pairs, the negatives ILP-GNN
// uses, Adam, early stopping on validation AUC.
//
// DefaultConfig was chosen on Cora's validation AUC; its documentation
// records the measurements.
package walkpool

import (
	"fmt"
	"math"
	"math/rand/v2"

	"ilpgnn/core/autograd"
	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/baselines/subgraph"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Random streams of the package (ASCII "wp" and a digit), distinct from
// pairfit's and split's.
const (
	streamInit    uint64 = 0x7770_31
	streamExtract uint64 = 0x7770_32
)

// mlp2 is Linear–ReLU–Linear. B2 is nil when the output bias would be
// inert: a bias b on the keys adds Q_i·b to every score of row i, which
// the row's softmax cancels, so the key MLP has none.
type mlp2 struct{ W1, B1, W2, B2 *autograd.Var }

func newMLP2(in, hidden, out int, outBias bool, rng *rand.Rand) *mlp2 {
	m := &mlp2{W1: autograd.NewParam(in, hidden), B1: autograd.NewParam(1, hidden),
		W2: autograd.NewParam(hidden, out)}
	if outBias {
		m.B2 = autograd.NewParam(1, out)
	}
	autograd.Glorot(m.W1, rng)
	autograd.Glorot(m.W2, rng)
	return m
}

func (m *mlp2) params() []*autograd.Var {
	if m.B2 == nil {
		return []*autograd.Var{m.W1, m.B1, m.W2}
	}
	return []*autograd.Var{m.W1, m.B1, m.W2, m.B2}
}

func (m *mlp2) apply(t *autograd.Tape, x *autograd.Var, act activation) *autograd.Var {
	h := act(t, autograd.AddBias(t, autograd.MatMul(t, x, m.W1), m.B1))
	out := autograd.MatMul(t, h, m.W2)
	if m.B2 != nil {
		out = autograd.AddBias(t, out, m.B2)
	}
	return out
}

// Model is WalkPooling bound to its message-passing graph. Build one with
// New.
type Model struct {
	Config Config

	g       *graph.Graph
	inDim   int    // MaxLabel+1 label columns, then the features
	zDim    int    // width of Z
	extract uint64 // seed of the per-pair node sampling (MaxPerHop)

	// GCN layer l: H_l = act(Â H_{l−1} W[l] + B[l]).
	W, B []*autograd.Var
	// Query and key MLPs, one pair per head.
	Q, K []*mlp2
	// Classifier: Linear–ReLU–dropout–Linear to one logit.
	C1, CB1, C2, CB2 *autograd.Var

	// hiddenAct is the activation of the MLPs' hidden layers: ReLU; the
	// gradient test swaps in a smooth one, so that finite differences
	// meet no kinks.
	hiddenAct activation
}

// activation is an elementwise op of package autograd.
type activation func(*autograd.Tape, *autograd.Var) *autograd.Var

// New returns a model on g (the message-passing graph, sp.Train) with
// Glorot-uniform weights (zero biases) drawn from cfg.Fit.Seed.
func New(g *graph.Graph, cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Fit.Seed, streamInit))
	m := &Model{Config: cfg, g: g, inDim: cfg.MaxLabel + 1 + g.FeatureDim(),
		extract: cfg.Fit.Seed ^ streamExtract<<32, hiddenAct: autograd.ReLU}
	in := m.inDim
	for range cfg.Layers {
		w := autograd.NewParam(in, cfg.Hidden)
		autograd.Glorot(w, rng)
		m.W, m.B = append(m.W, w), append(m.B, autograd.NewParam(1, cfg.Hidden))
		in = cfg.Hidden
	}
	m.zDim = cfg.Hidden
	if cfg.ConcatLayers {
		m.zDim = cfg.Hidden * cfg.Layers
	}
	for range cfg.Heads {
		m.Q = append(m.Q, newMLP2(m.zDim, cfg.AttnDim, cfg.AttnDim, true, rng))
		m.K = append(m.K, newMLP2(m.zDim, cfg.AttnDim, cfg.AttnDim, false, rng))
	}
	fin := cfg.Heads * profileWidth(cfg.WalkLen)
	if cfg.PairProduct {
		fin += m.zDim
	}
	m.C1, m.CB1 = autograd.NewParam(fin, cfg.MLPHidden), autograd.NewParam(1, cfg.MLPHidden)
	m.C2, m.CB2 = autograd.NewParam(cfg.MLPHidden, 1), autograd.NewParam(1, 1)
	autograd.Glorot(m.C1, rng)
	autograd.Glorot(m.C2, rng)
	return m, nil
}

// Params returns the trainable weights: GCN, then per head Q and K, then
// the classifier.
func (m *Model) Params() []*autograd.Var {
	var ps []*autograd.Var
	for l := range m.W {
		ps = append(ps, m.W[l], m.B[l])
	}
	for h := range m.Q {
		ps = append(ps, m.Q[h].params()...)
		ps = append(ps, m.K[h].params()...)
	}
	return append(ps, m.C1, m.CB1, m.C2, m.CB2)
}

// Loss returns the mean binary cross-entropy of the pairs' logits against
// labels, with dropout drawn from rng.
func (m *Model) Loss(t *autograd.Tape, pairs []graph.Edge, labels []float32, rng *rand.Rand) *autograd.Var {
	return autograd.BCEWithLogits(t, m.forward(t, pairs, rng), labels)
}

// logitChunk is the number of pairs Logits scores per forward pass.
const logitChunk = 64

// Logits returns the evaluation-mode logit of every pair, chunks of pairs
// in parallel. A pair's logit depends only on the pair (its subgraph's
// node sampling is seeded by the pair), not on the chunk it is in.
func (m *Model) Logits(pairs []graph.Edge) []float32 {
	return pairfit.InChunks(pairs, logitChunk, func(p []graph.Edge) []float32 {
		return m.forward(nil, p, nil).Value
	})
}

// inputs is one batch's subgraphs in the form the forward pass reads.
type inputs struct {
	x, adj   *autograd.Sparse // node inputs N×inDim; normalised Â of G− with self-loops
	wg       *walkGraphs
	src, dst []int32 // batch node of each G+ entry's ends, in wg's order
	xs, ys   []int32 // batch node of each pair's x and y
}

// prepare extracts the pairs' subgraphs and builds the sparse inputs. A
// pair outside the graph or a self-pair is a caller bug and panics.
func (m *Model) prepare(pairs []graph.Edge) *inputs {
	c := m.Config
	b, err := subgraph.ExtractBatch(m.g, pairs, subgraph.Options{Hops: c.Hops, MaxPerHop: c.MaxPerHop}, m.extract)
	if err != nil {
		panic(fmt.Sprintf("walkpool: %v", err))
	}
	N := len(b.Nodes)
	feats := m.g.Features
	x := &f32.CSR{Rows: N, Cols: m.inDim, Indptr: make([]int32, 1, N+1)}
	for r, v := range b.Nodes {
		x.Indices = append(x.Indices, int32(min(int(b.Labels[r]), c.MaxLabel)))
		x.Values = append(x.Values, 1)
		cols, vals := feats.Row(int(v))
		for k, col := range cols {
			x.Indices = append(x.Indices, int32(c.MaxLabel+1)+col)
			x.Values = append(x.Values, vals[k])
		}
		x.Indptr = append(x.Indptr, int32(len(x.Indices)))
	}

	sizes := make([]int, b.Len())
	edges := make([][][2]int32, b.Len())
	in := &inputs{x: autograd.NewSparse(x)}
	for k := range sizes {
		lo := b.Offsets[k]
		sizes[k] = int(b.Offsets[k+1] - lo)
		for _, e := range b.Edges[b.EdgeOffsets[k]:b.EdgeOffsets[k+1]] {
			edges[k] = append(edges[k], [2]int32{e.U - lo, e.V - lo})
		}
		in.xs, in.ys = append(in.xs, lo), append(in.ys, lo+1)
	}
	wg := newWalkGraphs(sizes, edges)
	in.wg = wg
	in.src, in.dst = make([]int32, wg.E()), make([]int32, wg.E())
	for k := range sizes {
		n, rowPtr, col, _, _ := wg.sub(k)
		base, lo := int(wg.EdgeOff[k]), b.Offsets[k]
		for i := range n {
			for e := rowPtr[i]; e < rowPtr[i+1]; e++ {
				in.src[base+int(e)], in.dst[base+int(e)] = lo+int32(i), lo+col[e]
			}
		}
	}
	in.adj = autograd.NewSparse(m.adjacency(N, wg, b.Offsets))
	return in
}

// adjacency returns the batch's block-diagonal GCN matrix: G−'s edges (the
// walk pattern without its target entries) plus self-loops, normalised.
func (m *Model) adjacency(N int, wg *walkGraphs, offsets []int32) *f32.CSR {
	deg := make([]float64, N)
	for k := range wg.Len() {
		n, rowPtr, _, _, _ := wg.sub(k)
		for i := range n {
			deg[int(offsets[k])+i] = float64(rowPtr[i+1]-rowPtr[i]) + 1 // self-loop; target counted below
		}
		deg[offsets[k]]--
		deg[offsets[k]+1]--
	}
	a := &f32.CSR{Rows: N, Cols: N, Indptr: make([]int32, 1, N+1)}
	weight := func(i, j int) float32 {
		if m.Config.Norm == "row" {
			return float32(1 / deg[i])
		}
		return float32(1 / math.Sqrt(deg[i]*deg[j]))
	}
	row := make([]int32, 0, 16)
	for k := range wg.Len() {
		n, rowPtr, col, tx, ty := wg.sub(k)
		lo := int(offsets[k])
		for i := range n {
			row = append(row[:0], int32(i))
			for e := rowPtr[i]; e < rowPtr[i+1]; e++ {
				if e != tx && e != ty {
					row = append(row, col[e])
				}
			}
			sortInt32(row)
			for _, j := range row {
				a.Indices = append(a.Indices, int32(lo)+j)
				a.Values = append(a.Values, weight(lo+i, lo+int(j)))
			}
			a.Indptr = append(a.Indptr, int32(len(a.Indices)))
		}
	}
	return a
}

// sortInt32 sorts a short slice in place (insertion sort: rows are small).
func sortInt32(s []int32) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// forward returns the B×1 logits of pairs; t == nil is evaluation mode
// (no dropout, rng unused).
func (m *Model) forward(t *autograd.Tape, pairs []graph.Edge, rng *rand.Rand) *autograd.Var {
	return m.logitsOf(t, m.prepare(pairs), rng)
}

// nodeRep returns Z: the GCN on the batch's G− blocks.
func (m *Model) nodeRep(t *autograd.Tape, in *inputs) *autograd.Var {
	var layers []*autograd.Var
	var h *autograd.Var
	for l := range m.W {
		var xw *autograd.Var
		if l == 0 {
			xw = autograd.SpMM(t, in.x, m.W[0])
		} else {
			xw = autograd.MatMul(t, h, m.W[l])
		}
		h = autograd.AddBias(t, autograd.SpMM(t, in.adj, xw), m.B[l])
		if m.Config.Activation == "tanh" {
			h = autograd.Tanh(t, h)
		} else {
			h = autograd.ReLU(t, h)
		}
		layers = append(layers, h)
	}
	if m.Config.ConcatLayers && len(layers) > 1 {
		return autograd.ConcatColsAll(t, layers)
	}
	return h
}

// scores returns the (heads·E)×1 column of attention scores Q_i·K_j/√d on
// every G+ entry (i, j), head by head.
func (m *Model) scores(t *autograd.Tape, z *autograd.Var, in *inputs) *autograd.Var {
	var w *autograd.Var
	scale := float32(1 / math.Sqrt(float64(m.Config.AttnDim)))
	for h := range m.Q {
		q, k := m.Q[h].apply(t, z, m.hiddenAct), m.K[h].apply(t, z, m.hiddenAct)
		s := autograd.Scale(t, autograd.GatherDot(t, q, k, in.src, in.dst), scale)
		if w == nil {
			w = s
		} else {
			w = autograd.ConcatRows(t, w, s)
		}
	}
	return w
}

// logitsOf runs the model on prepared inputs.
func (m *Model) logitsOf(t *autograd.Tape, in *inputs, rng *rand.Rand) *autograd.Var {
	c := m.Config
	z := m.nodeRep(t, in)
	feats := walkProfile(t, m.scores(t, z, in), in.wg, c.Heads, c.WalkLen)
	if c.PairProduct {
		zz := autograd.Mul(t, autograd.GatherRows(t, z, in.xs), autograd.GatherRows(t, z, in.ys))
		feats = autograd.ConcatCols(t, feats, zz)
	}
	h := m.hiddenAct(t, autograd.AddBias(t, autograd.MatMul(t, feats, m.C1), m.CB1))
	if t != nil {
		h = autograd.Dropout(t, h, float32(c.Dropout), rng)
	}
	return autograd.AddBias(t, autograd.MatMul(t, h, m.C2), m.CB2)
}

// glorot fills w (fan-in×fan-out) uniformly in ±√(6/(in+out)).
