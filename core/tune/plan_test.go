package tune

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"ilpgnn/core/models"
)

// Sizes of graphs the plans are tested on: synth:sparse, Cora, Amazon
// Photo (as ilpgnn inspect prints them).
var (
	sparseSize = Size{Nodes: 1000, Edges: 4243, FeatureNNZ: 128000, FeatureDim: 128}
	coraSize   = Size{Nodes: 2708, Edges: 5278, FeatureNNZ: 49216, FeatureDim: 1433}
	photoSize  = Size{Nodes: 7650, Edges: 119081, FeatureNNZ: 1979909, FeatureDim: 745}
)

func lookup(t *testing.T, name string) models.Spec {
	t.Helper()
	spec, err := models.Default().Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// Rounds says exactly the rounds Search runs: the trials of a search are
// its rounds' candidates at its rounds' epochs, and the current settings,
// which Rounds counts in the last round, train once, first, to the
// model's maximum (100 epochs, or the user's 8).
func TestRoundsAreSearchs(t *testing.T) {
	for _, opt := range []Options{
		{Candidates: 9, Eta: 3, MinEpochs: 5},
		{Candidates: 20, Eta: 3, MinEpochs: 30}, // the grid has 8 besides the current q: 8 @30, 2 @90 and the current
		{Candidates: 27, Eta: 2, MinEpochs: 1},
		{Candidates: 1, Eta: 3, MinEpochs: 7},
		{Candidates: 9, Eta: 3, MinEpochs: 5, Fixed: map[string]string{"epochs": "8"}},
	} {
		opt.Seeds = []uint64{0}
		rounds, err := Rounds(scored, opt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Search(context.Background(), scored, noData, opt)
		if err != nil {
			t.Fatal(err)
		}
		maxEpochs := 100
		if opt.Fixed["epochs"] != "" {
			maxEpochs = 8
		}
		if first := res.Trials[0]; !first.Current || first.Epochs != maxEpochs || first.Trained != maxEpochs {
			t.Errorf("%+v: the first trial is %+v, want the current settings at %d epochs", opt, first, maxEpochs)
		}
		var ran []Round
		for _, tr := range res.Trials[1:] {
			if len(ran) < tr.Round {
				ran = append(ran, Round{Epochs: tr.Epochs})
			}
			if tr.Current {
				t.Errorf("%+v: the current settings trained again: %+v", opt, tr)
			}
			ran[tr.Round-1].Candidates++
		}
		ran[len(ran)-1].Current = true
		if !slices.Equal(rounds, ran) {
			t.Errorf("%+v: Rounds %v, Search ran %v", opt, rounds, ran)
		}
	}
}

// The estimate by hand: ILP-GNN, 9 candidates, rounds of 100 and 300
// epochs, the current settings in the last, two seeds.
func TestEstimateByHand(t *testing.T) {
	spec := lookup(t, "ilpgnn")
	opt := Options{Candidates: 9, Eta: 3, MinEpochs: 100, Seeds: []uint64{10, 11}}
	est, err := EstimateOf(spec, coraSize, opt)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := costOf("ilpgnn")
	epoch := c.Node*2708 + c.Edge*5278 + c.NNZ*49216 + c.EdgeDeg*5278*(2*5278.0/2708) + c.Width*1433 +
		c.Scale*math.Pow(2708, c.NodeExp)*math.Pow(5278, c.EdgeExp)
	setup := c.Setup + c.SetupEdge*5278 + c.SetupEpochs*epoch
	want := 9*2*(setup+100*epoch) + 4*2*(setup+300*epoch)
	if !slices.Equal(est.Rounds, []Round{{9, 100, false}, {3, 300, true}}) || !near(est.Seconds, want, 1e-9) || est.Trials() != 13 {
		t.Errorf("estimate %+v, want rounds 9@100, 3@300 and the current settings, 13 trials and %.3f s", est, want)
	}
	if got := EpochSeconds("ilpgnn", coraSize); !near(got, epoch, 1e-12) {
		t.Errorf("EpochSeconds %v, want %v", got, epoch)
	}
	// By hand: 2.57e-6 · 2708^0.095 · 5278^1.08 + 1.7e-6 · 1433 = 0.057056 + 0.002436.
	if got := EpochSeconds("ilpgnn", coraSize); !near(got, 0.059492, 1e-5) {
		t.Errorf("EpochSeconds %v, want 0.059492 by hand", got)
	}
	if EpochSeconds("cn", coraSize) != 0 {
		t.Error("a heuristic has epochs")
	}
	if _, err := EstimateOf(lookup(t, "cn"), coraSize, opt); err == nil {
		t.Error("an estimate for a heuristic")
	}
}

func near(a, b, rel float64) bool { return a == b || (a-b)*(a-b) <= rel*rel*b*b }

// Every plan fits its budget; a bigger budget never plans a smaller
// search (fewer candidates or a shorter first round) or a shorter
// estimate; the same arguments give the same plan.
func TestPlanGrows(t *testing.T) {
	for _, spec := range models.Default() {
		if len(spec.Space) == 0 {
			continue
		}
		for _, size := range []Size{sparseSize, coraSize, photoSize} {
			var last Options
			var lastEst Estimate
			planned := 0
			for budget := 10 * time.Second; budget <= 48*time.Hour; budget = budget * 5 / 4 {
				opt, est, err := Plan(spec, size, budget, Options{Seeds: []uint64{10, 11}})
				if err != nil {
					if planned > 0 {
						t.Fatalf("%s %v: %v after a plan fitted a smaller budget", spec.Name, budget, err)
					}
					continue
				}
				planned++
				if est.Seconds > budget.Seconds() {
					t.Errorf("%s %v: estimate %.0f s over the budget", spec.Name, budget, est.Seconds)
				}
				if opt.Candidates < last.Candidates || opt.MinEpochs < last.MinEpochs || est.Seconds < lastEst.Seconds {
					t.Errorf("%s %v: %s after %s", spec.Name, budget, est, lastEst)
				}
				if again, againEst, _ := Plan(spec, size, budget, Options{Seeds: []uint64{10, 11}}); again.Candidates != opt.Candidates || again.MinEpochs != opt.MinEpochs || againEst.Seconds != est.Seconds {
					t.Errorf("%s %v: planned twice, %s and %s", spec.Name, budget, est, againEst)
				}
				if opt.Eta != planEta || !slices.Equal(opt.Seeds, []uint64{10, 11}) {
					t.Errorf("%s: plan %+v", spec.Name, opt)
				}
				last, lastEst = opt, est
			}
			// The largest plan searches the whole grid (where it fits 48
			// hours: SEAL and WalkPooling on Photo do not): every point
			// but the current settings, which the last round trains.
			if grid := gridSize(spec.Space); size != photoSize && last.Candidates != grid-1 {
				t.Errorf("%s: 48 h plan %s, want all %d other points", spec.Name, lastEst, grid-1)
			}
		}
	}
}

// Rounds grow to a long first round before candidates grow: 100 epochs
// for ILP-GNN, the model's own 30 for SEAL (one round: its maximum).
func TestPlanPrefersLongRounds(t *testing.T) {
	for _, tc := range []struct {
		model  string
		epochs int
		rounds int
	}{{"ilpgnn", 100, 1}, {"gae", 100, 1}, {"seal", 30, 1}, {"conpi", 200, 1}} { // 5 candidates, 5/3 = 1 left after one round
		spec := lookup(t, tc.model)
		_, small, err := Plan(spec, coraSize, 48*time.Hour, Options{Seeds: []uint64{0}})
		if err != nil {
			t.Fatal(err)
		}
		for budget := time.Second; budget < 48*time.Hour; budget = budget * 11 / 10 {
			opt, est, err := Plan(spec, coraSize, budget, Options{Seeds: []uint64{0}})
			if err == nil && opt.Candidates > planEta {
				small = est
				break
			}
		}
		if small.Candidates() != 5 || small.Rounds[0].Epochs != tc.epochs || len(small.Rounds) != tc.rounds {
			t.Errorf("%s: first plan with more than %d candidates is %s, want rounds from %d epochs", tc.model, planEta, small, tc.epochs)
		}
	}
}

// A budget too small says the smallest budget that works, and that one
// does.
func TestPlanTooSmall(t *testing.T) {
	spec := lookup(t, "ilpgnn")
	_, _, err := Plan(spec, photoSize, time.Second, Options{Seeds: []uint64{0}})
	if err == nil || !strings.Contains(err.Error(), "too small for ilpgnn") {
		t.Fatalf("a 1 s budget on Photo: %v", err)
	}
	msg := err.Error()
	need, perr := time.ParseDuration(msg[strings.LastIndex(msg, " ")+1:])
	if perr != nil {
		t.Fatalf("no budget at the end of %q: %v", msg, perr)
	}
	opt, est, err := Plan(spec, photoSize, need, Options{Seeds: []uint64{0}})
	if err != nil || opt.Candidates != planEta || est.Rounds[0].Epochs > longRound/4 {
		t.Errorf("the budget it named, %v: %s, %v", need, est, err)
	}
	if _, _, err := Plan(lookup(t, "cn"), photoSize, time.Hour, Options{}); err == nil {
		t.Error("a plan for a heuristic")
	}
}

// The cost model against the measurements it was fitted to
// (docs/tuning.md, "The cost model"): CPU seconds per epoch, from
// ilpgnn train --epochs A and B on seed 0, within the 1.31x written there.
func TestEpochSecondsMeasured(t *testing.T) {
	medium := Size{Nodes: 1000, Edges: 9576, FeatureNNZ: 128000, FeatureDim: 128}
	citeseer := Size{Nodes: 3327, Edges: 4552, FeatureNNZ: 105165, FeatureDim: 3703}
	dense := Size{Nodes: 1000, Edges: 19826, FeatureNNZ: 128000, FeatureDim: 128}
	computers := Size{Nodes: 13752, Edges: 245861, FeatureNNZ: 3675081, FeatureDim: 767}
	cs := Size{Nodes: 18333, Edges: 81894, FeatureNNZ: 1092079, FeatureDim: 6805}
	arxiv := Size{Nodes: 169343, Edges: 1166243, FeatureNNZ: 21675904, FeatureDim: 128}
	for _, m := range []struct {
		model string
		size  Size
		sec   float64
	}{
		// ILP-GNN: wall seconds of one thread on a quiet machine
		// (docs/tuning.md), from synth:medium to the arxiv-sized graph.
		{"ilpgnn", sparseSize, 0.038}, {"ilpgnn", medium, 0.090}, {"ilpgnn", dense, 0.219}, {"ilpgnn", coraSize, 0.059}, {"ilpgnn", citeseer, 0.064},
		{"ilpgnn", photoSize, 1.923}, {"ilpgnn", computers, 4.799}, {"ilpgnn", cs, 1.192}, {"ilpgnn", arxiv, 27.003},
		// 50 nodes with 250,000 and 1,000,000 feature columns (the input
		// layers dominate): user seconds of --epochs 6 minus --epochs 2.
		{"ilpgnn", Size{Nodes: 50, Edges: 193, FeatureNNZ: 1000, FeatureDim: 250000}, 0.49},
		{"ilpgnn", Size{Nodes: 50, Edges: 193, FeatureNNZ: 1000, FeatureDim: 1000000}, 1.48},
		{"gae", sparseSize, 0.0214}, {"gae", medium, 0.0209}, {"gae", coraSize, 0.0383}, {"gae", citeseer, 0.0487}, {"gae", photoSize, 0.2184},
		{"vgae", sparseSize, 0.0273}, {"vgae", medium, 0.0415}, {"vgae", coraSize, 0.0792}, {"vgae", citeseer, 0.0646}, {"vgae", photoSize, 0.3071},
		{"gat", sparseSize, 0.0551}, {"gat", medium, 0.0670}, {"gat", coraSize, 0.0904}, {"gat", citeseer, 0.1170}, {"gat", photoSize, 0.6595},
		{"conpi", sparseSize, 0.4862}, {"conpi", medium, 1.7884}, {"conpi", coraSize, 0.5910}, {"conpi", citeseer, 0.7297},
		{"seal", sparseSize, 6.2579}, {"seal", medium, 36.634}, {"seal", coraSize, 4.5441}, {"seal", citeseer, 1.6762},
		{"wp", sparseSize, 8.2957}, {"wp", medium, 61.688}, {"wp", coraSize, 5.0366}, {"wp", citeseer, 3.2566},
	} {
		got := EpochSeconds(m.model, m.size)
		if r := got / m.sec; r > 1.31 || r < 1/1.31 {
			t.Errorf("%s on %d nodes, %d edges: %.4f s an epoch, measured %.4f (x%.2f)", m.model, m.size.Nodes, m.size.Edges, got, m.sec, r)
		}
	}
}

// OnThreads by hand: one thread is the estimate itself, two take
// 0.14 + 0.86/2 = 0.57 of it, none counts as one.
func TestOnThreads(t *testing.T) {
	for _, c := range []struct {
		threads int
		want    float64
	}{{1, 10}, {2, 5.7}, {4, 10 * (0.14 + 0.86/4)}, {0, 10}} {
		if got := OnThreads(10, c.threads); !near(got, c.want, 1e-12) {
			t.Errorf("OnThreads(10, %d) = %v, want %v", c.threads, got, c.want)
		}
	}
}

// FuzzPlan: for any graph size, budget and model, a plan fits its budget
// and is what EstimateOf says of its options, or the error names a
// budget that plans.
func FuzzPlan(f *testing.F) {
	f.Add(uint8(0), uint32(2708), uint32(5278), uint32(49216), int64(5*time.Minute), uint8(2))
	f.Add(uint8(6), uint32(1000), uint32(4243), uint32(128000), int64(time.Second), uint8(1))
	f.Add(uint8(7), uint32(1), uint32(9999999), uint32(0), int64(time.Hour), uint8(3))
	reg := models.Default()
	f.Fuzz(func(t *testing.T, model uint8, nodes, edges, nnz uint32, budget int64, seeds uint8) {
		spec := reg[int(model)%len(reg)]
		s := Size{Nodes: int(nodes % 1e6), Edges: int(edges % 1e7), FeatureNNZ: int(nnz % 1e8)}
		opt := Options{Seeds: make([]uint64, 1+seeds%4)}
		got, est, err := Plan(spec, s, time.Duration(budget), opt)
		if len(spec.Space) == 0 {
			if err == nil {
				t.Fatalf("%s planned", spec.Name)
			}
			return
		}
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "cannot be tuned") && est.Seconds == 0 {
				return // more than a year for the smallest search
			}
			need, perr := time.ParseDuration(msg[strings.LastIndex(msg, " ")+1:])
			if perr != nil || !strings.Contains(msg, "give a budget of at least") {
				t.Fatalf("%v", err)
			}
			if _, _, err := Plan(spec, s, need, opt); err != nil {
				t.Fatalf("the budget named, %v: %v", need, err)
			}
			return
		}
		again, err := EstimateOf(spec, s, got)
		if err != nil || est.Seconds > time.Duration(budget).Seconds() || again.Seconds != est.Seconds || !slices.Equal(again.Rounds, est.Rounds) {
			t.Fatalf("%s %+v %v: plan %+v, estimate %+v, again %+v, %v", spec.Name, s, time.Duration(budget), got, est, again, err)
		}
	})
}

// A slower host (the browser) states its own seconds and plans for them:
// Options.Slowdown scales the estimate, so a budget plans the search the
// native cost model fits into budget/Slowdown.
func TestPlanSlowdown(t *testing.T) {
	spec := lookup(t, "ilpgnn")
	opt := Options{Candidates: 9, Eta: 3, MinEpochs: 100, Seeds: []uint64{0}}
	native, err := EstimateOf(spec, coraSize, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Slowdown = WasmSlowdown
	slow, err := EstimateOf(spec, coraSize, opt)
	if err != nil || !near(slow.Seconds, WasmSlowdown*native.Seconds, 1e-12) || !slices.Equal(slow.Rounds, native.Rounds) {
		t.Errorf("slowed estimate %+v (%v), native %+v", slow, err, native)
	}
	for _, budget := range []time.Duration{3 * time.Minute, 20 * time.Minute, 2 * time.Hour} {
		want, wantEst, err := Plan(spec, coraSize, time.Duration(float64(budget)/WasmSlowdown), Options{Seeds: []uint64{0}})
		if err != nil {
			t.Fatal(err)
		}
		got, gotEst, err := Plan(spec, coraSize, budget, Options{Seeds: []uint64{0}, Slowdown: WasmSlowdown})
		if err != nil || got.Candidates != want.Candidates || got.MinEpochs != want.MinEpochs ||
			!near(gotEst.Seconds, WasmSlowdown*wantEst.Seconds, 1e-12) || gotEst.Seconds > budget.Seconds() {
			t.Errorf("budget %v in the browser: %+v %s (%v), want the native plan of %v: %+v %s", budget, got, gotEst, err, budget, want, wantEst)
		}
	}
}
