package engine

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

// smallSynth generates a small synthetic graph with groundtruth (fast
// enough for the WebAssembly run of the tests) and returns it with the
// files `ilpgnn synth` writes for it.
func smallSynth(t *testing.T) (*synth.Dataset, map[string][]byte) {
	t.Helper()
	cfg := synth.DefaultConfig()
	cfg.Nodes, cfg.Groups, cfg.FeatureDim, cfg.Edges, cfg.KGT = 160, 4, 16, 700, 2
	d, err := synth.Generate(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	return d, synthFiles(t, d)
}

// synthFiles returns the files `ilpgnn synth` writes for d, by name, as a
// page would drop them.
func synthFiles(t *testing.T, d *synth.Dataset) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, name := range []string{synth.EdgesFile, synth.FeaturesFile, synth.GroundtruthFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	return files
}

// trained trains the current model and waits until the run has released
// the engine: the run posts its result just before it does, so a request
// sent at once could still find it busy (natively; not under WebAssembly,
// where nothing runs in between).
func trained(t testing.TB, p *page, args map[string]any) TrainResult {
	t.Helper()
	var tr TrainResult
	p.call("train", args, &tr)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if _, busy := p.e.busy(); !busy {
			return tr
		}
		if time.Now().After(deadline) {
			t.Fatal("training does not release the engine")
		}
	}
}

// heldOutPredictor rebuilds, outside the engine, the current model's
// predictor on its split's training graph: from the exported checkpoint,
// on the generated dataset.
func heldOutPredictor(t *testing.T, p *page, d *synth.Dataset) (train.Config, *ilpgnn.Predictor, []graph.Edge, []graph.Edge) {
	t.Helper()
	ex := p.call("checkpoints.export", nil, nil)
	ck, err := checkpoint.Unmarshal(ex.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	m, cfg, err := models.OpenILPGNN(ck, d.Graph)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := (&dataset.Dataset{Graph: d.Graph, Truth: d}).Split(cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		t.Fatal(err)
	}
	in, err := ilpgnn.Prepare(sp.Train, cfg.Model)
	if err != nil {
		t.Fatal(err)
	}
	// The calibration saved with the model.
	whole, _, err := models.OpenPredictor(ck, d.Graph)
	if err != nil {
		t.Fatal(err)
	}
	pred := ilpgnn.NewPredictor(m, in)
	pred.Temperature, pred.Bias, pred.CalibrationError = whole.Temperature, whole.Bias, whole.CalibrationError
	return cfg, pred, sp.TestPos, sp.TestNeg
}

// wantCalibration recomputes the reliability bins and ECEs of the test
// pairs by hand: p = 1/(1+e^-(logit/T + b)), ten bins of width 0.1.
func wantCalibration(pred *ilpgnn.Predictor, pos, neg []graph.Edge) (counts [10]int, ece, raw float64) {
	logits := pred.Logits(append(append([]graph.Edge{}, pos...), neg...))
	eceOf := func(T, bias float64, counts *[10]int) float64 {
		var n, sumP, links [10]float64
		for k, l := range logits {
			p := 1 / (1 + math.Exp(-(float64(l)/T + bias)))
			b := min(int(p*10), 9)
			n[b]++
			sumP[b] += p
			if k < len(pos) {
				links[b]++
			}
			if counts != nil {
				counts[b]++
			}
		}
		var e float64
		for b := range n {
			if n[b] > 0 {
				e += math.Abs(sumP[b]-links[b]) / float64(len(logits))
			}
		}
		return e
	}
	ece = eceOf(pred.Temperature, pred.Bias, &counts)
	return counts, ece, eceOf(1, 0, nil)
}

// wantDist explains every pair with Explain and gathers its selected
// neighbours in Explain's order.
func wantDist(t *testing.T, pred *ilpgnn.Predictor, pairs []graph.Edge) Dist {
	t.Helper()
	d := Dist{Weight: []float64{}, Attribution: []float64{}, Score: []float64{}, Structure: []float64{}, Features: []float64{}, Prob: []float64{}}
	for _, e := range pairs {
		ex, err := pred.Explain(int(e.U), int(e.V))
		if err != nil {
			t.Fatal(err)
		}
		if ex.Linked {
			t.Fatalf("test pair %v is an edge of the training graph", e)
		}
		d.Prob = append(d.Prob, ex.Prob)
		for _, side := range []explain.Side{ex.I, ex.J} {
			for _, n := range side.Neighbors {
				if n.Selected {
					d.Weight = append(d.Weight, n.Weight)
					d.Attribution = append(d.Attribution, n.Attribution)
					d.Score = append(d.Score, n.Score)
					d.Structure = append(d.Structure, n.Structure)
					d.Features = append(d.Features, n.Features)
				}
			}
		}
	}
	return d
}

// Insight and fidelity measure the current model on its split's test pairs
// as an independent recomputation does: Explain on a predictor rebuilt
// from the checkpoint, and Logits / LogitsWithout with eval.AUC.
func TestInsightAndFidelity(t *testing.T) {
	d, files := smallSynth(t)
	p := newPage(t, nil)
	for _, op := range []string{"insight", "fidelity"} {
		if e := p.callErr(op, nil, nil); e.Code != CodeNoGraph {
			t.Errorf("%s without a graph: %+v", op, e)
		}
	}
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	for _, op := range []string{"insight", "fidelity"} {
		if e := p.callErr(op, nil, nil); e.Code != CodeNoModel {
			t.Errorf("%s without a model: %+v", op, e)
		}
	}
	tr := trained(t, p, map[string]any{"config": map[string]any{"epochs": 3}, "seed": 5, "save": false})
	cfg, pred, pos, neg := heldOutPredictor(t, p, d)
	if len(pos) == 0 || len(neg) == 0 {
		t.Fatalf("%d test positives, %d negatives", len(pos), len(neg))
	}

	var in Insight
	p.call("insight", map[string]any{}, &in)
	if in.K != cfg.Model.K || in.Pairs.Linked != len(pos) || in.Pairs.Unlinked != len(neg) {
		t.Errorf("insight: k %d, pairs %+v; want k %d, %d linked, %d unlinked", in.K, in.Pairs, cfg.Model.K, len(pos), len(neg))
	}
	for _, c := range []struct {
		name      string
		got, want Dist
	}{{"linked", in.Linked, wantDist(t, pred, pos)}, {"unlinked", in.Unlinked, wantDist(t, pred, neg)}} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("insight %s:\n got %+v\nwant %+v", c.name, c.got, c.want)
		}
		if len(c.got.Weight) == 0 || len(c.got.Weight) > 2*cfg.Model.K*len(c.got.Prob) {
			t.Errorf("insight %s: %d selected neighbours for %d pairs", c.name, len(c.got.Weight), len(c.got.Prob))
		}
	}
	// The calibration of the test pairs, at the model's temperature.
	counts, ece, raw := wantCalibration(pred, pos, neg)
	cal := in.Calibration
	if cal.Temperature != pred.Temperature || cal.Bias != pred.Bias || cal.Temperature == 1 || math.Abs(cal.ECE-ece) > 1e-9 || math.Abs(cal.ECEUncalibrated-raw) > 1e-9 || len(cal.Bins) != 10 {
		t.Errorf("insight calibration: T %v, ECE %v, uncalibrated %v; want T %v (not 1), %v, %v", cal.Temperature, cal.ECE, cal.ECEUncalibrated, pred.Temperature, ece, raw)
	}
	for b, bin := range cal.Bins {
		if bin.Count != counts[b] {
			t.Errorf("insight reliability bin %d: %d pairs, want %d", b, bin.Count, counts[b])
		}
	}

	// Fidelity, with the host's yields counted.
	var yields int
	p.e.opt.Yield = func() { yields++ }
	id := p.send("fidelity", map[string]any{"maxM": 3}, nil)
	r := p.wait(id)
	if r.Type != "result" {
		t.Fatalf("fidelity: %+v", r.Error)
	}
	var fi FidelityResult
	roundTrip(t, r.Result, &fi)
	pairs := append(slices.Clone(pos), neg...)
	full := pred.Logits(pairs)
	auc := eval.AUC(full[:len(pos)], full[len(pos):])
	if fi.AUC != auc || fi.AUC != tr.TestAUC || len(fi.Points) != 3 {
		t.Fatalf("fidelity: %+v; want AUC %v (trained %v) and 3 points", fi, auc, tr.TestAUC)
	}
	pred.Seed = cfg.Seed // the run's seed draws the random neighbours
	for k, pt := range fi.Points {
		cut := pred.LogitsWithout(pairs, k+1)
		want := eval.AUC(cut[:len(pos)], cut[len(pos):])
		if pt.M != k+1 || pt.AUC != want || pt.DeltaAUC != auc-want {
			t.Errorf("fidelity point %d: %+v, want auc %v, ΔAUC %v", k, pt, want, auc-want)
		}
		var random float64
		for d := range ilpgnn.RandomDraws {
			s := pred.LogitsWithoutRandom(pairs, k+1, d)
			random += eval.AUC(s[:len(pos)], s[len(pos):]) / ilpgnn.RandomDraws
		}
		if pt.RandomAUC != random || pt.RandomDeltaAUC != auc-random {
			t.Errorf("fidelity point %d: random removal %+v, want auc %v, ΔAUC %v", k, pt, random, auc-random)
		}
	}
	steps := p.steps[id]
	if len(steps) != 3 || yields != 3 {
		t.Fatalf("fidelity: %d progress events, %d yields; want 3 each", len(steps), yields)
	}
	for k, s := range steps {
		if s.Step != k+1 || s.Steps != 3 || s.ElapsedMs < 0 || s.ElapsedMs > fi.Millis || (k > 0 && s.ElapsedMs < steps[k-1].ElapsedMs) {
			t.Errorf("progress %d: %+v (result ms %v)", k, s, fi.Millis)
		}
	}
	var def FidelityResult
	p.call("fidelity", nil, &def)
	if len(def.Points) != 4 || !reflect.DeepEqual(def.Points[:3], fi.Points) {
		t.Errorf("fidelity with the default maxM: %+v", def.Points)
	}

	// One held-out predictor serves evaluate, insight and fidelity.
	h := p.e.model.held
	var evl Evaluation
	p.call("evaluate", nil, &evl)
	if p.e.model.held != h || evl.TestAUC != auc {
		t.Errorf("evaluate: test AUC %v (want %v), predictor rebuilt: %v", evl.TestAUC, auc, p.e.model.held != h)
	}

	for _, args := range []map[string]any{{"maxM": 0}, {"maxM": 11}, {"m": 2}} {
		if e := p.callErr("fidelity", args, nil); e.Code != CodeBadRequest {
			t.Errorf("fidelity %v: %+v", args, e)
		}
	}
	if e := p.callErr("insight", map[string]any{"top": 1}, nil); e.Code != CodeBadRequest {
		t.Errorf("insight with an unknown arg: %+v", e)
	}
}

// While training runs, insight, fidelity and ranking get busy like the
// other model operations.
func TestInsightBusy(t *testing.T) {
	_, files := smallSynth(t)
	p := newPage(t, nil)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	var once sync.Once
	busy := make(chan [3]Reply, 1)
	p.onProgress = func(target int64, _ Progress) {
		once.Do(func() {
			busy <- [3]Reply{p.wait(p.send("insight", nil, nil)), p.wait(p.send("fidelity", nil, nil)), p.wait(p.send("ranking", nil, nil))}
			p.wait(p.send("cancel", map[string]any{"target": target}, nil))
		})
	}
	r := p.wait(p.send("train", map[string]any{"config": map[string]any{"epochs": 500, "patience": 500}, "save": false}, nil))
	if r.Type != "result" {
		t.Fatalf("train: %+v", r.Error)
	}
	for _, b := range <-busy {
		if b.Type != "error" || b.Error.Code != CodeBusy {
			t.Errorf("during training: %+v", b)
		}
	}
}

// explain carries the groundtruth of a synthetic graph's links, oriented to
// the pair as asked, and nothing for other pairs or graphs.
func TestExplainGroundtruth(t *testing.T) {
	d, files := smallSynth(t)
	p := newPage(t, nil)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	trained(t, p, map[string]any{"config": map[string]any{"epochs": 1}, "save": false})

	roles := map[synth.Role]string{synth.Train: "train", synth.Validation: "validation", synth.Test: "test"}
	seen := map[synth.Role]bool{}
	for _, l := range d.Links {
		if seen[l.Role] || slices.Equal(l.WhyU, l.WhyV) {
			continue // one asymmetric link of each role
		}
		seen[l.Role] = true
		u, v := int(l.Edge.U), int(l.Edge.V)
		for _, c := range []struct {
			i, j        int
			whyI, whyJ  []int32
			orientation string
		}{{u, v, l.WhyU, l.WhyV, "u, v"}, {v, u, l.WhyV, l.WhyU, "v, u"}} {
			var ex Explanation
			p.call("explain", map[string]any{"i": c.i, "j": c.j}, &ex)
			gt := ex.Groundtruth
			if ex.Explanation == nil || ex.I.Node != c.i || ex.J.Node != c.j || !ex.Linked {
				t.Fatalf("explain(%s) of link %v: %+v", c.orientation, l.Edge, ex.Explanation)
			}
			if gt == nil || !slices.Equal(gt.I, c.whyI) || !slices.Equal(gt.J, c.whyJ) || gt.Role != roles[l.Role] {
				t.Errorf("explain(%s) of %s link %v: groundtruth %+v, want i %v, j %v", c.orientation, roles[l.Role], l.Edge, gt, c.whyI, c.whyJ)
			}
			// Every groundtruth node neighbours its end.
			for _, n := range gt.I {
				if !d.Graph.HasEdge(c.i, int(n)) {
					t.Errorf("groundtruth node %d of side i is not a neighbour of %d", n, c.i)
				}
			}
		}
	}
	if len(seen) != 3 {
		t.Fatalf("links of roles %v only", seen)
	}

	// A pair that is no explained link has none.
	var i, j int
	for j = 1; d.Graph.HasEdge(i, j); j++ {
	}
	r := p.call("explain", map[string]any{"i": i, "j": j}, nil)
	if b, _ := json.Marshal(r.Result); strings.Contains(string(b), "groundtruth") {
		t.Errorf("explain of a non-edge: %s", b)
	}
	// Nor has anything on a graph without groundtruth: the same graph
	// loaded from its edges and features alone.
	delete(files, synth.GroundtruthFile)
	var gi GraphInfo
	r = p.wait(p.send("load", nil, files))
	if r.Type != "result" {
		t.Fatalf("load without groundtruth: %+v", r.Error)
	}
	roundTrip(t, r.Result, &gi)
	if gi.HasGroundtruth {
		t.Fatalf("groundtruth from edges and features alone: %+v", gi)
	}
	if _, err := p.e.current(); err != nil {
		trained(t, p, map[string]any{"config": map[string]any{"epochs": 1}, "save": false})
	}
	l := d.Links[0]
	r = p.call("explain", map[string]any{"i": l.Edge.U, "j": l.Edge.V}, nil)
	if b, _ := json.Marshal(r.Result); strings.Contains(string(b), "groundtruth") {
		t.Errorf("explain on a graph without groundtruth: %s", b)
	}
}

// benchCora measures op on Cora with a model trained for two epochs: the
// first call (which prepares the held-out predictor, as the first of
// evaluate, insight and fidelity on a model does) as ms-first, then the
// following calls.
func benchCora(b *testing.B, op string, args any) {
	files := coraFiles(b)
	p := newPage(b, nil)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		b.Fatalf("load: %+v", r.Error)
	}
	trained(b, p, map[string]any{"config": map[string]any{"epochs": 2}, "save": false})
	start := time.Now()
	p.call(op, args, nil)
	first := float64(time.Since(start).Microseconds()) / 1000
	for b.Loop() {
		p.call(op, args, nil)
	}
	b.ReportMetric(first, "ms-first")
}

// BenchmarkCoraInsight: insight on Cora's 528 + 528 test pairs.
func BenchmarkCoraInsight(b *testing.B) { benchCora(b, "insight", nil) }

// BenchmarkCoraFidelity: fidelity for M = 1..4 on Cora's test pairs.
func BenchmarkCoraFidelity(b *testing.B) { benchCora(b, "fidelity", nil) }

// BenchmarkCoraExplainEach: what insight would cost through explain, one
// Explain per test pair (the comparison that motivated
// ilpgnn.Predictor.Selections).
func BenchmarkCoraExplainEach(b *testing.B) {
	files := coraFiles(b)
	p := newPage(b, nil)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		b.Fatalf("load: %+v", r.Error)
	}
	trained(b, p, map[string]any{"config": map[string]any{"epochs": 2}, "save": false})
	p.call("insight", nil, nil) // prepares the held-out predictor
	h := p.e.model.held
	pairs := append(slices.Clone(h.split.TestPos), h.split.TestNeg...)
	for b.Loop() {
		for _, e := range pairs {
			if _, err := h.pred.Explain(int(e.U), int(e.V)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
