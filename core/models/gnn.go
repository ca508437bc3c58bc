package models

import (
	"context"
	"flag"
	"sort"

	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/gnnexplainer"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
)

var (
	gaeSpec  = gnnSpec(gnn.GAE, "GCN autoencoder")
	vgaeSpec = gnnSpec(gnn.VGAE, "variational GCN autoencoder")
	gatSpec  = gnnSpec(gnn.GAT, "graph attention autoencoder")
)

func gnnSpec(kind gnn.Kind, about string) Spec {
	s := Spec{Name: kind.String(), About: about, Learns: true,
		New: func() Config { return &GNNConfig{Config: gnn.DefaultConfig(kind)} },
		Space: []Dim{
			{"lr", []string{"0.001", "0.005", "0.01"}},
			{"dropout", []string{"0", "0.5"}},
			{"weight-decay", []string{"0", "0.0005"}},
			{"normalize-features", []string{"false", "true"}},
		}}
	if kind == gnn.GAT {
		s.Explanation = "attention"
	}
	return s
}

// GNNConfig is the configuration of an autoencoder baseline (package gnn).
type GNNConfig struct{ gnn.Config }

// RegisterFlags binds every hyperparameter (gnn.Config.RegisterFlags).
func (c *GNNConfig) RegisterFlags(fs *flag.FlagSet) { c.Config.RegisterFlags(fs) }

// Loop returns the shared loop settings.
func (c *GNNConfig) Loop() Loop {
	return Loop{Epochs: c.Epochs, Patience: c.Patience, ValFrac: c.ValFrac, TestFrac: c.TestFrac}
}

// Train fits the autoencoder on run.Split.
func (c *GNNConfig) Train(ctx context.Context, run Run, progress func(Progress)) (Trained, error) {
	cfg := c.Config
	cfg.Seed = run.Seed
	res, err := gnn.RunSplit(ctx, run.Split, cfg, progress)
	if res == nil {
		return nil, err
	}
	return &GNN{Run: res}, err
}

// GNN is a trained autoencoder baseline.
type GNN struct{ Run *gnn.Result }

// Result returns the run's measurements.
func (t *GNN) Result() Result {
	return Result{Result: t.Run.Result, Split: t.Run.Split}
}

// Ranker is GAT's last-layer attention on the training graph; the other
// autoencoders explain nothing by themselves.
func (t *GNN) Ranker() explain.Ranker {
	if t.Run.Config.Kind != gnn.GAT {
		return nil
	}
	rank, err := t.Run.Model.AttentionRanker(t.Run.Split.Train)
	if err != nil {
		return nil
	}
	return rank
}

// Explainer explains on g by GAT's attention, or by GNNExplainer over the
// other autoencoders (seeded with the run's seed).
func (t *GNN) Explainer(g *graph.Graph) (explain.Explainer, error) {
	m := t.Run.Model
	if m.Config.Kind == gnn.GAT {
		rank, err := m.AttentionRanker(g)
		if err != nil {
			return nil, err
		}
		return explain.Ranks("attention", rank), nil
	}
	cfg := gnnexplainer.DefaultConfig()
	cfg.Seed = m.Config.Seed
	ex, err := gnnexplainer.New(m, g, cfg)
	if err != nil {
		return nil, err
	}
	return masks{ex}, nil
}

// Checkpoint reports ErrNoCheckpoint: baselines are not saved yet.
func (t *GNN) Checkpoint(*graph.Graph, [32]byte) (*checkpoint.Checkpoint, error) {
	return nil, ErrNoCheckpoint
}

// masks explains by GNNExplainer's edge masks.
type masks struct{ ex *gnnexplainer.Explainer }

func (m masks) Method() string        { return "gnnexplainer" }
func (m masks) Rank(i, j int) []int32 { return m.ex.Ranker()(i, j) }
func (m masks) Explain(i, j, top int) (*explain.Ranking, error) {
	x, err := m.ex.Explain(i, j)
	if err != nil {
		return nil, err
	}
	out := &explain.Ranking{Method: "gnnexplainer", Weighted: true}
	for _, side := range []struct {
		dst *[]explain.Ranked
		s   gnnexplainer.Side
	}{{&out.I, x.SideI}, {&out.J, x.SideJ}} {
		for _, n := range side.s.Ranked[:min(top, len(side.s.Ranked))] {
			k := sort.Search(len(side.s.Neighbors), func(k int) bool { return side.s.Neighbors[k] >= n })
			*side.dst = append(*side.dst, explain.Ranked{Node: n, Weight: float64(side.s.Mask[k])})
		}
	}
	return out, out.Validate()
}
