package models_test

import (
	"bytes"
	"math"
	"testing"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
)

// TestCheckpointSelectionOrder: a run under --order score trains (finite
// loss, its own weights: the order reaches training's selection, so the
// checkpoint differs from the common-first run's), trains the same twice,
// records the order in the checkpoint, and opens to the same config and a
// predictor whose logits are the trained model's bit for bit.
func TestCheckpointSelectionOrder(t *testing.T) {
	g := plantedGraph(t, 120, 2)
	run := func(o ilpgnn.SelectionOrder) []byte {
		c := quickConfig(5)
		c.Epochs = 6
		c.Model.Order = o
		b, _ := trainedCheckpoint(t, g, c)
		return b
	}
	c := quickConfig(5)
	c.Epochs = 6
	c.Model.Order = ilpgnn.OrderScore
	score, res := trainedCheckpoint(t, g, c)
	if !bytes.Equal(score, run(ilpgnn.OrderScore)) {
		t.Error("order score: the same seed gave different checkpoint bytes")
	}
	if bytes.Equal(score, run(ilpgnn.OrderCommonFirst)) {
		t.Error("orders score and common-first trained the same checkpoint: the order does not reach training")
	}
	if len(res.History) == 0 {
		t.Fatal("no epoch recorded")
	}
	for _, e := range res.History {
		if math.IsNaN(e.Loss) || math.IsInf(e.Loss, 0) {
			t.Fatalf("epoch %d: loss %v", e.Epoch, e.Loss)
		}
	}
	ck, err := checkpoint.Unmarshal(score)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(ck.Config, []byte(`"Order":"score"`)) {
		t.Fatalf("the checkpoint does not record the order: %s", ck.Config)
	}
	p, cfg, err := models.OpenPredictor(ck, g)
	if err != nil {
		t.Fatal(err)
	}
	if cfg != res.Config || cfg.Model.Order != ilpgnn.OrderScore {
		t.Fatalf("config after the round trip %+v, want %+v", cfg, res.Config)
	}
	in, err := ilpgnn.Prepare(g, res.Config.Model)
	if err != nil {
		t.Fatal(err)
	}
	want := ilpgnn.NewPredictor(res.Model, in)
	pairs := []graph.Edge{{U: 0, V: 1}, {U: 3, V: 40}, {U: 7, V: 100}, {U: 59, V: 60}}
	got, exp := p.Logits(pairs), want.Logits(pairs)
	for k := range pairs {
		if math.Float32bits(got[k]) != math.Float32bits(exp[k]) {
			t.Errorf("%v: logit %v, the trained model's %v", pairs[k], got[k], exp[k])
		}
	}
}
