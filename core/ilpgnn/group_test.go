package ilpgnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"ilpgnn/core/graph"
)

// hubHeavyGraph is a random graph on n nodes whose edge ends are drawn with
// a heavy tail (node ⌊n·u³⌋ for uniform u), so a few hubs hold a large share
// of the edges and their 2-hop neighbourhoods overlap: the case that
// grouping tasks by target is for.
func hubHeavyGraph(t testing.TB, n, m int, seed uint64) *graph.Graph {
	t.Helper()
	base := testGraph(t, n, 1, 6, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	edges := base.Edges()
	for range m {
		u := rng.Float64()
		edges = append(edges, graph.Edge{U: int32(float64(n) * u * u * u), V: int32(rng.IntN(n))})
	}
	g, err := graph.New(n, edges, base.Features, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// batchesEqual reports the first difference between two built batches,
// comparing every entry and float bit for bit.
func batchesEqual(got, want *Batch) error {
	ints := []struct {
		name string
		g, w []int32
	}{
		{"sel.node", got.sel.node, want.sel.node},
		{"sel.target", got.sel.target, want.sel.target},
		{"sel.offsets", got.sel.offsets, want.sel.offsets},
		{"sel.centre", got.sel.centre, want.sel.centre},
		{"rnd.node", got.rnd.node, want.rnd.node},
		{"rnd.target", got.rnd.target, want.rnd.target},
		{"rnd.offsets", got.rnd.offsets, want.rnd.offsets},
		{"rnd.centre", got.rnd.centre, want.rnd.centre},
		{"contrib", got.contrib, want.contrib},
		{"negEntries", got.negEntries, want.negEntries},
	}
	for _, s := range ints {
		if len(s.g) != len(s.w) {
			return fmt.Errorf("%s: %d entries, want %d", s.name, len(s.g), len(s.w))
		}
		for k := range s.g {
			if s.g[k] != s.w[k] {
				return fmt.Errorf("%s[%d] = %d, want %d", s.name, k, s.g[k], s.w[k])
			}
		}
	}
	floats := []struct {
		name string
		g, w []float32
	}{
		{"sel.st", got.sel.st, want.sel.st},
		{"rnd.st", got.rnd.st, want.rnd.st},
		{"negWeights", got.negWeights, want.negWeights},
	}
	for _, s := range floats {
		if len(s.g) != len(s.w) {
			return fmt.Errorf("%s: %d entries, want %d", s.name, len(s.g), len(s.w))
		}
		for k := range s.g {
			if math.Float32bits(s.g[k]) != math.Float32bits(s.w[k]) {
				return fmt.Errorf("%s[%d] = %v, want %v", s.name, k, s.g[k], s.w[k])
			}
		}
	}
	return nil
}

// TestBuildGroupedMatchesReference: Build, with its tasks grouped by
// target, fills a batch identical, entry by entry and bit for bit, to the
// per-task Build it replaced (refBuildAt), on a hub-heavy graph, with and
// without masking, with and without the bound on candidates, with either
// scaling of s_ST, under either selection order, with and without an
// anchor, on 1 and 2 CPUs; and again when the batch is reused with
// other embeddings (the target tables must not keep the old scores).
func TestBuildGroupedMatchesReference(t *testing.T) {
	const n = 300
	g := hubHeavyGraph(t, n, 1500, 4)
	if g.Degree(0) < 100 {
		t.Fatalf("hub 0 has degree %d, want a hub", g.Degree(0))
	}
	// Every link, as many random pairs (some of them links, some (i, i)),
	// and again pairs to a hub, so P ≥ 512 and two workers both run.
	pairs := g.Edges()
	P := len(pairs)
	rng := rand.New(rand.NewPCG(9, 9))
	for range P {
		i := rng.IntN(n)
		j := i
		if rng.IntN(20) != 0 {
			j = rng.IntN(n)
		}
		pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
	}
	for v := range 60 {
		pairs = append(pairs, graph.Edge{U: int32(v), V: 0}, graph.Edge{U: 1, V: int32(n - 1 - v)})
	}
	if len(pairs) < 2*256*2 {
		t.Fatalf("only %d pairs: Build would not use two workers", len(pairs))
	}
	labels := make([]float32, len(pairs))
	for k := range P {
		labels[k] = 1
	}
	for k := P; k < len(pairs); k += 7 {
		labels[k] = 1 // some positives with random ends, hubs' among them
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, mask := range []bool{true, false} {
		for _, cand := range []int{0, 5} {
			for _, scale := range []StructureScale{ScaleMax, ScalePaper} {
				for _, order := range []SelectionOrder{OrderCommonFirst, OrderScore} {
					cfg := smallConfig()
					cfg.MaskTarget, cfg.Candidates, cfg.Structure, cfg.Order = mask, cand, scale, order
					if scale == ScalePaper {
						// With an anchor on half the cases: its scores
						// take the same paths under every other setting.
						cfg.Anchor = 0.5
					}
					m, in := testModel(t, g, cfg)
					hr0 := m.Encode(nil, in, 0, nil).Value
					hr := make([]float32, len(hr0))
					for k := range hr {
						hr[k] = float32(rng.NormFloat64())
					}
					for _, obj := range []Objective{{Lambda: 0.1, Delta: 0.5}, {Lambda: 1, Delta: 0.2, Relaxed: true}} {
						var want Batch
						m.refBuildAt(&want, in, hr, pairs, labels, obj, 3, 17)
						if len(want.contrib) == 0 || len(want.rnd.node) == 0 {
							t.Fatal("no positive draws random neighbours: the test would not cover them")
						}
						for _, procs := range []int{1, 2} {
							runtime.GOMAXPROCS(procs)
							var got Batch
							m.BuildAt(&got, in, hr0, pairs, labels, obj, 3, 17)
							m.BuildAt(&got, in, hr, pairs, labels, obj, 3, 17)
							if err := batchesEqual(&got, &want); err != nil {
								t.Errorf("mask %v, C %d, %v, %v, relaxed %v, GOMAXPROCS %d: %v", mask, cand, scale, order, obj.Relaxed, procs, err)
							}
							// A hub's self-pair alone: both tasks, in both
							// Builds, have the same target.
							self := []graph.Edge{{U: 0, V: 0}}
							m.refBuildAt(&want, in, hr, self, []float32{1}, obj, 3, 17)
							m.BuildAt(&got, in, hr0, self, []float32{1}, obj, 3, 17)
							m.BuildAt(&got, in, hr, self, []float32{1}, obj, 3, 17)
							if err := batchesEqual(&got, &want); err != nil {
								t.Errorf("mask %v, C %d, %v, %v, relaxed %v, GOMAXPROCS %d, pair (0, 0): %v", mask, cand, scale, order, obj.Relaxed, procs, err)
							}
							m.refBuildAt(&want, in, hr, pairs, labels, obj, 3, 17)
						}
					}
				}
			}
		}
	}
}
