// Prediction (docs/model.md §4, eq 6-8): aggregation, the logit h_i · h_j and the Predictor.

package ilpgnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"ilpgnn/core/calibrate"
	"ilpgnn/core/detmath"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Predictor answers questions about pairs with a trained model on one graph.
// It computes H^r once; it is safe for concurrent use.
type Predictor struct {
	Model  *Model
	Inputs *Inputs
	// Hr is H^r (N x d, row-major) of Model on Inputs.
	Hr []float32
	// Anchor is H^0 (N x d), the start's embeddings on Inputs
	// (Model.AnchorEmbeddings), which the feature score mixes in with
	// weight Model.Config.Anchor; nil when that weight is 0.
	Anchor []float32
	// Seed fixes the random neighbours of the counterfactuals in Explain
	// and of LogitsWithoutRandom.
	Seed uint64
	// Attribution picks the number Explain shows for a selected neighbour.
	Attribution Attribution
	// Temperature and Bias are T and b of the calibrated probability
	// p_ij = sigmoid(logit/T + b) (package calibrate), fitted on validation
	// pairs after training; every probability the predictor reports uses
	// them, so they stay comparable. T of 0 or 1 with b = 0 is the
	// uncalibrated sigmoid(logit). Logits ignore them.
	Temperature, Bias float64
	// CalibrationError is the model's expected calibration error on held-out
	// pairs (calibrate.ECE), 0 when unknown: Suggest says when the leading
	// suggestions' probabilities differ by less than it.
	CalibrationError float64
}

// NewPredictor encodes the graph of in with m.
func NewPredictor(m *Model, in *Inputs) *Predictor {
	return &Predictor{Model: m, Inputs: in, Hr: m.Encode(nil, in, 0, nil).Value, Anchor: m.AnchorEmbeddings(in)}
}

// PredictorFrom wraps embeddings hr already computed by m on in (for
// example during training) without encoding again.
func PredictorFrom(m *Model, in *Inputs, hr []float32) *Predictor {
	return &Predictor{Model: m, Inputs: in, Hr: hr, Anchor: m.AnchorEmbeddings(in)}
}

func (p *Predictor) newScorer() *scorer { return p.Model.newScorer(p.Inputs, p.Hr, p.Anchor) }

// Logits returns h_i · h_j (eq 8 before the sigmoid) for every pair, in
// parallel; the result does not depend on the number of CPUs.
func (p *Predictor) Logits(pairs []graph.Edge) []float32 {
	out := make([]float32, len(pairs))
	p.eachPair(len(pairs), 256, func(sc *scorer, k int) {
		sc.lazy = true
		out[k] = sc.pairLogit(int(pairs[k].U), int(pairs[k].V))
	})
	return out
}

// eachPair calls fn for k in [0, n) on contiguous chunks of at least
// minChunk, one goroutine and one scorer per chunk.
func (p *Predictor) eachPair(n, minChunk int, fn func(sc *scorer, k int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n/minChunk))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			sc := p.newScorer()
			for k := w * n / workers; k < (w+1)*n/workers; k++ {
				fn(sc, k)
			}
		})
	}
	wg.Wait()
}

// Prob returns p_ij (eq 8), calibrated by p.Temperature.
func (p *Predictor) Prob(i, j int) float64 {
	return p.prob(p.newScorer().pairLogit(i, j))
}

// prob is sigmoid(logit/T + b). Uncalibrated it is eq 8's sigmoid bit for
// bit, so such a model's numbers are those recorded before calibration.
func (p *Predictor) prob(logit float32) float64 {
	t := p.Temperature
	if (t == 0 || t == 1) && p.Bias == 0 {
		return float64(sigmoid(logit))
	}
	if t == 0 {
		t = 1
	}
	// The formula Measure's ECE uses, so the p shown is the p measured.
	return calibrate.Prob(logit, t, p.Bias)
}

func (p *Predictor) checkNode(i int) error {
	if n := p.Inputs.Graph.NumNodes(); i < 0 || i >= n {
		return fmt.Errorf("ilpgnn: node %d outside [0, %d)", i, n)
	}
	return nil
}

// Ranked returns the neighbours of i scored against j (with the pair's
// target-edge masking), in decreasing score s, ties by node id: the ranking
// that Precision@k and fidelity use (docs/model.md §7), which is the selection order
// only under OrderScore (OrderCommonFirst takes common neighbours first). Neighbours that the bound on candidates
// (Config.Candidates) leaves out come after every candidate, in the bound's
// order (common first, then by s_ST, ties by node id): the model never
// looked at them, so they explain nothing, but fidelity may remove more
// neighbours than there are candidates.
func (p *Predictor) Ranked(i, j int) []Candidate {
	sc := p.newScorer()
	cands, _ := sc.side(0, i, j, p.Model.masked(p.Inputs, i, j), nil, nil)
	out := slices.Clone(cands)
	rankCandidates(out, sc.bound[0])
	return out
}

// rankCandidates sorts cands as Ranked returns them, given that the first
// bound are the candidates within the bound.
func rankCandidates(cands []Candidate, bound int) {
	slices.SortFunc(cands[:bound], scoreOrder)
	slices.SortFunc(cands[bound:], boundOrder)
}

// RankedNodes returns the nodes of Ranked(i, j), best first: the form
// explain.PrecisionAt takes.
func (p *Predictor) RankedNodes(i, j int) []int32 {
	ranked := p.Ranked(i, j)
	out := make([]int32, len(ranked))
	for k, c := range ranked {
		out[k] = c.Node
	}
	return out
}

// LogitsWithout returns, for every pair (i, j), the logit after the top m
// neighbours of i (ranked against j as Ranked does) are removed from N(i)
// and the top m of j from N(j), the model selecting and aggregating again
// on what remains (h^r alone when nothing remains): the deletion of the
// fidelity metric (docs/model.md §7). It runs in parallel; the result does not
// depend on the number of CPUs.
func (p *Predictor) LogitsWithout(pairs []graph.Edge, m int) []float32 {
	out := make([]float32, len(pairs))
	p.eachPair(len(pairs), 64, func(sc *scorer, k int) {
		i, j := int(pairs[k].U), int(pairs[k].V)
		mask := p.Model.masked(p.Inputs, i, j)
		sc.remove[0] = topNodes(sc.remove[0][:0], sc, i, j, mask, m)
		sc.remove[1] = topNodes(sc.remove[1][:0], sc, j, i, mask, m)
		remI, remJ := sc.remove[0], sc.remove[1]
		out[k] = sc.logitWithout(i, j, mask, remI, remJ)
	})
	return out
}

// LogitsWithoutRandom is LogitsWithout with m uniformly random neighbours
// of each end removed (of all its neighbours after target masking) instead
// of the top m: fidelity's baseline. The draw numbers independent draws,
// each fixed by Seed, the draw and the pair; within a draw the removals
// for m+1 contain those for m. It runs in parallel; the result does not
// depend on the number of CPUs.
func (p *Predictor) LogitsWithoutRandom(pairs []graph.Edge, m, draw int) []float32 {
	out := make([]float32, len(pairs))
	seed := p.Seed ^ streamFidelity ^ uint64(draw)*0x9e3779b97f4a7c15
	p.eachPair(len(pairs), 64, func(sc *scorer, k int) {
		i, j := int(pairs[k].U), int(pairs[k].V)
		mask := p.Model.masked(p.Inputs, i, j)
		rr := &randomRemoval{
			rng:  rand.New(rand.NewPCG(seed, uint64(i)<<32|uint64(uint32(j)))),
			nbrI: maskedNeighbors(p.Inputs.Graph.Neighbors(i), mask, j),
			nbrJ: maskedNeighbors(p.Inputs.Graph.Neighbors(j), mask, i),
		}
		// Each side has its own stream, so that its set grows with m as a
		// prefix of one shuffle.
		remI := rr.pick(rr.nbrI, m)
		rr.rng = rand.New(rand.NewPCG(seed, uint64(j)<<32|uint64(uint32(i))|1<<63))
		remJ := rr.pick(rr.nbrJ, m)
		out[k] = sc.logitWithout(i, j, mask, remI, remJ)
	})
	return out
}

// topNodes appends to dst the first m neighbours of i against j in Ranked's
// order, sorted by node id (the form side's removal lists take).
func topNodes(dst []int32, sc *scorer, i, j int, mask bool, m int) []int32 {
	cands, _ := sc.side(0, i, j, mask, nil, nil)
	rankCandidates(cands, sc.bound[0])
	for _, c := range cands[:min(m, len(cands))] {
		dst = append(dst, c.Node)
	}
	slices.Sort(dst)
	return dst
}

// embed writes h_i = h^r_i + β Σ_c b_c h^r_c (eq 7) into dst, with
// b = softmax(s/τ) over sel (eq 6). An empty sel gives h^r_i.
func (sc *scorer) embed(dst []float32, i int, sel []Candidate) {
	copy(dst, sc.row(int32(i)))
	if len(sel) == 0 || sc.m.Config.Beta == 0 {
		return
	}
	beta := float32(sc.m.Config.Beta)
	sc.w = softmaxWeights(sc.w, sel, sc.m.Config.Tau)
	for k, w := range sc.w {
		f32.Axpy(beta*w, sc.row(sel[k].Node), dst)
	}
}

// logit returns h_i · h_j for the selections selI ⊂ N(i) and selJ ⊂ N(j).
func (sc *scorer) logit(i, j int, selI, selJ []Candidate) float32 {
	sc.embed(sc.hi, i, selI)
	sc.embed(sc.hj, j, selJ)
	return f32.Dot(sc.hi, sc.hj)
}

// pairLogit is the model's logit for (i, j): selection on both sides, then
// eq 6-8 (without the final sigmoid).
func (sc *scorer) pairLogit(i, j int) float32 {
	mask := sc.m.masked(sc.in, i, j)
	ci, ki := sc.side(0, i, j, mask, nil, nil)
	cj, kj := sc.side(1, j, i, mask, nil, nil)
	return sc.logit(i, j, ci[:ki], cj[:kj])
}

// softmaxWeights returns b_c = softmax over sel of S/τ (eq 6), computed in
// float64 for stability, in buf's storage when it is large enough.
func softmaxWeights(buf []float32, sel []Candidate, tau float64) []float32 {
	w := grow(buf, len(sel))
	hi := math.Inf(-1)
	for _, c := range sel {
		hi = max(hi, float64(c.S)/tau)
	}
	var sum float64
	for k, c := range sel {
		e := detmath.Exp(float64(c.S)/tau - hi)
		w[k] = float32(e)
		sum += e
	}
	for k := range w {
		w[k] = float32(float64(w[k]) / sum)
	}
	return w
}
