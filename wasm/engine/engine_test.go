package engine

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ilpgnn/core/baselines/conpi"
	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/baselines/seal"
	"ilpgnn/core/baselines/walkpool"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/loop"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/wasm/store"
)

// page plays the web page: it sends requests and collects replies by id.
type page struct {
	t testing.TB
	e *Engine

	mu      sync.Mutex
	next    int64
	replies map[int64]chan Reply
	events  map[int64][]Progress
	// prepares holds the preparation's reports before the first epoch,
	// kept apart so events holds one report per epoch.
	prepares map[int64][]Progress
	steps    map[int64][]StepProgress // progress of foreground operations
	tunes    map[int64][]TuneProgress // progress of tune requests
	ready    *Info
	// onProgress, if set, runs on every progress event (from the training
	// goroutine), as a page reacting to it would.
	onProgress func(id int64, p Progress)
}

// nativeOnly skips t under js/wasm. What such a test checks is the
// engine's logic, the same Go in WebAssembly as natively, where it runs;
// under node run the tests whose behaviour depends on the platform (the
// event loop's yields, cancelling, the workers and their bits, memory,
// the one whole train-explain-reload flow), and the browser suite drives
// this engine in WebAssembly end to end. why names what the test does.
func nativeOnly(t *testing.T, why string) {
	t.Helper()
	if runtime.GOOS == "js" {
		t.Skip(why + ": the engine's logic, run natively (see nativeOnly)")
	}
}

func newPage(t testing.TB, st store.Store) *page { return newPageOf(t, st, nil) }

// newPageOf is newPage with the models of reg (nil: the default ones).
func newPageOf(t testing.TB, st store.Store, reg models.Registry) *page {
	return newPageWith(t, st, reg, nil)
}

// newPageWith is newPageOf whose engine options set changes (nil: none).
func newPageWith(t testing.TB, st store.Store, reg models.Registry, set func(*Options)) *page {
	p := &page{t: t, replies: map[int64]chan Reply{}, events: map[int64][]Progress{}, prepares: map[int64][]Progress{}, steps: map[int64][]StepProgress{}, tunes: map[int64][]TuneProgress{}}
	opt := Options{Models: reg}
	if st != nil {
		opt.Store = st
	} else {
		opt.StorageMessage = "no IndexedDB in this test"
	}
	opt.Post = p.post
	opt.Now = func() time.Time { return time.Unix(1_790_000_000, 0) }
	opt.Version = "test"
	if set != nil {
		set(&opt)
	}
	p.e = New(opt)
	if p.ready == nil {
		t.Fatal("no ready message")
	}
	return p
}

func (p *page) post(r Reply) {
	// Replies cross the worker boundary as JSON; make sure they encode.
	if _, err := json.Marshal(r); err != nil {
		p.t.Errorf("reply does not encode: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch r.Type {
	case "ready":
		p.ready = r.Engine
	case "progress":
		switch pr := r.Progress.(type) {
		case *Progress:
			if pr.Prepare != nil {
				p.prepares[*r.ID] = append(p.prepares[*r.ID], *pr)
				return
			}
			p.events[*r.ID] = append(p.events[*r.ID], *pr)
			if p.onProgress != nil {
				go p.onProgress(*r.ID, *pr)
			}
		case *StepProgress:
			p.steps[*r.ID] = append(p.steps[*r.ID], *pr)
		case *TuneProgress:
			p.tunes[*r.ID] = append(p.tunes[*r.ID], *pr)
		default:
			p.t.Errorf("progress of type %T", r.Progress)
		}
	default:
		p.chanFor(*r.ID) <- r
	}
}

func (p *page) chanFor(id int64) chan Reply {
	c, ok := p.replies[id]
	if !ok {
		c = make(chan Reply, 1)
		p.replies[id] = c
	}
	return c
}

// send issues a request and returns its id without waiting. An ILP-GNN
// train request gets ppr-eps testPPREps unless it sets its own
// (withTestPPREps).
func (p *page) send(op string, args any, files map[string][]byte) int64 {
	p.mu.Lock()
	p.next++
	id := p.next
	p.chanFor(id)
	p.mu.Unlock()
	raw, err := json.Marshal(withTestPPREps(op, args))
	if err != nil {
		p.t.Fatal(err)
	}
	p.e.Handle(context.Background(), Request{V: Protocol, ID: id, Op: op, Args: raw, Files: files})
	return id
}

func (p *page) wait(id int64) Reply {
	p.mu.Lock()
	c := p.chanFor(id)
	p.mu.Unlock()
	// A hang detector, not a speed limit: generous enough for a machine five
	// times slower, and under go test's -timeout (Makefile) so that a hung
	// request names itself.
	select {
	case r := <-c:
		return r
	case <-time.After(10 * time.Minute):
		p.t.Fatalf("no reply to request %d", id)
		return Reply{}
	}
}

// call sends a request, waits, and decodes a result into out (when non-nil).
func (p *page) call(op string, args any, out any) Reply {
	p.t.Helper()
	r := p.wait(p.send(op, args, nil))
	if r.Type != "result" {
		p.t.Fatalf("%s: %s reply: %+v", op, r.Type, r.Error)
	}
	if out != nil {
		roundTrip(p.t, r.Result, out)
	}
	return r
}

func (p *page) callErr(op string, args any, files map[string][]byte) *Error {
	p.t.Helper()
	r := p.wait(p.send(op, args, files))
	if r.Type != "error" {
		p.t.Fatalf("%s: want an error reply, got %s %+v", op, r.Type, r.Result)
	}
	return r.Error
}

// roundTrip re-decodes v as the page would see it.
func roundTrip(t testing.TB, v, out any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

func trainArgs(epochs int) map[string]any {
	return map[string]any{"config": map[string]any{"epochs": epochs}}
}

func TestTrainExplainReload(t *testing.T) {
	st := &store.Memory{}
	p := newPage(t, st)
	if !p.ready.Storage.Available || p.ready.Protocol != Protocol {
		t.Fatalf("ready: %+v", p.ready)
	}
	var gi GraphInfo
	p.call("generate", map[string]any{"preset": "sparse", "seed": 1}, &gi)
	if !gi.HasGroundtruth || gi.Synthetic == nil || gi.Nodes == 0 || len(gi.Fingerprint) != 64 {
		t.Fatalf("graph info: %+v", gi)
	}

	id := p.send("train", trainArgs(4), nil)
	r := p.wait(id)
	if r.Type != "result" {
		t.Fatalf("train: %+v", r.Error)
	}
	var tr TrainResult
	roundTrip(t, r.Result, &tr)
	if tr.Cancelled || !tr.Saved.Saved || tr.Epochs != 4 || tr.Seed != 1 || tr.P1 == nil || tr.SelectedOn != string(models.SelectPrecision) {
		t.Fatalf("train result: %+v", tr)
	}
	checkPrepareReports(t, p.prepares[id], 4, PrepareWhole, PrepareTraining)
	ev := p.events[id]
	if len(ev) != 4 {
		t.Fatalf("%d progress events, want one per epoch (4)", len(ev))
	}
	for k, e := range ev {
		if e.Epoch != k+1 || e.MaxEpochs != 4 || e.ElapsedMs <= 0 || e.ValAUC <= 0 || e.Loss <= 0 {
			t.Errorf("progress %d: %+v", k, e)
		}
		// A graph with groundtruth selects on precision, with its patience
		// unless one is asked for; the page's time-left estimate reads it.
		if e.Patience != models.PrecisionPatience {
			t.Errorf("progress %d: patience %d, want %d", k, e.Patience, models.PrecisionPatience)
		}
		// The model alone holds more than a MiB; the runtime cannot hold less.
		if e.MemoryBytes < 1<<20 {
			t.Errorf("progress %d: memory %d bytes", k, e.MemoryBytes)
		}
	}
	if ev[3].RemainingMs != 0 {
		t.Errorf("last epoch leaves %v ms", ev[3].RemainingMs)
	}

	// The engine's evaluation of the adopted model reproduces the
	// training run's own numbers.
	var evl Evaluation
	p.call("evaluate", nil, &evl)
	if evl.TestAUC != tr.TestAUC || evl.ValAUC != tr.ValAUC || *evl.P1 != *tr.P1 || *evl.P2 != *tr.P2 {
		t.Errorf("evaluate %+v, trained %+v", evl, tr)
	}
	if tr.TestHits == nil || evl.TestHits != *tr.TestHits {
		t.Errorf("test hits: evaluate %v, trained %v", evl.TestHits, tr.TestHits)
	}

	var before explain.Explanation
	p.call("explain", map[string]any{"i": 3, "j": 40}, &before)
	if before.Prob <= 0 || before.Prob >= 1 || before.I.Node != 3 || before.J.Node != 40 || before.Reading == "" {
		t.Fatalf("explanation: %+v", before)
	}
	// The counterfactual fields arrive as the model computes them: an
	// independent predictor from the exported checkpoint explains alike.
	ck, err := checkpoint.Unmarshal(p.call("checkpoints.export", map[string]any{"key": tr.Key}, nil).Bytes)
	if err != nil {
		t.Fatal(err)
	}
	src, err := dataset.Parse("synth:sparse:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(1)
	if err != nil {
		t.Fatal(err)
	}
	ref, _, err := models.OpenPredictor(ck, d.Graph)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Explain(3, 40)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&before, want) || before.RandomDraws != ilpgnn.RandomDraws || !(before.ProbRandomRemoved > 0) {
		t.Errorf("explanation:\n got %+v\nwant %+v", before, want)
	}
	for _, n := range append(before.I.Selected(), before.J.Selected()...) {
		if !(n.ProbWithout > 0) || n.Attribution == 0 {
			t.Errorf("selected neighbour %s: prob_without %v, attribution %v", n.ID, n.ProbWithout, n.Attribution)
		}
	}
	var sugg []explain.Suggestion
	p.call("suggest", map[string]any{"node": 3, "top": 5}, &sugg)
	if len(sugg) != 5 || sugg[0].Prob < sugg[4].Prob {
		t.Fatalf("suggestions: %+v", sugg)
	}

	// A new engine (a reloaded page) over the same store.
	q := newPage(t, st)
	q.call("generate", map[string]any{"preset": "sparse", "seed": 1}, nil)
	var list CheckpointList
	q.call("checkpoints.list", nil, &list)
	if len(list.Checkpoints) != 1 || !list.Checkpoints[0].Matches || list.Checkpoints[0].Key != tr.Key ||
		list.Checkpoints[0].Created != 1_790_000_000 || list.Checkpoints[0].Metrics["test_auc"] != tr.TestAUC {
		t.Fatalf("listing: %+v", list)
	}
	var mi ModelInfo
	q.call("checkpoints.load", map[string]any{"key": tr.Key}, &mi)
	if !reflect.DeepEqual(mi, tr.ModelInfo) {
		t.Errorf("loaded %+v, trained %+v", mi, tr.ModelInfo)
	}
	var after explain.Explanation
	q.call("explain", map[string]any{"i": 3, "j": 40}, &after)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("explanation changed across a reload:\n%+v\n%+v", before, after)
	}

	// Export gives the stored bytes; import into a fresh store lists it.
	ex := q.call("checkpoints.export", map[string]any{"key": tr.Key}, nil)
	stored, err := st.Get(context.Background(), tr.Key)
	if err != nil || string(ex.Bytes) != string(stored) {
		t.Fatalf("export: %d bytes, stored %d (%v)", len(ex.Bytes), len(stored), err)
	}
	if name := ex.Result.(map[string]string)["filename"]; !strings.HasSuffix(name, ".ckpt") || !strings.Contains(name, "seed1") {
		t.Errorf("export filename %q", name)
	}
	other := newPage(t, nil)
	var imp struct {
		Meta   CheckpointEntry `json:"meta"`
		Status SaveStatus      `json:"status"`
	}
	r = other.wait(other.send("checkpoints.import", nil, map[string][]byte{"model.ckpt": ex.Bytes}))
	roundTrip(t, r.Result, &imp)
	if imp.Meta.Key != tr.Key || imp.Status.Saved || imp.Status.Key != tr.Key || !strings.Contains(imp.Status.Message, "no IndexedDB") {
		t.Fatalf("import: %+v", imp)
	}

	// Delete.
	q.call("checkpoints.delete", map[string]any{"key": tr.Key}, nil)
	q.call("checkpoints.list", nil, &list)
	if len(list.Checkpoints) != 0 {
		t.Fatalf("after delete: %+v", list)
	}
	if e := q.callErr("checkpoints.load", map[string]any{"key": tr.Key}, nil); e.Code != CodeNotFound {
		t.Errorf("load of a deleted key: %+v", e)
	}
}

func TestBadInput(t *testing.T) {
	p := newPage(t, nil)
	r := p.wait(p.send("load", map[string]any{"name": "tiny"}, map[string][]byte{"edges.csv": []byte("a,b\nb,c\nc,a\nc,d\n")}))
	if r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	var gi GraphInfo
	roundTrip(t, r.Result, &gi)
	if gi.Name != "tiny" || gi.Nodes != 4 || gi.Edges != 4 || gi.FeatureDim != 4 {
		t.Fatalf("graph: %+v", gi)
	}
	// No features file: the engine made up one-hot ids, and says so.
	if want := "one-hot node ids (the input has no numeric or categorical node attributes)"; gi.MadeUpFeatures != want {
		t.Errorf("madeUpFeatures %q, want %q", gi.MadeUpFeatures, want)
	}
	e := p.callErr("load", nil, map[string][]byte{"edges.csv": []byte("a,b\nb\n")})
	if e.Code != CodeBadInput || e.File != "edges.csv" || e.Line != 2 || e.Message == "" || strings.Contains(e.Message, "edges.csv") {
		t.Fatalf("bad file: %+v", e)
	}
	e = p.callErr("load", nil, map[string][]byte{"x.npz": []byte("PK\x03\x04 not a zip")})
	if e.Code != CodeBadInput || e.File != "x.npz" {
		t.Fatalf("bad npz: %+v", e)
	}
	// The previous graph is still loaded and the engine still serves.
	var d Description
	p.call("describe", nil, &d)
	if d.Name != "tiny" || len(d.IDs) != 4 || len(d.EdgeList) != 8 || d.Edges != 4 || d.Degrees[2] != 3 {
		t.Fatalf("describe after bad files: %+v", d)
	}
	for k := 0; k < len(d.EdgeList); k += 2 {
		if d.EdgeList[k] >= d.EdgeList[k+1] {
			t.Errorf("edge %d,%d not listed once with i < j", d.EdgeList[k], d.EdgeList[k+1])
		}
	}
}

func TestRequestErrors(t *testing.T) {
	p := newPage(t, nil)
	cases := []struct {
		op   string
		args any
		code string
	}{
		{"explain", map[string]any{"i": 0, "j": 1}, CodeNoGraph},
		{"describe", nil, CodeNoGraph},
		{"train", nil, CodeNoGraph},
		{"frobnicate", nil, CodeBadRequest},
		{"generate", map[string]any{"preset": "huge", "seed": 0}, CodeBadRequest},
		{"generate", map[string]any{"preset": "sparse"}, CodeBadRequest},
		{"generate", map[string]any{"preset": "sparse", "seed": 0, "extra": 1}, CodeBadRequest},
		{"train", map[string]any{"config": map[string]any{"learning-rate": 1}}, CodeBadRequest},
		{"train", map[string]any{"config": map[string]any{"lr": -1}}, CodeBadRequest},
		{"train", map[string]any{"config": map[string]any{"epochs": "many"}}, CodeBadRequest},
		{"train", map[string]any{"select": "loss"}, CodeBadRequest},
		{"train", map[string]any{"select": "rank"}, CodeBadRequest},
		{"checkpoints.load", nil, CodeBadRequest},
		{"checkpoints.import", nil, CodeBadRequest},
		{"cancel", nil, CodeBadRequest},
	}
	for _, c := range cases {
		if e := p.callErr(c.op, c.args, nil); e.Code != c.code || e.Message == "" {
			t.Errorf("%s %v: got %+v, want code %s", c.op, c.args, e, c.code)
		}
	}
	r := p.wait(func() int64 {
		p.e.Handle(context.Background(), Request{V: 2, ID: 99, Op: "info"})
		return 99
	}())
	if r.Type != "error" || r.Error.Code != CodeVersion || *r.ID != 99 {
		t.Fatalf("version 2: %+v", r)
	}
	e := p.callErr("checkpoints.import", nil, map[string][]byte{"junk.ckpt": []byte("hello")})
	if e.Code != CodeBadInput || e.File != "junk.ckpt" || !strings.Contains(e.Message, checkpoint.ErrNotCheckpoint.Error()) {
		t.Errorf("junk import: %+v", e)
	}
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	for op, args := range map[string]any{
		"explain": map[string]any{"i": 0, "j": 1}, "suggest": map[string]any{"node": 0},
		"evaluate": nil, "checkpoints.save": nil, "checkpoints.export": nil,
	} {
		if e := p.callErr(op, args, nil); e.Code != CodeNoModel {
			t.Errorf("%s without a model: %+v", op, e)
		}
	}
	var defs struct {
		Hyperparameters []Hyperparameter `json:"hyperparameters"`
	}
	p.call("defaults", nil, &defs)
	byName := map[string]Hyperparameter{}
	for _, h := range defs.Hyperparameters {
		byName[h.Name] = h
	}
	if byName["alpha"].Value != "0.02" || byName["k"].Value != "3" || byName["init"].Value != "isometric" || byName["lr"].Help == "" {
		t.Errorf("defaults: %+v", defs)
	}
}

// TestCancelAndBusy: while an ILP-GNN run trains, its best weights so far
// answer explain and suggest, naming their epoch, and the operations that
// need the finished model are busy; a cancel keeps the best weights, which
// can be saved on request. The answer during training is the one a run
// stopped at that epoch gives once finished, bit for bit.
func TestCancelAndBusy(t *testing.T) {
	p := newPage(t, &store.Memory{})
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	cancelled := make(chan Reply, 1)
	during := make(chan [3]Reply, 1)
	var once sync.Once
	var id int64
	p.onProgress = func(target int64, pr Progress) {
		if pr.Epoch != 2 {
			return
		}
		once.Do(func() {
			ex := p.wait(p.send("explain", map[string]any{"i": 0, "j": 1}, nil))
			sug := p.wait(p.send("suggest", map[string]any{"node": 0, "top": 3}, nil))
			ev := p.wait(p.send("evaluate", nil, nil))
			during <- [3]Reply{ex, sug, ev}
			cancelled <- p.wait(p.send("cancel", map[string]any{"target": target}, nil))
		})
	}
	id = p.send("train", map[string]any{"config": map[string]any{"epochs": 500, "patience": 500}}, nil)
	r := p.wait(id)
	if r.Type != "result" {
		t.Fatalf("train: %+v", r.Error)
	}
	var tr TrainResult
	roundTrip(t, r.Result, &tr)
	// The requests run beside the training goroutine: a few epochs may pass
	// before the cancel.
	if !tr.Cancelled || tr.Saved.Saved || !strings.Contains(tr.Saved.Message, "cancelled") || tr.Epochs >= 100 {
		t.Fatalf("cancelled run: %+v", tr)
	}
	if tr.StoppedDuring != 0 && tr.StoppedDuring != tr.Epochs+1 {
		t.Errorf("stopped during epoch %d after %d epochs", tr.StoppedDuring, tr.Epochs)
	}
	d := <-during
	if d[0].Type != "result" || d[1].Type != "result" {
		t.Fatalf("explain and suggest during training: %+v, %+v", d[0].Error, d[1].Error)
	}
	if d[2].Type != "error" || d[2].Error.Code != CodeBusy {
		t.Errorf("evaluate during training: %+v", d[2])
	}
	var live Explanation
	roundTrip(t, d[0].Result, &live)
	if live.Weights == nil || !live.Weights.Training || live.Weights.Epoch < 1 || live.Weights.Epoch > 2 {
		t.Fatalf("explanation during training names weights %+v, want epoch 1 or 2 of the run", live.Weights)
	}
	if c := <-cancelled; c.Type != "result" || !c.Result.(map[string]bool)["cancelled"] {
		t.Errorf("cancel reply: %+v", c)
	}
	// The best weights so far are usable, and can be saved on request.
	var ex Explanation
	p.call("explain", map[string]any{"i": 0, "j": 1}, &ex)
	if ex.Weights != nil {
		t.Errorf("the current model's explanation names training weights %+v", ex.Weights)
	}
	// Kept the weights that answered during training, the model (which
	// took their embeddings) explains as they did.
	if tr.BestEpoch == live.Weights.Epoch && (ex.Prob != live.Prob || ex.Logit != live.Logit) {
		t.Errorf("kept epoch %d: p %v logit %v; during training p %v logit %v", tr.BestEpoch, ex.Prob, ex.Logit, live.Prob, live.Logit)
	}
	var st SaveStatus
	p.call("checkpoints.save", nil, &st)
	if !st.Saved || st.Key != tr.Key {
		t.Errorf("save after cancel: %+v", st)
	}
	// Stopped by the user, the run answered before its test evaluation;
	// evaluate measures it, and the stored checkpoint keeps what the run's
	// own predictor measured, the same AUC.
	if !tr.TestPending || tr.TestAUC != 0 {
		t.Errorf("cancelled run: test pending %v, test AUC %v; want pending and 0", tr.TestPending, tr.TestAUC)
	}
	var ev Evaluation
	p.call("evaluate", nil, &ev)
	var list CheckpointList
	p.call("checkpoints.list", nil, &list)
	if len(list.Checkpoints) != 1 || list.Checkpoints[0].Meta.Metrics[models.TestAUCMetric] != ev.TestAUC || ev.TestAUC < 0.6 {
		t.Errorf("after evaluate: test AUC %v, stored %+v", ev.TestAUC, list.Checkpoints)
	}
	var c struct{ Cancelled bool }
	p.call("cancel", map[string]any{"target": id}, &c)
	if c.Cancelled {
		t.Error("cancelling a finished run reports success")
	}

	// A run of as many epochs as the answering weights had keeps the same
	// weights, and its finished model explains the pair as they did.
	// The whole graph was prepared by the first run: this one prepares
	// only its training graph.
	oid := p.send("train", map[string]any{"save": false, "config": map[string]any{"epochs": live.Weights.Epoch, "patience": 500}}, nil)
	if oracle := p.wait(oid); oracle.Type != "result" {
		t.Fatalf("oracle run: %+v", oracle.Error)
	}
	p.mu.Lock()
	prepared := p.prepares[oid]
	p.mu.Unlock()
	checkPrepareReports(t, prepared, live.Weights.Epoch, PrepareTraining)
	var done Explanation
	p.call("explain", map[string]any{"i": 0, "j": 1}, &done)
	if done.Prob != live.Prob || done.Logit != live.Logit || len(done.I.Neighbors) != len(live.I.Neighbors) {
		t.Fatalf("finished run of %d epochs: p %v, logit %v; during training: p %v, logit %v", live.Weights.Epoch, done.Prob, done.Logit, live.Prob, live.Logit)
	}
	for k, n := range done.I.Neighbors {
		if m := live.I.Neighbors[k]; n.Node != m.Node || n.Score != m.Score || n.Weight != m.Weight {
			t.Errorf("neighbour %d of i: finished %+v, during training %+v", k, n, m)
		}
	}
}

func TestMismatchAndQuota(t *testing.T) {
	nativeOnly(t, "checkpoint mismatch and the store quota")
	st := &store.Memory{}
	p := newPage(t, st)
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	var tr TrainResult
	p.call("train", trainArgs(2), &tr)

	p.call("generate", map[string]any{"preset": "sparse", "seed": 1}, nil)
	if e := p.callErr("explain", map[string]any{"i": 0, "j": 1}, nil); e.Code != CodeNoModel {
		t.Errorf("the old graph's model survived a new graph: %+v", e)
	}
	var list CheckpointList
	p.call("checkpoints.list", nil, &list)
	if len(list.Checkpoints) != 1 || list.Checkpoints[0].Matches {
		t.Fatalf("listing on another graph: %+v", list)
	}
	if e := p.callErr("checkpoints.load", map[string]any{"key": tr.Key}, nil); e.Code != CodeMismatch || !strings.Contains(e.Message, "another graph") {
		t.Errorf("load on another graph: %+v", e)
	}

	full := newPage(t, &store.Memory{Limit: 100})
	full.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	full.call("train", trainArgs(2), &tr)
	if tr.Saved.Saved || !strings.Contains(tr.Saved.Message, "quota") {
		t.Errorf("save past the quota: %+v", tr.Saved)
	}
	if e := full.callErr("explain", map[string]any{"i": 0, "j": 10_000}, nil); e.Code != CodeNotFound {
		t.Errorf("node out of range: %+v", e)
	}
	var ex explain.Explanation
	full.call("explain", map[string]any{"i": 0, "j": 1}, &ex) // the model is kept all the same
}

// Without IndexedDB (a private window) nothing is saved, but the session
// keeps its checkpoints in memory and says so.
func TestNoPersistentStorage(t *testing.T) {
	p := newPage(t, nil)
	if p.ready.Storage.Available || p.ready.Storage.Message == "" {
		t.Fatalf("ready: %+v", p.ready)
	}
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	var tr TrainResult
	p.call("train", trainArgs(2), &tr)
	if tr.Saved.Saved || tr.Saved.Key != tr.Key || !strings.HasPrefix(tr.Saved.Message, "not saved: ") {
		t.Fatalf("save without storage: %+v", tr.Saved)
	}
	var list CheckpointList
	p.call("checkpoints.list", nil, &list)
	if list.Available || list.Message == "" || len(list.Checkpoints) != 1 {
		t.Fatalf("listing without storage: %+v", list)
	}
	p.call("checkpoints.load", map[string]any{"key": tr.Key}, nil)
}

// A folder written by `ilpgnn synth`, dropped as files, loads with its
// groundtruth, and trains and explains as the generated graph does.
func TestLoadSynthFiles(t *testing.T) {
	nativeOnly(t, "loads a synth folder dropped as files")
	d, err := synth.Generate(mustPreset(t, "sparse"), 4)
	if err != nil {
		t.Fatal(err)
	}
	files := synthFiles(t, d)
	p := newPage(t, nil)
	var gen, dropped GraphInfo
	p.call("generate", map[string]any{"preset": "sparse", "seed": 4}, &gen)
	r := p.wait(p.send("load", nil, files))
	if r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	roundTrip(t, r.Result, &dropped)
	if !dropped.HasGroundtruth || dropped.Fingerprint != gen.Fingerprint || dropped.Synthetic != nil {
		t.Fatalf("dropped synth folder: %+v, generated %+v", dropped, gen)
	}
	var tr TrainResult
	p.call("train", map[string]any{"config": map[string]any{"epochs": 2}, "seed": 4}, &tr)
	if tr.P1 == nil {
		t.Errorf("no precision on a graph with groundtruth: %+v", tr)
	}
	delete(files, synth.FeaturesFile)
	if e := p.callErr("load", nil, files); e.Code != CodeBadInput || e.File != synth.FeaturesFile {
		t.Errorf("synth folder without features.csv: %+v", e)
	}
}

func mustPreset(t *testing.T, name string) synth.Config {
	t.Helper()
	c, err := synth.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The table 1 baselines train through the engine on the same split as
// ILP-GNN and leave the current model alone.
func TestBaselines(t *testing.T) {
	nativeOnly(t, "trains the table 1 baselines through the engine")
	p := newPage(t, nil)
	p.call("generate", map[string]any{"preset": "sparse", "seed": 2}, nil)
	var ilp TrainResult
	p.call("train", trainArgs(2), &ilp)

	var cn TrainResult
	p.call("train", map[string]any{"model": "cn"}, &cn)
	src, err := dataset.Parse("synth:sparse:seed=2")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(2)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(2, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	want := eval.AUC(heuristic.Scores(sp.Train, heuristic.CommonNeighbours, sp.TestPos), heuristic.Scores(sp.Train, heuristic.CommonNeighbours, sp.TestNeg))
	if cn.Model != "cn" || cn.TestAUC != want || cn.Saved.Saved || cn.Seed != 2 {
		t.Errorf("cn: %+v, want test AUC %v", cn, want)
	}
	cnPos, cnNeg := heuristic.Scores(sp.Train, heuristic.CommonNeighbours, sp.TestPos), heuristic.Scores(sp.Train, heuristic.CommonNeighbours, sp.TestNeg)
	if wantHits := (eval.Hits{At20: eval.HitsAtK(cnPos, cnNeg, 20), At50: eval.HitsAtK(cnPos, cnNeg, 50), At100: eval.HitsAtK(cnPos, cnNeg, 100)}); cn.TestHits == nil || *cn.TestHits != wantHits {
		t.Errorf("cn: test hits %v, want %+v", cn.TestHits, wantHits)
	}

	id := p.send("train", map[string]any{"model": "gat", "config": map[string]any{"epochs": 3}}, nil)
	r := p.wait(id)
	if r.Type != "result" {
		t.Fatalf("gat: %+v", r.Error)
	}
	var gat TrainResult
	roundTrip(t, r.Result, &gat)
	if gat.Model != "gat" || gat.Epochs != 3 || len(p.events[id]) != 3 || gat.P1 == nil || gat.Config["heads"] == "" {
		t.Errorf("gat: %+v (%d progress events)", gat, len(p.events[id]))
	}
	// A larger cut-off lowers the threshold, so Hits@k cannot fall with k.
	if h := gat.TestHits; h == nil || !(0 <= h.At20 && h.At20 <= h.At50 && h.At50 <= h.At100 && h.At100 <= 1) {
		t.Errorf("gat: test hits %v", gat.TestHits)
	}
	// Compare: GAT by attention, GAE by GNNExplainer, on the whole graph.
	p.call("train", map[string]any{"model": "gae", "config": map[string]any{"epochs": 3}}, nil)
	var cmp Comparison
	p.call("compare", map[string]any{"i": 3, "j": 40, "top": 4}, &cmp)
	if len(cmp.Explainers) != 2 || cmp.Explainers[0].Model != "gae" || cmp.Explainers[0].Method != "gnnexplainer" ||
		cmp.Explainers[1].Model != "gat" || cmp.Explainers[1].Method != "attention" {
		t.Fatalf("compare: %+v", cmp)
	}
	rank, err := p.e.trained["gat"].(*models.GNN).Run.Model.AttentionRanker(d.Graph)
	if err != nil {
		t.Fatal(err)
	}
	want3 := rank(3, 40)
	for k, n := range cmp.Explainers[1].I {
		if n.Node != want3[k] || n.ID != d.Graph.IDs[n.Node] || n.Weight != nil {
			t.Errorf("GAT side i rank %d: %+v, want node %d", k, n, want3[k])
		}
	}
	g := cmp.Explainers[0]
	if len(g.I) != min(4, d.Graph.Degree(3)) {
		t.Errorf("GNNExplainer side i: %d neighbours of %d", len(g.I), d.Graph.Degree(3))
	}
	for k, n := range g.I {
		if !d.Graph.HasEdge(3, int(n.Node)) || n.Node == 40 || n.Weight == nil || *n.Weight <= 0 || *n.Weight >= 1 ||
			(k > 0 && *n.Weight > *g.I[k-1].Weight) {
			t.Errorf("GNNExplainer side i rank %d: %+v", k, n)
		}
	}

	// ILP-GNN's model is still the one that explains.
	var mi ModelInfo
	var list CheckpointList
	p.call("checkpoints.list", nil, &list)
	if len(list.Checkpoints) != 1 || list.Checkpoints[0].Key != ilp.Key {
		t.Errorf("baselines touched the checkpoints: %+v", list)
	}
	p.call("checkpoints.load", map[string]any{"key": ilp.Key}, &mi)

	var defs struct {
		Hyperparameters []Hyperparameter `json:"hyperparameters"`
	}
	p.call("defaults", map[string]any{"model": "vgae"}, &defs)
	names := map[string]bool{}
	for _, h := range defs.Hyperparameters {
		names[h.Name] = true
	}
	if !names["lr"] || !names["out"] || names["alpha"] {
		t.Errorf("vgae defaults: %+v", defs)
	}
	for _, args := range []map[string]any{
		{"model": "nope"},
		{"model": "gae", "config": map[string]any{"alpha": 0.1}},
		{"model": "gae", "config": map[string]any{"lr": -1}},
	} {
		if e := p.callErr("train", args, nil); e.Code != CodeBadRequest {
			t.Errorf("train %v: %+v", args, e)
		}
	}
	if e := p.callErr("defaults", map[string]any{"model": "nope"}, nil); e.Code != CodeBadRequest {
		t.Errorf("defaults of an unknown model: %+v", e)
	}
	// Another graph leaves nothing to compare with.
	p.call("generate", map[string]any{"preset": "sparse", "seed": 3}, nil)
	p.call("compare", map[string]any{"i": 3, "j": 40}, &cmp)
	if len(cmp.Explainers) != 0 || cmp.Message == "" {
		t.Errorf("compare on a new graph: %+v", cmp)
	}
}

// The pair models train on ILP-GNN's split with the command line's
// numbers, report progress within epochs, and CONPI joins compare with its
// context masses over the whole graph.
func TestPairModels(t *testing.T) {
	nativeOnly(t, "compares the engine's pair models with the packages' own runs")
	p := newPage(t, nil)
	p.call("generate", map[string]any{"preset": "sparse", "seed": 2}, nil)
	src, err := dataset.Parse("synth:sparse:seed=2")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(2)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(2, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	small := map[string]map[string]any{
		"conpi": {"epochs": 2, "pairs-per-epoch": 200, "hidden": 16, "dim": 16},
		"seal":  {"epochs": 1, "pairs-per-epoch": 64},
		"wp":    {"epochs": 1, "pairs-per-epoch": 64},
	}
	for _, name := range []string{"seal", "wp", "conpi"} {
		id := p.send("train", map[string]any{"model": name, "config": small[name], "seed": 2}, nil)
		r := p.wait(id)
		if r.Type != "result" {
			t.Fatalf("%s: %+v", name, r.Error)
		}
		var got TrainResult
		roundTrip(t, r.Result, &got)
		// The same run directly.
		want := runPairDirectly(t, name, small[name], sp)
		if got.Model != name || got.TestAUC != want.TestAUC || got.Epochs != want.Epochs || got.Saved.Saved || got.Config["lr"] == "" {
			t.Errorf("%s: %+v, want test AUC %v after %d epochs", name, got, want.TestAUC, want.Epochs)
		}
		if got.TestHits == nil || *got.TestHits != want.TestHits {
			t.Errorf("%s: test hits %v, want %+v", name, got.TestHits, want.TestHits)
		}
		if (name == "conpi") != (got.P1 != nil) {
			t.Errorf("%s: explanation precision %v", name, got.P1)
		}
		var ends int
		for _, ev := range p.events[id] {
			if ev.Batches == 0 || ev.Batch > ev.Batches {
				t.Errorf("%s: progress %+v", name, ev)
			}
			if ev.Batch == ev.Batches {
				ends++
			}
		}
		if ends != got.Epochs {
			t.Errorf("%s: %d end-of-epoch reports for %d epochs", name, ends, got.Epochs)
		}
	}
	// A graph too large for per-link epochs in a tab is refused, unless
	// the epochs are capped.
	var big strings.Builder
	for k := range MaxTabPairs + 1 {
		fmt.Fprintf(&big, "%d,%d\n", k, k+1)
	}
	files := map[string][]byte{"edges.csv": []byte(big.String())}
	q := newPage(t, nil)
	if r := q.wait(q.send("load", map[string]any{"name": "path"}, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	if e := q.callErr("train", map[string]any{"model": "seal"}, nil); e.Code != CodeBadRequest || !strings.Contains(e.Message, "pairs-per-epoch") {
		t.Errorf("seal on %d edges: %+v", MaxTabPairs+1, e)
	}
	var capped TrainResult
	q.call("train", map[string]any{"model": "wp", "config": map[string]any{"epochs": 1, "pairs-per-epoch": 16}}, &capped)
	if capped.Epochs != 1 {
		t.Errorf("capped wp: %+v", capped)
	}

	var cmp Comparison
	p.call("compare", map[string]any{"i": 3, "j": 40, "top": 3}, &cmp)
	if len(cmp.Explainers) != 1 || cmp.Explainers[0].Model != "conpi" || cmp.Explainers[0].Method != "context" {
		t.Fatalf("compare: %+v", cmp)
	}
	whole, err := p.e.trained["conpi"].(*models.Pair).CONPI.On(d.Graph)
	if err != nil {
		t.Fatal(err)
	}
	rank := whole.Ranker()(3, 40)
	side := cmp.Explainers[0].I
	if len(side) != min(3, len(rank)) {
		t.Fatalf("conpi side i: %+v, ranker %v", side, rank)
	}
	for k, n := range side {
		if n.Node != rank[k] || !d.Graph.HasEdge(3, int(n.Node)) || n.Weight == nil || *n.Weight < 0 || *n.Weight > 1 {
			t.Errorf("conpi side i rank %d: %+v, want node %d", k, n, rank[k])
		}
	}
}

// runPairDirectly trains the named pair model on sp with seed 2 and the
// settings given, through its own package rather than the registry.
func runPairDirectly(t *testing.T, name string, settings map[string]any, sp *split.Split) loop.Result {
	t.Helper()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	var run func() (loop.Result, error)
	switch name {
	case "seal":
		c := seal.DefaultConfig()
		c.RegisterFlags(fs)
		run = func() (loop.Result, error) {
			c.Fit.Seed = 2
			r, err := pairfit.Fit(context.Background(), sp, c.Fit, c.Build, nil)
			return r.Result, err
		}
	case "wp":
		c := walkpool.DefaultConfig()
		c.RegisterFlags(fs)
		run = func() (loop.Result, error) {
			c.Fit.Seed = 2
			r, err := pairfit.Fit(context.Background(), sp, c.Fit, c.Build, nil)
			return r.Result, err
		}
	case "conpi":
		c := conpi.DefaultConfig()
		c.RegisterFlags(fs)
		run = func() (loop.Result, error) {
			c.Fit.Seed = 2
			r, err := pairfit.Fit(context.Background(), sp, c.Fit, c.Build, nil)
			return r.Result, err
		}
	}
	for k, v := range settings {
		if err := fs.Set(k, fmt.Sprint(v)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := run()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestDivergedRun: a run whose weights blow up is an error reply naming
// the epoch and a lower learning rate, for ILP-GNN and a baseline; the
// graph and the model trained before stay loaded and usable, and the next
// run trains. A learning rate that is not a positive finite number is
// refused before any run starts.
func TestDivergedRun(t *testing.T) {
	p := newPage(t, nil)
	// A circulant graph: 40 nodes, 120 edges, so 12 test links.
	var edges strings.Builder
	for i := range 40 {
		for _, k := range []int{1, 2, 5} {
			fmt.Fprintf(&edges, "%d %d\n", i, (i+k)%40)
		}
	}
	if r := p.wait(p.send("load", map[string]any{"name": "circulant"}, map[string][]byte{"edges.txt": []byte(edges.String())})); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	var before TrainResult
	p.call("train", trainArgs(2), &before)

	for _, args := range []map[string]any{
		{"config": map[string]any{"epochs": 20, "lr": 1e30, "warmup": 0}},
		{"model": "gae", "config": map[string]any{"epochs": 20, "lr": 1e30}},
	} {
		id := p.send("train", args, nil)
		r := p.wait(id)
		if r.Type != "error" {
			t.Fatalf("%v: %s reply %+v, want an error", args, r.Type, r.Result)
		}
		// The epochs reported are those before the one that diverged.
		bad := len(p.events[id]) + 1
		want := fmt.Sprintf("epoch %d: ", bad)
		if r.Error.Code != CodeBadRequest || !strings.Contains(r.Error.Message, want) ||
			!strings.Contains(r.Error.Message, "training diverged; try a lower learning rate than 1e+30") {
			t.Errorf("%v: error %+v, want it to name %q", args, r.Error, want)
		}
	}
	var d Description
	p.call("describe", nil, &d)
	var evl Evaluation
	p.call("evaluate", nil, &evl)
	if d.Nodes == 0 || evl.TestAUC != before.TestAUC {
		t.Errorf("after divergence: graph of %d nodes, model test AUC %v (was %v)", d.Nodes, evl.TestAUC, before.TestAUC)
	}
	p.call("explain", map[string]any{"i": 3, "j": 20}, nil)
	var again TrainResult
	p.call("train", trainArgs(2), &again)
	if again.TestAUC != before.TestAUC || again.Warning != "" {
		t.Errorf("retrained: %+v, first %+v", again, before)
	}
	for _, lr := range []any{"Inf", 0, -1, "NaN"} {
		e := p.callErr("train", map[string]any{"config": map[string]any{"lr": lr}}, nil)
		if e.Code != CodeBadRequest || !strings.Contains(e.Message, "learning rate must be positive and finite") {
			t.Errorf("lr %v: %+v", lr, e)
		}
		e = p.callErr("train", map[string]any{"model": "gat", "config": map[string]any{"lr": lr}}, nil)
		if e.Code != CodeBadRequest || !strings.Contains(e.Message, "learning rate must be positive and finite") {
			t.Errorf("gat lr %v: %+v", lr, e)
		}
	}
}

// TestFewTestLinksWarning: on a 4-cycle the split holds out one test
// link, and every model's result says its AUC is not meaningful.
func TestFewTestLinksWarning(t *testing.T) {
	p := newPage(t, nil)
	r := p.wait(p.send("load", map[string]any{"name": "cycle"}, map[string][]byte{"edges.txt": []byte("0 1\n1 2\n2 3\n3 0\n")}))
	if r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	for _, args := range []map[string]any{trainArgs(2), {"model": "cn"}, {"model": "gae", "config": map[string]any{"epochs": 2}}} {
		var tr TrainResult
		p.call("train", args, &tr)
		if !strings.Contains(tr.Warning, "the test AUC is not meaningful: the split holds out only 1 test link") {
			t.Errorf("%v: warning %q", args, tr.Warning)
		}
		// Without groundtruth ILP-GNN keeps its weights on validation AUC
		// and says so; the baselines select on nothing else.
		if want := map[bool]string{true: string(models.SelectAUC)}[args["model"] == nil]; tr.SelectedOn != want {
			t.Errorf("%v: selected on %q, want %q", args, tr.SelectedOn, want)
		}
	}
}

// checkPrepareReports checks the preparation's reports of an ILP-GNN run
// against ilpgnn.PrepareContext's contract, once per graph prepared, in
// order (graphs: PrepareWhole then PrepareTraining on a graph's first
// run, PrepareTraining alone after it): the structure similarity's columns
// counted up to every node, then the features, then the adjacency, each
// ending with Done == Total, all before epoch 1 (Epoch 0).
func checkPrepareReports(t *testing.T, reports []Progress, maxEpochs int, graphs ...string) {
	t.Helper()
	phases := []string{ilpgnn.PhaseSimilarity, ilpgnn.PhaseFeatures, ilpgnn.PhaseAdjacency}
	var want, got []string
	for _, g := range graphs {
		for _, ph := range phases {
			want = append(want, g+" "+ph)
		}
	}
	prevDone := -1
	for k, r := range reports {
		pr := r.Prepare
		if r.Epoch != 0 || r.MaxEpochs != maxEpochs || pr.Done > pr.Total || pr.Total < 1 || r.ElapsedMs < 0 {
			t.Errorf("preparation report %d: %+v %+v", k, r, *pr)
		}
		name := pr.Graph + " " + pr.Phase
		if len(got) == 0 || got[len(got)-1] != name {
			got = append(got, name)
			prevDone = -1
		}
		if pr.Done < prevDone {
			t.Errorf("preparation report %d: %s went back from %d to %d", k, name, prevDone, pr.Done)
		}
		prevDone = pr.Done
		last := k == len(reports)-1 || reports[k+1].Prepare.Phase != pr.Phase || reports[k+1].Prepare.Graph != pr.Graph
		if last && pr.Done != pr.Total {
			t.Errorf("preparation report %d ends %s at %d of %d", k, name, pr.Done, pr.Total)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("preparation phases %q, want %q", got, want)
	}
}

// When the store is lost after ready (another tab upgraded the database),
// the page hears it unasked: a storage message without an id, saying why.
func TestStorageLost(t *testing.T) {
	var replies []Reply
	e := New(Options{Post: func(r Reply) { replies = append(replies, r) }})
	e.StorageLost("updated in another tab")
	if len(replies) != 2 || replies[0].Type != "ready" {
		t.Fatalf("replies: %+v", replies)
	}
	r := replies[1]
	if r.Type != "storage" || r.ID != nil || r.Storage == nil || r.Storage.Available || r.Storage.Message != "updated in another tab" {
		t.Fatalf("storage message: %+v", r)
	}
	b, err := json.Marshal(r)
	if err != nil || string(b) != `{"v":1,"type":"storage","storage":{"available":false,"message":"updated in another tab"}}` {
		t.Fatalf("storage message encodes as %s (%v)", b, err)
	}
}
