// Package modeltest holds Tiny, the smallest model a registry can hold:
// the example of what adding a model takes (this one file and a place in a
// models.Registry), which the registry's, the command line's and the
// browser engine's tests register to show that they need nothing else.
package modeltest

import (
	"context"
	"flag"
	"fmt"
	"time"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
)

// Tiny scores a pair by its common neighbours in the training graph times
// Weight (so its AUCs are those of the cn heuristic for any positive
// weight) and explains a link by those common neighbours, lowest id first.
var Tiny = models.Spec{
	Name: "tiny", About: "common neighbours, weighted", Learns: true, Explanation: "common neighbours",
	New: func() models.Config {
		return &Config{Weight: 1, ValFrac: split.DefaultValFrac, TestFrac: split.DefaultTestFrac}
	},
}

// Config is Tiny's configuration.
type Config struct {
	Weight            float64
	ValFrac, TestFrac float64
}

// RegisterFlags binds weight, val-frac and test-frac.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.Float64Var(&c.Weight, "weight", c.Weight, "multiplies every score")
	loop.RegisterShares(fs, &c.ValFrac, &c.TestFrac)
}

// Validate refuses a weight that is not positive, and shares that leave
// nothing to train on.
func (c *Config) Validate() error {
	if !(c.Weight > 0) {
		return fmt.Errorf("weight must be positive (got %g)", c.Weight)
	}
	return loop.ValidateShares(c.ValFrac, c.TestFrac)
}

// Loop has one epoch, reported once.
func (c *Config) Loop() models.Loop {
	return models.Loop{Epochs: 1, Patience: 1, ValFrac: c.ValFrac, TestFrac: c.TestFrac}
}

// Train scores the validation and test pairs in its one epoch.
func (c *Config) Train(_ context.Context, run models.Run, progress func(models.Progress)) (models.Trained, error) {
	start := time.Now()
	g := run.Split.Train
	score := func(pairs []graph.Edge) []float32 {
		out := make([]float32, len(pairs))
		for k, p := range pairs {
			out[k] = float32(c.Weight) * float32(len(common(g, int(p.U), int(p.V))))
		}
		return out
	}
	sp := run.Split
	testPos, testNeg := score(sp.TestPos), score(sp.TestNeg)
	r := models.Result{Split: sp, Result: loop.Result{ValAUC: eval.AUC(score(sp.ValPos), score(sp.ValNeg)),
		TestAUC: eval.AUC(testPos, testNeg), TestHits: eval.HitsOf(testPos, testNeg), Epochs: 1, BestEpoch: 1}}
	r.TrainSeconds = time.Since(start).Seconds()
	r.EpochMillis = 1000 * r.TrainSeconds
	if progress != nil {
		progress(models.Progress{Seed: run.Seed, Epoch: 1, MaxEpochs: 1, EpochDone: true, ValAUC: r.ValAUC, BestValAUC: r.ValAUC,
			Score: r.ValAUC, BestScore: r.ValAUC, BestEpoch: 1, Patience: 1, Elapsed: time.Since(start)})
	}
	return trained{r: r, g: g}, nil
}

// common returns the common neighbours of i and j, ascending.
func common(g *graph.Graph, i, j int) []int32 {
	var out []int32
	for _, c := range g.Neighbors(i) {
		if g.HasEdge(int(c), j) {
			out = append(out, c)
		}
	}
	return out
}

type trained struct {
	r models.Result
	g *graph.Graph
}

func (t trained) Result() models.Result { return t.r }

// Ranker ranks i's common neighbours with j first, then the others.
func (t trained) Ranker() explain.Ranker { return ranker(t.g) }

func (t trained) Explainer(g *graph.Graph) (explain.Explainer, error) {
	return explain.Ranks("common", ranker(g)), nil
}

func (t trained) Checkpoint(*graph.Graph, [32]byte) (*checkpoint.Checkpoint, error) {
	return nil, models.ErrNoCheckpoint
}

func ranker(g *graph.Graph) explain.Ranker {
	return func(i, j int) []int32 {
		first := common(g, i, j)
		out := append([]int32{}, first...)
		for _, c := range g.Neighbors(i) {
			if !g.HasEdge(int(c), j) && int(c) != j {
				out = append(out, c)
			}
		}
		return out
	}
}
