package ilpgnn

import (
	"fmt"
	"runtime"
	"sync"

	"ilpgnn/core/graph"
)

// Predictor answers questions about pairs with a trained model on one graph.
// It computes H^r once; it is safe for concurrent use.
type Predictor struct {
	Model  *Model
	Inputs *Inputs
	// Hr is H^r (N x d, row-major) of Model on Inputs.
	Hr []float32
	// Seed fixes the random neighbours of the counterfactual in Explain.
	Seed uint64
}

// NewPredictor encodes the graph of in with m.
func NewPredictor(m *Model, in *Inputs) *Predictor {
	return &Predictor{Model: m, Inputs: in, Hr: m.Encode(nil, in, 0, nil).Value}
}

// PredictorFrom wraps embeddings hr already computed by m on in (for
// example during training) without encoding again.
func PredictorFrom(m *Model, in *Inputs, hr []float32) *Predictor {
	return &Predictor{Model: m, Inputs: in, Hr: hr}
}

// Logits returns h_i · h_j (eq 8 before the sigmoid) for every pair, in
// parallel; the result does not depend on the number of CPUs.
func (p *Predictor) Logits(pairs []graph.Edge) []float32 {
	out := make([]float32, len(pairs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(pairs)/256))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(pairs)/workers, (w+1)*len(pairs)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := p.Model.newScorer(p.Inputs, p.Hr)
			for k := lo; k < hi; k++ {
				out[k] = sc.pairLogit(int(pairs[k].U), int(pairs[k].V))
			}
		}()
	}
	wg.Wait()
	return out
}

// Prob returns p_ij (eq 8).
func (p *Predictor) Prob(i, j int) float64 {
	return float64(sigmoid(p.Model.newScorer(p.Inputs, p.Hr).pairLogit(i, j)))
}

func (p *Predictor) checkNode(i int) error {
	if n := p.Inputs.Graph.NumNodes(); i < 0 || i >= n {
		return fmt.Errorf("ilpgnn: node %d outside [0, %d)", i, n)
	}
	return nil
}
