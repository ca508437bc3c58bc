package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"

	"ilpgnn/core/baselines/conpi"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/gnnexplainer"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

// tinySource writes a small synthetic dataset to a folder and returns it
// as a source, with a training configuration that runs in milliseconds.
func tinySource(t *testing.T) (*dataset.Source, Options) {
	t.Helper()
	cfg := synth.DefaultConfig()
	cfg.Nodes, cfg.Groups, cfg.FeatureDim, cfg.Edges = 150, 4, 12, 900
	d, err := synth.Generate(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	src, err := dataset.Parse(dir)
	if err != nil {
		t.Fatal(err)
	}
	tc := train.DefaultConfig()
	tc.Model.Hidden, tc.Epochs, tc.Patience = 16, 4, 4
	ex := gnnexplainer.DefaultConfig()
	ex.Epochs = 20
	cc := conpi.DefaultConfig()
	cc.Fit.Epochs, cc.Fit.Patience = 3, 3
	return src, Options{Train: tc, Seeds: []uint64{0, 1}, Baselines: quickBaseline, Explainer: &ex, CONPI: &cc}
}

// quickBaseline is a gnn configuration that trains in milliseconds.
func quickBaseline(k gnn.Kind) gnn.Config {
	c := gnn.DefaultConfig(k)
	c.Hidden, c.Out, c.Epochs, c.Patience = 16, 16, 10, 10
	if k == gnn.GAT {
		c.Heads = 2
	}
	return c
}

// TestPrecisionReport: the report's floors equal the floors measured
// directly, every precision is a fraction, the means are the runs' means,
// and the JSON has the keys the issue names.
func TestPrecisionReport(t *testing.T) {
	src, opt := tinySource(t)
	rep, err := Precision(context.Background(), src, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	d, _ := src.Load(0)
	sp, _ := d.Split(1, 0, 0)
	direct := explain.PrecisionAt(explain.CosineRanker(sp.Train), d.Truth.ExplainedLinks(synth.Test), 1, 2)
	if r := rep.Runs[1]; r.CosineP1 != direct[0] || r.CosineP2 != direct[1] {
		t.Errorf("cosine floor %v/%v, measured directly %v", r.CosineP1, r.CosineP2, direct)
	}
	for _, r := range rep.Runs {
		for _, v := range []float64{r.P1, r.P2, r.RandomP1, r.RandomP2, r.CosineP1, r.CosineP2, r.AUC,
			r.GATP1, r.GATP2, r.GNNExplainerP1, r.GNNExplainerP2, r.GATAUC, r.GAEAUC, r.CONPIP1, r.CONPIP2, r.CONPIAUC} {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("run %+v: value %v outside [0, 1]", r, v)
			}
		}
	}
	if want := (rep.Runs[0].P1 + rep.Runs[1].P1) / 2; math.Abs(rep.P1Mean-want) > 1e-12 {
		t.Errorf("P@1 mean %v, runs' mean %v", rep.P1Mean, want)
	}
	var keys map[string]any
	b, _ := json.Marshal(rep)
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"preset", "runs", "p_at_1_mean", "p_at_2_mean", "auc_mean", "random_p_at_1_mean",
		"random_p_at_2_mean", "cosine_p_at_1_mean", "cosine_p_at_2_mean", "gat_p_at_1_mean", "gnnexplainer_p_at_2_mean",
		"gnnexplainer_ms_per_link_mean", "conpi_p_at_1_mean", "conpi_p_at_2_mean"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	var md bytes.Buffer
	if err := WritePrecisionTable(&md, []*PrecisionReport{rep}); err != nil || strings.Count(md.String(), "\n") != 3 ||
		!strings.Contains(md.String(), "| GNNExplainer P@1 / P@2 (paper) | CONPI P@1 / P@2 (paper) |") {
		t.Errorf("table:\n%s%v", md.String(), err)
	}
	// The baselines' explainers, measured directly on seed 1's split.
	o1 := opt
	o1.Seeds = []uint64{1}
	f, _ := fit(context.Background(), src, &o1, opt.Train, 1)
	bl, err := trainBaselines(context.Background(), f.split, &o1, 1)
	if err != nil {
		t.Fatal(err)
	}
	test := d.Truth.ExplainedLinks(synth.Test)
	att, _ := bl.gat.Model.AttentionRanker(f.split.Train)
	if gp, ep := explain.PrecisionAt(att, test, 1, 2), explain.PrecisionAt(bl.explainer.Ranker(), test, 1, 2); rep.Runs[1].GATP1 != gp[0] ||
		rep.Runs[1].GNNExplainerP2 != ep[1] {
		t.Errorf("GAT P@1 %v, GNNExplainer P@2 %v; measured directly %v, %v", rep.Runs[1].GATP1, rep.Runs[1].GNNExplainerP2, gp, ep)
	}
	if cp := explain.PrecisionAt(bl.conpi.Model.Ranker(), test, 1, 2); rep.Runs[1].CONPIP1 != cp[0] || rep.Runs[1].CONPIP2 != cp[1] ||
		rep.Runs[1].CONPIAUC != bl.conpi.TestAUC {
		t.Errorf("CONPI P@1/@2 %v %v AUC %v; measured directly %v, %v", rep.Runs[1].CONPIP1, rep.Runs[1].CONPIP2, rep.Runs[1].CONPIAUC, cp, bl.conpi.TestAUC)
	}
	// Selecting on validation precision runs too (the refusal of a graph
	// without groundtruth is tested on the command line); without the
	// baselines their cells are empty.
	opt.Select, opt.Given, opt.NoBaselines = models.SelectPrecision, map[string]bool{"patience": true}, true
	rep, err = Precision(context.Background(), src, opt)
	if err != nil {
		t.Fatal(err)
	}
	md.Reset()
	if rep.Baselines || rep.Runs[0].GATP1 != 0 || WritePrecisionTable(&md, []*PrecisionReport{rep}) != nil ||
		!strings.Contains(md.String(), "| – | – | – |") {
		t.Errorf("without baselines: %+v\n%s", rep.Runs[0], md.String())
	}
}

// TestFidelityAndSweeps runs the three figure experiments on the tiny graph
// and checks their reports, CSV and SVG files, and that the same seed
// trains the same model in two experiments.
func TestFidelityAndSweeps(t *testing.T) {
	src, opt := tinySource(t)
	opt.Seeds = []uint64{0}
	fid, err := Fidelity(context.Background(), src, opt, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(fid.Points) != 2 || len(fid.Points[0].Deltas) != 1 || len(fid.AUC) != 1 {
		t.Fatalf("fidelity report %+v", fid)
	}
	// The random baseline and the faithfulness, recomputed on the same
	// run (the same seed trains the same model) one pair at a time.
	f, err := fit(context.Background(), src, &opt, opt.Train, 0)
	if err != nil {
		t.Fatal(err)
	}
	pairs := append(append([]graph.Edge{}, f.split.TestPos...), f.split.TestNeg...)
	nPos := len(f.split.TestPos)
	for k, pt := range fid.Points {
		var auc float64
		for d := range ilpgnn.RandomDraws {
			s := f.pred.LogitsWithoutRandom(pairs, pt.M, d)
			auc += eval.AUC(s[:nPos], s[nPos:])
		}
		want := fid.AUC[0] - auc/ilpgnn.RandomDraws
		if len(pt.RandomDeltas) != 1 || math.Abs(pt.RandomDeltas[0]-want) > 1e-12 || pt.RandomDeltaMean != pt.RandomDeltas[0] {
			t.Errorf("M=%d: random ΔAUC %v (mean %v), want %v", k+1, pt.RandomDeltas, pt.RandomDeltaMean, want)
		}
	}
	var es []*explain.Explanation
	for _, e := range f.split.TestPos {
		x, err := f.pred.Explain(int(e.U), int(e.V))
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, x)
	}
	want := explain.MeasureFaithfulness(es, opt.Train.Model.K)
	if len(fid.Faithfulness) != 1 || fid.Faithfulness[0] != want || fid.Mean != want || want.Pairs == 0 {
		t.Errorf("faithfulness %+v (mean %+v), want %+v", fid.Faithfulness, fid.Mean, want)
	}
	if len(fid.Baselines) != 3 || fid.Baselines[1].Explainer != "GNNExplainer" || fid.Baselines[2].Explainer != "CONPI" {
		t.Fatalf("fidelity baselines %+v", fid.Baselines)
	}
	for _, c := range fid.Baselines {
		if len(c.AUC) != 1 || !(c.AUC[0] > 0.5) || len(c.Points) != 2 || len(c.Points[1].Deltas) != 1 || math.IsNaN(c.Points[1].DeltaMean) {
			t.Errorf("fidelity curve %+v", c)
		}
	}
	var fcsv bytes.Buffer
	if err := WriteFidelityCSV(&fcsv, []*FidelityReport{fid}); err != nil {
		t.Fatal(err)
	}
	if rows, err := csv.NewReader(&fcsv).ReadAll(); err != nil || len(rows) != 1+4*2 || rows[6][5] != "GNNExplainer" || rows[8][5] != "CONPI" {
		t.Errorf("fidelity CSV %v, %v", rows, err)
	}
	abl, err := Ablation(context.Background(), src, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(abl.Points) != 5 || abl.Points[0].Label != "ILP-GNN" {
		t.Fatalf("ablation points %+v", abl.Points)
	}
	// The full model's point retrains the same seed as fidelity did.
	if abl.Points[0].Runs[0].AUC != fid.AUC[0] {
		t.Errorf("the same run gave AUC %v in fidelity and %v in ablation", fid.AUC[0], abl.Points[0].Runs[0].AUC)
	}
	sens, err := Sensitivity(context.Background(), src, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(sens) != 2 || sens[0].Parameter != "K" || sens[1].Points[3].Value != 0.7 {
		t.Fatalf("sensitivity reports %+v", sens)
	}
	all := append([]*SweepReport{abl}, sens...)
	var buf bytes.Buffer
	if err := WriteSweepCSV(&buf, all); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 1+5+4+4 {
		t.Fatalf("CSV: %d rows, %v", len(rows), err)
	}
	figs := SweepFigures(all)
	figs["fidelity"] = FidelityFigure([]*FidelityReport{fid}).WriteSVG
	if len(figs) != 4 {
		t.Errorf("figures %v", len(figs))
	}
	for stem, draw := range figs {
		var svg bytes.Buffer
		if err := draw(&svg); err != nil {
			t.Fatalf("%s: %v", stem, err)
		}
		dec := xml.NewDecoder(&svg)
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s.svg is not well-formed: %v", stem, err)
			}
		}
	}
	var md bytes.Buffer
	if err := WriteFidelityTable(&md, []*FidelityReport{fid}); err != nil || !strings.Contains(md.String(), "| 2 |") ||
		!strings.Contains(md.String(), " GAT attention ΔAUC |") {
		t.Errorf("fidelity table:\n%s%v", md.String(), err)
	}
}
