package engine

import (
	"reflect"
	"testing"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/heart"
)

// ranking ranks the current model's test links among hard negatives as an
// independent computation does (heart.Sample on the split, the predictor's
// logits and the heuristics' scores, eval.RankingOf), reports its progress
// in order, and draws the negatives once per split.
func TestRanking(t *testing.T) {
	d, files := smallSynth(t)
	p := newPage(t, nil)
	if e := p.callErr("ranking", nil, nil); e.Code != CodeNoGraph {
		t.Errorf("ranking without a graph: %+v", e)
	}
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	if e := p.callErr("ranking", nil, nil); e.Code != CodeNoModel {
		t.Errorf("ranking without a model: %+v", e)
	}
	trained(t, p, map[string]any{"config": map[string]any{"epochs": 3}, "seed": 5, "save": false})

	// The direct computation.
	cfg, pred, pos, _ := heldOutPredictor(t, p, d)
	sp, err := (&dataset.Dataset{Graph: d.Graph, Truth: d}).Split(cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		t.Fatal(err)
	}
	o := heart.DefaultOptions()
	o.Features = d.Graph.MadeUpFeatures == ""
	neg, err := heart.Sample(sp.Train, d.Graph, sp.TestPos, cfg.Seed, o)
	if err != nil {
		t.Fatal(err)
	}
	pairs := neg.Pairs()
	want := [3]eval.Ranking{eval.RankingOf(pred.Logits(pos), pred.Logits(pairs))}
	for k, m := range []heuristic.Method{heuristic.CommonNeighbours, heuristic.AdamicAdar} {
		want[k+1] = eval.RankingOf(heuristic.Scores(sp.Train, m, pos), heuristic.Scores(sp.Train, m, pairs))
	}

	// Scored in several chunks, the last one short.
	defer func(c int) { rankingChunk = c }(rankingChunk)
	rankingChunk = len(pairs)/3 + 1
	var yields int
	p.e.opt.Yield = func() { yields++ }
	id := p.send("ranking", map[string]any{}, nil)
	r := p.wait(id)
	if r.Type != "result" {
		t.Fatalf("ranking: %+v", r.Error)
	}
	var got RankingResult
	roundTrip(t, r.Result, &got)
	for k, g := range []RankingScores{got.Model, got.CN, got.AA} {
		w := want[k]
		if ws := (RankingScores{w.MRR, w.Hits1, w.Hits3, w.Hits10, w.Hits20, w.Hits50, w.Hits100}); g != ws {
			t.Errorf("ranking row %d:\n got %+v\nwant %+v", k, g, ws)
		}
	}
	if got.Model.MRR <= 0 || got.Model.MRR > 1 {
		t.Errorf("MRR %v is not in (0, 1]", got.Model.MRR)
	}
	if got.Links != len(pos) || got.PerLink != o.PerLink || got.Features != o.Features || got.Reused || got.DrawMs < 0 || got.DrawMs > got.Millis {
		t.Errorf("ranking: %d links of %d negatives, features %v, reused %v, drawn in %v of %v ms; want %d links of %d, features %v, drawn now",
			got.Links, got.PerLink, got.Features, got.Reused, got.DrawMs, got.Millis, len(pos), o.PerLink, o.Features)
	}
	steps := p.steps[id]
	if len(steps) != 4 || yields != 4 {
		t.Fatalf("ranking: %d progress events, %d yields; want 4 each (the drawing, 3 chunks)", len(steps), yields)
	}
	for k, s := range steps {
		if s.Step != k+1 || s.Steps != 4 || s.ElapsedMs < 0 || s.ElapsedMs > got.Millis || (k > 0 && s.ElapsedMs < steps[k-1].ElapsedMs) {
			t.Errorf("progress %d: %+v (result ms %v)", k, s, got.Millis)
		}
	}

	// Again: the same negatives, not drawn again, and the same ranking.
	h := p.e.model.held
	first := h.hard
	id = p.send("ranking", nil, nil)
	r = p.wait(id)
	if r.Type != "result" {
		t.Fatalf("ranking again: %+v", r.Error)
	}
	var again RankingResult
	roundTrip(t, r.Result, &again)
	if p.e.model.held != h || h.hard != first || h.draws != 1 || !again.Reused || again.DrawMs != got.DrawMs {
		t.Errorf("ranking again: predictor rebuilt %v, negatives drawn %d times, reused %v, drawn in %v ms (first %v)",
			p.e.model.held != h, h.draws, again.Reused, again.DrawMs, got.DrawMs)
	}
	if again.Model != got.Model || again.CN != got.CN || again.AA != got.AA {
		t.Errorf("ranking again:\n got %+v\nwant %+v", again, got)
	}
	if s := p.steps[id]; len(s) != 4 || s[len(s)-1].Step != s[len(s)-1].Steps {
		t.Errorf("ranking again: progress %+v", s)
	}
	if !reflect.DeepEqual(h.hard.n, neg) {
		t.Errorf("the engine's negatives differ from heart.Sample's")
	}

	// Another model on the same split ranks against the very negatives,
	// without drawing them again.
	trained(t, p, map[string]any{"config": map[string]any{"epochs": 2}, "seed": 5, "save": false})
	var other RankingResult
	if r := p.call("ranking", nil, &other); r.Type != "result" {
		t.Fatalf("ranking the second model: %+v", r.Error)
	}
	if h2 := p.e.model.held; h2 == h || h2.hard != first || h2.draws != 0 || !other.Reused {
		t.Errorf("second model: own predictor %v, same negatives %v, drawn %d times, reused %v", h2 != h, h2.hard == first, h2.draws, other.Reused)
	}

	if e := p.callErr("ranking", map[string]any{"top": 1}, nil); e.Code != CodeBadRequest {
		t.Errorf("ranking with an unknown arg: %+v", e)
	}
}

// hardPairs builds any run of the negatives' pairs as Pairs lists them.
func TestHardPairs(t *testing.T) {
	n := &heart.Negatives{Links: []graph.Edge{{U: 1, V: 2}, {U: 3, V: 4}}, PerLink: 4, Nodes: []int32{10, 11, 12, 13, 20, 21, 22, 23}}
	all := n.Pairs()
	for lo := range len(all) + 1 {
		for hi := lo; hi <= len(all); hi++ {
			if got := hardPairs(n, lo, hi); !reflect.DeepEqual(got, all[lo:hi]) {
				t.Fatalf("hardPairs(%d, %d) = %v, want %v", lo, hi, got, all[lo:hi])
			}
		}
	}
}

// BenchmarkCoraRanking: ranking on Cora's test links, the first call
// drawing their hard negatives (ms-first), the others reusing them.
func BenchmarkCoraRanking(b *testing.B) { benchCora(b, "ranking", nil) }
