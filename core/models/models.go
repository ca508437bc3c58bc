// Package models is the registry of link predictors: ILP-GNN and the
// baselines of the paper's table 1. Each registers a name, its
// hyperparameters (as flags), a trainer that reports one Progress type, and
// a trained result that offers its explanation and its checkpoint. The
// command line and the browser engine are adapters over it: a model added
// here appears in both, and in the app's model selector, without touching
// them.
package models

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"ilpgnn/core/calibrate"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/dataset"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

// Spec registers one model.
type Spec struct {
	// Name is how --model and the engine's train request call it.
	Name string
	// About says in a few words what it is, for help texts.
	About string
	// Learns is false for a heuristic: it scores pairs without training,
	// so it has no epochs and nothing to save.
	Learns bool
	// Saves says its trained weights can be kept as a checkpoint.
	Saves bool
	// Explanation names the model's own explanation of its predictions
	// (Trained.Ranker), "" when it has none.
	Explanation string
	// New returns the model's default configuration.
	New func() Config
	// Space is what a tuner searches (package tune): hyperparameters by
	// flag name with the values worth trying, the default among them.
	// Empty for a model with nothing to tune.
	Space []Dim
}

// Dim is one hyperparameter a tuner searches: a flag of the model's
// configuration and the values it tries.
type Dim struct {
	Flag   string
	Values []string
}

// Config is one model's hyperparameters, ready to train.
type Config interface {
	// RegisterFlags binds every hyperparameter to a flag of fs, named as
	// the command line and the engine call it (never seed, model or data),
	// val-frac and test-frac among them.
	RegisterFlags(fs *flag.FlagSet)
	// Validate reports the first setting out of range, quoting its value.
	Validate() error
	// Loop returns the settings every training loop shares.
	Loop() Loop
	// Train fits the model on run.Split. On cancellation it returns what
	// was trained so far, when anything was, with ctx's error.
	Train(ctx context.Context, run Run, progress func(Progress)) (Trained, error)
}

// MemoryEstimator is a Config that can estimate the peak memory of its
// training on a graph before it starts (ILP-GNN's), so that work too
// large for the machine or the tab is refused up front.
type MemoryEstimator interface {
	EstimateMemory(g *graph.Graph) train.MemoryEstimate
}

// Loop is what every model's training loop is configured with, read back
// from its configuration.
type Loop struct {
	Epochs   int     // at most this many epochs (0 for a heuristic)
	Patience int     // early stopping's patience (0 for a heuristic)
	ValFrac  float64 // share of edges held out for validation
	TestFrac float64 // share of edges held out for testing
}

// Selection says which weights a run keeps.
type Selection string

// The selection rules. SelectAuto is SelectPrecision on a graph with
// groundtruth explanations and SelectUnsupervised elsewhere.
// SelectUnsupervised is exactly what a graph without groundtruth gets,
// run on any graph: nothing reads the groundtruth, so a synthetic graph
// measures what a user's graph is given. Today it keeps the weights with
// the best validation AUC, as SelectAUC does.
const (
	SelectAuto         Selection = "auto"
	SelectAUC          Selection = "auc"
	SelectPrecision    Selection = "precision"
	SelectUnsupervised Selection = "unsupervised"
	// SelectRank keeps the weights whose validation links rank best among
	// hard negatives of their own (the split's ValHard; MRR), for the
	// models that can judge on a criterion of their own (ILP-GNN).
	SelectRank Selection = "rank"
)

// AUCSelectionCaveat says how well the weights a graph without groundtruth
// gets explain, as measured on the synthetic graphs that have it
// (docs/selection.md: --select unsupervised against --select
// precision, seeds 9000-9002).
const AUCSelectionCaveat = "this graph has no groundtruth explanations to choose by; on the synthetic graphs that have them, " +
	"weights kept this way explain within 1.7 points (Precision@1 and @2, averaged over three graphs of each kind; 3.4 on the worst graph) of weights kept on explanation precision"

// ErrNoGroundtruth is the error of SelectPrecision on a graph without
// groundtruth explanations.
var ErrNoGroundtruth = errors.New("selecting on precision needs groundtruth explanations, which only synthetic graphs have")

// ParseSelection reads a selection rule; "" is SelectAuto.
func ParseSelection(s string) (Selection, error) {
	switch Selection(s) {
	case "":
		return SelectAuto, nil
	case SelectAuto, SelectAUC, SelectPrecision, SelectUnsupervised, SelectRank:
		return Selection(s), nil
	}
	return "", fmt.Errorf("want auto, auc, precision, unsupervised or rank (got %q)", s)
}

// Check reports ErrNoGroundtruth when s needs groundtruth d lacks.
func (s Selection) Check(d *dataset.Dataset) error {
	if s == SelectPrecision && d.Truth == nil {
		return ErrNoGroundtruth
	}
	return nil
}

// Run is one training run's data.
type Run struct {
	Data  *dataset.Dataset
	Split *split.Split // of Data, drawn with Seed and the Loop's shares
	Seed  uint64       // the weights, negatives, dropout: everything random
	// Select is the weight-selection rule (models without explanations to
	// select on keep the best validation AUC whatever it says).
	Select Selection
	// Given names the hyperparameters the user set, so that a default may
	// depend on whether one was chosen.
	Given map[string]bool
}

// Progress is the one report every model family makes (loop.Progress).
type Progress = loop.Progress

// Prepare is how far the preparation of a graph has got (loop.Prepare).
type Prepare = loop.Prepare

// Result is what a trained model measured: the training loop's result,
// the split, and what some models add.
type Result struct {
	loop.Result
	Split       *split.Split
	PrepSeconds float64 // preparation before the first epoch
	// Phases are the mean milliseconds per epoch of each part of an epoch,
	// for models that time them.
	Phases []Phase
	// SelectedOn is the rule that chose BestEpoch's weights, for models
	// that can select on their explanations (SelectPrecision or
	// SelectAUC); empty for the others, which keep the best validation AUC.
	SelectedOn Selection
	// Calibration is the test pairs' calibration with the temperature
	// fitted on the validation pairs, for models whose probabilities are
	// calibrated (nil for the others).
	Calibration *calibrate.Calibration
}

// Phase is one part of an epoch and its mean time.
type Phase struct {
	Name   string
	Millis float64
}

// Trained is a finished (or cancelled) run.
type Trained interface {
	Result() Result
	// Ranker is the model's own explanation, ranked on its training graph
	// as Precision@k measures it; nil when the model explains nothing.
	Ranker() explain.Ranker
	// Explainer explains pairs on g, the whole graph the user has; nil
	// when the model has no explainer.
	Explainer(g *graph.Graph) (explain.Explainer, error)
	// Checkpoint packs the weights for g, the graph before the split,
	// whose fingerprint.Of is fp; ErrNoCheckpoint when the model cannot be
	// saved.
	Checkpoint(g *graph.Graph, fp [32]byte) (*checkpoint.Checkpoint, error)
}

// ErrNoCheckpoint is the error of Checkpoint for a model that cannot be
// saved.
var ErrNoCheckpoint = errors.New("checkpoints of this model are not supported")

// TestPrecision returns Precision@1 and @2 of rank on the test links of a
// graph with groundtruth explanations (docs/model.md §7), nil when there is no
// groundtruth or no ranker.
func TestPrecision(rank explain.Ranker, truth *synth.Dataset) (p1, p2 *float64) {
	if rank == nil || truth == nil {
		return nil, nil
	}
	p := explain.PrecisionAt(rank, truth.ExplainedLinks(synth.Test), 1, 2)
	return &p[0], &p[1]
}

// ValidationPrecision is Precision@1 and @2 of t's own ranker
// (Trained.Ranker) on truth's validation links: what weights kept by
// SelectPrecision were kept on. Both are nil without groundtruth or a
// ranker.
func ValidationPrecision(t Trained, truth *synth.Dataset) (p1, p2 *float64) {
	if truth == nil {
		return nil, nil
	}
	rank := t.Ranker()
	if rank == nil {
		return nil, nil
	}
	p := explain.PrecisionAt(rank, truth.ExplainedLinks(synth.Validation), 1, 2)
	return &p[0], &p[1]
}

// TrainedPrecision is TestPrecision of t's own ranker (Trained.Ranker),
// which is built only when there is groundtruth to measure it on: an
// ILP-GNN model's is a predictor on its training graph.
func TrainedPrecision(t Trained, truth *synth.Dataset) (p1, p2 *float64) {
	if truth == nil {
		return nil, nil
	}
	return TestPrecision(t.Ranker(), truth)
}

// Registry is an ordered set of models.
type Registry []Spec

// Default returns the built-in models: ILP-GNN, then table 1's baselines
// in the paper's order.
func Default() Registry {
	return Registry{ilpgnnSpec, cnSpec, aaSpec, gaeSpec, vgaeSpec, gatSpec, sealSpec, wpSpec, conpiSpec}
}

// Names lists the models' names in order.
func (r Registry) Names() []string {
	out := make([]string, len(r))
	for k, s := range r {
		out[k] = s.Name
	}
	return out
}

// Lookup returns the named model, or an error listing the names.
func (r Registry) Lookup(name string) (Spec, error) {
	k := slices.IndexFunc(r, func(s Spec) bool { return s.Name == name })
	if k < 0 {
		return Spec{}, fmt.Errorf("want one of %s (got %q)", strings.Join(r.Names(), ", "), name)
	}
	return r[k], nil
}

// Hyperparameter is one setting of a configuration by its flag name.
type Hyperparameter struct {
	Name, Value, Help string
}

// Hyperparameters lists c's settings in flag order (alphabetical).
func Hyperparameters(c Config) []Hyperparameter {
	fs := flag.NewFlagSet("hyperparameters", flag.ContinueOnError)
	c.RegisterFlags(fs)
	var out []Hyperparameter
	fs.VisitAll(func(f *flag.Flag) {
		out = append(out, Hyperparameter{Name: f.Name, Value: f.Value.String(), Help: f.Usage})
	})
	return out
}

// Settings returns c's settings by flag name.
func Settings(c Config) map[string]string {
	out := map[string]string{}
	for _, h := range Hyperparameters(c) {
		out[h.Name] = h.Value
	}
	return out
}
