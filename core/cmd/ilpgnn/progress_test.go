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
			[]string{"epoch    3/4", "val AUC 0.7500", "best 0.8000 @2"}},
	} {
		got := epochStatus(c.p)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("epochStatus(%+v) = %q, missing %q", c.p, got, w)
			}
		}
	}
}
