package models

import (
	"context"
	"flag"
	"time"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
)

var (
	cnSpec = Spec{Name: "cn", About: "common neighbours",
		New: func() Config { return newHeuristic(heuristic.CommonNeighbours) }}
	aaSpec = Spec{Name: "aa", About: "Adamic-Adar",
		New: func() Config { return newHeuristic(heuristic.AdamicAdar) }}
)

// heuristicConfig scores pairs by a neighbourhood heuristic: nothing is
// trained, so its only settings are the split's shares.
type heuristicConfig struct {
	method            heuristic.Method
	valFrac, testFrac float64
}

func newHeuristic(m heuristic.Method) *heuristicConfig {
	return &heuristicConfig{method: m, valFrac: split.DefaultValFrac, testFrac: split.DefaultTestFrac}
}

func (c *heuristicConfig) RegisterFlags(fs *flag.FlagSet) {
	loop.RegisterShares(fs, &c.valFrac, &c.testFrac)
}
func (c *heuristicConfig) Validate() error { return loop.ValidateShares(c.valFrac, c.testFrac) }
func (c *heuristicConfig) Loop() Loop      { return Loop{ValFrac: c.valFrac, TestFrac: c.testFrac} }

// Train scores the split's validation and test pairs on its training graph.
func (c *heuristicConfig) Train(_ context.Context, run Run, _ func(Progress)) (Trained, error) {
	start := time.Now()
	var r Result
	r.Split = run.Split
	r.ValAUC, _ = heuristic.SplitAUC(run.Split, c.method)
	r.TrainSeconds = time.Since(start).Seconds()
	r.Test(run.Split, func(pairs []graph.Edge) []float32 { return heuristic.Scores(run.Split.Train, c.method, pairs) })
	return scored{r}, nil
}

// scored is a model with measurements only: no explanation, no weights.
type scored struct{ r Result }

func (s scored) Result() Result                                    { return s.r }
func (s scored) Ranker() explain.Ranker                            { return nil }
func (s scored) Explainer(*graph.Graph) (explain.Explainer, error) { return nil, nil }
func (s scored) Checkpoint(*graph.Graph, [32]byte) (*checkpoint.Checkpoint, error) {
	return nil, ErrNoCheckpoint
}
