package models

import (
	"context"
	"flag"

	"ilpgnn/core/baselines/conpi"
	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/baselines/seal"
	"ilpgnn/core/baselines/walkpool"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
)

// The pair models score each pair from a computation of its own and train
// with package pairfit, one Adam step per mini-batch of pairs.
var (
	pairSpace = []Dim{
		{"lr", []string{"0.0005", "0.001", "0.005"}},
		{"dropout", []string{"0", "0.5"}},
		{"weight-decay", []string{"0", "0.0005"}},
	}

	sealSpec = Spec{Name: "seal", About: "enclosing subgraphs, DGCNN", Learns: true,
		New: func() Config { return newPair(&sealModel{seal.DefaultConfig()}, true) }, Space: pairSpace}
	wpSpec = Spec{Name: "wp", About: "WalkPooling", Learns: true,
		New: func() Config { return newPair(&wpModel{walkpool.DefaultConfig()}, true) }, Space: pairSpace}
	conpiSpec = Spec{Name: "conpi", About: "context pair interaction", Learns: true, Explanation: "context interaction",
		New: func() Config { return newPair(&conpiModel{conpi.DefaultConfig()}, false) }, Space: pairSpace}
)

// pairModel is one pair model's configuration.
type pairModel interface {
	registerFlags(fs *flag.FlagSet)
	validate() error
	fit() *pairfit.Config
	// build returns the model on the training graph g, its weights drawn
	// from seed.
	build(g *graph.Graph, seed uint64) (pairfit.Model, error)
}

// PairConfig is the configuration of a pair model with the split's
// shares, which the models' own configurations do not hold.
type PairConfig struct {
	model             pairModel
	subgraphs         bool
	valFrac, testFrac float64
}

func newPair(m pairModel, subgraphs bool) *PairConfig {
	return &PairConfig{model: m, subgraphs: subgraphs, valFrac: split.DefaultValFrac, testFrac: split.DefaultTestFrac}
}

// PerPairSubgraph reports whether every pair costs a forward pass over a
// subgraph of its own (SEAL, WalkPooling), so that an epoch over every
// training link of a large graph takes minutes.
func (c *PairConfig) PerPairSubgraph() bool { return c.subgraphs }

// RegisterFlags binds the model's hyperparameters and the split's shares.
func (c *PairConfig) RegisterFlags(fs *flag.FlagSet) {
	c.model.registerFlags(fs)
	loop.RegisterShares(fs, &c.valFrac, &c.testFrac)
}

// Validate reports the first setting out of range.
func (c *PairConfig) Validate() error {
	if err := c.model.validate(); err != nil {
		return err
	}
	return loop.ValidateShares(c.valFrac, c.testFrac)
}

// Loop returns the shared loop settings.
func (c *PairConfig) Loop() Loop {
	f := c.model.fit()
	return Loop{Epochs: f.Epochs, Patience: f.Patience, ValFrac: c.valFrac, TestFrac: c.testFrac}
}

// Fit returns the training loop's settings (pairs per epoch among them).
func (c *PairConfig) Fit() pairfit.Config { return *c.model.fit() }

// Train fits the model on run.Split with run.Seed.
func (c *PairConfig) Train(ctx context.Context, run Run, progress func(Progress)) (Trained, error) {
	fit := *c.model.fit()
	fit.Seed = run.Seed
	build := func(g *graph.Graph) (pairfit.Model, error) { return c.model.build(g, run.Seed) }
	res, err := pairfit.Fit(ctx, run.Split, fit, build, progress)
	if res == nil {
		return nil, err
	}
	cm, _ := res.Model.(*conpi.Model)
	return &Pair{Run: res.Result, Split: run.Split, CONPI: cm}, err
}

// Pair is a trained pair model.
type Pair struct {
	Run   loop.Result
	Split *split.Split
	// CONPI is the model when it is CONPI, whose interaction weights
	// explain its predictions; nil otherwise.
	CONPI *conpi.Model
}

// Result returns the run's measurements.
func (t *Pair) Result() Result { return Result{Result: t.Run, Split: t.Split} }

// Ranker is CONPI's context interaction on its training contexts; SEAL and
// WalkPooling explain nothing.
func (t *Pair) Ranker() explain.Ranker {
	if t.CONPI == nil {
		return nil
	}
	return t.CONPI.Ranker()
}

// Explainer explains CONPI's predictions by its context masses, the
// contexts read from g; SEAL and WalkPooling have none.
func (t *Pair) Explainer(g *graph.Graph) (explain.Explainer, error) {
	if t.CONPI == nil {
		return nil, nil
	}
	whole, err := t.CONPI.On(g)
	if err != nil {
		return nil, err
	}
	return contexts{whole}, nil
}

// Checkpoint reports ErrNoCheckpoint: baselines are not saved yet.
func (t *Pair) Checkpoint(*graph.Graph, [32]byte) (*checkpoint.Checkpoint, error) {
	return nil, ErrNoCheckpoint
}

// contexts explains by CONPI's context masses; each end itself, part of
// its own context, is not a reason.
type contexts struct{ m *conpi.Model }

func (c contexts) Method() string        { return "context" }
func (c contexts) Rank(i, j int) []int32 { return c.m.Ranker()(i, j) }
func (c contexts) Explain(i, j, top int) (*explain.Ranking, error) {
	x := c.m.Explain(i, j)
	out := &explain.Ranking{Method: "context", Weighted: true}
	for _, side := range []struct {
		dst  *[]explain.Ranked
		ctx  []conpi.NodeMass
		self int
	}{{&out.I, x.ContextI, i}, {&out.J, x.ContextJ, j}} {
		*side.dst = []explain.Ranked{}
		for _, n := range side.ctx {
			if int(n.Node) == side.self || len(*side.dst) == top {
				continue
			}
			*side.dst = append(*side.dst, explain.Ranked{Node: n.Node, Weight: n.Mass})
		}
	}
	return out, out.Validate()
}

type sealModel struct{ cfg seal.Config }

func (s *sealModel) registerFlags(fs *flag.FlagSet) { s.cfg.RegisterFlags(fs) }
func (s *sealModel) validate() error                { return s.cfg.Validate() }
func (s *sealModel) fit() *pairfit.Config           { return &s.cfg.Fit }
func (s *sealModel) build(g *graph.Graph, seed uint64) (pairfit.Model, error) {
	cfg := s.cfg
	cfg.Fit.Seed = seed
	return seal.New(g, cfg)
}

type wpModel struct{ cfg walkpool.Config }

func (w *wpModel) registerFlags(fs *flag.FlagSet) { w.cfg.RegisterFlags(fs) }
func (w *wpModel) validate() error                { return w.cfg.Validate() }
func (w *wpModel) fit() *pairfit.Config           { return &w.cfg.Fit }
func (w *wpModel) build(g *graph.Graph, seed uint64) (pairfit.Model, error) {
	cfg := w.cfg
	cfg.Fit.Seed = seed
	return walkpool.New(g, cfg)
}

type conpiModel struct{ cfg conpi.Config }

func (c *conpiModel) registerFlags(fs *flag.FlagSet) { c.cfg.RegisterFlags(fs) }
func (c *conpiModel) validate() error                { return c.cfg.Validate() }
func (c *conpiModel) fit() *pairfit.Config           { return &c.cfg.Fit }
func (c *conpiModel) build(g *graph.Graph, seed uint64) (pairfit.Model, error) {
	cfg := c.cfg
	cfg.Fit.Seed = seed
	return conpi.New(g, cfg)
}
