package ilpgnn_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/datasets"
	"ilpgnn/core/load"
	"ilpgnn/core/split"
)

// reportCPU reports the CPU time per op since c0 (cpuNow), when known: on
// a machine shared with other jobs it moves less than the wall time.
func reportCPU(b *testing.B, c0 time.Duration) {
	if c := cpuNow(); c > 0 {
		b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkBuildCandidates times neighbour selection (Model.Build, the
// "selection" phase of an epoch) over one epoch's pairs of Amazon Photo,
// whose hubs have up to 1,434 neighbours, for each bound on candidates:
// every training link and as many sampled non-links, embeddings of the
// untrained model. The sub-benchmarks run side by side, so their ratios
// survive a noisy machine better than separate runs; refC=0 is the
// per-task selection that grouping by target replaced.
func BenchmarkBuildCandidates(b *testing.B) {
	e := newPhotoEpoch(b)
	m, in, pairs, labels, obj := e.model, e.in, e.pairs, e.labels, e.obj
	hr := e.hr.Value
	for _, c := range []int{0, 8, 16, 32, 64} {
		b.Run(fmt.Sprintf("C=%d", c), func(b *testing.B) {
			m.Config.Candidates = c
			var batch ilpgnn.Batch
			c0 := cpuNow()
			for n := 0; b.Loop(); n++ {
				m.Build(&batch, in, hr, pairs, labels, obj, uint64(n))
			}
			reportCPU(b, c0)
		})
	}
	b.Run("refC=0", func(b *testing.B) {
		m.Config.Candidates = 0
		var batch ilpgnn.Batch
		c0 := cpuNow()
		for n := 0; b.Loop(); n++ {
			m.RefBuild(&batch, in, hr, pairs, labels, obj, uint64(n))
		}
		reportCPU(b, c0)
	})
}

// photoEpoch is one training epoch's inputs on Amazon Photo for the
// benchmarks: the untrained default model, its prepared inputs and
// embeddings, every training link and as many sampled non-links.
type photoEpoch struct {
	model  *ilpgnn.Model
	in     *ilpgnn.Inputs
	hr     *autograd.Var
	pairs  []graph.Edge
	labels []float32
	obj    ilpgnn.Objective
}

func newPhotoEpoch(b *testing.B) *photoEpoch {
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
	P := len(sp.TrainPos)
	e := &photoEpoch{model: m, in: in, hr: m.Encode(nil, in, 0, nil),
		pairs: make([]graph.Edge, 2*P), labels: make([]float32, 2*P),
		obj: ilpgnn.Objective{Lambda: 0.1, Delta: 0.5}} // train.DefaultConfig's
	copy(e.pairs, sp.TrainPos)
	for k := range P {
		e.labels[k] = 1
	}
	split.NewNegativeSampler(0).Sample(e.pairs[P:], sp.Train)
	return e
}

// BenchmarkBuildAnchor times neighbour selection (Model.Build) over one
// epoch's pairs of Amazon Photo at the default bound on candidates, with
// the anchored feature score (docs/anchor.md) at ρ = 0 and at the
// default ρ, side by side: the anchor's cost in selection.
func BenchmarkBuildAnchor(b *testing.B) {
	e := newPhotoEpoch(b)
	in, pairs, labels, obj := e.in, e.pairs, e.labels, e.obj
	hr := e.hr.Value
	for _, rho := range []float64{0, ilpgnn.DefaultConfig().Anchor} {
		b.Run(fmt.Sprintf("rho=%g", rho), func(b *testing.B) {
			cfg := ilpgnn.DefaultConfig()
			cfg.Anchor = rho
			m, err := ilpgnn.New(cfg, in.Graph.FeatureDim(), rand.New(rand.NewPCG(0, 1)))
			if err != nil {
				b.Fatal(err)
			}
			m.FitIsometricBias(in)
			m.AnchorEmbeddings(in)
			var batch ilpgnn.Batch
			c0 := cpuNow()
			for n := 0; b.Loop(); n++ {
				m.Build(&batch, in, hr, pairs, labels, obj, uint64(n))
			}
			reportCPU(b, c0)
		})
	}
}
