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

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
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
	return src, Options{Train: tc, Seeds: []uint64{0, 1}}
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
	direct := eval.PrecisionAt(eval.CosineRanker(sp.Train), ExplainedLinks(d.Truth, synth.Test), 1, 2)
	if r := rep.Runs[1]; r.CosineP1 != direct[0] || r.CosineP2 != direct[1] {
		t.Errorf("cosine floor %v/%v, measured directly %v", r.CosineP1, r.CosineP2, direct)
	}
	for _, r := range rep.Runs {
		for _, v := range []float64{r.P1, r.P2, r.RandomP1, r.RandomP2, r.CosineP1, r.CosineP2, r.AUC} {
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
		"random_p_at_2_mean", "cosine_p_at_1_mean", "cosine_p_at_2_mean"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	var md bytes.Buffer
	if err := WritePrecisionTable(&md, []*PrecisionReport{rep}); err != nil || strings.Count(md.String(), "\n") != 3 {
		t.Errorf("table:\n%s%v", md.String(), err)
	}
	// Selecting on validation precision runs too (the refusal of a graph
	// without groundtruth is tested on the command line).
	opt.SelectOnPrecision = true
	if _, err := Precision(context.Background(), src, opt); err != nil {
		t.Fatal(err)
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
	if err := WriteFidelityTable(&md, []*FidelityReport{fid}); err != nil || !strings.Contains(md.String(), "| 2 |") {
		t.Errorf("fidelity table:\n%s%v", md.String(), err)
	}
}
