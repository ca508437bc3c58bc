package engine

import (
	"testing"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/dataset"
	"ilpgnn/core/models"
	"ilpgnn/core/models/modeltest"
	"ilpgnn/core/split"
)

// A model added to the registry (modeltest.Tiny, one file) appears in the
// engine without a line of it changing: in the ready message's model list,
// in defaults, in train and in compare. Tiny's AUCs are the cn
// heuristic's, computed here directly.
func TestRegisteredModel(t *testing.T) {
	nativeOnly(t, "a registered model appears everywhere")
	p := newPageOf(t, nil, append(models.Default(), modeltest.Tiny))
	ms := p.ready.Models
	if len(ms) != 10 || ms[0].Name != "ilpgnn" || !ms[0].Saves || ms[9].Name != "tiny" || ms[9].About != modeltest.Tiny.About || ms[1].Learns {
		t.Fatalf("ready models: %+v", ms)
	}
	var defs struct {
		Hyperparameters []Hyperparameter `json:"hyperparameters"`
	}
	p.call("defaults", map[string]any{"model": "tiny"}, &defs)
	if len(defs.Hyperparameters) != 3 || defs.Hyperparameters[2].Name != "weight" || defs.Hyperparameters[2].Value != "1" {
		t.Errorf("tiny defaults: %+v", defs)
	}
	p.call("generate", map[string]any{"preset": "sparse", "seed": 2}, nil)
	var got TrainResult
	p.call("train", map[string]any{"model": "tiny", "config": map[string]any{"weight": 2}}, &got)
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
	val, test := heuristic.SplitAUC(sp, heuristic.CommonNeighbours)
	if got.Model != "tiny" || got.TestAUC != test || got.ValAUC != val || got.Saved.Saved || got.Config["weight"] != "2" || got.P1 == nil {
		t.Errorf("tiny: %+v, want test AUC %v, validation %v", got, test, val)
	}
	var cmp Comparison
	p.call("compare", map[string]any{"i": 3, "j": 40, "top": 2}, &cmp)
	if len(cmp.Explainers) != 1 || cmp.Explainers[0].Model != "tiny" || cmp.Explainers[0].Method != "common" {
		t.Fatalf("compare: %+v", cmp)
	}
	if e := p.callErr("train", map[string]any{"model": "tiny", "config": map[string]any{"weight": 0}}, nil); e.Code != CodeBadRequest {
		t.Errorf("tiny with weight 0: %+v", e)
	}
}
