package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/paper/plot"
	"ilpgnn/core/train"
)

// Run is one seed of a trained variant.
type Run struct {
	Seed    uint64  `json:"seed"`
	AUC     float64 `json:"auc"`
	ValAUC  float64 `json:"val_auc"`
	Epochs  int     `json:"epochs"`
	Seconds float64 `json:"seconds"`
}

// Point is one setting of a sweep, over seeds.
type Point struct {
	Label      string  `json:"label"`
	Value      float64 `json:"value,omitempty"` // the swept parameter's value, for sensitivity
	AUCMean    float64 `json:"auc_mean"`
	AUCStd     float64 `json:"auc_std"`
	ValAUCMean float64 `json:"val_auc_mean"`
	Runs       []Run   `json:"runs"`
}

// SweepReport is an ablation or a sensitivity sweep on one dataset.
type SweepReport struct {
	Experiment string  `json:"experiment"`
	Dataset    string  `json:"dataset"`
	Parameter  string  `json:"parameter,omitempty"`
	Points     []Point `json:"points"`
	Seconds    float64 `json:"seconds"`
}

// variant is one configuration of a sweep.
type variant struct {
	label  string
	value  float64
	mutate func(*train.Config)
}

// sweep trains every variant on every seed.
func sweep(ctx context.Context, src *dataset.Source, opt Options, experiment, parameter string, vs []variant) (*SweepReport, error) {
	start := time.Now()
	rep := &SweepReport{Experiment: experiment, Dataset: src.Name(), Parameter: parameter}
	for _, v := range vs {
		cfg := opt.Train
		v.mutate(&cfg)
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("experiment %s, %s: %w", experiment, v.label, err)
		}
		pt := Point{Label: v.label, Value: v.value}
		for _, seed := range opt.Seeds {
			t0 := time.Now()
			f, err := fit(ctx, src, &opt, cfg, seed)
			if err != nil {
				return nil, err
			}
			r := Run{Seed: seed, AUC: f.res.TestAUC, ValAUC: f.res.ValAUC, Epochs: f.res.Epochs, Seconds: since(t0)}
			pt.Runs = append(pt.Runs, r)
			opt.logf("%s %s %s seed %d: AUC %.4f (val %.4f), %d epochs, %.1fs", experiment, src, v.label, seed, r.AUC, r.ValAUC, r.Epochs, r.Seconds)
		}
		pt.AUCMean, pt.AUCStd = meanStd(len(pt.Runs), func(k int) float64 { return pt.Runs[k].AUC })
		pt.ValAUCMean, _ = meanStd(len(pt.Runs), func(k int) float64 { return pt.Runs[k].ValAUC })
		rep.Points = append(rep.Points, pt)
	}
	rep.Seconds = since(start)
	return rep, nil
}

// Ablation trains the paper's ablations (sec. 5.4, figure 7) beside the
// full model: without the structure score (α = 0), without the feature
// score (α = 1), without both (every neighbour aggregated with equal
// weight: a GCN-style mean, no selection, no explanation loss), and without
// the explanation enhancement (λ = 0).
func Ablation(ctx context.Context, src *dataset.Source, opt Options) (*SweepReport, error) {
	return sweep(ctx, src, opt, "ablation", "", []variant{
		{"ILP-GNN", 0, func(*train.Config) {}},
		{`ILP-GNN\E (α = 0)`, 0, func(c *train.Config) { c.Model.Alpha = 0 }},
		{`ILP-GNN\F (α = 1)`, 0, func(c *train.Config) { c.Model.Alpha = 1 }},
		{`ILP-GNN\F,E (all neighbours, equal weights)`, 0, func(c *train.Config) {
			c.Model.K = math.MaxInt32
			c.Model.Tau = 1e9 // softmax over any scores is uniform
			c.Objective.Lambda = 0
		}},
		{"λ = 0", 0, func(c *train.Config) { c.Objective.Lambda = 0 }},
	})
}

// Sensitivity sweeps K over {1, 2, 4, 6} and λ over {0.1, 0.3, 0.5, 0.7}
// (sec. 5.5, figure 5), one parameter at a time from opt.Train.
func Sensitivity(ctx context.Context, src *dataset.Source, opt Options) ([]*SweepReport, error) {
	var ks, lambdas []variant
	for _, k := range []int{1, 2, 4, 6} {
		ks = append(ks, variant{"K = " + strconv.Itoa(k), float64(k), func(c *train.Config) { c.Model.K = k }})
	}
	for _, l := range []float64{0.1, 0.3, 0.5, 0.7} {
		lambdas = append(lambdas, variant{fmt.Sprintf("λ = %g", l), l, func(c *train.Config) { c.Objective.Lambda = l }})
	}
	a, err := sweep(ctx, src, opt, "sensitivity", "K", ks)
	if err != nil {
		return nil, err
	}
	b, err := sweep(ctx, src, opt, "sensitivity", "lambda", lambdas)
	if err != nil {
		return nil, err
	}
	return []*SweepReport{a, b}, nil
}

// WriteSweepTable writes sweeps as a markdown table: a row per setting,
// a column per dataset (test AUC %, mean ± std; validation in brackets).
func WriteSweepTable(w io.Writer, reps []*SweepReport) error {
	var b strings.Builder
	for _, group := range groupByParameter(reps) {
		head := "setting"
		if group[0].Parameter != "" {
			head = group[0].Parameter
		}
		b.WriteString("| " + head)
		for _, r := range group {
			b.WriteString(" | " + r.Dataset)
		}
		b.WriteString(" |\n|---" + strings.Repeat("|---", len(group)) + "|\n")
		for p := range group[0].Points {
			b.WriteString("| " + group[0].Points[p].Label)
			for _, r := range group {
				pt := r.Points[p]
				fmt.Fprintf(&b, " | %.2f ± %.2f (val %.2f)", 100*pt.AUCMean, 100*pt.AUCStd, 100*pt.ValAUCMean)
			}
			b.WriteString(" |\n")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// groupByParameter groups reports of the same parameter (datasets side by
// side), keeping first-seen order.
func groupByParameter(reps []*SweepReport) [][]*SweepReport {
	var order []string
	groups := map[string][]*SweepReport{}
	for _, r := range reps {
		if _, ok := groups[r.Parameter]; !ok {
			order = append(order, r.Parameter)
		}
		groups[r.Parameter] = append(groups[r.Parameter], r)
	}
	out := make([][]*SweepReport, len(order))
	for k, p := range order {
		out[k] = groups[p]
	}
	return out
}

// WriteSweepCSV writes one line per (dataset, setting).
func WriteSweepCSV(w io.Writer, reps []*SweepReport) error {
	var b strings.Builder
	b.WriteString("experiment,dataset,parameter,setting,value,auc_mean,auc_std,val_auc_mean,seeds\n")
	for _, r := range reps {
		for _, pt := range r.Points {
			fmt.Fprintf(&b, "%s,%s,%s,%s,%g,%.6f,%.6f,%.6f,%d\n", r.Experiment, csvField(r.Dataset), r.Parameter,
				csvField(pt.Label), pt.Value, pt.AUCMean, pt.AUCStd, pt.ValAUCMean, len(pt.Runs))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// csvField quotes a field that holds a comma or a quote.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// SweepFigures returns the figures of sweeps by file stem: a bar chart of
// the ablation, a line chart per swept parameter (the paper's figures 7
// and 5), test AUC % with the standard deviation as error bars.
func SweepFigures(reps []*SweepReport) map[string]func(io.Writer) error {
	figs := map[string]func(io.Writer) error{}
	for _, group := range groupByParameter(reps) {
		if group[0].Parameter == "" {
			chart := &plot.BarChart{Title: "Ablation (test AUC, mean ± std over seeds)", YLabel: "AUC %", Dots: true}
			for _, pt := range group[0].Points {
				chart.Categories = append(chart.Categories, pt.Label)
			}
			for _, r := range group {
				chart.Series = append(chart.Series, pointSeries(r, false))
			}
			figs[group[0].Experiment] = chart.WriteSVG
			continue
		}
		chart := &plot.LineChart{Title: "Sensitivity to " + group[0].Parameter + " (test AUC, mean ± std)",
			XLabel: group[0].Parameter, YLabel: "AUC %"}
		for _, r := range group {
			chart.Series = append(chart.Series, pointSeries(r, true))
		}
		figs[group[0].Experiment+"_"+group[0].Parameter] = chart.WriteSVG
	}
	return figs
}

func pointSeries(r *SweepReport, withX bool) plot.Series {
	s := plot.Series{Name: r.Dataset}
	for _, pt := range r.Points {
		if withX {
			s.X = append(s.X, pt.Value)
		}
		s.Y = append(s.Y, 100*pt.AUCMean)
		s.Err = append(s.Err, 100*pt.AUCStd)
	}
	return s
}

// FidelityPoint is ΔAUC for one M over seeds.
type FidelityPoint struct {
	M         int       `json:"m"`
	DeltaMean float64   `json:"delta_auc_mean"`
	DeltaStd  float64   `json:"delta_auc_std"`
	Deltas    []float64 `json:"delta_auc"` // per seed, in Seeds order
	// RandomDeltaMean is the AUC drop when M uniformly random neighbours
	// of each end are removed instead (per seed the mean over
	// ilpgnn.RandomDraws draws), over seeds: what the top M are compared
	// with. Absent for the baselines.
	RandomDeltaMean float64   `json:"random_delta_auc_mean,omitempty"`
	RandomDeltaStd  float64   `json:"random_delta_auc_std,omitempty"`
	RandomDeltas    []float64 `json:"random_delta_auc,omitempty"` // per seed
}

// FidelityReport is the fidelity experiment on one dataset (sec. 5.3,
// figure 3).
type FidelityReport struct {
	Dataset string          `json:"dataset"`
	Seeds   []uint64        `json:"seeds"`
	AUC     []float64       `json:"auc"` // per seed, nothing removed
	Points  []FidelityPoint `json:"points"`
	Seconds float64         `json:"seconds"`
	// Baselines are the curves of GAT attention (over a GAT) and
	// GNNExplainer (over a GAE), each model trained with gnn's defaults
	// on the same split; absent with Options.NoBaselines.
	Baselines []FidelityCurve `json:"baselines,omitempty"`
	// Faithfulness is measured on the linked test pairs with ILP-GNN's
	// explanations (explain.MeasureFaithfulness): per seed, and Mean, its
	// shares and correlation averaged over seeds, its counts summed.
	Faithfulness []explain.Faithfulness `json:"faithfulness"`
	Mean         explain.Faithfulness   `json:"faithfulness_mean"`
}

// FidelityCurve is ΔAUC against M for one baseline explainer, measured on
// its own model.
type FidelityCurve struct {
	Explainer string          `json:"explainer"`
	Model     string          `json:"model"`
	AUC       []float64       `json:"auc"` // per seed, nothing removed
	Points    []FidelityPoint `json:"points"`
}

// Fidelity trains one model per seed and measures, for M = 1..maxM, how
// much test AUC drops when the top-M neighbours of both ends of every test
// pair (by the model's own score) are removed and the model predicts again
// on what remains (docs/model.md §7). Larger drops mean the explanations name the
// neighbours the prediction rests on.
//
// Unless opt.NoBaselines, the same is measured for GAT attention over a GAT
// and GNNExplainer over a GAE trained on the run's split: for each test
// pair (i, j) and M, the explainer's top-M neighbours of i against j and
// of j against i are taken, the undirected edges joining them to i and j
// are deleted from that model's message-passing graph (the training
// graph; GCN normalisation recomputed with the new degrees, GAT attention
// re-taken over the remaining neighbours), and the model scores the pair
// again (gnnexplainer.Explainer.LogitWithout). The deletion is per pair,
// as ILP-GNN's is; ΔAUC is against the same model on the whole graph.
func Fidelity(ctx context.Context, src *dataset.Source, opt Options, maxM int) (*FidelityReport, error) {
	start := time.Now()
	rep := &FidelityReport{Dataset: src.Name(), Seeds: opt.Seeds}
	for m := 1; m <= maxM; m++ {
		rep.Points = append(rep.Points, FidelityPoint{M: m})
	}
	if !opt.NoBaselines {
		for _, name := range [][2]string{{"GAT attention", "gat"}, {"GNNExplainer", "gae"}, {"CONPI", "conpi"}} {
			c := FidelityCurve{Explainer: name[0], Model: name[1]}
			for m := 1; m <= maxM; m++ {
				c.Points = append(c.Points, FidelityPoint{M: m})
			}
			rep.Baselines = append(rep.Baselines, c)
		}
	}
	for _, seed := range opt.Seeds {
		t0 := time.Now()
		line, err := fidelitySeed(ctx, src, &opt, seed, maxM, rep)
		if err != nil {
			return nil, err
		}
		opt.logf("%s, %.1fs", line, since(t0))
	}
	for k := range rep.Points {
		rep.Points[k].DeltaMean, rep.Points[k].DeltaStd = eval.MeanStd(rep.Points[k].Deltas)
		rep.Points[k].RandomDeltaMean, rep.Points[k].RandomDeltaStd = eval.MeanStd(rep.Points[k].RandomDeltas)
	}
	rep.Mean = meanFaithfulness(rep.Faithfulness)
	for _, c := range rep.Baselines {
		for k := range c.Points {
			c.Points[k].DeltaMean, c.Points[k].DeltaStd = eval.MeanStd(c.Points[k].Deltas)
		}
	}
	rep.Seconds = since(start)
	return rep, nil
}

// fidelitySeed adds one seed's run to rep: ILP-GNN's ΔAUC for the top M
// and for M random neighbours, its faithfulness on the linked test pairs,
// and the baselines' curves. It returns the seed's log line.
func fidelitySeed(ctx context.Context, src *dataset.Source, opt *Options, seed uint64, maxM int, rep *FidelityReport) (string, error) {
	f, err := fit(ctx, src, opt, opt.Train, seed)
	if err != nil {
		return "", err
	}
	pairs := append(append([]graph.Edge{}, f.split.TestPos...), f.split.TestNeg...)
	nPos := len(f.split.TestPos)
	auc, cut, err := explain.Fidelity(ctx, nPos, maxM, func(m int) []float32 {
		if m == 0 {
			return f.pred.Logits(pairs)
		}
		return f.pred.LogitsWithout(pairs, m)
	}, nil)
	if err != nil {
		return "", err
	}
	rep.AUC = append(rep.AUC, auc)
	f.pred.Seed = seed
	random, err := randomFidelity(ctx, f.pred, pairs, nPos, maxM)
	if err != nil {
		return "", err
	}
	line := fmt.Sprintf("fidelity %s seed %d: AUC %.4f; ΔAUC", src, seed, auc)
	for k := range rep.Points {
		d, r := auc-cut[k], auc-random[k]
		rep.Points[k].Deltas = append(rep.Points[k].Deltas, d)
		rep.Points[k].RandomDeltas = append(rep.Points[k].RandomDeltas, r)
		line += fmt.Sprintf(" M=%d %.4f (random %.4f)", rep.Points[k].M, d, r)
	}
	fa, err := faithfulness(ctx, f.pred, f.split.TestPos)
	if err != nil {
		return "", err
	}
	rep.Faithfulness = append(rep.Faithfulness, fa)
	line += fmt.Sprintf("; selected beat random %.3f, substitutes %.3f (%d pairs); attribution Spearman %.3f (%d pairs)",
		fa.SelectedBeatsRandomShare, fa.SelectedBeatsSubstitutesShare, fa.Pairs, fa.AttributionSpearmanMean, fa.SpearmanPairs)
	if !opt.NoBaselines {
		if err := fidelityBaselines(ctx, f, opt, seed, pairs, nPos, rep.Baselines); err != nil {
			return "", err
		}
		for _, c := range rep.Baselines {
			line += fmt.Sprintf("; %s (AUC %.4f)", c.Explainer, c.AUC[len(c.AUC)-1])
			for _, pt := range c.Points {
				line += fmt.Sprintf(" M=%d %.4f", pt.M, pt.Deltas[len(pt.Deltas)-1])
			}
		}
	}
	return line, nil
}

// fidelityCurves returns every curve of the reports as (column name,
// test AUCs, points): ILP-GNN's named by the dataset, each baseline's
// "dataset explainer".
func fidelityCurves(reps []*FidelityReport) (names []string, aucs [][]float64, points [][]FidelityPoint) {
	for _, r := range reps {
		names, aucs, points = append(names, r.Dataset), append(aucs, r.AUC), append(points, r.Points)
		for _, c := range r.Baselines {
			names = append(names, r.Dataset+" "+c.Explainer)
			aucs, points = append(aucs, c.AUC), append(points, c.Points)
		}
	}
	return names, aucs, points
}

// WriteFidelityTable writes ΔAUC (percentage points) per M, a column per
// dataset (ILP-GNN) and, beside it, one per baseline explainer of that
// dataset (whose row 0 is its own model's test AUC).
func WriteFidelityTable(w io.Writer, reps []*FidelityReport) error {
	names, aucs, points := fidelityCurves(reps)
	var b strings.Builder
	b.WriteString("| M")
	for _, n := range names {
		b.WriteString(" | " + n + " ΔAUC")
	}
	b.WriteString(" |\n|---" + strings.Repeat("|---", len(names)) + "|\n")
	b.WriteString("| 0 (test AUC)")
	for _, a := range aucs {
		m, s := eval.MeanStd(a)
		fmt.Fprintf(&b, " | %.2f ± %.2f", 100*m, 100*s)
	}
	b.WriteString(" |\n")
	for k := range reps[0].Points {
		fmt.Fprintf(&b, "| %d", reps[0].Points[k].M)
		for _, p := range points {
			fmt.Fprintf(&b, " | %.2f ± %.2f", 100*p[k].DeltaMean, 100*p[k].DeltaStd)
		}
		b.WriteString(" |\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteFidelityCSV writes one line per (dataset, explainer, M); the
// explainer column comes last so that the earlier columns keep their place.
func WriteFidelityCSV(w io.Writer, reps []*FidelityReport) error {
	var b strings.Builder
	b.WriteString("dataset,m,delta_auc_mean,delta_auc_std,seeds,explainer\n")
	for _, r := range reps {
		curves := append([]FidelityCurve{{Explainer: "ILP-GNN", Points: r.Points}}, r.Baselines...)
		for _, c := range curves {
			for _, pt := range c.Points {
				fmt.Fprintf(&b, "%s,%d,%.6f,%.6f,%d,%s\n", csvField(r.Dataset), pt.M, pt.DeltaMean, pt.DeltaStd, len(pt.Deltas), csvField(c.Explainer))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// FidelityFigure draws ΔAUC against M, a line per dataset (figure 3) and
// one per baseline explainer of each dataset.
func FidelityFigure(reps []*FidelityReport) *plot.LineChart {
	chart := &plot.LineChart{Title: "Fidelity: AUC drop when the top-M neighbours are removed",
		XLabel: "M (neighbours removed per end)", YLabel: "ΔAUC (points)"}
	names, _, points := fidelityCurves(reps)
	for n, name := range names {
		s := plot.Series{Name: name}
		for _, pt := range points[n] {
			s.X = append(s.X, float64(pt.M))
			s.Y = append(s.Y, 100*pt.DeltaMean)
			s.Err = append(s.Err, 100*pt.DeltaStd)
		}
		chart.Series = append(chart.Series, s)
	}
	return chart
}

// randomFidelity returns, for M = 1..maxM, the test AUC after M random
// neighbours of each end of every pair are removed, the mean over
// ilpgnn.RandomDraws draws (Predictor.LogitsWithoutRandom, from its Seed).
func randomFidelity(ctx context.Context, pred *ilpgnn.Predictor, pairs []graph.Edge, nPos, maxM int) ([]float64, error) {
	out := make([]float64, maxM)
	for m := 1; m <= maxM; m++ {
		for d := range ilpgnn.RandomDraws {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s := pred.LogitsWithoutRandom(pairs, m, d)
			out[m-1] += eval.AUC(s[:nPos], s[nPos:]) / ilpgnn.RandomDraws
		}
	}
	return out, nil
}

// faithfulness explains every pair with pred, in parallel (each pair on
// its own, so the result does not depend on the number of CPUs), and
// measures the explanations' faithfulness.
func faithfulness(ctx context.Context, pred *ilpgnn.Predictor, pairs []graph.Edge) (explain.Faithfulness, error) {
	es := make([]*explain.Explanation, len(pairs))
	errs := make([]error, len(pairs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(pairs)/8))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(pairs); k += workers {
				if ctx.Err() != nil {
					return
				}
				es[k], errs[k] = pred.Explain(int(pairs[k].U), int(pairs[k].V))
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return explain.Faithfulness{}, err
	}
	if err := errors.Join(errs...); err != nil {
		return explain.Faithfulness{}, err
	}
	return explain.MeasureFaithfulness(es, pred.Model.Config.K), nil
}

// meanFaithfulness averages the shares and correlations of fs and sums
// their counts.
func meanFaithfulness(fs []explain.Faithfulness) explain.Faithfulness {
	var m explain.Faithfulness
	for _, f := range fs {
		m.Pairs += f.Pairs
		m.SpearmanPairs += f.SpearmanPairs
		m.SelectedBeatsRandomShare += f.SelectedBeatsRandomShare / float64(len(fs))
		m.SelectedBeatsSubstitutesShare += f.SelectedBeatsSubstitutesShare / float64(len(fs))
		m.AttributionSpearmanMean += f.AttributionSpearmanMean / float64(len(fs))
	}
	return m
}
