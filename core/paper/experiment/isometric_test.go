package experiment

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ilpgnn/core/explain"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/synth"
)

// TestIsometricStartRanksLikeCosine ties the model to the raw-cosine
// explainer it has to beat: untrained, with the isometric start, no
// structure term (α = 0) and no GCN branch, s = σ(cos) and the model must
// rank every test link's neighbours exactly as raw cosine does (up to
// float32 near-ties).
func TestIsometricStartRanksLikeCosine(t *testing.T) {
	gen := synth.DefaultConfig()
	gen.Nodes, gen.Groups, gen.FeatureDim, gen.Edges = 150, 4, 12, 900
	d, err := synth.Generate(gen, 3)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	cfg.Hidden, cfg.Alpha, cfg.Init, cfg.IsometricBranch = 16, 0, ilpgnn.InitIsometric, 0
	m, err := ilpgnn.New(cfg, gen.FeatureDim, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ilpgnn.Prepare(sp.Train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	model := ilpgnn.NewPredictor(m, in).RankedNodes
	cosine := explain.CosineRanker(sp.Train)
	x := sp.Train.Features
	cos := func(a, b int) float64 {
		dense := func(i int) []float64 {
			v := make([]float64, x.Cols)
			for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
				v[x.Indices[p]] = float64(x.Values[p])
			}
			return v
		}
		va, vb := dense(a), dense(b)
		var ab, aa, bb float64
		for k := range va {
			ab, aa, bb = ab+va[k]*vb[k], aa+va[k]*va[k], bb+vb[k]*vb[k]
		}
		return ab / math.Sqrt(aa*bb)
	}
	links := d.ExplainedLinks(synth.Test)
	compared := 0
	for _, l := range links {
		for _, side := range [][2]int{{l.I, l.J}, {l.J, l.I}} {
			i, j := side[0], side[1]
			got, want := model(i, j), cosine(i, j)
			if len(got) != len(want) {
				t.Fatalf("(%d|%d): %d candidates, cosine ranks %d", i, j, len(got), len(want))
			}
			for k := range got {
				if got[k] != want[k] && math.Abs(cos(int(got[k]), j)-cos(int(want[k]), j)) > 1e-5 {
					t.Fatalf("(%d|%d) rank %d: model %d (cos %.6f), cosine %d (cos %.6f)",
						i, j, k, got[k], cos(int(got[k]), j), want[k], cos(int(want[k]), j))
				}
			}
			compared += len(got)
		}
	}
	if compared < 100 {
		t.Fatalf("only %d ranked neighbours compared", compared)
	}
	if p, c := explain.PrecisionAt(model, links, 1, 2), explain.PrecisionAt(cosine, links, 1, 2); !slices.Equal(p, c) {
		t.Errorf("Precision@1,2 %v, raw cosine %v", p, c)
	}
}
