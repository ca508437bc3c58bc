package seal

import (
	"flag"
	"slices"
	"strings"
	"testing"
	"time"

	"ilpgnn/core/load"
	"ilpgnn/core/split"
)

var (
	measureData  = flag.String("measure.data", "", "BenchmarkSubgraphSizes: the dataset folder to measure")
	measureFlags = flag.String("measure.flags", "", "BenchmarkSubgraphSizes: the model's flags, as ilpgnn train --model seal takes them")
)

// BenchmarkSubgraphSizes logs the distribution of enclosing subgraph sizes
// and DRNL labels that the model's k is chosen from, on the split of seed
// 0 of the dataset folder -measure.data names, with the defaults and
// -measure.flags (how Hops and MaxPerHop were chosen,
// docs/pair-models.md); it skips without -measure.data:
//
//	go test ./core/baselines/seal -run '^$' -bench SubgraphSizes -benchtime 1x \
//	  -measure.data "$PWD/../shared/datasets/cora" -measure.flags "-hops 1"
//
// (go test runs in the package's folder, hence the absolute path.) Each
// op is one such report.
func BenchmarkSubgraphSizes(b *testing.B) {
	if *measureData == "" {
		b.Skip("pass -measure.data DIR to measure")
	}
	g, err := load.Path(*measureData)
	if err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig()
	fs := flag.NewFlagSet("seal", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	if err := fs.Parse(strings.Fields(*measureFlags)); err != nil {
		b.Fatal(err)
	}
	sp, err := split.New(g, 0, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		logSizes(b, sp, cfg)
	}
}

// logSizes logs percentiles of the enclosing subgraph sizes and label
// counts of the k sample of a model configured as cfg on sp.Train.
func logSizes(t testing.TB, sp *split.Split, cfg Config) {
	m, err := New(sp.Train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	sizes, err := m.sampleSizes(newRand(cfg.Fit.Seed, streamK))
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	slices.Sort(sizes)
	pct := func(p float64) int { return sizes[min(len(sizes)-1, int(p*float64(len(sizes))))] }
	t.Logf("subgraph sizes (%d pairs, %v): p10 %d p50 %d p60 %d p90 %d p99 %d max %d; k %d",
		len(sizes), el, pct(0.1), pct(0.5), pct(0.6), pct(0.9), pct(0.99), sizes[len(sizes)-1], m.K)
	b, err := m.extract(sp.TrainPos[:min(500, len(sp.TrainPos))])
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int32]int{}
	for _, l := range b.Labels {
		counts[l]++
	}
	t.Logf("DRNL label counts over %d nodes of 500 links: %v", len(b.Labels), counts)
}
