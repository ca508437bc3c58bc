package engine

import (
	"cmp"
	"context"
	"slices"
	"time"

	"ilpgnn/core/calibrate"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/split"
	"ilpgnn/core/train"
)

// The operations of this file measure the current model on its seed's
// held-out test pairs, as the paper's experiments do: with a predictor on
// the split's training graph, where the test links are not edges.

// heldOut is a model's seed split with a predictor on its training graph.
type heldOut struct {
	l     *loaded // the graph it was split from
	split *split.Split
	pred  *ilpgnn.Predictor
	// hard are the hard negatives of the split's test links (ranking),
	// drawn on first use; draws counts the drawings. Engine.mu guards both.
	hard  *hardNegatives
	draws int
}

// heldOut returns mo's split of l and the predictor on its training graph,
// preparing them on first use and keeping them with the model: on Cora the
// preparation (the training graph's structure similarity) costs more than
// what evaluate, insight, fidelity or ranking do with it.
func (e *Engine) heldOut(l *loaded, mo *model) (*heldOut, error) {
	e.mu.Lock()
	h := mo.held
	e.mu.Unlock()
	if h != nil && h.l == l {
		return h, nil
	}
	sp, in := mo.trainSplit, mo.trainIn
	if in == nil {
		var err error
		if sp, err = l.d.Split(mo.cfg.Seed, mo.cfg.ValFrac, mo.cfg.TestFrac); err != nil {
			return nil, errorf(CodeInternal, "splitting: %v", err)
		}
		if in, err = ilpgnn.Prepare(sp.Train, mo.cfg.Model); err != nil {
			return nil, errorf(CodeInternal, "preparing the training graph: %v", err)
		}
	}
	pred := ilpgnn.NewPredictor(mo.m, in)
	pred.Seed = mo.cfg.Seed // the run's draws, as core/paper/experiment's fidelity takes them
	pred.Temperature, pred.Bias, pred.CalibrationError = mo.pred.Temperature, mo.pred.Bias, mo.pred.CalibrationError
	h = &heldOut{l: l, split: sp, pred: pred}
	e.mu.Lock()
	mo.held = h
	e.mu.Unlock()
	return h, nil
}

// heldModel returns the loaded graph, the current model and its held-out
// split with the predictor on its training graph.
func (e *Engine) heldModel() (*loaded, *model, *heldOut, error) {
	l, mo, err := e.modelAndGraph()
	if err != nil {
		return nil, nil, nil, err
	}
	h, err := e.heldOut(l, mo)
	if err != nil {
		return nil, nil, nil, err
	}
	return l, mo, h, nil
}

// modelAndGraph returns the loaded graph and the current model.
func (e *Engine) modelAndGraph() (*loaded, *model, error) {
	l, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	mo, err := e.current()
	if err != nil {
		return nil, nil, err
	}
	return l, mo, nil
}

// Insight is the result of insight: what the model aggregates for the
// linked (test positive) and unlinked (test negative) pairs of its split,
// the data of the paper's figure 6.
type Insight struct {
	K        int          `json:"k"` // the model's K: at most K neighbours are selected per side
	Linked   Dist         `json:"linked"`
	Unlinked Dist         `json:"unlinked"`
	Pairs    InsightPairs `json:"pairs"`
	// Calibration is how far the model's probabilities are from the rates
	// of links observed on the test pairs, with its temperature and
	// without: the reliability diagram and its ECE.
	Calibration calibrate.Calibration `json:"calibration"`
}

// InsightPairs counts the pairs behind each distribution.
type InsightPairs struct {
	Linked   int `json:"linked"`
	Unlinked int `json:"unlinked"`
}

// Dist holds, for every selected neighbour of both ends of a set of pairs,
// its weight b, attribution (its term in the logit, as explain shows it),
// score s, structure score s_ST and feature score s_NO
// (parallel arrays: pair by pair, side i then side j, each side by
// descending score, ties by node index), and p_ij per pair.
type Dist struct {
	Weight      []float64 `json:"weight"`
	Attribution []float64 `json:"attribution"`
	Score       []float64 `json:"score"`
	Structure   []float64 `json:"structure"`
	Features    []float64 `json:"features"`
	Prob        []float64 `json:"prob"`
}

func (e *Engine) insight(_ context.Context, req Request) (any, []byte, error) {
	if err := decode(req, &struct{}{}); err != nil {
		return nil, nil, err
	}
	_, mo, h, err := e.heldModel()
	if err != nil {
		return nil, nil, err
	}
	sp := h.split
	test := append(append([]graph.Edge{}, sp.TestPos...), sp.TestNeg...)
	cal := calibrate.Measure(h.pred.Logits(test), len(sp.TestPos), h.pred.Temperature, h.pred.Bias)
	if !cal.Applied {
		// The choice is the one training made: the same weights on the
		// same validation pairs.
		cal.NotApplied = train.Calibrate(h.pred, sp).Why
	}
	return Insight{
		K:           mo.cfg.Model.K,
		Linked:      distOf(h.pred, sp.TestPos),
		Unlinked:    distOf(h.pred, sp.TestNeg),
		Pairs:       InsightPairs{Linked: len(sp.TestPos), Unlinked: len(sp.TestNeg)},
		Calibration: cal,
	}, nil, nil
}

// distOf gathers the selected neighbours of every pair.
func distOf(pred *ilpgnn.Predictor, pairs []graph.Edge) Dist {
	sel := pred.Selections(pairs)
	n := 0
	for _, s := range sel {
		n += len(s.I) + len(s.J)
	}
	d := Dist{Weight: make([]float64, 0, n), Attribution: make([]float64, 0, n), Score: make([]float64, 0, n), Structure: make([]float64, 0, n),
		Features: make([]float64, 0, n), Prob: make([]float64, 0, len(sel))}
	for _, s := range sel {
		d.Prob = append(d.Prob, s.Prob)
		for _, side := range [][]ilpgnn.Selected{s.I, s.J} {
			// By score, as explain lists the neighbours.
			slices.SortStableFunc(side, func(a, b ilpgnn.Selected) int {
				if c := cmp.Compare(b.Score, a.Score); c != 0 {
					return c
				}
				return cmp.Compare(a.Node, b.Node)
			})
			for _, c := range side {
				d.Weight = append(d.Weight, c.Weight)
				d.Attribution = append(d.Attribution, c.Attribution)
				d.Score = append(d.Score, c.Score)
				d.Structure = append(d.Structure, c.Structure)
				d.Features = append(d.Features, c.Features)
			}
		}
	}
	return d
}

// FidelityResult is the result of fidelity (the paper's figure 3 for the
// current model).
type FidelityResult struct {
	AUC    float64            `json:"auc"` // test AUC, nothing removed
	Points []FidelityPointAUC `json:"points"`
	Millis float64            `json:"ms"` // time taken
}

// FidelityPointAUC is the test AUC after the top-M neighbours of both ends
// of every test pair are removed, and its drop; and the same with M random
// neighbours of each end removed instead (the mean AUC over
// ilpgnn.RandomDraws draws), what the top M are compared with.
type FidelityPointAUC struct {
	M              int     `json:"m"`
	DeltaAUC       float64 `json:"deltaAUC"`
	AUC            float64 `json:"auc"`
	RandomDeltaAUC float64 `json:"randomDeltaAUC"`
	RandomAUC      float64 `json:"randomAUC"`
}

// StepProgress is the progress event of a foreground operation that runs in
// steps (fidelity: one per M; ranking: the drawing of the negatives, then
// one per chunk of pairs scored).
type StepProgress struct {
	Step      int     `json:"step"` // 1-based: steps done
	Steps     int     `json:"steps"`
	ElapsedMs float64 `json:"elapsedMs"`
}

// maxFidelityM bounds fidelity's maxM.
const maxFidelityM = 10

// fidelity measures ΔAUC for M = 1..maxM exactly as
// core/paper/experiment.Fidelity measures ILP-GNN, on the current model's split,
// posting a progress event after each M.
func (e *Engine) fidelity(_ context.Context, req Request) (any, []byte, error) {
	start := time.Now()
	var a struct {
		MaxM *int `json:"maxM"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	maxM := 4
	if a.MaxM != nil {
		maxM = *a.MaxM
	}
	if maxM < 1 || maxM > maxFidelityM {
		return nil, nil, errorf(CodeBadRequest, "fidelity: args.maxM must be in 1..%d (got %d)", maxFidelityM, maxM)
	}
	_, _, h, err := e.heldModel()
	if err != nil {
		return nil, nil, err
	}
	sp := h.split
	pairs := append(append([]graph.Edge{}, sp.TestPos...), sp.TestNeg...)
	id := req.ID
	nPos := len(sp.TestPos)
	random := make([]float64, maxM)
	full, cut, _ := explain.Fidelity(context.Background(), nPos, maxM, func(m int) []float32 {
		if m == 0 {
			return h.pred.Logits(pairs)
		}
		for d := range ilpgnn.RandomDraws {
			s := h.pred.LogitsWithoutRandom(pairs, m, d)
			random[m-1] += eval.AUC(s[:nPos], s[nPos:]) / ilpgnn.RandomDraws
		}
		return h.pred.LogitsWithout(pairs, m)
	}, func(m int) {
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: &StepProgress{
			Step: m, Steps: maxM, ElapsedMs: millisSince(start)}})
		e.opt.Yield()
	})
	out := FidelityResult{AUC: full, Points: make([]FidelityPointAUC, 0, maxM)}
	for k, auc := range cut {
		out.Points = append(out.Points, FidelityPointAUC{M: k + 1, DeltaAUC: full - auc, AUC: auc,
			RandomDeltaAUC: full - random[k], RandomAUC: random[k]})
	}
	out.Millis = millisSince(start)
	return out, nil, nil
}

func millisSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
