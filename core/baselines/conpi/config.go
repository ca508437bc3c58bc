package conpi

import (
	"flag"
	"fmt"

	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/graph"
)

// Config is everything a CONPI run depends on besides the split.
type Config struct {
	// Hidden is the width of the node encoder's hidden layer, Dim that of
	// its output h_v (the width of every context representation).
	Hidden, Dim int
	// QueryDim is d_q, the width of the shared projection W_q whose inner
	// products score the context pairs.
	QueryDim int
	// PredHidden is the width of the hidden layer of the MLP that maps the
	// pair representation to a logit.
	PredHidden int
	// MaxContext caps the neighbours in one context set C(u | v); u
	// itself always joins them. Larger neighbourhoods are subsampled per
	// pair (see the package doc).
	MaxContext int
	// Direct appends h_u ⊙ h_v to the interaction summary r before the
	// predictor.
	Direct bool
	// NormalizeFeatures scales every feature row to unit L2 norm.
	NormalizeFeatures bool
	// Dropout applies to the encoder's and the predictor's hidden layers
	// in training.
	Dropout float64

	Fit pairfit.Config // training loop: LR, WeightDecay, Epochs, Patience, BatchSize, PairsPerEpoch, Seed
}

// DefaultConfig returns the settings chosen on Cora's validation AUC:
// hidden 128, dim 128, d_q 32, predictor 64, at most 20 context
// neighbours, the direct term, dropout 0.5, Adam lr 0.005 with weight
// decay 5e-4 over batches of 256 pairs, at most 200 epochs with patience
// 10, raw features. Of the settings tried only the direct term (+1.2
// points) and row-normalised features (far worse) moved validation AUC
// beyond the seeds' spread.
// On Amazon Photo lr 0.005 does not learn; use -lr 0.001 -pairs-per-epoch
// 10000 there. The tried settings, the commands and the resulting AUCs
// and times: docs/pair-models.md.
func DefaultConfig() Config {
	return Config{
		Hidden:     128,
		Dim:        128,
		QueryDim:   32,
		PredHidden: 64,
		MaxContext: 20,
		Direct:     true,
		Dropout:    0.5,
		Fit: pairfit.Config{
			LR:          0.005,
			WeightDecay: 5e-4,
			Epochs:      200,
			Patience:    10,
			BatchSize:   256,
		},
	}
}

// Validate reports the first setting out of range, quoting its value.
func (c Config) Validate() error {
	switch {
	case c.Hidden < 1:
		return fmt.Errorf("conpi: hidden width must be at least 1 (got %d)", c.Hidden)
	case c.Dim < 1:
		return fmt.Errorf("conpi: embedding width must be at least 1 (got %d)", c.Dim)
	case c.QueryDim < 1:
		return fmt.Errorf("conpi: query width must be at least 1 (got %d)", c.QueryDim)
	case c.PredHidden < 1:
		return fmt.Errorf("conpi: predictor hidden width must be at least 1 (got %d)", c.PredHidden)
	case c.MaxContext < 1:
		return fmt.Errorf("conpi: max context must be at least 1 (got %d)", c.MaxContext)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fmt.Errorf("conpi: dropout must be in [0, 1) (got %g)", c.Dropout)
	}
	if err := c.Fit.Validate(); err != nil {
		return fmt.Errorf("conpi: %w", err)
	}
	return nil
}

// RegisterFlags binds c to flags of fs: the training loop's
// (pairfit.Config.RegisterFlags) and the model's, with c's values as
// defaults. The seed is the command line's own.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	c.Fit.RegisterFlags(fs)
	fs.IntVar(&c.Hidden, "hidden", c.Hidden, "CONPI: width of the node encoder's hidden layer")
	fs.IntVar(&c.Dim, "dim", c.Dim, "CONPI: width of the node representations")
	fs.IntVar(&c.QueryDim, "query-dim", c.QueryDim, "CONPI: width of the projection scoring context pairs")
	fs.IntVar(&c.PredHidden, "pred-hidden", c.PredHidden, "CONPI: hidden width of the pair predictor")
	fs.IntVar(&c.MaxContext, "max-context", c.MaxContext, "CONPI: neighbours kept per context set")
	fs.BoolVar(&c.Direct, "direct", c.Direct, "CONPI: also feed h_u ⊙ h_v to the predictor")
	fs.BoolVar(&c.NormalizeFeatures, "normalize-features", c.NormalizeFeatures, "L2-normalise each feature row")
	fs.Float64Var(&c.Dropout, "dropout", c.Dropout, "dropout on the hidden layers")
}

// Build returns the model on the training graph g (New), for pairfit.Fit.
func (c Config) Build(g *graph.Graph) (*Model, error) { return New(g, c) }
