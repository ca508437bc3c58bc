package engine

import (
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"ilpgnn/core/tune"
	"ilpgnn/wasm/store"
)

// tuneArgs is a search of 6 candidates (a 200 s budget), 13 epochs in the
// first round and at most 20 epochs (the fixed setting), so two rounds:
// 6 trials, then the best 2 for 20 epochs.
func tuneArgs() map[string]any {
	return map[string]any{"budgetSeconds": 200, "seed": 2, "config": map[string]any{"epochs": 20}}
}

// tuned runs a tune request to its end and returns its result and its
// progress events.
func tuned(t *testing.T, p *page, args map[string]any) (TuneResult, []TuneProgress) {
	t.Helper()
	id := p.send("tune", args, nil)
	r := p.wait(id)
	if r.Type != "result" {
		t.Fatalf("tune: %+v", r.Error)
	}
	var res TuneResult
	roundTrip(t, r.Result, &res)
	p.mu.Lock()
	defer p.mu.Unlock()
	return res, p.tunes[id]
}

func TestTune(t *testing.T) {
	p := newPage(t, &store.Memory{})
	_, files := smallSynth(t)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	res, events := tuned(t, p, tuneArgs())
	// The plan by hand: round(9*200/300) = 6 candidates, round(20*200/300)
	// = 13 epochs, then 6/3 = 2 candidates for min(39, 20) epochs.
	wantPlan := TunePlan{BudgetSeconds: 200, Candidates: 6, Eta: 3, MinEpochs: 13, Trials: 8, Seeds: []uint64{2}}
	if !reflect.DeepEqual(res.Plan, wantPlan) {
		t.Errorf("plan %+v, want %+v", res.Plan, wantPlan)
	}
	if res.Cancelled || res.Model != "ilpgnn" || len(res.Trials) != 8 {
		t.Fatalf("result: %+v", res)
	}
	// One progress event per trial, in order, each the trial it reports.
	if len(events) != len(res.Trials) {
		t.Fatalf("%d progress events for %d trials", len(events), len(res.Trials))
	}
	for k, ev := range events {
		if ev.Done != k+1 || ev.Planned != 8 || !reflect.DeepEqual(ev.TuneTrial, res.Trials[k]) {
			t.Errorf("event %d: %+v, trial %+v", k, ev, res.Trials[k])
		}
		wantRound, wantEpochs := 1, 13
		if k >= 6 {
			wantRound, wantEpochs = 2, 20
		}
		if ev.Round != wantRound || ev.Epochs != wantEpochs || ev.ValAUC <= 0.5 || len(ev.Settings) != 5 {
			t.Errorf("trial %d: %+v, want round %d of %d epochs, a val AUC above chance, 5 searched settings", k, ev.TuneTrial, wantRound, wantEpochs)
		}
	}
	// The second round goes on with the first round's best two.
	first := res.Trials[:6]
	for _, tr := range res.Trials[6:] {
		better := 0
		for _, o := range first {
			if o.ValAUC > first[tr.Candidate].ValAUC {
				better++
			}
		}
		if better > 1 {
			t.Errorf("candidate %d went on with %d candidates better in round 1", tr.Candidate, better)
		}
	}
	last := res.Trials[6:]
	win := last[0]
	if last[1].ValAUC > win.ValAUC {
		win = last[1]
	}
	if res.ValAUC != win.ValAUC {
		t.Errorf("chosen val AUC %v, the last round's best %v", res.ValAUC, win.ValAUC)
	}
	want := map[string]string{"epochs": "20"}
	for k, v := range win.Settings {
		want[k] = v
	}
	if !reflect.DeepEqual(res.Best, want) {
		t.Errorf("best %v, want the winner's settings and the fixed ones %v", res.Best, want)
	}

	// The same search as the command line's: tune.Search on the engine's
	// split of seed 2 draws the same candidates and chooses the same.
	opt := tune.DefaultOptions()
	opt.Candidates, opt.MinEpochs, opt.Seeds, opt.Fixed = 6, 13, []uint64{2}, map[string]string{"epochs": "20"}
	p.e.mu.Lock()
	l := p.e.data
	p.e.mu.Unlock()
	spec, _ := p.e.opt.Models.Lookup("ilpgnn")
	direct, err := tune.Search(t.Context(), spec, tuningData(l, spec.New().Loop()), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(direct.Best, res.Best) || direct.ValAUC != res.ValAUC {
		t.Errorf("tune.Search chose %v (%v), the engine %v (%v)", direct.Best, direct.ValAUC, res.Best, res.ValAUC)
	}

	// Deterministic: the same request chooses the same, trial for trial.
	again, _ := tuned(t, p, tuneArgs())
	if !reflect.DeepEqual(again.Best, res.Best) || again.ValAUC != res.ValAUC || len(again.Trials) != len(res.Trials) {
		t.Fatalf("a second search chose %v (%v), the first %v (%v)", again.Best, again.ValAUC, res.Best, res.ValAUC)
	}
	for k := range res.Trials {
		a, b := again.Trials[k], res.Trials[k]
		if a.Candidate != b.Candidate || a.ValAUC != b.ValAUC || !reflect.DeepEqual(a.Settings, b.Settings) {
			t.Errorf("trial %d: %+v, then %+v", k, b, a)
		}
	}

	// Training with the chosen settings measures what the last round
	// measured (same split, seed, epochs, selection), and the checkpoint
	// carries the settings through a restore.
	config := map[string]any{}
	for k, v := range res.Best {
		config[k] = v
	}
	tr := trained(t, p, map[string]any{"config": config, "seed": 2, "select": "auc"})
	if tr.ValAUC != res.ValAUC {
		t.Errorf("training the chosen settings: val AUC %v, the search's %v", tr.ValAUC, res.ValAUC)
	}
	var restored ModelInfo
	p.call("checkpoints.load", map[string]any{"key": tr.Key}, &restored)
	for k, v := range res.Best {
		if tr.Config[k] != v || restored.Config[k] != v {
			t.Errorf("%s: chosen %q, trained with %q, restored %q", k, v, tr.Config[k], restored.Config[k])
		}
	}
}

func TestTuneCancelAndBusy(t *testing.T) {
	p := newPage(t, &store.Memory{})
	_, files := smallSynth(t)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	// From the search goroutine itself, on the 20th epoch (in the second
	// trial, whose first round is 13 epochs long): other requests find
	// the engine busy, then the search is cancelled.
	var n atomic.Int64
	var busyTrain, busyExplain *Error
	var cancelled Reply
	var target int64
	p.e.opt.Yield = func() {
		if n.Add(1) != 20 {
			return
		}
		busyTrain = p.callErr("train", trainArgs(2), nil)
		busyExplain = p.callErr("explain", map[string]any{"i": 0, "j": 1}, nil)
		cancelled = p.wait(p.send("cancel", map[string]any{"target": target}, nil))
	}
	p.mu.Lock()
	target = p.next + 1
	p.mu.Unlock()
	res, events := tuned(t, p, tuneArgs())
	if !res.Cancelled || len(res.Best) != 0 || len(res.Trials) != 1 || len(events) != 1 || res.Plan.Trials != 8 {
		t.Fatalf("cancelled search: %+v, %d events", res, len(events))
	}
	if c, ok := cancelled.Result.(map[string]bool); cancelled.Type != "result" || !ok || !c["cancelled"] {
		t.Errorf("cancel reply: %+v", cancelled)
	}
	for _, e := range []*Error{busyTrain, busyExplain} {
		if e.Code != CodeBusy || !strings.Contains(e.Message, "tuning (request") {
			t.Errorf("request during tuning: %+v", e)
		}
	}
	// The engine is free again and has no model: tuning trains none.
	p.e.opt.Yield = func() {}
	if e := p.callErr("explain", map[string]any{"i": 0, "j": 1}, nil); e.Code != CodeNoModel {
		t.Errorf("explain after a cancelled search: %+v", e)
	}
	if _, busy := p.e.busy(); busy {
		t.Error("the engine is still busy")
	}
}

func TestTuneErrors(t *testing.T) {
	p := newPage(t, nil)
	if e := p.callErr("tune", tuneArgs(), nil); e.Code != CodeNoGraph {
		t.Errorf("no graph: %+v", e)
	}
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "budgetSeconds"},
		{map[string]any{"budgetSeconds": 30}, "a budget of 30 s is out of range"},
		{map[string]any{"budgetSeconds": 2e5}, "out of range"},
		{map[string]any{"budgetSeconds": 300, "model": "cn"}, "cn has no hyperparameters to search"},
		{map[string]any{"budgetSeconds": 300, "model": "nope"}, "unknown model"},
		{map[string]any{"budgetSeconds": 300, "config": map[string]any{"nope": 1}}, `unknown hyperparameter "nope"`},
		{map[string]any{"budgetSeconds": 300, "config": map[string]any{"lr": -1}}, "learning rate must be positive"},
	} {
		e := p.callErr("tune", c.args, nil)
		if e.Code != CodeBadRequest || !strings.Contains(e.Message, c.want) || !strings.HasPrefix(e.Message, "tune: ") {
			t.Errorf("tune %v: %+v, want bad_request with %q", c.args, e, c.want)
		}
	}
}

func TestPlannedTrials(t *testing.T) {
	// Counted by hand from successive halving's rounds: a round that
	// leaves one candidate ends the search, so the last one is not rerun.
	for _, c := range []struct {
		cands, eta, minEpochs, grid, maxEpochs, want int
	}{
		{9, 3, 20, 216, 1000, 9 + 3},
		{6, 3, 13, 216, 20, 6 + 2},
		{9, 3, 20, 4, 1000, 4}, // a grid smaller than the candidates
		{27, 3, 5, 216, 10, 27 + 9},
		{3, 3, 4, 216, 1000, 3},
		{10, 2, 1, 216, 1000, 10 + 5 + 2},
	} {
		opt := tune.Options{Candidates: c.cands, Eta: c.eta, MinEpochs: c.minEpochs}
		if got := plannedTrials(opt, c.grid, c.maxEpochs); got != c.want {
			t.Errorf("%+v: %d trials, want %d", c, got, c.want)
		}
	}
}
