// Package seal is the SEAL link predictor (Zhang & Chen, "Link Prediction
// Based on Graph Neural Networks", NeurIPS 2018), a baseline of the
// ILP-GNN paper: each candidate pair (x, y) is scored from its own h-hop
// enclosing subgraph (package subgraph; the link itself is never in it),
// whose nodes carry a one-hot of their double-radius label (DRNL) beside
// their features, by a DGCNN (Zhang et al., AAAI 2018): graph
// convolutions, SortPooling to a fixed k nodes, two 1-D convolutions and a
// dense layer.
//
// A batch of pairs is one block-diagonal graph (subgraph.ExtractBatch's
// layout), so every step costs in proportion to the batch's subgraph
// nodes, never to the whole graph. The node input stays sparse: one CSR of
// label one-hots and feature columns times the first weight matrix.
//
// Training goes through pairfit.Run. Every random draw comes from a PCG
// stream of the run's seed, and tanh and the loss's exponentials from
// detmath, so a seed gives the same weights natively and in WebAssembly.
package seal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"ilpgnn/core/autograd"
	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/baselines/subgraph"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Random streams drawn from the run's seed, one per use (ASCII "seal" and
// a digit), distinct from pairfit's and split's.
const (
	streamInit    uint64 = 0x7365616c_31
	streamK       uint64 = 0x7365616c_32
	streamExtract uint64 = 0x7365616c_33
)

// kSample is the number of training links (and as many random pairs) whose
// subgraph sizes choose k when Config.K is 0.
const kSample = 1000

// scoreChunk is the number of pairs Logits scores as one batch.
const scoreChunk = 64

// Model is SEAL's DGCNN bound to its message-passing graph. Build one with
// New.
type Model struct {
	Config Config
	// K is the number of nodes SortPooling keeps per subgraph: Config.K,
	// or the one chosen from the training graph.
	K int
	// FeatureDim is the node feature dimension the weights expect (0
	// without UseFeatures); the input has MaxLabel+1 label columns before
	// it.
	FeatureDim int

	// Graph convolutions H' = tanh(D̃⁻¹ Ã H W + b), Layers of width Hidden
	// and one of width 1.
	GraphW, GraphB []*autograd.Var
	// Conv1W (d×Conv1, d = Hidden·Layers+1) is the first 1-D convolution,
	// kernel and stride one node's row; Conv2W (Kernel2·Conv1 × Conv2) the
	// second, over Kernel2 consecutive pooled positions.
	Conv1W, Conv1B, Conv2W, Conv2B *autograd.Var
	// DenseW ((K/2−Kernel2+1)·Conv2 × Dense) and OutW (Dense × 1).
	DenseW, DenseB, OutW, OutB *autograd.Var

	graph       *graph.Graph
	features    *f32.CSR // g.Features, row-normalised when configured
	extractSeed uint64   // the seed of every pair's MaxPerHop sampling

	// pinOrder makes forward reuse the SortPooling order of its first
	// call (kept in pinned): the gradient check's seam, so that its
	// steps do not reorder near-tied nodes, the one place the model is
	// not differentiable. Never set outside tests.
	pinOrder bool
	pinned   []int32
}

// New returns a model for message passing on g (a split's training graph)
// with Glorot-uniform weights and zero biases drawn from cfg.Fit.Seed.
// When cfg.K is 0 it extracts the subgraphs of a sample of g's links and
// of random pairs to choose k.
func New(g *graph.Graph, cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if g.NumNodes() < 2 {
		return nil, fmt.Errorf("seal: graph has %d nodes, need at least 2", g.NumNodes())
	}
	m := &Model{Config: cfg, K: cfg.K, FeatureDim: g.FeatureDim(), graph: g, features: g.Features}
	switch {
	case !cfg.UseFeatures:
		m.FeatureDim = 0
		m.features = &f32.CSR{Rows: g.NumNodes(), Indptr: make([]int32, g.NumNodes()+1)}
	case cfg.NormalizeFeatures:
		m.features = g.Features.NormalizeRows()
	}
	m.extractSeed = rand.New(rand.NewPCG(cfg.Fit.Seed, streamExtract)).Uint64()
	if m.K == 0 {
		sizes, err := m.sampleSizes(rand.New(rand.NewPCG(cfg.Fit.Seed, streamK)))
		if err != nil {
			return nil, err
		}
		m.K = ChooseK(sizes)
	}

	rng := rand.New(rand.NewPCG(cfg.Fit.Seed, streamInit))
	in := cfg.MaxLabel + 1 + m.FeatureDim
	for l := range cfg.Layers + 1 {
		out := cfg.Hidden
		if l == cfg.Layers {
			out = 1
		}
		m.GraphW = append(m.GraphW, autograd.NewGlorot(in, out, rng))
		m.GraphB = append(m.GraphB, autograd.NewParam(1, out))
		in = out
	}
	d := cfg.Hidden*cfg.Layers + 1
	m.Conv1W, m.Conv1B = autograd.NewGlorot(d, cfg.Conv1, rng), autograd.NewParam(1, cfg.Conv1)
	m.Conv2W, m.Conv2B = autograd.NewGlorot(Kernel2*cfg.Conv1, cfg.Conv2, rng), autograd.NewParam(1, cfg.Conv2)
	m.DenseW, m.DenseB = autograd.NewGlorot(m.positions()*cfg.Conv2, cfg.Dense, rng), autograd.NewParam(1, cfg.Dense)
	m.OutW, m.OutB = autograd.NewGlorot(cfg.Dense, 1, rng), autograd.NewParam(1, 1)
	return m, nil
}

// positions is the number of outputs of the second 1-D convolution per
// subgraph: K/2 pooled positions less the kernel's overhang.
func (m *Model) positions() int { return m.K/2 - Kernel2 + 1 }

// sampleSizes returns the enclosing subgraph sizes of up to kSample links
// of m's graph and as many random pairs, SEAL's training pairs in kind.
func (m *Model) sampleSizes(rng *rand.Rand) ([]int, error) {
	g := m.graph
	edges := g.Edges()
	n := min(len(edges), kSample)
	for i := range n { // partial Fisher-Yates: a uniform sample of n links
		j := i + rng.IntN(len(edges)-i)
		edges[i], edges[j] = edges[j], edges[i]
	}
	pairs := edges[:n:n]
	for range max(n, 1) {
		u := rng.IntN(g.NumNodes())
		v := rng.IntN(g.NumNodes() - 1)
		if v >= u {
			v++
		}
		pairs = append(pairs, graph.Edge{U: int32(u), V: int32(v)})
	}
	b, err := m.extract(pairs)
	if err != nil {
		return nil, err
	}
	sizes := make([]int, b.Len())
	for k := range sizes {
		sizes[k] = int(b.Offsets[k+1] - b.Offsets[k])
	}
	return sizes, nil
}

// ChooseK returns DGCNN's SortPooling size for subgraphs of the given
// sizes: the size at the 60th percentile (the ⌈0.6·n⌉-th smallest), at
// least 10, rounded up to even so that max pooling by 2 pairs every kept
// row. It returns 10 for no sizes.
func ChooseK(sizes []int) int {
	k := minK
	if len(sizes) > 0 {
		s := slices.Sorted(slices.Values(sizes))
		k = max(k, s[int(math.Ceil(0.6*float64(len(s))))-1])
	}
	return k + k%2
}

// extract returns the enclosing subgraphs of pairs, each oriented
// (min, max) first, so that a pair scores the same either way round.
func (m *Model) extract(pairs []graph.Edge) (*subgraph.Batch, error) {
	canon := make([]graph.Edge, len(pairs))
	for k, p := range pairs {
		canon[k] = graph.Edge{U: min(p.U, p.V), V: max(p.U, p.V)}
	}
	opt := subgraph.Options{Hops: m.Config.Hops, MaxPerHop: m.Config.MaxPerHop}
	b, err := subgraph.ExtractBatch(m.graph, canon, opt, m.extractSeed)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return b, nil
}

// Params returns the trainable weights: the graph convolutions' weights and
// biases layer by layer, then the 1-D convolutions', the dense layer's and
// the output's.
func (m *Model) Params() []*autograd.Var {
	var ps []*autograd.Var
	for l := range m.GraphW {
		ps = append(ps, m.GraphW[l], m.GraphB[l])
	}
	return append(ps, m.Conv1W, m.Conv1B, m.Conv2W, m.Conv2B, m.DenseW, m.DenseB, m.OutW, m.OutB)
}

// Loss records on t the mean binary cross-entropy of the logits of pairs
// against labels, in training mode (dropout from rng). It panics on a pair
// that is not two distinct nodes of the graph, a caller bug.
func (m *Model) Loss(t *autograd.Tape, pairs []graph.Edge, labels []float32, rng *rand.Rand) *autograd.Var {
	in := m.inputs(pairs)
	return autograd.BCEWithLogits(t, m.forward(t, in, float32(m.Config.Dropout), rng), labels)
}

// Logits returns the evaluation-mode logit of each pair, scoring chunks of
// pairs in parallel; a pair's logit depends neither on the chunk it is in
// nor on its orientation. It panics on a pair that is not two distinct
// nodes of the graph.
func (m *Model) Logits(pairs []graph.Edge) []float32 {
	return pairfit.InChunks(pairs, scoreChunk, func(p []graph.Edge) []float32 {
		return m.forward(nil, m.inputs(p), 0, nil).Value
	})
}

// batchInputs is one batch's block-diagonal graph and node input.
type batchInputs struct {
	batch *subgraph.Batch
	x     *autograd.Sparse // nodes × (MaxLabel+1+FeatureDim): label one-hot, features
	adj   *autograd.Sparse // D̃⁻¹ Ã, Ã = A + I
}

// inputs extracts the subgraphs of pairs and builds their sparse matrices
// (whose transposes only a backward step computes).
func (m *Model) inputs(pairs []graph.Edge) *batchInputs {
	b, err := m.extract(pairs)
	if err != nil {
		panic(err)
	}
	x, adj := nodeInput(b, m.features, m.Config.MaxLabel), normalizedAdjacency(b, m.Config.SymmetricNorm)
	return &batchInputs{batch: b, x: autograd.NewSparse(x), adj: autograd.NewSparse(adj)}
}

// nodeInput returns the input CSR of a batch's nodes: row r has a 1 in
// column min(label, maxLabel) (DRNL label 0, unreachable, is column 0),
// then the node's feature row shifted right by maxLabel+1 columns.
func nodeInput(b *subgraph.Batch, feats *f32.CSR, maxLabel int) *f32.CSR {
	l := int32(maxLabel + 1)
	nnz := len(b.Nodes)
	for _, v := range b.Nodes {
		nnz += int(feats.Indptr[v+1] - feats.Indptr[v])
	}
	x := &f32.CSR{Rows: len(b.Nodes), Cols: int(l) + feats.Cols, Indptr: make([]int32, len(b.Nodes)+1),
		Indices: make([]int32, 0, nnz), Values: make([]float32, 0, nnz)}
	for r, v := range b.Nodes {
		x.Indices = append(x.Indices, min(b.Labels[r], int32(maxLabel)))
		x.Values = append(x.Values, 1)
		idx, val := feats.Row(int(v))
		for q, c := range idx {
			x.Indices = append(x.Indices, l+c)
			x.Values = append(x.Values, val[q])
		}
		x.Indptr[r+1] = int32(len(x.Indices))
	}
	return x
}

// normalizedAdjacency returns D̃⁻¹ Ã for Ã = A + I of the batch's
// block-diagonal graph: row r holds 1/(deg r + 1) at r and at each of its
// neighbours, DGCNN's mean over the closed neighbourhood. With sym it
// returns D̃^-1/2 Ã D̃^-1/2 instead: 1/√((deg r + 1)(deg c + 1)) at (r, c).
func normalizedAdjacency(b *subgraph.Batch, sym bool) *f32.CSR {
	n := len(b.Nodes)
	a := &f32.CSR{Rows: n, Cols: n, Indptr: make([]int32, n+1)}
	for _, e := range b.Edges {
		a.Indptr[e.U+1]++
		a.Indptr[e.V+1]++
	}
	for r := range n {
		a.Indptr[r+1] += a.Indptr[r] + 1 // + the self-loop
	}
	a.Indices = make([]int32, a.Indptr[n])
	a.Values = make([]float32, a.Indptr[n])
	next := slices.Clone(a.Indptr[:n])
	put := func(r, c int32) {
		a.Indices[next[r]] = c
		next[r]++
	}
	for r := range int32(n) {
		put(r, r)
	}
	for _, e := range b.Edges {
		put(e.U, e.V)
		put(e.V, e.U)
	}
	for r := range n {
		lo, hi := a.Indptr[r], a.Indptr[r+1]
		slices.Sort(a.Indices[lo:hi])
		for q := lo; q < hi; q++ {
			if sym {
				c := a.Indices[q]
				a.Values[q] = float32(1 / math.Sqrt(float64(hi-lo)*float64(a.Indptr[c+1]-a.Indptr[c])))
			} else {
				a.Values[q] = 1 / float32(hi-lo)
			}
		}
	}
	return a
}

// sortPoolIndex returns, for the nodes of each subgraph s (rows
// offsets[s]..offsets[s+1] of key), the k rows with the largest key in
// descending order, ties by row, followed by pad when the subgraph has
// fewer than k nodes: SortPooling as row indices.
func sortPoolIndex(key []float32, offsets []int32, k int, pad int32) []int32 {
	idx := make([]int32, 0, k*(len(offsets)-1))
	var rows []int32
	for s := 0; s+1 < len(offsets); s++ {
		rows = rows[:0]
		for r := offsets[s]; r < offsets[s+1]; r++ {
			rows = append(rows, r)
		}
		slices.SortStableFunc(rows, func(p, q int32) int {
			switch {
			case key[p] > key[q]:
				return -1
			case key[p] < key[q]:
				return 1
			}
			return 0
		})
		rows = rows[:min(len(rows), k)]
		idx = append(idx, rows...)
		for range k - len(rows) {
			idx = append(idx, pad)
		}
	}
	return idx
}

// forward returns the B×1 logits of a batch. With a nil tape it is the
// evaluation pass (no dropout); otherwise dropout p draws from rng.
func (m *Model) forward(t *autograd.Tape, in *batchInputs, p float32, rng *rand.Rand) *autograd.Var {
	if in.x.A.Cols != m.Config.MaxLabel+1+m.FeatureDim {
		panic(fmt.Sprintf("seal: model expects %d input columns, batch has %d", m.Config.MaxLabel+1+m.FeatureDim, in.x.A.Cols))
	}
	b := in.batch
	nb, n := b.Len(), len(b.Nodes)

	// Graph convolutions on the block-diagonal graph; the first reads the
	// sparse input directly.
	var h *autograd.Var
	outs := make([]*autograd.Var, 0, len(m.GraphW))
	for l, w := range m.GraphW {
		var hw *autograd.Var
		if l == 0 {
			hw = autograd.SpMM(t, in.x, w)
		} else {
			hw = autograd.MatMul(t, h, w)
		}
		h = autograd.Tanh(t, autograd.AddBias(t, autograd.SpMM(t, in.adj, hw), m.GraphB[l]))
		outs = append(outs, h)
	}
	z := autograd.ConcatColsAll(t, outs) // n × d

	// SortPooling by the last channel (no gradient through the order),
	// padding with a zero row appended at index n.
	key := h.Value
	d := z.Cols
	zp := autograd.ConcatRows(t, z, autograd.Const(1, d, make([]float32, d)))
	order := sortPoolIndex(key, b.Offsets, m.K, int32(n))
	if m.pinOrder {
		if m.pinned == nil {
			m.pinned = order
		}
		order = m.pinned
	}
	pooled := autograd.GatherRows(t, zp, order) // (nb·K) × d

	// 1-D convolution with kernel = stride = one row: a product per row.
	c1 := autograd.ReLU(t, autograd.AddBias(t, autograd.MatMul(t, pooled, m.Conv1W), m.Conv1B))
	c1 = autograd.MaxPoolRows(t, c1) // (nb·K/2) × Conv1

	// Second 1-D convolution over the K/2 positions of each subgraph, by
	// im2col: offset o's column block holds position q+o.
	half, q := m.K/2, m.positions()
	cols := make([]*autograd.Var, Kernel2)
	for o := range Kernel2 {
		idx := make([]int32, 0, nb*q)
		for s := range nb {
			for j := range q {
				idx = append(idx, int32(s*half+j+o))
			}
		}
		cols[o] = autograd.GatherRows(t, c1, idx)
	}
	c2 := autograd.MatMul(t, autograd.ConcatColsAll(t, cols), m.Conv2W)
	c2 = autograd.ReLU(t, autograd.AddBias(t, c2, m.Conv2B)) // (nb·q) × Conv2
	flat := autograd.Reshape(t, c2, nb, q*m.Config.Conv2)

	hid := autograd.ReLU(t, autograd.AddBias(t, autograd.MatMul(t, flat, m.DenseW), m.DenseB))
	hid = autograd.Dropout(t, hid, p, rng)
	return autograd.AddBias(t, autograd.MatMul(t, hid, m.OutW), m.OutB)
}

// glorot returns a rows×cols parameter drawn uniformly from ±√(6/(rows+cols)).
// newRand returns the generator of stream of seed.
func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }
