package ilpgnn_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/datasets"
	"ilpgnn/core/load"
	"ilpgnn/core/split"
)

// BenchmarkBuildCandidates times neighbour selection (Model.Build, the
// "selection" phase of an epoch) over one epoch's pairs of Amazon Photo,
// whose hubs have up to 1,434 neighbours, for each bound on candidates:
// every training link and as many sampled non-links, embeddings of the
// untrained model. The sub-benchmarks run side by side, so their ratios
// survive a noisy machine better than separate runs; refC=0 is the
// per-task selection that grouping by target replaced.
func BenchmarkBuildCandidates(b *testing.B) {
	g, err := load.Path(datasets.Path(b, "amazon_photo"))
	if err != nil {
		b.Fatal(err)
	}
	sp, err := split.New(g, 0, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		b.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	in, err := ilpgnn.Prepare(sp.Train, cfg)
	if err != nil {
		b.Fatal(err)
	}
	m, err := ilpgnn.New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(0, 1)))
	if err != nil {
		b.Fatal(err)
	}
	m.FitIsometricBias(in)
	hr := m.Encode(nil, in, 0, nil).Value
	P := len(sp.TrainPos)
	pairs := make([]graph.Edge, 2*P)
	labels := make([]float32, 2*P)
	copy(pairs, sp.TrainPos)
	for k := range P {
		labels[k] = 1
	}
	split.NewNegativeSampler(0).Sample(pairs[P:], sp.Train)
	obj := ilpgnn.Objective{Lambda: 0.1, Delta: 0.5} // train.DefaultConfig's
	for _, c := range []int{0, 8, 16, 32, 64} {
		b.Run(fmt.Sprintf("C=%d", c), func(b *testing.B) {
			m.Config.Candidates = c
			var batch ilpgnn.Batch
			for n := 0; b.Loop(); n++ {
				m.Build(&batch, in, hr, pairs, labels, obj, uint64(n))
			}
		})
	}
	b.Run("refC=0", func(b *testing.B) {
		m.Config.Candidates = 0
		var batch ilpgnn.Batch
		for n := 0; b.Loop(); n++ {
			m.RefBuild(&batch, in, hr, pairs, labels, obj, uint64(n))
		}
	})
}
