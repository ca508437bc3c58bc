package store

import (
	"context"
	"math"
	"testing"

	"ilpgnn/core/checkpoint"
)

func TestCancelledAt(t *testing.T) {
	for _, c := range []struct {
		metrics   map[string]float64
		epochs    int
		cancelled bool
	}{
		{nil, 0, false}, // a checkpoint from before the mark: completed
		{map[string]float64{"test_auc": 0.7}, 0, false},
		{map[string]float64{CancelledMetric: 4}, 4, true},
		{map[string]float64{CancelledMetric: 0}, 0, true},
		{map[string]float64{CancelledMetric: 2.5}, 0, true},
		{map[string]float64{CancelledMetric: -1}, 0, true},
		{map[string]float64{CancelledMetric: math.NaN()}, 0, true},
		{map[string]float64{CancelledMetric: math.Inf(1)}, 0, true},
	} {
		epochs, cancelled := Meta{Metrics: c.metrics}.CancelledAt()
		if epochs != c.epochs || cancelled != c.cancelled {
			t.Errorf("%v: CancelledAt() = %d, %v; want %d, %v", c.metrics, epochs, cancelled, c.epochs, c.cancelled)
		}
	}
}

// The mark is an ordinary metric: it survives encoding, MetaOf and a
// store's listing.
func TestCancelledMarkListed(t *testing.T) {
	ctx := context.Background()
	var s Memory
	for k, ck := range []checkpoint.Checkpoint{
		{Model: "ilpgnn", Dataset: "d", Seed: 1, Created: 100, Metrics: []checkpoint.Metric{{Name: "test_auc", Value: 0.71}}},
		{Model: "ilpgnn", Dataset: "d", Seed: 2, Created: 200, Metrics: []checkpoint.Metric{{Name: "test_auc", Value: 0.65}, {Name: CancelledMetric, Value: 4}}},
	} {
		ck.Config = []byte{byte('a' + k)}
		data, err := ck.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		m, err := MetaOf(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, m, data); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("List: %d, %v", len(list), err)
	}
	if e, c := list[0].CancelledAt(); list[0].Seed != 2 || !c || e != 4 {
		t.Errorf("newest: seed %d, CancelledAt %d, %v; want seed 2 cancelled after 4", list[0].Seed, e, c)
	}
	if _, c := list[1].CancelledAt(); list[1].Seed != 1 || c {
		t.Errorf("older: seed %d, cancelled %v; want seed 1 completed", list[1].Seed, c)
	}
}
