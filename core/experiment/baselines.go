package experiment

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"ilpgnn/core/conpi"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/gnn"
	"ilpgnn/core/gnnexplainer"
	"ilpgnn/core/graph"
	"ilpgnn/core/split"
)

// baselines are the explainers of the paper's table 2 that need a model of
// their own, trained on the run's split: GAT's attention over a GAT,
// GNNExplainer over a GAE, and CONPI's context interaction weights.
type baselines struct {
	gat, gae  *gnn.Result
	attention explain.Ranker          // gat's, message passing on sp.Train
	explainer *gnnexplainer.Explainer // over gae, message passing on sp.Train
	conpi     *conpi.Result           // contexts from sp.Train
}

// deleter scores a pair with some undirected edges deleted from the
// message-passing graph: the deletion of the fidelity metric.
type deleter interface {
	LogitWithout(i, j int, removed []graph.Edge) float32
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
	if b.conpi, err = conpi.RunSplit(ctx, sp, opt.conpiConfig(seed), nil); err != nil {
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
		local deleter
	}{{b.attention, gatLocal}, {b.explainer.Ranker(), b.explainer}, {b.conpi.Model.Ranker(), b.conpi.Model}} {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := &curves[n]
		full := logitsWithout(ex.rank, ex.local, pairs, 0)
		auc := eval.AUC(full[:nPos], full[nPos:])
		c.AUC = append(c.AUC, auc)
		for k := range c.Points {
			cut := logitsWithout(ex.rank, ex.local, pairs, c.Points[k].M)
			c.Points[k].Deltas = append(c.Points[k].Deltas, auc-eval.AUC(cut[:nPos], cut[nPos:]))
		}
	}
	return nil
}

// logitsWithout scores every pair (i, j) with the top m of rank(i, j) and
// of rank(j, i) cut off from i and j (see Fidelity), in parallel; each
// pair is computed on its own, so the result does not depend on the
// number of CPUs.
func logitsWithout(rank explain.Ranker, local deleter, pairs []graph.Edge, m int) []float32 {
	out := make([]float32, len(pairs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(pairs)/16))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(pairs); k += workers {
				i, j := pairs[k].U, pairs[k].V
				var rm []graph.Edge
				if m > 0 {
					for _, side := range [2][2]int32{{i, j}, {j, i}} {
						top := rank(int(side[0]), int(side[1]))
						for _, c := range top[:min(m, len(top))] {
							rm = append(rm, graph.Edge{U: side[0], V: c})
						}
					}
				}
				out[k] = local.LogitWithout(int(i), int(j), rm)
			}
		})
	}
	wg.Wait()
	return out
}
