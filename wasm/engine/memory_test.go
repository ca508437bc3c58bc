package engine

import (
	"math"
	"strings"
	"testing"

	"ilpgnn/core/shard"
	"ilpgnn/core/train"
	"ilpgnn/core/tune"
)

// loadCycle returns a page with a 4-node cycle loaded, and its info.
func loadCycle(t *testing.T) (*page, GraphInfo) {
	t.Helper()
	p := newPage(t, nil)
	var info GraphInfo
	r := p.wait(p.send("load", map[string]any{"name": "cycle"}, map[string][]byte{"edges.txt": []byte("0 1\n1 2\n2 3\n3 0\n")}))
	if r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	roundTrip(t, r.Result, &info)
	return p, info
}

// TestTrainRefusesTabMemory: settings whose training would need more than
// the 4 GiB a tab's engine holds are refused before any work, with the
// estimate (train.EstimateMemory's, the same as the command line's) and
// what to change; the graph stays loaded and a smaller run trains.
func TestTrainRefusesTabMemory(t *testing.T) {
	p, _ := loadCycle(t)
	const hidden = 20_000_000
	e := p.callErr("train", map[string]any{"config": map[string]any{"epochs": "1", "hidden": "20000000"}}, nil)
	g := p.e.data.d.Graph
	cfg := train.DefaultConfig()
	cfg.Model.Hidden = hidden
	est := train.EstimateMemory(g, cfg)
	refusal := est.Refusal(TabMemory, "a tab's engine holds")
	if refusal == nil || !strings.Contains(refusal.Error(), "(4.0 GiB); ") {
		t.Fatalf("train.EstimateMemory's refusal: %v", refusal)
	}
	want := "train: " + refusal.Error() + "; the command line (ilpgnn train) has all of the machine's memory"
	if e.Code != CodeBadRequest || e.Message != want {
		t.Errorf("error %+v\nwant %q", e, want)
	}
	if est.Bytes <= TabMemory {
		t.Fatalf("the estimate %d is not over the tab's memory: the test proves nothing", est.Bytes)
	}
	var tr TrainResult
	p.call("train", trainArgs(2), &tr)
	if tr.Epochs != 2 {
		t.Errorf("after the refusal: %+v", tr)
	}
}

// TestGraphInfoEstimates: a loaded graph's info carries the estimates the
// page states before training: the memory of train.EstimateMemory and an
// epoch's seconds in the tab, on one worker tune.EpochSeconds times the
// wasm slowdown, on two 0.14 + 0.86/2 = 0.57 of that, on every number of
// workers the engine accepts.
func TestGraphInfoEstimates(t *testing.T) {
	p, info := loadCycle(t)
	g := p.e.data.d.Graph
	if want := train.EstimateMemory(g, train.DefaultConfig()).Bytes; info.TrainMemoryBytes != want {
		t.Errorf("memory %d, want %d", info.TrainMemoryBytes, want)
	}
	one := tune.EpochSeconds("ilpgnn", tune.SizeOf(g)) * tune.WasmSlowdown
	if len(info.TrainEpochSeconds) != shard.Count || one <= 0 {
		t.Fatalf("%d epoch estimates (want %d), one worker's %v", len(info.TrainEpochSeconds), shard.Count, one)
	}
	if got := info.TrainEpochSeconds; math.Abs(got[0]-one) > 1e-12*one || math.Abs(got[1]-0.57*one) > 1e-12*one {
		t.Errorf("one and two workers: %v, %v s; want %v and %v", got[0], got[1], one, 0.57*one)
	}
	for k := 1; k < len(info.TrainEpochSeconds); k++ {
		if info.TrainEpochSeconds[k] >= info.TrainEpochSeconds[k-1] {
			t.Errorf("%d workers take %v s, %d take %v", k+1, info.TrainEpochSeconds[k], k, info.TrainEpochSeconds[k-1])
		}
	}
}
