package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"ilpgnn/core/calibrate"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/train"
)

// ilpgnnCheckpointModel is the Model field of ILP-GNN checkpoints. It is
// part of the file format, so it stays even if the registry's name moves.
const ilpgnnCheckpointModel = "ilpgnn"

// ErrPreparing wraps the errors of OpenPredictor that come after the
// checkpoint was accepted, from preparing the graph for its model: the
// checkpoint is not at fault.
var ErrPreparing = errors.New("preparing the graph")

// savedConfig is the JSON written in a checkpoint's Config section.
type savedConfig struct {
	Config     train.Config `json:"config"`
	FeatureDim int          `json:"feature_dim"`
}

// The metrics of a calibrated model: the temperature and bias of its
// probabilities (ilpgnn.Predictor's) and the test pairs' expected
// calibration error with them. They are results of the run, not settings,
// so they stay out of the Config section (which keys stored checkpoints by
// their settings); checkpoints from before calibration lack them and read
// as uncalibrated.
const (
	temperatureMetric = "temperature"
	biasMetric        = "bias"
	eceMetric         = "ece"
)

// TestAUCMetric is the checkpoint metric of the test AUC, which a
// checkpoint of a run whose test evaluation is pending lacks.
const TestAUCMetric = "test_auc"

// TestMetrics returns the metrics a checkpoint of r packed while r's
// test evaluation was pending (train.WithTestLater) lacks, once
// r.FinishTest has measured them: the test AUC and, for a calibrated run,
// the test pairs' calibration error.
func TestMetrics(r *train.Result) []checkpoint.Metric {
	out := []checkpoint.Metric{{Name: TestAUCMetric, Value: r.TestAUC}}
	if r.Calibration.Temperature != 0 {
		out = append(out, checkpoint.Metric{Name: eceMetric, Value: r.Calibration.ECE})
	}
	return out
}

// ILPGNNCheckpoint packs a finished run for g, the graph it was trained on
// (the whole graph, before the split), whose fingerprint.Of is fp: the
// caller has it from loading g, and hashing a large graph's features
// costs more than the rest of packing. It carries no timings or dates, so
// the same seed gives byte-identical checkpoints.
func ILPGNNCheckpoint(r *train.Result, g *graph.Graph, fp [32]byte) (*checkpoint.Checkpoint, error) {
	cfg, err := json.Marshal(savedConfig{Config: r.Config, FeatureDim: r.Model.FeatureDim})
	if err != nil {
		return nil, fmt.Errorf("checkpoint: encoding config: %w", err)
	}
	c := &checkpoint.Checkpoint{
		Model:       ilpgnnCheckpointModel,
		Dataset:     g.Name,
		Fingerprint: fp,
		Seed:        r.Config.Seed,
		Config:      cfg,
		Metrics: []checkpoint.Metric{
			{Name: TestAUCMetric, Value: r.TestAUC},
			{Name: "val_auc", Value: r.ValAUC},
			{Name: "epochs", Value: float64(r.Epochs)},
			{Name: "best_epoch", Value: float64(r.BestEpoch)},
		},
	}
	pending := r.TestPending()
	if pending {
		c.Metrics = c.Metrics[1:] // measured later: TestMetrics
	}
	if cal := r.Calibration; cal.Temperature != 0 {
		c.Metrics = append(c.Metrics, checkpoint.Metric{Name: temperatureMetric, Value: cal.Temperature},
			checkpoint.Metric{Name: biasMetric, Value: cal.Bias})
		if !pending {
			c.Metrics = append(c.Metrics, checkpoint.Metric{Name: eceMetric, Value: cal.ECE})
		}
	}
	for k, p := range r.Model.Params() {
		c.Tensors = append(c.Tensors, checkpoint.Tensor{Name: ilpgnn.ParamNames()[k], Rows: p.Rows, Cols: p.Cols,
			Data: append([]float32(nil), p.Value...)})
	}
	return c, nil
}

// OpenILPGNN rebuilds the model and training configuration stored in c,
// after checking that c was trained on g and, with VerifyILPGNN, that every
// size and weight in it is one the model can use. The checksums of a
// checkpoint guard against accidents only, so c may have been edited and
// re-summed: nothing of the size its configuration claims is allocated
// until that configuration agrees with g and with the tensors c actually
// holds. The model's weights are copies of c's.
func OpenILPGNN(c *checkpoint.Checkpoint, g *graph.Graph) (*ilpgnn.Model, train.Config, error) {
	return openILPGNN(c, g, fingerprint.Of(g))
}

// openILPGNN is OpenILPGNN given g's fingerprint.Of, fp.
func openILPGNN(c *checkpoint.Checkpoint, g *graph.Graph, fp [32]byte) (*ilpgnn.Model, train.Config, error) {
	cfg, featureDim, err := VerifyILPGNNOf(c, g, fp)
	if err != nil {
		return nil, train.Config{}, err
	}
	// The weights drawn are the run's start, which a model with an anchor
	// keeps frozen beside the trained ones it then takes from c.
	m, err := train.NewModel(cfg, featureDim)
	if err != nil {
		return nil, train.Config{}, fmt.Errorf("checkpoint: building the model: %w", err)
	}
	for k, p := range m.Params() {
		t, err := c.Tensor(ilpgnn.ParamNames()[k])
		if err != nil {
			return nil, train.Config{}, err
		}
		copy(p.Value, t.Data) // VerifyILPGNN checked the shape
	}
	return m, cfg, nil
}

// OpenPredictor is what explaining with a saved model takes: it opens c's
// model on g (OpenILPGNN), prepares g for it, and returns a predictor on
// the whole graph whose counterfactuals draw from the run's seed, with the
// run's configuration. Errors about c are OpenILPGNN's; an error after c
// was accepted wraps ErrPreparing.
func OpenPredictor(c *checkpoint.Checkpoint, g *graph.Graph) (*ilpgnn.Predictor, train.Config, error) {
	return OpenPredictorOn(c, g, nil)
}

// OpenPredictorOn is OpenPredictor with g already prepared: in, when it
// is not nil, must be ilpgnn.Prepare's result for g under the settings
// of the checkpoint's model (PrepareKey tells which settings those are),
// and saves preparing g again.
func OpenPredictorOn(c *checkpoint.Checkpoint, g *graph.Graph, in *ilpgnn.Inputs) (*ilpgnn.Predictor, train.Config, error) {
	return OpenPredictorReusing(c, g, fingerprint.Of(g), in, nil, nil)
}

// OpenPredictorReusing is OpenPredictorOn taking the embeddings H^r and
// H^0 from like, a predictor already built on in, when like's model
// is the same as c's (ilpgnn.Model.Same: a run's best weights, whose
// predictor answered while it trained): they are what encoding again
// would give, bit for bit, so the encoder need not run twice. Otherwise,
// or with a nil like, it encodes H^r, and H^0 too unless start, when not
// nil, holds it on in for the same start (ilpgnn.Model.ShareAnchorEmbeddings:
// any model of the same run). fp is g's fingerprint.Of, which the caller
// has from loading g.
func OpenPredictorReusing(c *checkpoint.Checkpoint, g *graph.Graph, fp [32]byte, in *ilpgnn.Inputs, like *ilpgnn.Predictor, start *ilpgnn.Model) (*ilpgnn.Predictor, train.Config, error) {
	m, cfg, err := openILPGNN(c, g, fp)
	if err != nil {
		return nil, train.Config{}, err
	}
	if in == nil {
		if in, err = ilpgnn.Prepare(g, cfg.Model); err != nil {
			return nil, train.Config{}, fmt.Errorf("%w: %w", ErrPreparing, err)
		}
	}
	var p *ilpgnn.Predictor
	if like != nil && like.Inputs == in && like.Model.Same(m) {
		p = &ilpgnn.Predictor{Model: m, Inputs: in, Hr: like.Hr, Anchor: like.Anchor}
	} else {
		if start != nil {
			m.ShareAnchorEmbeddings(start, in)
		}
		p = ilpgnn.NewPredictor(m, in)
	}
	p.Seed = cfg.Seed
	p.Temperature, p.Bias, p.CalibrationError = calibrationOf(c)
	return p, cfg, nil
}

// KeptPredictor is the predictor of a run's best weights so far
// (train.WithKept) on in, the prepared graph it explains on: its
// counterfactuals drawn from the run's seed and its probabilities
// calibrated on the split's validation pairs as the finished run's will
// be (train.Calibrate). The calibration error, which the finished run
// measures on the test pairs, is left unknown (0). start, when not nil,
// is a model of the same run that holds H^0 on in already
// (ilpgnn.Model.ShareAnchorEmbeddings), which then is not encoded again.
func KeptPredictor(k train.Kept, in *ilpgnn.Inputs, start *ilpgnn.Model) *ilpgnn.Predictor {
	var c calibrate.Choice
	if len(k.ValLogits) == len(k.Split.ValPos)+len(k.Split.ValNeg) {
		// As the epoch judged them: the training graph's predictor's, to the bit.
		c = calibrate.Choose(k.ValLogits, calibrate.Labels(len(k.Split.ValPos), len(k.Split.ValNeg)))
	} else {
		c = train.Calibrate(ilpgnn.NewPredictor(k.Model, k.Inputs), k.Split)
	}
	if start != nil {
		k.Model.ShareAnchorEmbeddings(start, in)
	}
	p := ilpgnn.NewPredictor(k.Model, in)
	p.Seed = k.Config.Seed
	p.Temperature, p.Bias = c.Temperature, c.Bias
	return p
}

// calibrationOf returns the temperature, bias and calibration error saved
// in c, which VerifyILPGNN accepted: 1, 0 and 0 (unknown) in checkpoints
// from before calibration.
func calibrationOf(c *checkpoint.Checkpoint) (t, b, ece float64) {
	t, ok := c.Metric(temperatureMetric)
	if !ok {
		t = 1
	}
	b, _ = c.Metric(biasMetric)
	ece, _ = c.Metric(eceMetric)
	return t, b, ece
}

// VerifyILPGNN checks, without building the model, that c holds an
// ILP-GNN model that OpenILPGNN can rebuild, and returns its training
// configuration and feature dimension. It checks in order: the model name;
// when g is not nil, that c was trained on g (checkpoint.ErrForeignGraph);
// that the configuration decodes and is valid; when g is not nil, that its
// feature dimension is g's; that c holds exactly the model's tensors, each
// of the shape the configuration gives it; and that every weight is
// finite; a saved temperature and bias must lie in calibrate's ranges and
// a saved calibration error in [0, 1]. Errors start with "checkpoint: " and name the field or tensor,
// with what was expected and what was found.
//
// Only the tensors' shapes, bounded by the checkpoint's own length, are
// ever compared with the configuration's sizes, so a configuration that
// claims a huge model is refused without allocating anything.
func VerifyILPGNN(c *checkpoint.Checkpoint, g *graph.Graph) (train.Config, int, error) {
	var fp [32]byte
	if g != nil {
		fp = fingerprint.Of(g)
	}
	return VerifyILPGNNOf(c, g, fp)
}

// VerifyILPGNNOf is VerifyILPGNN given g's fingerprint.Of, fp, which the
// caller has from loading g: hashing a large graph's features costs more
// than the rest of the checks. fp is not read when g is nil.
func VerifyILPGNNOf(c *checkpoint.Checkpoint, g *graph.Graph, fp [32]byte) (train.Config, int, error) {
	fail := func(format string, a ...any) (train.Config, int, error) {
		return train.Config{}, 0, fmt.Errorf("checkpoint: "+format, a...)
	}
	if c.Model != ilpgnnCheckpointModel {
		return fail("holds a %q model, not %q", c.Model, ilpgnnCheckpointModel)
	}
	if g != nil {
		if err := c.CheckGraph(fp); err != nil {
			return train.Config{}, 0, err
		}
	}
	var sc savedConfig
	if err := json.Unmarshal(c.Config, &sc); err != nil {
		return fail("config: %w", err)
	}
	if err := sc.Config.Validate(); err != nil {
		return fail("config: %w", err)
	}
	if t, ok := c.Metric(temperatureMetric); ok && !(t >= calibrate.MinTemperature && t <= calibrate.MaxTemperature) {
		return fail("metric %s is %v, want one in [%v, %v]", temperatureMetric, t, calibrate.MinTemperature, calibrate.MaxTemperature)
	}
	if b, ok := c.Metric(biasMetric); ok && !(math.Abs(b) <= calibrate.MaxBias) {
		return fail("metric %s is %v, want one in [-%v, %v]", biasMetric, b, calibrate.MaxBias, calibrate.MaxBias)
	}
	if v, ok := c.Metric(eceMetric); ok && !(v >= 0 && v <= 1) {
		return fail("metric %s is %v, want a calibration error in [0, 1]", eceMetric, v)
	}
	if sc.FeatureDim < 0 {
		return fail("config: feature_dim is %d, it cannot be negative", sc.FeatureDim)
	}
	if g != nil && sc.FeatureDim != g.FeatureDim() {
		return fail("config: feature_dim is %d, but graph %q has %d features per node", sc.FeatureDim, g.Name, g.FeatureDim())
	}
	names := ilpgnn.ParamNames()
	for k, shape := range sc.Config.Model.ParamShapes(sc.FeatureDim) {
		t, err := c.Tensor(names[k])
		if err != nil {
			return train.Config{}, 0, err // it says "checkpoint: no tensor"
		}
		if t.Rows != shape[0] || t.Cols != shape[1] {
			return fail("tensor %s is %dx%d, but its config (hidden %d, feature_dim %d) needs %dx%d",
				t.Name, t.Rows, t.Cols, sc.Config.Model.Hidden, sc.FeatureDim, shape[0], shape[1])
		}
		if len(t.Data) != t.Rows*t.Cols {
			return fail("tensor %s is %dx%d but holds %d values", t.Name, t.Rows, t.Cols, len(t.Data))
		}
		for i, v := range t.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fail("tensor %s has a non-finite weight, %v, at index %d (row %d, col %d)", t.Name, v, i, i/t.Cols, i%t.Cols)
			}
		}
	}
	if len(c.Tensors) != len(names) {
		for _, t := range c.Tensors {
			if !slices.Contains(names, t.Name) {
				return fail("tensor %q is not a weight of an ILP-GNN model (%s)", t.Name, strings.Join(names, ", "))
			}
		}
	}
	return sc.Config, sc.FeatureDim, nil
}
