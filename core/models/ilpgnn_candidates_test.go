package models_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/train"
)

// TestCandidatesCheckpoint: a model trained with a bound on candidates
// writes the bound into its checkpoint, VerifyILPGNN accepts it, and the reloaded
// model predicts bit-identically to the trained one; a model without the
// bound writes no Candidates field at all (the bytes of checkpoints from
// before the field existed); a negative bound edited in is refused.
func TestCandidatesCheckpoint(t *testing.T) {
	g := plantedGraph(t, 120, 2)
	cfg := quickConfig(3)
	cfg.Epochs, cfg.Patience = 4, 4
	cfg.Model.Candidates = cfg.Model.K
	res, err := train.Run(context.Background(), g, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := models.ILPGNNCheckpoint(res, g, fingerprint.Of(g))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ck.Config), `"Candidates":3`) {
		t.Fatalf("config %s does not record the bound", ck.Config)
	}
	back := resum(t, ck)
	got, _, err := models.VerifyILPGNN(back, g)
	if err != nil {
		t.Fatal(err)
	}
	if got.Model.Candidates != cfg.Model.K {
		t.Fatalf("VerifyILPGNN read candidates %d, want %d", got.Model.Candidates, cfg.Model.K)
	}
	m, _, err := models.OpenILPGNN(back, g)
	if err != nil {
		t.Fatal(err)
	}
	// Pairs whose sides the bound cuts, checked against the trained model.
	var pairs []graph.Edge
	for i := range g.NumNodes() {
		if g.Degree(i) > cfg.Model.K {
			pairs = append(pairs, graph.Edge{U: int32(i), V: int32((i + 7) % g.NumNodes())})
		}
	}
	if len(pairs) < 10 {
		t.Fatalf("only %d nodes with more than %d neighbours", len(pairs), cfg.Model.K)
	}
	in := res.Inputs
	want := ilpgnn.NewPredictor(res.Model, in).Logits(pairs)
	gotLogits := ilpgnn.NewPredictor(m, in).Logits(pairs)
	for k := range want {
		if math.Float32bits(gotLogits[k]) != math.Float32bits(want[k]) {
			t.Fatalf("%v: reloaded logit %v, trained %v", pairs[k], gotLogits[k], want[k])
		}
	}
	// Without the bound the field is absent.
	plain := untrainedCheckpoint(t, g, 8)
	if strings.Contains(string(plain.Config), "Candidates") {
		t.Fatalf("a config without a bound writes %s", plain.Config)
	}
	// A negative bound is refused, by name.
	bad := resum(t, ck)
	editConfig(t, bad, func(v map[string]any) { modelConfig(v)["Candidates"] = -2 })
	bad = resum(t, bad)
	if _, _, err := models.VerifyILPGNN(bad, g); err == nil || !strings.Contains(err.Error(), "candidates") || !strings.Contains(err.Error(), "-2") {
		t.Fatalf("a negative bound: error %v", err)
	}
}
