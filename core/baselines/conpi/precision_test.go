package conpi

import (
	"context"
	"slices"
	"testing"

	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/synth"
)

// explained returns the test links of d with their groundtruth, as
// explain.PrecisionAt takes them.
func explained(d *synth.Dataset) []explain.Link {
	var out []explain.Link
	for _, l := range d.Links {
		if l.Role == synth.Test {
			out = append(out, explain.Link{I: int(l.Edge.U), J: int(l.Edge.V), WhyI: l.WhyU, WhyJ: l.WhyV})
		}
	}
	return out
}

// randomPrecision returns the expected Precision@k of a ranker that orders
// the candidates (neighbours of i in g, j excluded) uniformly at random:
// of its min(k, n) picks among n candidates, each is groundtruth with
// probability |GT ∩ candidates| / n.
func randomPrecision(g *graph.Graph, links []explain.Link, k int) float64 {
	var hits float64
	for _, e := range links {
		for _, s := range []struct {
			i, j int
			why  []int32
		}{{e.I, e.J, e.WhyI}, {e.J, e.I, e.WhyJ}} {
			n, gt := 0, 0
			for _, c := range g.Neighbors(s.i) {
				if int(c) != s.j {
					n++
					if slices.Contains(s.why, c) {
						gt++
					}
				}
			}
			if n > 0 {
				hits += float64(min(k, n)) * float64(gt) / float64(n)
			}
		}
	}
	return hits / float64(2*len(links)*k)
}

// synthPrecision trains on a synthetic preset and returns the ranker's
// Precision@1 and @2 on the test links with the random expectations.
func synthPrecision(t *testing.T, preset string, seed uint64, cfg Config) (p, random []float64, auc float64) {
	t.Helper()
	sc, err := synth.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	d, err := synth.Generate(sc, seed)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(seed)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Fit.Seed = seed
	res, err := pairfit.Fit(context.Background(), sp, cfg.Fit, cfg.Build, nil)
	if err != nil {
		t.Fatal(err)
	}
	links := explained(d)
	p = explain.PrecisionAt(res.Model.Ranker(), links, 1, 2)
	random = []float64{randomPrecision(sp.Train, links, 1), randomPrecision(sp.Train, links, 2)}
	// The expectation is checked against eval's own random ranker (a
	// sample, so loosely): the formula must describe the same candidates.
	rp := explain.PrecisionAt(explain.RandomRanker(sp.Train, seed), links, 1, 2)
	for k := range rp {
		if d := rp[k] - random[k]; d > 0.05 || d < -0.05 {
			t.Errorf("%s: random ranker P@%d %.3f, expectation %.3f", preset, k+1, rp[k], random[k])
		}
	}
	return p, random, res.TestAUC
}

func TestSynthPrecisionAboveRandom(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Hidden, cfg.Dim, cfg.QueryDim = 32, 32, 16
	cfg.Fit.Epochs, cfg.Fit.LR = 3, 0.005
	p, random, auc := synthPrecision(t, "medium", 0, cfg)
	t.Logf("medium: P@1 %.3f P@2 %.3f (random %.3f %.3f), test AUC %.3f", p[0], p[1], random[0], random[1], auc)
	// Measured 0.334 and 0.286 against 0.176: margins of 0.1 and 0.05
	// leave room for rounding while a ranker no better than chance fails.
	for k, margin := range []float64{0.1, 0.05} {
		if p[k] < random[k]+margin {
			t.Errorf("P@%d %.3f, want at least random %.3f + %g", k+1, p[k], random[k], margin)
		}
	}
}
