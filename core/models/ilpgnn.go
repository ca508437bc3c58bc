package models

import (
	"context"
	"errors"
	"flag"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

var ilpgnnSpec = Spec{
	Name: "ilpgnn", About: "self-explaining, SPEC", Learns: true, Saves: true, Explanation: "neighbour selection",
	New: func() Config { return &ILPGNNConfig{Config: train.DefaultConfig()} },
	// Searched on validation AUC: what shapes accuracy. α (which
	// neighbours explain) and λ (the explanation losses' weight) are
	// explanation settings, chosen on Precision@k (docs/model.md §5,
	// docs/defaults.md): searched on AUC, α 0.3 won on Cora and
	// Citeseer and cost 14 points of Precision@1 on synth:medium
	// (docs/tuning.md).
	Space: []Dim{
		{"lr", []string{"0.001", "0.005", "0.01"}},
		{"weight-decay", []string{"0", "0.0005"}},
		{"dropout", []string{"0", "0.2"}},
		{"beta", []string{"0.25", "0.5", "1"}},
	},
}

// ILPGNNConfig is ILP-GNN's configuration (package train's).
type ILPGNNConfig struct{ train.Config }

// EstimateMemory is train.EstimateMemory of the settings on g.
func (c *ILPGNNConfig) EstimateMemory(g *graph.Graph) train.MemoryEstimate {
	return train.EstimateMemory(g, c.Config)
}

// RegisterFlags binds every hyperparameter (train.Config.RegisterFlags).
func (c *ILPGNNConfig) RegisterFlags(fs *flag.FlagSet) { c.Config.RegisterFlags(fs) }

// Loop returns the shared loop settings.
func (c *ILPGNNConfig) Loop() Loop {
	return Loop{Epochs: c.Epochs, Patience: c.Patience, ValFrac: c.ValFrac, TestFrac: c.TestFrac}
}

// PrecisionPatience is the early-stopping patience of a run that selects
// on precision, unless the user chose one: explanations peak early
// (docs/results.md), so a shorter wait than AUC's loses nothing.
const PrecisionPatience = 30

// RankCriterion scores weights by the MRR of sp's validation links among
// their hard negatives (sp.ValHard).
func RankCriterion(sp *split.Split) train.Criterion {
	return func(p *ilpgnn.Predictor) float64 {
		return eval.RankingOf(p.Logits(sp.ValPos), loop.ScoreInPieces(sp.ValHard, p.Logits)).MRR
	}
}

// PrecisionCriterion scores weights by Precision@1 + Precision@2 of their
// explanations of t's validation links, the selection criterion docs/model.md §8
// asks for on graphs with groundtruth.
func PrecisionCriterion(t *synth.Dataset) train.Criterion {
	val := t.ExplainedLinks(synth.Validation)
	return func(p *ilpgnn.Predictor) float64 {
		v := explain.PrecisionAt(p.RankedNodes, val, 1, 2)
		return v[0] + v[1]
	}
}

// Train fits ILP-GNN. On a graph with groundtruth, unless run.Select is
// SelectAUC or SelectUnsupervised, it keeps the weights that explain the validation links best,
// with patience PrecisionPatience unless the user set one: explanations
// are best early and erode while AUC creeps up.
func (c *ILPGNNConfig) Train(ctx context.Context, run Run, progress func(Progress)) (Trained, error) {
	if err := run.Select.Check(run.Data); err != nil {
		return nil, err
	}
	cfg := c.Config
	cfg.Seed = run.Seed
	var crit train.Criterion
	selectedOn := SelectAUC
	switch {
	case run.Select == SelectRank:
		if len(run.Split.ValHard) == 0 {
			return nil, errors.New("selecting on rank needs hard negatives of the validation links (--eval heart)")
		}
		crit, selectedOn = RankCriterion(run.Split), SelectRank
	case run.Data.Truth != nil && run.Select != SelectAUC && run.Select != SelectUnsupervised:
		crit, selectedOn = PrecisionCriterion(run.Data.Truth), SelectPrecision
		if !run.Given["patience"] {
			cfg.Patience = PrecisionPatience
		}
	}
	if progress != nil {
		ctx = ilpgnn.WithPrepareProgress(ctx, func(p ilpgnn.PrepareProgress) {
			progress(Progress{Seed: cfg.Seed, MaxEpochs: cfg.Epochs, Patience: cfg.Patience, Elapsed: p.Elapsed,
				Prepare: &Prepare{Phase: p.Phase, Done: p.Done, Total: p.Total}})
		})
	}
	res, err := train.RunSplitSelect(ctx, run.Split, cfg, crit, progress)
	if res == nil {
		return nil, err
	}
	return &ILPGNN{Run: res, SelectedOn: selectedOn}, err
}

// ILPGNN is a trained ILP-GNN model.
type ILPGNN struct {
	Run *train.Result
	// SelectedOn is the rule that kept Run's weights: SelectPrecision or
	// SelectAUC.
	SelectedOn Selection
}

// Result returns the run's measurements, with each phase of an epoch.
func (t *ILPGNN) Result() Result {
	r := t.Run
	epochs := float64(max(r.Epochs, 1))
	out := Result{Result: r.Result, Split: r.Split, PrepSeconds: r.PrepSeconds, Calibration: &r.Calibration, SelectedOn: t.SelectedOn}
	p := r.Phases
	for _, ph := range []struct {
		name string
		d    int64
	}{{"encoder", p.Encoder.Microseconds()}, {"selection", p.Selection.Microseconds()}, {"losses", p.Losses.Microseconds()},
		{"backward", p.Backward.Microseconds()}, {"optimizer", p.Optimizer.Microseconds()}, {"eval", p.Eval.Microseconds()}} {
		out.Phases = append(out.Phases, Phase{Name: ph.name, Millis: float64(ph.d) / 1000 / epochs})
	}
	return out
}

// Ranker ranks by the model's selection scores on the training graph.
func (t *ILPGNN) Ranker() explain.Ranker {
	return t.predictor(t.Run.Inputs).RankedNodes
}

// Explainer prepares the model on g and explains by its selection.
func (t *ILPGNN) Explainer(g *graph.Graph) (explain.Explainer, error) {
	in, err := ilpgnn.Prepare(g, t.Run.Config.Model)
	if err != nil {
		return nil, err
	}
	return SelectionExplainer(t.predictor(in)), nil
}

// predictor is the run's predictor on in, calibrated as the run was, its
// counterfactuals drawn from the run's seed.
func (t *ILPGNN) predictor(in *ilpgnn.Inputs) *ilpgnn.Predictor {
	p := ilpgnn.NewPredictor(t.Run.Model, in)
	p.Seed = t.Run.Config.Seed
	c := t.Run.Calibration
	p.Temperature, p.Bias, p.CalibrationError = c.Temperature, c.Bias, c.ECE
	return p
}

// Checkpoint packs the run for g, whose fingerprint is fp (ILPGNNCheckpoint).
func (t *ILPGNN) Checkpoint(g *graph.Graph, fp [32]byte) (*checkpoint.Checkpoint, error) {
	return ILPGNNCheckpoint(t.Run, g, fp)
}

// SelectionExplainer is the explainer of an ILP-GNN predictor: each end's
// neighbours ranked by the score the model selects them on (eq 5), the
// selected ones weighted by b_ic (eq 6).
func SelectionExplainer(p *ilpgnn.Predictor) explain.Explainer { return selection{p} }

type selection struct{ p *ilpgnn.Predictor }

func (s selection) Method() string        { return "selection" }
func (s selection) Rank(i, j int) []int32 { return s.p.RankedNodes(i, j) }
func (s selection) Explain(i, j, top int) (*explain.Ranking, error) {
	e, err := s.p.Explain(i, j)
	if err != nil {
		return nil, err
	}
	out := &explain.Ranking{Method: "selection", Weighted: true}
	for _, side := range []struct {
		dst *[]explain.Ranked
		s   explain.Side
	}{{&out.I, e.I}, {&out.J, e.J}} {
		for _, n := range side.s.Neighbors[:min(top, len(side.s.Neighbors))] {
			*side.dst = append(*side.dst, explain.Ranked{Node: int32(n.Node), Weight: n.Weight})
		}
	}
	return out, out.Validate()
}
