package main

import (
	"testing"

	"ilpgnn/core/baselines/conpi"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/gnnexplainer"
	"ilpgnn/core/paper/experiment"
)

// An explicit --epochs caps every optimisation an experiment runs: each
// baseline's epochs (CONPI's too) and GNNExplainer's steps, where their
// defaults are longer; the rest of their settings stay the defaults.
func TestCapEpochs(t *testing.T) {
	const budget = 3
	var opt experiment.Options
	capEpochs(&opt, budget)
	for _, k := range []gnn.Kind{gnn.GAE, gnn.VGAE, gnn.GAT} {
		want := gnn.DefaultConfig(k)
		want.Epochs = budget
		if got := opt.Baselines(k); got != want {
			t.Errorf("%v: %+v, want %+v", k, got, want)
		}
	}
	ex := gnnexplainer.DefaultConfig()
	ex.Epochs = budget
	if opt.Explainer == nil || *opt.Explainer != ex {
		t.Errorf("GNNExplainer: %+v, want %+v", opt.Explainer, ex)
	}
	cc := conpi.DefaultConfig()
	cc.Fit.Epochs = budget
	if opt.CONPI == nil || *opt.CONPI != cc {
		t.Errorf("CONPI: %+v, want %+v", opt.CONPI, cc)
	}
}
