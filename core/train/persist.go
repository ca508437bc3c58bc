package train

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
)

// ModelName is the Model field of ILP-GNN checkpoints.
const ModelName = "ilpgnn"

// savedConfig is the JSON written in a checkpoint's Config section.
type savedConfig struct {
	Config     Config `json:"config"`
	FeatureDim int    `json:"feature_dim"`
}

// Checkpoint packs a finished run for g, the graph it was trained on (the
// whole graph, before the split). It carries no timings or dates, so the
// same seed gives byte-identical checkpoints.
func (r *Result) Checkpoint(g *graph.Graph) (*checkpoint.Checkpoint, error) {
	cfg, err := json.Marshal(savedConfig{Config: r.Config, FeatureDim: r.Model.FeatureDim})
	if err != nil {
		return nil, fmt.Errorf("train: encoding config: %w", err)
	}
	c := &checkpoint.Checkpoint{
		Model:       ModelName,
		Dataset:     g.Name,
		Fingerprint: g.Fingerprint(),
		Seed:        r.Config.Seed,
		Config:      cfg,
		Metrics: []checkpoint.Metric{
			{Name: "test_auc", Value: r.TestAUC},
			{Name: "val_auc", Value: r.ValAUC},
			{Name: "epochs", Value: float64(r.Epochs)},
			{Name: "best_epoch", Value: float64(r.BestEpoch)},
		},
	}
	for k, p := range r.Model.Params() {
		c.Tensors = append(c.Tensors, checkpoint.Tensor{Name: ilpgnn.ParamNames()[k], Rows: p.Rows, Cols: p.Cols,
			Data: append([]float32(nil), p.Value...)})
	}
	return c, nil
}

// LoadModel rebuilds the model and training configuration stored in c, after
// checking that c was trained on g.
func LoadModel(c *checkpoint.Checkpoint, g *graph.Graph) (*ilpgnn.Model, Config, error) {
	if c.Model != ModelName {
		return nil, Config{}, fmt.Errorf("train: checkpoint holds a %q model, not %q", c.Model, ModelName)
	}
	if err := c.CheckGraph(g.Fingerprint()); err != nil {
		return nil, Config{}, err
	}
	var sc savedConfig
	if err := json.Unmarshal(c.Config, &sc); err != nil {
		return nil, Config{}, fmt.Errorf("train: checkpoint config: %w", err)
	}
	if err := sc.Config.Validate(); err != nil {
		return nil, Config{}, fmt.Errorf("train: checkpoint config: %w", err)
	}
	m, err := ilpgnn.New(sc.Config.Model, sc.FeatureDim, rand.New(rand.NewPCG(0, 0)))
	if err != nil {
		return nil, Config{}, err
	}
	for k, p := range m.Params() {
		t, err := c.Tensor(ilpgnn.ParamNames()[k])
		if err != nil {
			return nil, Config{}, err
		}
		if t.Rows != p.Rows || t.Cols != p.Cols {
			return nil, Config{}, fmt.Errorf("train: checkpoint tensor %s is %dx%d, the model needs %dx%d",
				t.Name, t.Rows, t.Cols, p.Rows, p.Cols)
		}
		copy(p.Value, t.Data)
	}
	return m, sc.Config, nil
}
