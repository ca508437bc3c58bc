package walkpool

import (
	"flag"
	"fmt"

	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/graph"
)

// Config is everything a WalkPooling run depends on besides the split.
type Config struct {
	// Hops is h of the enclosing subgraphs; MaxPerHop, when positive, caps
	// the nodes first reached at each hop (drawn per pair), which bounds
	// the dense n×n walk matrices.
	Hops, MaxPerHop int
	// MaxLabel caps the DRNL labels of the one-hot input: labels above it
	// share its column.
	MaxLabel int
	// Hidden is the width of each GCN layer, Layers their number.
	Hidden, Layers int
	// Activation of the GCN layers: "tanh" or "relu".
	Activation string
	// Norm of the GCN's adjacency with self-loops: "sym" (D^-½ Â D^-½) or
	// "row" (D^-1 Â).
	Norm string
	// ConcatLayers makes Z the concatenation of every GCN layer's output
	// (else the last layer's).
	ConcatLayers bool
	// Heads is the number of attention heads, each its own transition
	// matrix; AttnDim the width of the Q and K MLPs (hidden and output).
	Heads, AttnDim int
	// WalkLen is τc, the longest walk of the profile (at least 2).
	WalkLen int
	// MLPHidden is the classifier's hidden width; Dropout its dropout.
	MLPHidden int
	Dropout   float64
	// PairProduct feeds Z_x ⊙ Z_y to the classifier beside the walk
	// profile (not part of WalkPooling proper).
	PairProduct bool

	Fit pairfit.Config
}

// DefaultConfig returns the settings chosen on Cora's validation AUC: 2
// hops capped at 40 nodes per hop, DRNL capped at 10, 2 tanh GCN layers
// of 32 (symmetric normalisation, layers concatenated), 2 heads of width
// 32, τc = 4, classifier 64 with dropout 0.5 that also reads Z_x ⊙ Z_y
// (PairProduct), Adam lr 1e-3 with weight decay 5e-4 over batches of 32,
// at most 50 epochs with patience 10. PairProduct is on because it adds
// ~4.5 points of validation AUC; PairProduct=false is WalkPooling proper.
// The tried settings, the commands and the resulting AUCs and times:
// docs/pair-models.md.
func DefaultConfig() Config {
	return Config{
		Hops: 2, MaxPerHop: 40, MaxLabel: 10,
		Hidden: 32, Layers: 2, Activation: "tanh", Norm: "sym", ConcatLayers: true,
		Heads: 2, AttnDim: 32, WalkLen: 4,
		MLPHidden: 64, Dropout: 0.5, PairProduct: true,
		Fit: pairfit.Config{LR: 0.001, WeightDecay: 5e-4, Epochs: 50, Patience: 10, BatchSize: 32},
	}
}

// Validate reports the first setting out of range, quoting its value.
func (c Config) Validate() error {
	switch {
	case c.Hops < 1:
		return fmt.Errorf("walkpool: hops must be at least 1 (got %d)", c.Hops)
	case c.MaxPerHop < 0:
		return fmt.Errorf("walkpool: max nodes per hop must be non-negative (got %d)", c.MaxPerHop)
	case c.MaxLabel < 1:
		return fmt.Errorf("walkpool: max label must be at least 1 (got %d)", c.MaxLabel)
	case c.Hidden < 1:
		return fmt.Errorf("walkpool: hidden width must be at least 1 (got %d)", c.Hidden)
	case c.Layers < 1:
		return fmt.Errorf("walkpool: GCN layers must be at least 1 (got %d)", c.Layers)
	case c.Activation != "tanh" && c.Activation != "relu":
		return fmt.Errorf("walkpool: activation must be tanh or relu (got %q)", c.Activation)
	case c.Norm != "sym" && c.Norm != "row":
		return fmt.Errorf("walkpool: norm must be sym or row (got %q)", c.Norm)
	case c.Heads < 1:
		return fmt.Errorf("walkpool: heads must be at least 1 (got %d)", c.Heads)
	case c.AttnDim < 1:
		return fmt.Errorf("walkpool: attention width must be at least 1 (got %d)", c.AttnDim)
	case c.WalkLen < 2:
		return fmt.Errorf("walkpool: walk length must be at least 2 (got %d)", c.WalkLen)
	case c.MLPHidden < 1:
		return fmt.Errorf("walkpool: classifier hidden width must be at least 1 (got %d)", c.MLPHidden)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fmt.Errorf("walkpool: dropout must be in [0, 1) (got %g)", c.Dropout)
	}
	if err := c.Fit.Validate(); err != nil {
		return fmt.Errorf("walkpool: %w", err)
	}
	return nil
}

// RegisterFlags binds c's training loop (pairfit's flags) and model
// settings to flags of fs, with c's values as defaults. The seed is the
// command line's own.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	c.Fit.RegisterFlags(fs)
	fs.IntVar(&c.Hops, "hops", c.Hops, "hops of the enclosing subgraphs")
	fs.IntVar(&c.MaxPerHop, "max-per-hop", c.MaxPerHop, "nodes kept per hop of a subgraph (0: all)")
	fs.IntVar(&c.MaxLabel, "max-label", c.MaxLabel, "DRNL labels above this share one one-hot column")
	fs.IntVar(&c.Hidden, "hidden", c.Hidden, "width of each GCN layer")
	fs.IntVar(&c.Layers, "layers", c.Layers, "GCN layers")
	fs.StringVar(&c.Activation, "activation", c.Activation, "GCN activation: tanh or relu")
	fs.StringVar(&c.Norm, "norm", c.Norm, "GCN adjacency normalisation: sym or row")
	fs.BoolVar(&c.ConcatLayers, "concat-layers", c.ConcatLayers, "node representation: every GCN layer concatenated (else the last)")
	fs.IntVar(&c.Heads, "heads", c.Heads, "attention heads (transition matrices)")
	fs.IntVar(&c.AttnDim, "attn-dim", c.AttnDim, "width of the query and key MLPs")
	fs.IntVar(&c.WalkLen, "walk-len", c.WalkLen, "longest walk length τc of the profile")
	fs.IntVar(&c.MLPHidden, "mlp-hidden", c.MLPHidden, "hidden width of the classifier")
	fs.Float64Var(&c.Dropout, "dropout", c.Dropout, "dropout on the classifier's hidden layer")
	fs.BoolVar(&c.PairProduct, "pair-product", c.PairProduct, "also feed Z_x ⊙ Z_y to the classifier")
}

// Build returns the model on the training graph g (New), for pairfit.Fit.
func (c Config) Build(g *graph.Graph) (*Model, error) { return New(g, c) }
