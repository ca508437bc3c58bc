package experiment

import (
	"context"
	"fmt"

	"ilpgnn/core/baselines/conpi"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/gnnexplainer"
	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/split"
)

// baselines are the explainers of the paper's table 2 that need a model of
// their own, trained on the run's split: GAT's attention over a GAT,
// GNNExplainer over a GAE, and CONPI's context interaction weights.
type baselines struct {
	gat, gae  *gnn.Result
	attention explain.Ranker                // gat's, message passing on sp.Train
	explainer *gnnexplainer.Explainer       // over gae, message passing on sp.Train
	conpi     *pairfit.Fitted[*conpi.Model] // contexts from sp.Train
}

// conpiConfig returns CONPI's configuration for seed.
func (o *Options) conpiConfig(seed uint64) conpi.Config {
	cfg := conpi.DefaultConfig()
	if o.CONPI != nil {
		cfg = *o.CONPI
	}
	cfg.Fit.Seed = seed
	return cfg
}

// baselineConfig returns the configuration of a baseline of kind for seed.
func (o *Options) baselineConfig(kind gnn.Kind, seed uint64) gnn.Config {
	cfg := gnn.DefaultConfig(kind)
	if o.Baselines != nil {
		cfg = o.Baselines(kind)
	}
	cfg.Seed = seed
	return cfg
}

// explainerConfig returns GNNExplainer's configuration for seed.
func (o *Options) explainerConfig(seed uint64) gnnexplainer.Config {
	cfg := gnnexplainer.DefaultConfig()
	if o.Explainer != nil {
		cfg = *o.Explainer
	}
	cfg.Seed = seed
	return cfg
}

// trainBaselines trains the GAT and the GAE on sp with seed.
func trainBaselines(ctx context.Context, sp *split.Split, opt *Options, seed uint64) (*baselines, error) {
	b := &baselines{}
	var err error
	for _, k := range []struct {
		kind gnn.Kind
		dst  **gnn.Result
	}{{gnn.GAT, &b.gat}, {gnn.GAE, &b.gae}} {
		if *k.dst, err = gnn.RunSplit(ctx, sp, opt.baselineConfig(k.kind, seed), nil); err != nil {
			return nil, fmt.Errorf("%v baseline, seed %d: %w", k.kind, seed, err)
		}
	}
	if b.attention, err = b.gat.Model.AttentionRanker(sp.Train); err != nil {
		return nil, err
	}
	if b.explainer, err = gnnexplainer.New(b.gae.Model, sp.Train, opt.explainerConfig(seed)); err != nil {
		return nil, err
	}
	cc := opt.conpiConfig(seed)
	if b.conpi, err = pairfit.Fit(ctx, sp, cc.Fit, cc.Build, nil); err != nil {
		return nil, fmt.Errorf("conpi baseline, seed %d: %w", seed, err)
	}
	return b, nil
}

// fidelityBaselines appends, for one seed, each baseline curve's test AUC
// and ΔAUC at every M (curves as Fidelity lays them out: GAT attention,
// GNNExplainer, then CONPI). pairs are the test pairs, the first nPos positive.
func fidelityBaselines(ctx context.Context, f *fitted, opt *Options, seed uint64, pairs []graph.Edge, nPos int, curves []FidelityCurve) error {
	b, err := trainBaselines(ctx, f.split, opt, seed)
	if err != nil {
		return err
	}
	// The GAT's deletion forward: an explainer over it, used only for
	// LogitWithout (nothing is optimised).
	gatLocal, err := gnnexplainer.New(b.gat.Model, f.split.Train, opt.explainerConfig(seed))
	if err != nil {
		return err
	}
	for n, ex := range []struct {
		rank  explain.Ranker
		local explain.Deleter
	}{{b.attention, gatLocal}, {b.explainer.Ranker(), b.explainer}, {b.conpi.Model.Ranker(), b.conpi.Model}} {
		c := &curves[n]
		auc, cut, err := explain.Fidelity(ctx, nPos, len(c.Points), func(m int) []float32 {
			return explain.LogitsWithout(ex.rank, ex.local, pairs, m)
		}, nil)
		if err != nil {
			return err
		}
		c.AUC = append(c.AUC, auc)
		for k := range c.Points {
			c.Points[k].Deltas = append(c.Points[k].Deltas, auc-cut[k])
		}
	}
	return nil
}
