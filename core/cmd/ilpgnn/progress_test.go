package main

import (
	"strings"
	"testing"
	"time"

	"ilpgnn/core/models"
)

// TestEpochStatusLines: a report within an ILP-GNN epoch names its phase
// and shards, a pair model's its batch, an epoch's end its AUCs.
func TestEpochStatusLines(t *testing.T) {
	for _, c := range []struct {
		p    models.Progress
		want []string
	}{
		{models.Progress{Epoch: 2, MaxEpochs: 10, Phase: "selection and losses", Batch: 5, Batches: 16, BestValAUC: 0.9, BestEpoch: 1, Elapsed: 3 * time.Second},
			[]string{"epoch    2/10", "selection and losses  5/16", "best val AUC 0.9000 @1", "3s"}},
		{models.Progress{Epoch: 1, MaxEpochs: 4, Batch: 3, Batches: 8, Loss: 0.5},
			[]string{"epoch    1/4", "batch    3/8", "loss 0.5000"}},
		{models.Progress{Epoch: 3, MaxEpochs: 4, EpochDone: true, ValAUC: 0.75, BestValAUC: 0.8, BestEpoch: 2},
			[]string{"epoch    3/4", "val AUC 0.7500", "best val AUC 0.8000 @2"}},
	} {
		got := epochStatus(c.p, false)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("epochStatus(%+v) = %q, missing %q", c.p, got, w)
			}
		}
	}
}

// TestEpochStatusPrecision: a run kept on explanation precision says so,
// with the kept epoch's precision and its AUC apart from this epoch's.
func TestEpochStatusPrecision(t *testing.T) {
	p := models.Progress{Epoch: 7, MaxEpochs: 100, EpochDone: true, ValAUC: 0.9111, Score: 0.93, BestScore: 0.95, BestValAUC: 0.909, BestEpoch: 4}
	got := epochStatus(p, true)
	if want := "val AUC 0.9111  val precision 0.9300  kept @4: val precision 0.9500 (val AUC 0.9090)"; !strings.Contains(got, want) {
		t.Errorf("epochStatus = %q, want %q in it", got, want)
	}
	p.EpochDone, p.Phase, p.Batch, p.Batches = false, "selection and losses", 2, 8
	if got, want := epochStatus(p, true), "kept @4: val precision 0.9500 (val AUC 0.9090)"; !strings.Contains(got, want) {
		t.Errorf("within an epoch: %q, want %q in it", got, want)
	}
}
