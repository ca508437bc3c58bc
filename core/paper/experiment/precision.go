package experiment

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/explain"
	"ilpgnn/core/synth"
)

// PrecisionRun is one seed of the precision experiment. Precisions are
// fractions in [0, 1] over both ends of every test link (docs/model.md §7).
type PrecisionRun struct {
	Seed     uint64  `json:"seed"`
	AUC      float64 `json:"auc"`
	ValAUC   float64 `json:"val_auc"`
	P1       float64 `json:"p_at_1"`
	P2       float64 `json:"p_at_2"`
	ValP1    float64 `json:"val_p_at_1"`
	ValP2    float64 `json:"val_p_at_2"`
	RandomP1 float64 `json:"random_p_at_1"`
	RandomP2 float64 `json:"random_p_at_2"`
	CosineP1 float64 `json:"cosine_p_at_1"`
	CosineP2 float64 `json:"cosine_p_at_2"`
	Epochs   int     `json:"epochs"`
	Seconds  float64 `json:"seconds"`

	// The baselines (absent with Options.NoBaselines): GAT's last-layer
	// attention over a GAT, GNNExplainer over a GAE, both trained with
	// gnn's defaults on the same split, and the models' test AUCs.
	GATP1          float64 `json:"gat_p_at_1,omitempty"`
	GATP2          float64 `json:"gat_p_at_2,omitempty"`
	GNNExplainerP1 float64 `json:"gnnexplainer_p_at_1,omitempty"`
	GNNExplainerP2 float64 `json:"gnnexplainer_p_at_2,omitempty"`
	GATAUC         float64 `json:"gat_auc,omitempty"`
	GAEAUC         float64 `json:"gae_auc,omitempty"`
	// CONPI's context interaction weights, and its test AUC.
	CONPIP1  float64 `json:"conpi_p_at_1,omitempty"`
	CONPIP2  float64 `json:"conpi_p_at_2,omitempty"`
	CONPIAUC float64 `json:"conpi_auc,omitempty"`
	// ExplainMillis is GNNExplainer's wall time per explained test link
	// (both ends share one optimisation; explain.PrecisionAt runs links in
	// parallel, one goroutine per CPU).
	ExplainMillis float64 `json:"gnnexplainer_ms_per_link,omitempty"`
}

// PrecisionReport is the precision experiment on one synthetic dataset:
// the paper's tables 2 (Precision@1/@2) and 3 (AUC) for one preset.
type PrecisionReport struct {
	Preset        string         `json:"preset"`
	Runs          []PrecisionRun `json:"runs"`
	P1Mean        float64        `json:"p_at_1_mean"`
	P1Std         float64        `json:"p_at_1_std"`
	P2Mean        float64        `json:"p_at_2_mean"`
	P2Std         float64        `json:"p_at_2_std"`
	AUCMean       float64        `json:"auc_mean"`
	AUCStd        float64        `json:"auc_std"`
	RandomP1Mean  float64        `json:"random_p_at_1_mean"`
	RandomP2Mean  float64        `json:"random_p_at_2_mean"`
	CosineP1Mean  float64        `json:"cosine_p_at_1_mean"`
	CosineP2Mean  float64        `json:"cosine_p_at_2_mean"`
	ValP1Mean     float64        `json:"val_p_at_1_mean"`
	ValP2Mean     float64        `json:"val_p_at_2_mean"`
	Seconds       float64        `json:"seconds"`
	PaperP1       float64        `json:"paper_p_at_1,omitempty"`
	PaperP2       float64        `json:"paper_p_at_2,omitempty"`
	PaperAUC      float64        `json:"paper_auc,omitempty"`
	PaperRandomP1 float64        `json:"paper_random_p_at_1,omitempty"`
	PaperRandomP2 float64        `json:"paper_random_p_at_2,omitempty"`

	// Baselines reports whether the GAT and GNNExplainer columns were
	// measured; then their means and standard deviations over seeds
	// follow, and the paper's numbers for them (table 2).
	Baselines           bool    `json:"baselines"`
	GATP1Mean           float64 `json:"gat_p_at_1_mean,omitempty"`
	GATP1Std            float64 `json:"gat_p_at_1_std,omitempty"`
	GATP2Mean           float64 `json:"gat_p_at_2_mean,omitempty"`
	GATP2Std            float64 `json:"gat_p_at_2_std,omitempty"`
	GNNExplainerP1Mean  float64 `json:"gnnexplainer_p_at_1_mean,omitempty"`
	GNNExplainerP1Std   float64 `json:"gnnexplainer_p_at_1_std,omitempty"`
	GNNExplainerP2Mean  float64 `json:"gnnexplainer_p_at_2_mean,omitempty"`
	GNNExplainerP2Std   float64 `json:"gnnexplainer_p_at_2_std,omitempty"`
	ExplainMillisMean   float64 `json:"gnnexplainer_ms_per_link_mean,omitempty"`
	CONPIP1Mean         float64 `json:"conpi_p_at_1_mean,omitempty"`
	CONPIP1Std          float64 `json:"conpi_p_at_1_std,omitempty"`
	CONPIP2Mean         float64 `json:"conpi_p_at_2_mean,omitempty"`
	CONPIP2Std          float64 `json:"conpi_p_at_2_std,omitempty"`
	PaperCONPIP1        float64 `json:"paper_conpi_p_at_1,omitempty"`
	PaperCONPIP2        float64 `json:"paper_conpi_p_at_2,omitempty"`
	PaperGATP1          float64 `json:"paper_gat_p_at_1,omitempty"`
	PaperGATP2          float64 `json:"paper_gat_p_at_2,omitempty"`
	PaperGNNExplainerP1 float64 `json:"paper_gnnexplainer_p_at_1,omitempty"`
	PaperGNNExplainerP2 float64 `json:"paper_gnnexplainer_p_at_2,omitempty"`
}

// paperPrecision holds table 2 (ILP-GNN and Random P@1/P@2) and table 3
// (ILP-GNN AUC) of the paper, as fractions.
var paperPrecision = map[string][5]float64{
	"sparse": {0.4968, 0.6525, 0.8042, 0.3062, 0.3196},
	"medium": {0.8127, 0.8431, 0.8344, 0.2644, 0.2585},
	"dense":  {0.7910, 0.8222, 0.8485, 0.1275, 0.1315},
}

// paperBaselines holds table 2's GAT, GNNExplainer and CONPI P@1/P@2.
var paperBaselines = map[string][6]float64{
	"sparse": {0.3392, 0.3940, 0.2446, 0.3401, 0.3929, 0.4622},
	"medium": {0.2839, 0.2817, 0.2722, 0.3275, 0.3075, 0.1523},
	"dense":  {0.2405, 0.2374, 0.2990, 0.3560, 0.3246, 0.1922},
}

// Precision trains one model per seed on a synthetic dataset and measures
// how well its neighbour scores find the groundtruth explanations of the
// test links, beside the Random and raw-feature-cosine explainers and,
// unless opt.NoBaselines, GAT's attention (gnn.Model.AttentionRanker) and
// GNNExplainer over a GAE (package gnnexplainer), each model trained on the
// same split with message passing on its training graph.
func Precision(ctx context.Context, src *dataset.Source, opt Options) (*PrecisionReport, error) {
	start := time.Now()
	rep := &PrecisionReport{Preset: src.Name()}
	for _, seed := range opt.Seeds {
		t0 := time.Now()
		f, err := fit(ctx, src, &opt, opt.Train, seed)
		if err != nil {
			return nil, err
		}
		truth := f.data.Truth
		if truth == nil {
			return nil, fmt.Errorf("experiment: %s has no groundtruth explanations (use synth:PRESET or a folder written by `ilpgnn synth`)", src)
		}
		test, val := truth.ExplainedLinks(synth.Test), truth.ExplainedLinks(synth.Validation)
		model := f.pred.RankedNodes
		p := explain.PrecisionAt(model, test, 1, 2)
		vp := explain.PrecisionAt(model, val, 1, 2)
		rp := explain.PrecisionAt(explain.RandomRanker(f.split.Train, seed), test, 1, 2)
		cp := explain.PrecisionAt(explain.CosineRanker(f.split.Train), test, 1, 2)
		run := PrecisionRun{Seed: seed, AUC: f.res.TestAUC, ValAUC: f.res.ValAUC, P1: p[0], P2: p[1],
			ValP1: vp[0], ValP2: vp[1], RandomP1: rp[0], RandomP2: rp[1], CosineP1: cp[0], CosineP2: cp[1],
			Epochs: f.res.Epochs}
		if !opt.NoBaselines {
			if err := precisionBaselines(ctx, f, &opt, seed, test, &run); err != nil {
				return nil, err
			}
		}
		run.Seconds = since(t0)
		rep.Runs = append(rep.Runs, run)
		opt.logf("precision %s seed %d: P@1 %.3f P@2 %.3f (cosine %.3f %.3f, random %.3f %.3f, GAT %.3f %.3f, GNNExplainer %.3f %.3f at %.1f ms/link, CONPI %.3f %.3f) AUC %.4f, %d epochs, %.1fs",
			src, seed, run.P1, run.P2, run.CosineP1, run.CosineP2, run.RandomP1, run.RandomP2, run.GATP1, run.GATP2,
			run.GNNExplainerP1, run.GNNExplainerP2, run.ExplainMillis, run.CONPIP1, run.CONPIP2, run.AUC, run.Epochs, run.Seconds)
	}
	n, r := len(rep.Runs), rep.Runs
	rep.P1Mean, rep.P1Std = meanStd(n, func(k int) float64 { return r[k].P1 })
	rep.P2Mean, rep.P2Std = meanStd(n, func(k int) float64 { return r[k].P2 })
	rep.AUCMean, rep.AUCStd = meanStd(n, func(k int) float64 { return r[k].AUC })
	rep.RandomP1Mean, _ = meanStd(n, func(k int) float64 { return r[k].RandomP1 })
	rep.RandomP2Mean, _ = meanStd(n, func(k int) float64 { return r[k].RandomP2 })
	rep.CosineP1Mean, _ = meanStd(n, func(k int) float64 { return r[k].CosineP1 })
	rep.CosineP2Mean, _ = meanStd(n, func(k int) float64 { return r[k].CosineP2 })
	rep.ValP1Mean, _ = meanStd(n, func(k int) float64 { return r[k].ValP1 })
	rep.ValP2Mean, _ = meanStd(n, func(k int) float64 { return r[k].ValP2 })
	if rep.Baselines = !opt.NoBaselines; rep.Baselines {
		rep.GATP1Mean, rep.GATP1Std = meanStd(n, func(k int) float64 { return r[k].GATP1 })
		rep.GATP2Mean, rep.GATP2Std = meanStd(n, func(k int) float64 { return r[k].GATP2 })
		rep.GNNExplainerP1Mean, rep.GNNExplainerP1Std = meanStd(n, func(k int) float64 { return r[k].GNNExplainerP1 })
		rep.GNNExplainerP2Mean, rep.GNNExplainerP2Std = meanStd(n, func(k int) float64 { return r[k].GNNExplainerP2 })
		rep.ExplainMillisMean, _ = meanStd(n, func(k int) float64 { return r[k].ExplainMillis })
		rep.CONPIP1Mean, rep.CONPIP1Std = meanStd(n, func(k int) float64 { return r[k].CONPIP1 })
		rep.CONPIP2Mean, rep.CONPIP2Std = meanStd(n, func(k int) float64 { return r[k].CONPIP2 })
	}
	// The paper's numbers go beside generated presets only: a folder named
	// "dense" may hold anything.
	if paper, ok := paperPrecision[presetOf(src.String())]; ok && src.Synthetic() {
		rep.PaperP1, rep.PaperP2, rep.PaperAUC, rep.PaperRandomP1, rep.PaperRandomP2 = paper[0], paper[1], paper[2], paper[3], paper[4]
		b := paperBaselines[presetOf(src.String())]
		rep.PaperGATP1, rep.PaperGATP2, rep.PaperGNNExplainerP1, rep.PaperGNNExplainerP2 = b[0], b[1], b[2], b[3]
		rep.PaperCONPIP1, rep.PaperCONPIP2 = b[4], b[5]
	}
	rep.Seconds = since(start)
	return rep, nil
}

// precisionBaselines trains the baselines' models on f's split and
// fills their precisions on the test links into run.
func precisionBaselines(ctx context.Context, f *fitted, opt *Options, seed uint64, test []explain.Link, run *PrecisionRun) error {
	b, err := trainBaselines(ctx, f.split, opt, seed)
	if err != nil {
		return err
	}
	gp := explain.PrecisionAt(b.attention, test, 1, 2)
	t0 := time.Now()
	ep := explain.PrecisionAt(b.explainer.Ranker(), test, 1, 2)
	if len(test) > 0 {
		run.ExplainMillis = 1e3 * since(t0) / float64(len(test))
	}
	run.GATP1, run.GATP2, run.GNNExplainerP1, run.GNNExplainerP2 = gp[0], gp[1], ep[0], ep[1]
	run.GATAUC, run.GAEAUC = b.gat.TestAUC, b.gae.TestAUC
	cp := explain.PrecisionAt(b.conpi.Model.Ranker(), test, 1, 2)
	run.CONPIP1, run.CONPIP2, run.CONPIAUC = cp[0], cp[1], b.conpi.TestAUC
	return nil
}

// presetOf returns "medium" for "synth:medium" or "synth:medium:seed=3".
func presetOf(spec string) string {
	name, _ := strings.CutPrefix(spec, "synth:")
	name, _, _ = strings.Cut(name, ":")
	return name
}

// WritePrecisionTable writes the reports as one markdown table, a row per
// dataset: the paper's tables 2 and 3 side by side with ours (percentages,
// mean ± standard deviation over seeds; the baselines' cells give our mean
// and the paper's number in brackets, "–" for ours when they were skipped).
func WritePrecisionTable(w io.Writer, reps []*PrecisionReport) error {
	var b strings.Builder
	b.WriteString("| dataset | seeds | Random P@1 / P@2 | raw cosine P@1 / P@2 | GAT attention P@1 / P@2 (paper) | GNNExplainer P@1 / P@2 (paper) | CONPI P@1 / P@2 (paper) | ILP-GNN P@1 | ILP-GNN P@2 | paper P@1 / P@2 | AUC | paper AUC | time |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range reps {
		paper, paperAUC := "–", "–"
		if r.PaperP1 > 0 {
			paper = fmt.Sprintf("%.2f / %.2f", 100*r.PaperP1, 100*r.PaperP2)
			paperAUC = fmt.Sprintf("%.2f", 100*r.PaperAUC)
		}
		// A baseline cell: ours (mean over seeds), the paper's in brackets.
		baseline := func(p1, p2, paper1, paper2 float64) string {
			cell := "–"
			if r.Baselines {
				cell = fmt.Sprintf("%.2f / %.2f", 100*p1, 100*p2)
			}
			if paper1 > 0 {
				cell += fmt.Sprintf(" (%.2f / %.2f)", 100*paper1, 100*paper2)
			}
			return cell
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f / %.2f | %.2f / %.2f | %s | %s | %s | %.2f ± %.2f | %.2f ± %.2f | %s | %.2f ± %.2f | %s | %.0fs |\n",
			r.Preset, len(r.Runs), 100*r.RandomP1Mean, 100*r.RandomP2Mean, 100*r.CosineP1Mean, 100*r.CosineP2Mean,
			baseline(r.GATP1Mean, r.GATP2Mean, r.PaperGATP1, r.PaperGATP2),
			baseline(r.GNNExplainerP1Mean, r.GNNExplainerP2Mean, r.PaperGNNExplainerP1, r.PaperGNNExplainerP2),
			baseline(r.CONPIP1Mean, r.CONPIP2Mean, r.PaperCONPIP1, r.PaperCONPIP2),
			100*r.P1Mean, 100*r.P1Std, 100*r.P2Mean, 100*r.P2Std, paper, 100*r.AUCMean, 100*r.AUCStd, paperAUC, r.Seconds)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
