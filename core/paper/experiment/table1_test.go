package experiment

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/heart"
	"ilpgnn/core/split"
)

// TestTable1 runs a heuristic column and a recording column over two seeds
// and checks that both saw the same splits and that the summary is the
// mean of the runs.
func TestTable1(t *testing.T) {
	src, err := dataset.Parse("synth:sparse:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	var seen []*split.Split
	preds := []Predictor{
		{Name: "cn", Fit: func(_ context.Context, _ *dataset.Dataset, sp *split.Split, _ uint64) (Fit, error) {
			auc := eval.AUC(heuristic.Scores(sp.Train, heuristic.CommonNeighbours, sp.TestPos), heuristic.Scores(sp.Train, heuristic.CommonNeighbours, sp.TestNeg))
			return Fit{TestAUC: auc, ValAUC: 0.5}, nil
		}},
		{Name: "record", Fit: func(_ context.Context, _ *dataset.Dataset, sp *split.Split, seed uint64) (Fit, error) {
			seen = append(seen, sp)
			return Fit{TestAUC: float64(seed), TestHits: eval.Hits{At20: float64(seed) / 10, At50: 0.5, At100: 1}, Epochs: int(seed)}, nil
		}},
	}
	rep, err := Table1(context.Background(), []*dataset.Source{src}, preds, []uint64{2, 5}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 || len(rep.Rows[0].Cells) != 2 {
		t.Fatalf("report shape: %+v", rep)
	}
	rec := rep.Rows[0].Cells[1]
	if rec.TestAUC != 3.5 || math.Abs(rec.TestStd-math.Sqrt(4.5)) > 1e-12 {
		t.Errorf("mean/std of 2 and 5: %v ± %v", rec.TestAUC, rec.TestStd)
	}
	// Hand: Hits@20 0.2 and 0.5 have mean 0.35 and std 0.3/√2.
	if h, s := rec.TestHits, rec.TestHitsStd; math.Abs(h.At20-0.35) > 1e-15 || math.Abs(s.At20-0.3/math.Sqrt2) > 1e-15 || h.At50 != 0.5 || s.At50 != 0 || h.At100 != 1 {
		t.Errorf("test hits mean %+v ± %+v", h, s)
	}
	for k, seed := range []uint64{2, 5} {
		d, _ := src.Load(seed)
		want, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
		if err != nil {
			t.Fatal(err)
		}
		if len(seen[k].TestPos) != len(want.TestPos) || seen[k].TestPos[0] != want.TestPos[0] || seen[k].TestNeg[3] != want.TestNeg[3] {
			t.Errorf("seed %d: the predictor got another split", seed)
		}
		cn := rep.Rows[0].Cells[0].Runs[k].TestAUC
		if direct := eval.AUC(heuristic.Scores(want.Train, heuristic.CommonNeighbours, want.TestPos), heuristic.Scores(want.Train, heuristic.CommonNeighbours, want.TestNeg)); cn != direct {
			t.Errorf("seed %d: cn %v, direct %v", seed, cn, direct)
		}
	}
	var b strings.Builder
	if err := WriteTable1(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| synth:sparse:seed=1 |") || !strings.Contains(b.String(), "350.00 ± 212.13") ||
		!strings.Contains(b.String(), " 35.00 / 50.00 / 100.00 |") {
		t.Errorf("table:\n%s", b.String())
	}
	for _, c := range []struct {
		dataset, model string
		want           float64
	}{{"cora", "gat", 91.87}, {"Citeseer", "cn", 69.70}, {"photo", "ilpgnn", 98.23}, {"amazon_photo", "vgae", 97.03}} {
		if v, ok := PaperTable1(c.dataset, c.model); !ok || v != c.want {
			t.Errorf("paper %s %s = %v %v, want %v", c.dataset, c.model, v, ok, c.want)
		}
	}
	if _, ok := PaperTable1("cora", "nope"); ok {
		t.Error("a model the paper lacks has a number")
	}
}

// A tuned cell is measured with what its Tune returned, and a tuning
// seed among the measuring ones is refused.
func TestTable1Tuned(t *testing.T) {
	src, err := dataset.Parse("synth:sparse:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	tuneSeeds := []uint64{10}
	p := Predictor{Name: "tuned", Fit: func(context.Context, *dataset.Dataset, *split.Split, uint64) (Fit, error) {
		return Fit{TestAUC: 0.1}, nil
	}, Tune: func(context.Context, *dataset.Source) (FitFunc, *Tuning, error) {
		return func(_ context.Context, _ *dataset.Dataset, _ *split.Split, seed uint64) (Fit, error) {
			return Fit{TestAUC: 0.9}, nil
		}, &Tuning{Settings: map[string]string{"lr": "0.01", "dropout": "0"}, Seeds: tuneSeeds, ValAUC: 0.95, Budget: "1m", Plan: "3 candidates, one round of 12 epochs"}, nil
	}}
	rep, err := Table1(context.Background(), []*dataset.Source{src}, []Predictor{p}, []uint64{2}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Rows[0].Cells[0]; c.TestAUC != 0.9 || c.Tuning == nil || c.Tuning.Settings["lr"] != "0.01" {
		t.Errorf("tuned cell %+v", c)
	}
	var b strings.Builder
	if err := WriteTable1(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "chosen by tune on seeds [10] on validation AUC alone, measured on seeds [2]") ||
		!strings.Contains(b.String(), "| synth:sparse:seed=1 | tuned | [10] | 95.00 | 1m | 3 candidates, one round of 12 epochs | 0 / 0 | --dropout 0 --lr 0.01 |") {
		t.Errorf("table:\n%s", b.String())
	}
	tuneSeeds = []uint64{2}
	if _, err := Table1(context.Background(), []*dataset.Source{src}, []Predictor{p}, []uint64{2}, nil, nil); err == nil || !strings.Contains(err.Error(), "seed 2 both chose the settings and measures them") {
		t.Errorf("a tuning seed that measures: %v", err)
	}
}

// With hard negatives, each source's seed draws them once and every
// predictor ranks against those very pairs; the HeaRT table shows them.
func TestTable1HardNegatives(t *testing.T) {
	src, err := dataset.Parse("synth:sparse:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	draws := 0
	hard := func(d *dataset.Dataset, sp *split.Split, seed uint64) error {
		draws++
		negs, err := heart.Sample(sp.Train, d.Graph, sp.TestPos, seed, heart.Options{PerLink: 4, Alpha: 0.15, Epsilon: 1e-4})
		if err != nil {
			return err
		}
		sp.TestHard, sp.HardPerLink, sp.Known = negs.Pairs(), negs.PerLink, d.Graph
		return nil
	}
	var seen [][]graph.Edge
	fit := func(_ context.Context, d *dataset.Dataset, sp *split.Split, _ uint64) (Fit, error) {
		if sp.Known != d.Graph {
			t.Errorf("a predictor's split does not name the known links")
		}
		seen = append(seen, sp.TestHard)
		pos := heuristic.Scores(sp.Train, heuristic.AdamicAdar, sp.TestPos)
		r := eval.RankingOf(pos, heuristic.Scores(sp.Train, heuristic.AdamicAdar, sp.TestHard))
		return Fit{TestHeart: &r}, nil
	}
	rep, err := Table1(context.Background(), []*dataset.Source{src}, []Predictor{{Name: "aa", Fit: fit}, {Name: "again", Fit: fit}}, []uint64{2}, hard, nil)
	if err != nil {
		t.Fatal(err)
	}
	if draws != 1 || len(seen) != 2 || &seen[0][0] != &seen[1][0] {
		t.Fatalf("%d draws for one seed; the predictors saw the same pairs: %v", draws, len(seen) == 2 && &seen[0][0] == &seen[1][0])
	}
	cells := rep.Rows[0].Cells
	if cells[0].TestHeart == nil || *cells[0].TestHeart != *cells[1].TestHeart || cells[0].TestHeartStd.MRR != 0 {
		t.Fatalf("cells %+v, %+v", cells[0].TestHeart, cells[1].TestHeart)
	}
	var b strings.Builder
	if err := WriteTable1(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "HeaRT: each test link ranked") || !strings.Contains(b.String(), fmt.Sprintf("**%.2f ± 0.00**", 100*cells[0].TestHeart.MRR)) {
		t.Fatalf("the table lacks the HeaRT rows:\n%s", b.String())
	}
}
