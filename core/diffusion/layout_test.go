package diffusion

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/internal/randgraph"
)

// TestPushMatchesReference checks that the relabelled, interleaved Pusher
// returns bit-for-bit what the plain one (refpush_test.go) returns from
// every source: the same nodes (in another order: first pushed, not first
// reached), the same estimates and residual, and the same work, on Cora
// and on random and power-law graphs with hubs. The subtests run in
// parallel: each has its own Pushers.
func TestPushMatchesReference(t *testing.T) {
	t.Parallel()
	pl, err := randgraph.PowerLaw(600, 4, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("random", func(t *testing.T) { t.Parallel(); pushMatchesReference(t, randomGraph(t, 400, 1800, 3)) })
	t.Run("powerlaw", func(t *testing.T) { t.Parallel(); pushMatchesReference(t, pl) })
	t.Run("path", func(t *testing.T) {
		t.Parallel()
		pushMatchesReference(t, mustGraph(t, 5, [2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 3}))
	})
	t.Run("cora", func(t *testing.T) { t.Parallel(); pushMatchesReference(t, loadCora(t)) })
}

// pushMatchesReference compares both Pushers from every source of g at
// two tolerances.
func pushMatchesReference(t *testing.T, g *graph.Graph) {
	for _, eps := range []float64{1e-3, 5e-5} {
		ref := newRefPusher(g, 0.05, eps)
		ps := NewPusher(g, 0.05, eps)
		for v := 0; v < g.NumNodes(); v++ {
			wn, wp, wr := sortedColumn(ref.Push(v))
			gn, gp, gr := sortedColumn(ps.Push(v))
			if len(gn) != len(wn) || math.Float64bits(gr) != math.Float64bits(wr) {
				t.Fatalf("ε=%g source %d: %d entries residual %v, want %d entries residual %v", eps, v, len(gn), gr, len(wn), wr)
			}
			for k := range wn {
				if gn[k] != wn[k] || math.Float64bits(gp[k]) != math.Float64bits(wp[k]) {
					t.Fatalf("ε=%g source %d entry %d: (%d, %v), want (%d, %v)", eps, v, k, gn[k], gp[k], wn[k], wp[k])
				}
			}
		}
		if ps.work != ref.work {
			t.Errorf("ε=%g: work %d, want %d", eps, ps.work, ref.work)
		}
	}
}

// sortedColumn returns a Push result sorted by node.
func sortedColumn(nodes []int32, p []float64, resid float64) ([]int32, []float64, float64) {
	idx := make([]int, len(nodes))
	for k := range idx {
		idx[k] = k
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(nodes[a], nodes[b]) })
	sn, sp := make([]int32, len(idx)), make([]float64, len(idx))
	for k, x := range idx {
		sn[k], sp[k] = nodes[x], p[x]
	}
	return sn, sp, resid
}
