package ilpgnn

import (
	"math"
	"testing"

	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
)

// TestSelections: the selected neighbours, weights and p_ij of Selections
// are those of Explain, pair by pair, on edges (masked) and non-edges, with
// lazy scoring active (K common neighbours) and on the sorting path of
// selectFirst (K > 16); the weights are softmax(s/τ) recomputed in float64,
// and p_ij is the sigmoid of Logits.
func TestSelections(t *testing.T) {
	g := testGraph(t, 25, 7, 5, 6) // dense enough for K = 2 common neighbours
	for _, k := range []int{2, 20} {
		cfg := smallConfig()
		cfg.K = k
		m, in := testModel(t, g, cfg)
		p := NewPredictor(m, in)
		var pairs []graph.Edge
		edges := 0
		for i := 0; i < 25; i++ {
			for j := 0; j < 25; j++ {
				if i != j {
					pairs = append(pairs, graph.Edge{U: int32(i), V: int32(j)})
					if g.HasEdge(i, j) {
						edges++
					}
				}
			}
		}
		if edges == 0 {
			t.Fatal("no edges among the pairs")
		}
		got := p.Selections(pairs)
		logits := p.Logits(pairs)
		for n, e := range pairs {
			ex, err := p.Explain(int(e.U), int(e.V))
			if err != nil {
				t.Fatal(err)
			}
			s := got[n]
			if s.Prob != ex.Prob || s.Prob != float64(sigmoid(logits[n])) {
				t.Fatalf("K=%d %v: p = %v, Explain %v, sigmoid(Logits) %v", k, e, s.Prob, ex.Prob, sigmoid(logits[n]))
			}
			for _, side := range []struct {
				got  []Selected
				want explain.Side
			}{{s.I, ex.I}, {s.J, ex.J}} {
				want := map[int32]explain.Neighbor{}
				for _, nb := range side.want.Neighbors {
					if nb.Selected {
						want[int32(nb.Node)] = nb
					}
				}
				if len(side.got) != len(want) || len(side.got) != min(k, len(side.want.Neighbors)) {
					t.Fatalf("K=%d %v side %d: %d selected, Explain %d of %d", k, e, side.want.Node, len(side.got), len(want), len(side.want.Neighbors))
				}
				var sum float64
				for q, c := range side.got {
					w, ok := want[c.Node]
					if !ok || c.Structure != w.Structure || c.Features != w.Features || c.Score != w.Score ||
						c.Common != w.Common || c.Weight != w.Weight || c.Attribution != w.Attribution {
						t.Fatalf("K=%d %v: selected %+v, Explain %+v", k, e, c, w)
					}
					if q > 0 {
						prev := side.got[q-1]
						if (!prev.Common && c.Common) || (prev.Common == c.Common && prev.Score < c.Score) {
							t.Fatalf("K=%d %v: %+v before %+v is not selection order", k, e, prev, c)
						}
					}
					// b_c = exp(s_c/τ) / Σ_d exp(s_d/τ), in float64.
					var z float64
					for _, d := range side.got {
						z += math.Exp((d.Score - c.Score) / cfg.Tau)
					}
					if want := 1 / z; math.Abs(c.Weight-want) > 1e-6 {
						t.Fatalf("K=%d %v: weight %v, softmax gives %v", k, e, c.Weight, want)
					}
					sum += c.Weight
				}
				if len(side.got) > 0 && math.Abs(sum-1) > 1e-5 {
					t.Fatalf("K=%d %v: weights sum to %v", k, e, sum)
				}
			}
		}
	}
}
