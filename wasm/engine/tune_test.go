package engine

import (
	"maps"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"ilpgnn/core/tune"
	"ilpgnn/wasm/store"
)

// tuneArgs is a one-minute search of seed 2 whose runs train at most 120
// epochs: past tune.Plan's long first round of 100 epochs, so that the
// plan has a second round. Fixing one of the four searched settings and
// a narrow model keeps it small, a few candidates, then the best and the
// current settings; the grid of the other three has 17 points besides
// the current one, enough for a plan with two rounds.
func tuneArgs() map[string]any {
	return map[string]any{"budgetSeconds": 60, "seed": 2, "config": map[string]any{"epochs": 120, "hidden": 8, "alpha": 0.02, "lambda": 0.1, "weight-decay": 0}}
}

// tuneFixed are tuneArgs' fixed settings as flag strings.
var tuneFixed = map[string]string{"epochs": "120", "hidden": "8", "alpha": "0.02", "lambda": "0.1", "weight-decay": "0"}

// wantPlan is the plan of tuneArgs for the loaded graph: tune.Plan's for a
// browser (tune.WasmSlowdown), as the command line would plan it with a
// budget of 60 s / tune.WasmSlowdown.
func wantPlan(t *testing.T, p *page) (tune.Options, tune.Estimate) {
	t.Helper()
	p.e.mu.Lock()
	g := p.e.data.d.Graph
	p.e.mu.Unlock()
	spec, _ := p.e.opt.Models.Lookup("ilpgnn")
	opt, est, err := tune.Plan(spec, tune.SizeOf(g), time.Duration(60/tune.WasmSlowdown*float64(time.Second)), tune.Options{Seeds: []uint64{2}, Fixed: tuneFixed})
	if err != nil {
		t.Fatal(err)
	}
	if len(est.Rounds) < 2 {
		t.Fatalf("the test needs a plan of two rounds or more, got %s", est)
	}
	return opt, est
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
	nativeOnly(t, "a 60-second tuning budget (frontend/e2e/tune.test.mjs tunes in wasm)")
	p := newPage(t, &store.Memory{})
	_, files := smallSynth(t)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	res, events := tuned(t, p, tuneArgs())
	opt, est := wantPlan(t, p)
	// The current settings first, to the fixed 120 epochs at most; then
	// round k's candidates.
	roundOf, epochsOf := []int{1}, []int{120}
	for k, r := range est.Rounds {
		for range r.Candidates {
			roundOf, epochsOf = append(roundOf, k+1), append(epochsOf, r.Epochs)
		}
	}
	trials, first := len(roundOf), 1+est.Rounds[0].Candidates
	want := TunePlan{BudgetSeconds: 60, Candidates: opt.Candidates, Eta: opt.Eta, MinEpochs: opt.MinEpochs, Trials: trials,
		Seeds: []uint64{2}, EstimatedSeconds: est.Seconds * tune.WasmSlowdown, Summary: est.Plan()}
	if !reflect.DeepEqual(res.Plan, want) || !(res.Plan.EstimatedSeconds <= 60) {
		t.Errorf("plan %+v, want %+v within the budget", res.Plan, want)
	}
	if res.Cancelled || res.Model != "ilpgnn" || len(res.Trials) != trials {
		t.Fatalf("result: %+v", res)
	}
	// Inside each trial, an event per epoch counting its epochs 1, 2, ...
	// (at most its epochs: one tuning seed), naming the trial about to
	// end; then one event per finished trial, in order, each the trial it
	// reports.
	var ends []TuneProgress
	inside := 0
	for _, ev := range events {
		if ev.Epoch == 0 {
			if ev.TrialEpochs != 0 || inside == 0 {
				t.Errorf("trial end %+v after %d epoch events", ev, inside)
			}
			ends, inside = append(ends, ev), 0
			continue
		}
		inside++
		k := len(ends)
		if k >= len(res.Trials) {
			t.Fatalf("an epoch event after the last trial: %+v", ev)
		}
		tr := res.Trials[k]
		if ev.Epoch != inside || ev.TrialEpochs != tr.Epochs || ev.Epoch > tr.Epochs || ev.Done != k || ev.Planned != trials ||
			ev.Round != tr.Round || ev.Candidate != tr.Candidate || !reflect.DeepEqual(ev.Settings, tr.Settings) || ev.ValAUC != 0 || ev.Seconds != 0 {
			t.Errorf("epoch event %d inside trial %d (%+v): %+v", inside, k, tr, ev)
		}
	}
	events = ends
	if len(events) != len(res.Trials) {
		t.Fatalf("%d progress events for %d trials", len(events), len(res.Trials))
	}
	for k, ev := range events {
		if ev.Done != k+1 || ev.Planned != trials || !reflect.DeepEqual(ev.TuneTrial, res.Trials[k]) {
			t.Errorf("event %d: %+v, trial %+v", k, ev, res.Trials[k])
		}
		wantRound, wantEpochs := roundOf[k], epochsOf[k]
		if ev.Round != wantRound || ev.Epochs != wantEpochs || ev.ValAUC <= 0.5 || len(ev.Settings) != 3 {
			t.Errorf("trial %d: %+v, want round %d of %d epochs, a val AUC above chance, 3 searched settings", k, ev.TuneTrial, wantRound, wantEpochs)
		}
	}
	// The graph has groundtruth: every trial kept its weights on the
	// validation links' explanation precision, as training does here by
	// default.
	for _, tr := range res.Trials {
		if tr.SelectedOn != "precision" || tr.ValP1 == nil || math.Abs(tr.ValScore-*tr.ValP1-*tr.ValP2) > 1e-12 {
			t.Errorf("trial %+v: not kept on precision", tr)
		}
	}
	// The second round goes on with the first round's best on that score.
	second := est.Rounds[1].Candidates
	for _, tr := range res.Trials[first : first+second] {
		better := 0
		for _, o := range res.Trials[1:first] {
			if o.ValScore > scoreOf(res.Trials[1:first], tr.Candidate) {
				better++
			}
		}
		if better >= second {
			t.Errorf("candidate %d went on with %d candidates better in round 1", tr.Candidate, better)
		}
	}
	// The last round's best on the kept score that is no lower on
	// validation AUC and precision wins; the current settings otherwise.
	current := res.Trials[0]
	win := current
	for _, tr := range res.Trials[trials-est.Rounds[len(est.Rounds)-1].Candidates:] {
		if tr.ValScore > current.ValScore && tr.ValAUC >= current.ValAUC && *tr.ValP1 >= *current.ValP1 && *tr.ValP2 >= *current.ValP2 &&
			(win.Current || tr.ValScore > win.ValScore) {
			win = tr
		}
	}
	if !current.Current || res.ValAUC != win.ValAUC || res.KeptCurrent != win.Current || res.CurrentValAUC != current.ValAUC {
		t.Errorf("chosen val AUC %v (kept current %v, %v), the last round's best %+v, current %+v", res.ValAUC, res.KeptCurrent, res.CurrentValAUC, win, current)
	}
	best := maps.Clone(tuneFixed)
	for k, v := range win.Settings {
		best[k] = v
	}
	if !win.Current && win.Capped && win.Epochs < 120 {
		best["epochs"] = strconv.Itoa(win.Epochs) // what the search measured
	}
	if !reflect.DeepEqual(res.Best, best) {
		t.Errorf("best %v, want the winner's settings and the fixed ones %v", res.Best, best)
	}

	// The same search as the command line's: tune.Search on the engine's
	// split of seed 2 draws the same candidates and chooses the same.
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

	// Training with the chosen settings measures what the search measured
	// (same split, seed, epochs, selection), and the checkpoint carries
	// the settings through a restore: a search for training that keeps
	// weights on validation AUC.
	args := tuneArgs()
	args["select"] = "auc"
	if res, _ = tuned(t, p, args); res.Chosen == nil || res.Chosen.SelectedOn != "auc" {
		t.Fatalf("a search for select auc: %+v", res)
	}
	config := map[string]any{}
	for k, v := range res.Best {
		config[k] = v
	}
	tr := trained(t, p, map[string]any{"config": config, "seed": 2, "select": "auc"})
	if tr.ValAUC != res.ValAUC {
		t.Errorf("training the chosen settings: val AUC %v (%d epochs), the search's %v (%+v); config %v", tr.ValAUC, tr.Epochs, res.ValAUC, *res.Chosen, config)
	}
	var restored ModelInfo
	p.call("checkpoints.load", map[string]any{"key": tr.Key}, &restored)
	for k, v := range res.Best {
		if tr.Config[k] != v || restored.Config[k] != v {
			t.Errorf("%s: chosen %q, trained with %q, restored %q", k, v, tr.Config[k], restored.Config[k])
		}
	}
}

// scoreOf is the kept score of candidate c among trials.
func scoreOf(trials []TuneTrial, c int) float64 {
	for _, t := range trials {
		if t.Candidate == c && !t.Current {
			return t.ValScore
		}
	}
	return math.NaN()
}

func TestTuneCancelAndBusy(t *testing.T) {
	p := newPage(t, &store.Memory{})
	_, files := smallSynth(t)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	// From the search goroutine itself, five epochs into the second trial
	// (the first is the current settings', which stops early by itself):
	// other requests find the engine busy, then the search is cancelled.
	_, est := wantPlan(t, p)
	fired := false // Yield runs on the search goroutine alone
	var busyTrain, busyExplain *Error
	var cancelled Reply
	var target int64
	p.e.opt.Yield = func() {
		p.mu.Lock()
		evs := p.tunes[target]
		p.mu.Unlock()
		if fired || len(evs) == 0 || evs[len(evs)-1].Done != 1 || evs[len(evs)-1].Epoch < 5 {
			return
		}
		fired = true
		busyTrain = p.callErr("train", trainArgs(2), nil)
		busyExplain = p.callErr("explain", map[string]any{"i": 0, "j": 1}, nil)
		cancelled = p.wait(p.send("cancel", map[string]any{"target": target}, nil))
	}
	p.mu.Lock()
	target = p.next + 1
	p.mu.Unlock()
	res, events := tuned(t, p, tuneArgs())
	ends := 0
	for _, ev := range events {
		if ev.Epoch == 0 {
			ends++
		}
	}
	if !res.Cancelled || len(res.Best) != 0 || len(res.Trials) != 1 || ends != 1 || res.Plan.Summary != est.Plan() {
		t.Fatalf("cancelled search: %+v, %d trial events", res, ends)
	}
	if last := events[len(events)-1]; last.Epoch == 0 || last.Done != 1 {
		t.Errorf("the last event, from inside the cancelled second trial: %+v", last)
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
		// SEAL's smallest search on this graph is about 2 minutes in a browser.
		{map[string]any{"budgetSeconds": 60, "model": "seal"}, "a budget of 1m is too small for seal on this graph (1000 nodes, 4243 edges): the smallest search is 3 candidates and the current settings, one round of 3 epochs"},
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
