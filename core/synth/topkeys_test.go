package synth

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ilpgnn/core/graph"
)

// sortedFirst is the brute force: every candidate sorted by key, largest
// first (cmp.Compare's order), ties by edge, and the first m kept.
func sortedFirst(keys []keyed, m int) []graph.Edge {
	keys = slices.Clone(keys)
	slices.SortFunc(keys, func(a, b keyed) int {
		if c := cmp.Compare(b.key, a.key); c != 0 {
			return c
		}
		if c := cmp.Compare(a.edge.U, b.edge.U); c != 0 {
			return c
		}
		return cmp.Compare(a.edge.V, b.edge.V)
	})
	out := []graph.Edge{}
	for _, k := range keys[:min(m, len(keys))] {
		out = append(out, k.edge)
	}
	return out
}

func TestTopKeysEqualsFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := rng.IntN(60)
		keys := make([]keyed, n)
		for k := range keys {
			var key float64
			switch rng.IntN(10) {
			case 0:
				key = math.Inf(-1) // opposite feature vectors
			case 1:
				key = math.NaN()
			case 2, 3:
				key = float64(rng.IntN(3)) // ties, broken by edge
			default:
				key = rng.NormFloat64()
			}
			// Distinct edges in random order.
			keys[k] = keyed{key, graph.Edge{U: int32(k / 7), V: int32(k%7 + 100)}}
		}
		rng.Shuffle(n, func(a, b int) { keys[a], keys[b] = keys[b], keys[a] })
		for _, m := range []int{0, 1, 2, 5, n / 2, n, n + 3} {
			top := newTopKeys(max(m, 0))
			for _, x := range keys {
				top.offer(x)
			}
			got, want := top.edges(), sortedFirst(keys, m)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, %d candidates, m %d:\n got %v\nwant %v", trial, n, m, got, want)
			}
		}
	}
}
