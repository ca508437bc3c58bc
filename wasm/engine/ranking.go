package engine

import (
	"context"
	"errors"
	"math"
	"time"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/heart"
)

// ranking measures the current model as `ilpgnn train --eval heart` does
// (docs/heart.md): each test link of the model's split ranked among hard
// negatives of its own, drawn once per split of the loaded graph and kept
// with it (hardOf), beside the common-neighbours and Adamic-Adar heuristics on
// the same pairs.

// RankingResult is the result of ranking.
type RankingResult struct {
	// Model is how the current model ranks each test link among its hard
	// negatives.
	Model RankingScores `json:"model"`
	// CN is how the common-neighbours heuristic on the training graph
	// ranks them, to compare.
	CN RankingScores `json:"cn"`
	// AA is how the Adamic-Adar heuristic on the training graph ranks
	// them, to compare.
	AA      RankingScores `json:"aa"`
	Links   int           `json:"links"`   // the test links
	PerLink int           `json:"perLink"` // the hard negatives of each
	// Features says whether the input's features were among the heuristics
	// that drew the negatives (made-up features are left out).
	Features bool `json:"features"`
	// Reused says the negatives were drawn by an earlier ranking of the
	// same model; DrawMs is the time their drawing took, whenever it was.
	Reused bool    `json:"reused"`
	DrawMs float64 `json:"drawMs"`
	Millis float64 `json:"ms"` // this request's time, drawing included
}

// RankingScores are the mean reciprocal rank and the Hits@K of the test
// links, each among its own hard negatives (eval.Ranking; a tie counts
// half), as shares in [0, 1].
type RankingScores struct {
	MRR     float64 `json:"mrr"`
	Hits1   float64 `json:"hits1"`
	Hits3   float64 `json:"hits3"`
	Hits10  float64 `json:"hits10"`
	Hits20  float64 `json:"hits20"`
	Hits50  float64 `json:"hits50"`
	Hits100 float64 `json:"hits100"`
}

// rankingScores converts r, refusing what JSON cannot carry.
func rankingScores(r eval.Ranking, who string) (RankingScores, error) {
	s := RankingScores{MRR: r.MRR, Hits1: r.Hits1, Hits3: r.Hits3, Hits10: r.Hits10, Hits20: r.Hits20, Hits50: r.Hits50, Hits100: r.Hits100}
	for _, v := range []float64{s.MRR, s.Hits1, s.Hits3, s.Hits10, s.Hits20, s.Hits50, s.Hits100} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return s, errorf(CodeInternal, "ranking: %s's scores of the test links or their hard negatives are not finite numbers", who)
		}
	}
	return s, nil
}

// hardNegatives are the hard negatives of a held-out split's test links.
type hardNegatives struct {
	n      *heart.Negatives
	o      heart.Options
	drawMs float64
}

// rankingChunk is how many pairs ranking scores at once, posting a
// progress event after each; a variable so that tests can cut it.
var rankingChunk = 1 << 16

// hardOf returns the hard negatives of h's test links, the split key
// names, drawing them on first use and keeping them with h and its graph
// (another model on the same split reuses them); reused says they were
// kept.
func (e *Engine) hardOf(h *heldOut, key splitKey) (hn *hardNegatives, reused bool, err error) {
	seed := key.seed
	e.mu.Lock()
	hn = h.hard
	if hn == nil && h.l.hard[key] != nil {
		hn = h.l.hard[key]
		h.hard = hn
	}
	e.mu.Unlock()
	if hn != nil {
		return hn, true, nil
	}
	start := time.Now()
	o := heart.OptionsFor(h.l.d.Graph)
	n, err := heart.Sample(h.split.Train, h.l.d.Graph, h.split.TestPos, seed, o)
	if err != nil {
		code := CodeInternal
		if errors.Is(err, heart.ErrTooFewCandidates) {
			code = CodeBadRequest
		}
		return nil, false, errorf(code, "ranking: drawing the hard negatives of %d test links: %v", len(h.split.TestPos), err)
	}
	hn = &hardNegatives{n: n, o: o, drawMs: millisSince(start)}
	e.mu.Lock()
	h.hard = hn
	h.draws++
	if h.l.hard == nil {
		h.l.hard = map[splitKey]*hardNegatives{}
	}
	h.l.hard[key] = hn
	e.mu.Unlock()
	return hn, false, nil
}

// hardPairs returns pairs lo to hi of n.Pairs() without building the
// others.
func hardPairs(n *heart.Negatives, lo, hi int) []graph.Edge {
	out := make([]graph.Edge, 0, hi-lo)
	half := n.PerLink / 2
	for k := lo; k < hi; k++ {
		l := n.Links[k/n.PerLink]
		x := n.Nodes[k]
		if k%n.PerLink < half {
			out = append(out, graph.Edge{U: l.U, V: x})
		} else {
			out = append(out, graph.Edge{U: x, V: l.V})
		}
	}
	return out
}

// ranking ranks the current model's test links among their hard
// negatives, posting a progress event after the drawing and after each
// chunk of rankingChunk pairs scored.
func (e *Engine) ranking(_ context.Context, req Request) (any, []byte, error) {
	start := time.Now()
	if err := decode(req, &struct{}{}); err != nil {
		return nil, nil, err
	}
	_, mo, h, err := e.heldModel()
	if err != nil {
		return nil, nil, err
	}
	pos := h.split.TestPos
	if len(pos) == 0 {
		return nil, nil, errorf(CodeBadRequest, "ranking: the model's split holds out no test links to rank")
	}
	hn, reused, err := e.hardOf(h, splitKey{mo.cfg.Seed, mo.cfg.ValFrac, mo.cfg.TestFrac})
	if err != nil {
		return nil, nil, err
	}
	n := hn.n
	total := len(n.Nodes)
	chunks := (total + rankingChunk - 1) / rankingChunk
	steps := 1 + chunks
	id := req.ID
	progress := func(step int) {
		e.opt.Post(Reply{V: Protocol, Type: "progress", ID: &id, Progress: &StepProgress{
			Step: step, Steps: steps, ElapsedMs: millisSince(start)}})
		e.opt.Yield()
	}
	progress(1)

	train := h.split.Train
	scores := [3][]float32{h.pred.Logits(pos), heuristic.Scores(train, heuristic.CommonNeighbours, pos), heuristic.Scores(train, heuristic.AdamicAdar, pos)}
	var negs [3][]float32
	for m := range negs {
		negs[m] = make([]float32, 0, total)
	}
	for c := range chunks {
		pairs := hardPairs(n, c*rankingChunk, min((c+1)*rankingChunk, total))
		negs[0] = append(negs[0], h.pred.Logits(pairs)...)
		negs[1] = append(negs[1], heuristic.Scores(train, heuristic.CommonNeighbours, pairs)...)
		negs[2] = append(negs[2], heuristic.Scores(train, heuristic.AdamicAdar, pairs)...)
		progress(2 + c)
	}
	var out [3]RankingScores
	for m, who := range []string{"the model", "common neighbours", "Adamic-Adar"} {
		if out[m], err = rankingScores(eval.RankingOf(scores[m], negs[m]), who); err != nil {
			return nil, nil, err
		}
	}
	return RankingResult{Model: out[0], CN: out[1], AA: out[2], Links: len(n.Links), PerLink: n.PerLink,
		Features: hn.o.Features, Reused: reused, DrawMs: hn.drawMs, Millis: millisSince(start)}, nil, nil
}
