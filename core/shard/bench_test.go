package shard

import (
	"context"
	"math/rand/v2"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/datasets"
	"ilpgnn/core/split"
)

// BenchmarkEpochShards times the shards of one Amazon Photo epoch (a fresh
// model, the default settings: batches of 65,536 pairs) with each native
// runner: Local (one shard at a time on every CPU) and Parallel (a shard
// per goroutine). Compare them with -cpu 1,2,…:
//
//	go test -run '^$' -bench EpochShards -cpu 1,2 -count 5 ./core/shard
func BenchmarkEpochShards(b *testing.B) {
	src, err := dataset.Parse(datasets.Path(b, "amazon_photo"))
	if err != nil {
		b.Fatal(err)
	}
	d, err := src.Load(0)
	if err != nil {
		b.Fatal(err)
	}
	sp, err := d.Split(0, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		b.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	in, err := ilpgnn.Prepare(sp.Train, cfg)
	if err != nil {
		b.Fatal(err)
	}
	m, err := ilpgnn.New(cfg, sp.Train.FeatureDim(), rand.New(rand.NewPCG(0, 1)))
	if err != nil {
		b.Fatal(err)
	}
	obj := ilpgnn.Objective{Lambda: 0.1, Delta: 0.5}
	P := len(sp.TrainPos)
	pairs := append(append([]graph.Edge{}, sp.TrainPos...), make([]graph.Edge, P)...)
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	split.NewNegativeSampler(0).Sample(pairs[P:], sp.Train)
	hr := m.Encode(nil, in, 0, nil).Value
	e := &Epoch{Index: 1, Seed: 1 << 20, Norms: m.EpochNorms(in, pairs, labels, obj), HR: hr, Neg: pairs[P:]}
	kit := &Kit{Model: cfg, Objective: obj, BatchSize: 65536, Inputs: in, Pos: sp.TrainPos}
	grad := make([]float32, len(hr))
	for _, c := range []struct {
		name  string
		start Starter
	}{{"runner=Local", Local}, {"runner=Parallel", Parallel}} {
		b.Run(c.name, func(b *testing.B) {
			r, err := c.start(context.Background(), kit)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := r.Epoch(context.Background(), e, grad, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
