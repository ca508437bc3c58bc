// Package gnnexplainer is GNNExplainer (Ying et al., NeurIPS 2019) adapted
// to link prediction, post hoc over a trained graph autoencoder of package
// gnn: the baseline of the ILP-GNN paper's table 2.
//
// For a pair (i, j) it takes the computation subgraph of the two-layer
// encoder for both ends — every directed message edge d→t whose message
// reaches z_i or z_j, i.e. t ∈ {i, j} ∪ N(i) ∪ N(j) and d ∈ N(t) — and
// learns one soft mask σ(m_e) ∈ (0, 1) per such edge. The mask multiplies
// the edge's message in both layers (the same edge carries a message in
// each), self loops keep weight 1 (as PyG's explain mode does for the self
// loops GCNConv adds). It minimises
//
//	−log p(y | masked graph) + SizeCoef·Σ_e σ(m_e) + EntropyCoef·mean_e H(σ(m_e))
//
// for the model's own prediction y = [z_i·z_j > 0] on the unmasked graph,
// with Adam, from m_e ~ N(1, std²), std = gain_relu·√(2/(2N)) = √(2/N), N
// the computation subgraph's node count (the reference implementation's
// initialisation). The explanation of i for j is i's neighbours except j,
// ranked by the learned mask of the message edge c→i, the edge by which c
// speaks to z_i directly.
//
// Supported encoders:
//   - GAE: the mask multiplies the normalised GCN weight Ã_td of each
//     message; the normalisation itself is not recomputed (as in the
//     reference, which masks the normalised adjacency).
//   - VGAE: the same on the mean μ, which is the embedding the decoder
//     scores in evaluation mode.
//   - GAT: the mask multiplies each attention-weighted message α_td·W h_d
//     after the softmax (so a masked message is not renormalised, as in
//     PyG's explain mode); the second layer's attention is recomputed from
//     the masked first layer.
//
// Every random draw comes from a PCG stream seeded with Config.Seed and the
// pair, exponentials and logarithms from detmath, and every pair is
// explained on its own, so results are bit-identical natively and in
// WebAssembly and do not depend on GOMAXPROCS or on the order in which
// pairs are asked for.
package gnnexplainer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"ilpgnn/core/autograd"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/detmath"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/optim"
)

// Config holds the explainer's hyperparameters. DefaultConfig gives the
// reference implementation's.
type Config struct {
	Epochs      int     // Adam steps per pair
	LR          float64 // Adam learning rate
	SizeCoef    float64 // weight of Σ σ(m) (mask size)
	EntropyCoef float64 // weight of the mean elementwise entropy of σ(m)
	// Symmetric ranks neighbour c of i by (σ(m_{c→i}) + σ(m_{i→c}))/2
	// instead of σ(m_{c→i}) alone; the reference GNNExplainer symmetrises
	// its mask on undirected graphs.
	Symmetric bool
	Seed      uint64 // mask initialisation
}

// DefaultConfig returns the reference settings: 100 epochs of Adam at lr
// 0.01, size coefficient 0.005, entropy coefficient 1, no symmetrisation.
func DefaultConfig() Config {
	return Config{Epochs: 100, LR: 0.01, SizeCoef: 0.005, EntropyCoef: 1}
}

// Validate reports the first setting out of range.
func (c Config) Validate() error {
	switch {
	case c.Epochs < 0:
		return fmt.Errorf("gnnexplainer: negative epochs %d", c.Epochs)
	case !(c.LR >= 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("gnnexplainer: learning rate %v", c.LR)
	case !(c.SizeCoef >= 0) || !(c.EntropyCoef >= 0):
		return fmt.Errorf("gnnexplainer: coefficients %v, %v must be non-negative", c.SizeCoef, c.EntropyCoef)
	}
	return nil
}

// Side is one end's explanation.
type Side struct {
	Node int
	// Neighbors are the node's neighbours in the message-passing graph,
	// ascending, the pair's other end left out.
	Neighbors []int32
	// Mask[k] is σ(m) of the message edge Neighbors[k] → Node, Reverse[k]
	// that of Node → Neighbors[k].
	Mask, Reverse []float32
	// Ranked are Neighbors best first: by Mask (or the mean of Mask and
	// Reverse when the explainer is Symmetric), ties by node id.
	Ranked []int32
}

// Explanation is GNNExplainer's answer for one pair.
type Explanation struct {
	I, J int
	// Logit is the model's z_i·z_j on the unmasked graph, Label the
	// prediction explained (1 when Logit > 0), MaskedLogit the logit with
	// the learned soft mask.
	Logit, MaskedLogit float32
	Label              float32
	Loss               float64 // the objective at the learned mask
	Nodes, Edges       int     // computation subgraph: nodes, masked message edges
	SideI, SideJ       Side
}

// Explainer explains a trained model's predictions on one message-passing
// graph. It is safe for concurrent use.
type Explainer struct {
	Model  *gnn.Model
	Graph  *graph.Graph
	Config Config

	in *gnn.Inputs
	// Per first-layer projection (one for GCN kinds, one per head for
	// GAT): X·W for every node, and for GAT the two halves of the
	// attention logits, (X·W)·aDst and (X·W)·aSrc.
	xw, sd1, ss1 []*autograd.Var
	// Read-only constant views of the weights the masked forward needs
	// (constants, so that explaining never writes a model gradient).
	// For GAT, vDst2 = W·aDst and vSrc2 = W·aSrc of each second-layer
	// head.
	w2, vDst2, vSrc2 []*autograd.Var
	b1, b2           *autograd.Var

	mu    sync.Mutex
	cache map[uint64]*cached
}

type cached struct {
	once sync.Once
	ex   Explanation
	err  error
}

// New returns an explainer of m's predictions with message passing on g
// (the graph m embeds with, normally its training graph).
func New(m *gnn.Model, g *graph.Graph, cfg Config) (*Explainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if g.FeatureDim() != m.FeatureDim {
		return nil, fmt.Errorf("gnnexplainer: model expects %d features, graph has %d", m.FeatureDim, g.FeatureDim())
	}
	e := &Explainer{Model: m, Graph: g, Config: cfg, in: gnn.Prepare(g, m.Config), cache: map[uint64]*cached{}}
	c := func(v *autograd.Var) *autograd.Var { return autograd.Const(v.Rows, v.Cols, v.Value) }
	switch m.Config.Kind {
	case gnn.GAE, gnn.VGAE:
		e.xw = []*autograd.Var{autograd.SpMM(nil, e.in.Features, m.W1)}
		e.w2 = []*autograd.Var{c(m.W2)}
	case gnn.GAT:
		l1, l2 := m.Layer1, m.Layer2
		for k := range l1.W {
			xw := autograd.SpMM(nil, e.in.Features, l1.W[k])
			e.xw = append(e.xw, xw)
			e.sd1 = append(e.sd1, autograd.MatMul(nil, xw, l1.ADst[k]))
			e.ss1 = append(e.ss1, autograd.MatMul(nil, xw, l1.ASrc[k]))
		}
		for k := range l2.W {
			e.w2 = append(e.w2, c(l2.W[k]))
			e.vDst2 = append(e.vDst2, autograd.MatMul(nil, l2.W[k], l2.ADst[k]))
			e.vSrc2 = append(e.vSrc2, autograd.MatMul(nil, l2.W[k], l2.ASrc[k]))
		}
		e.b1, e.b2 = c(l1.Bias), c(l2.Bias)
	default:
		return nil, fmt.Errorf("gnnexplainer: unsupported model kind %v", m.Config.Kind)
	}
	return e, nil
}

// pairKey is the unordered pair: (i, j) and (j, i) share one explanation.
func pairKey(i, j int) uint64 {
	a, b := min(i, j), max(i, j)
	return uint64(a)<<32 | uint64(b)
}

// Explain learns the mask for the pair (i, j) and returns both sides'
// explanations. It returns an error unless i and j are distinct nodes.
// Results are cached per unordered pair for the Explainer's lifetime, so
// Explain(j, i) afterwards costs nothing (and returns the same masks,
// sides swapped); the pair is always optimised as (min, max), so the
// answer does not depend on which orientation came first.
func (e *Explainer) Explain(i, j int) (Explanation, error) {
	n := e.Graph.NumNodes()
	if i < 0 || i >= n || j < 0 || j >= n || i == j {
		return Explanation{}, fmt.Errorf("gnnexplainer: pair (%d, %d) not two distinct nodes of %d", i, j, n)
	}
	key := pairKey(i, j)
	e.mu.Lock()
	c, ok := e.cache[key]
	if !ok {
		c = &cached{}
		e.cache[key] = c
	}
	e.mu.Unlock()
	c.once.Do(func() { c.ex, c.err = e.explain(min(i, j), max(i, j)) })
	ex := c.ex
	if ex.I != i {
		ex.I, ex.J, ex.SideI, ex.SideJ = ex.J, ex.I, ex.SideJ, ex.SideI
	}
	return ex, c.err
}

// Ranker returns the explainer as an explain.Ranker: i's neighbours except j
// by the learned mask of c→i (Side.Ranked). It computes each unordered
// pair once, so PrecisionAt's calls for (i, j) and (j, i) share one
// optimisation. A pair that cannot be explained ranks nothing.
func (e *Explainer) Ranker() explain.Ranker {
	return func(i, j int) []int32 {
		ex, err := e.Explain(i, j)
		if err != nil {
			return nil
		}
		return ex.SideI.Ranked
	}
}

// explain runs the optimisation for i < j.
func (e *Explainer) explain(i, j int) (Explanation, error) {
	s := e.subgraph(i, j, nil)
	ex := Explanation{I: i, J: j, Nodes: len(s.sources), Edges: s.masks}
	ex.Logit = e.forward(nil, s, nil).Value[0]
	if ex.Logit > 0 {
		ex.Label = 1
	}
	// The reference draws its mask per explained instance; the pair
	// names the stream, so no pair depends on another.
	rng := rand.New(rand.NewPCG(e.Config.Seed, pairKey(i, j)^0x676e6578_706c6e72))
	std := math.Sqrt2 * math.Sqrt(2/float64(2*len(s.sources)))
	mask := autograd.NewParam(s.masks, 1)
	draws := make([]float64, s.masks)
	detmath.Normals(draws, rng)
	for k, v := range draws {
		mask.Value[k] = float32(1 + std*v)
	}
	if s.masks > 0 {
		tp := autograd.NewTape()
		opt := optim.NewAdam([]*autograd.Var{mask}, e.Config.LR)
		for range e.Config.Epochs {
			tp.Reset()
			mask.ZeroGrad()
			tp.Backward(e.objective(tp, s, mask, ex.Label))
			opt.Step()
		}
		ex.Loss = float64(e.objective(nil, s, mask, ex.Label).Value[0])
	}
	ex.MaskedLogit = e.forward(nil, s, autograd.Sigmoid(nil, mask)).Value[0]
	sig := autograd.Sigmoid(nil, mask).Value
	ex.SideI = e.side(s, i, j, sig)
	ex.SideJ = e.side(s, j, i, sig)
	return ex, nil
}

// objective records the loss minimised for mask m: the cross-entropy of
// the masked logit against the label, the size and the entropy terms.
func (e *Explainer) objective(t *autograd.Tape, s *subgraph, m *autograd.Var, label float32) *autograd.Var {
	sig := autograd.Sigmoid(t, m)
	logit := e.forward(t, s, sig)
	loss := autograd.BCEWithLogits(t, logit, []float32{label})
	if s.masks == 0 {
		return loss
	}
	size := autograd.Scale(t, autograd.Sum(t, sig), float32(e.Config.SizeCoef))
	// H(σ(m)) = softplus(m) − m·σ(m): the Bernoulli entropy from the logit,
	// exact where the reference's log(σ + 1e-15) is clipped.
	ent := autograd.Sub(t, autograd.Softplus(t, m), autograd.Mul(t, m, sig))
	ent = autograd.Scale(t, autograd.Mean(t, ent), float32(e.Config.EntropyCoef))
	return autograd.Add(t, loss, autograd.Add(t, size, ent))
}

// side collects node's neighbours (other end excluded) with the masks of
// their edges into and out of node, and ranks them.
func (e *Explainer) side(s *subgraph, node, other int, sig []float32) Side {
	sd := Side{Node: node}
	for _, c := range e.Graph.Neighbors(node) {
		if int(c) == other {
			continue
		}
		sd.Neighbors = append(sd.Neighbors, c)
		sd.Mask = append(sd.Mask, sig[s.edge[edgeKey(c, int32(node))]])
		sd.Reverse = append(sd.Reverse, sig[s.edge[edgeKey(int32(node), c)]])
	}
	score := make([]float64, len(sd.Neighbors))
	for k := range score {
		score[k] = float64(sd.Mask[k])
		if e.Config.Symmetric {
			score[k] = (float64(sd.Mask[k]) + float64(sd.Reverse[k])) / 2
		}
	}
	sd.Ranked = explain.ByScore(sd.Neighbors, score)
	return sd
}

// LogitWithout returns the model's logit for (i, j) after the undirected
// edges removed are deleted from the message-passing graph: GCN weights
// are renormalised with the remaining degrees, GAT's attention is taken
// over the remaining neighbours. It computes only the pair's computation
// subgraph; with nothing removed it is the model's logit (up to float32
// rounding: the second layer aggregates before it projects). This is the
// deletion of the fidelity metric for explainers of gnn models. Removed
// pairs that are not edges are ignored. It panics unless i and j are
// nodes of the graph.
func (e *Explainer) LogitWithout(i, j int, removed []graph.Edge) float32 {
	var rm map[uint64]bool
	if len(removed) > 0 {
		rm = make(map[uint64]bool, len(removed))
		for _, r := range removed {
			rm[pairKey(int(r.U), int(r.V))] = true
		}
	}
	return e.forward(nil, e.subgraph(i, j, rm), nil).Value[0]
}
