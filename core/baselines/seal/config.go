package seal

import (
	"flag"
	"fmt"

	"ilpgnn/core/baselines/pairfit"
	"ilpgnn/core/graph"
)

// Config is everything a SEAL run depends on, besides the split.
type Config struct {
	// Hops is h of the h-hop enclosing subgraph of each pair.
	Hops int
	// MaxPerHop, when positive, keeps at most this many of the nodes first
	// reached at each hop (subgraph.Options.MaxPerHop), so that hubs do
	// not blow a subgraph up to a large share of the graph.
	MaxPerHop int
	// MaxLabel caps the DRNL labels of the one-hot input: labels
	// 0..MaxLabel-1 get a slot each (0 = unreachable from one end) and
	// every label from MaxLabel up shares slot MaxLabel.
	MaxLabel int
	// Hidden is the width of each of the Layers graph convolutions; a last
	// convolution of width 1 follows, whose output is the sort key of
	// SortPooling. The node representation concatenates all of them
	// (Hidden·Layers + 1 columns: 97 for SEAL's 32, 32, 32, 1).
	Hidden, Layers int
	// SymmetricNorm propagates with D̃^-1/2 Ã D̃^-1/2 (GCN's, as PyTorch
	// Geometric's SEAL uses) instead of DGCNN's mean D̃⁻¹ Ã; it keeps some
	// degree information that the mean discards.
	SymmetricNorm bool
	// K is the number of nodes SortPooling keeps per subgraph; 0 chooses it
	// from the training graph (the 60th percentile of the enclosing
	// subgraph sizes of a sample of training pairs, at least 10, even).
	K int
	// Conv1 is the channels of the first 1-D convolution (kernel and
	// stride = one node's row), Conv2 those of the second (kernel 5 over
	// the max-pooled positions).
	Conv1, Conv2 int
	// Dense is the width of the hidden dense layer before the logit.
	Dense int
	// Dropout applies to the dense layer's output in training.
	Dropout float64
	// UseFeatures appends each node's features (g.Features) to its label
	// one-hot; without them the model sees structure only.
	UseFeatures bool
	// NormalizeFeatures scales every node feature row to unit L2 norm
	// before it joins the label one-hot.
	NormalizeFeatures bool
	// Fit is the training loop's part.
	Fit pairfit.Config
}

// Kernel2 is the width of the second 1-D convolution, as in DGCNN.
const Kernel2 = 5

// minK is DGCNN's smallest SortPooling size: with max pooling by 2 and a
// kernel of 5 it leaves one position for the second convolution.
const minK = 10

// DefaultConfig returns the settings chosen on Cora's validation AUC: the
// 2-hop enclosing subgraph with at most 100 new nodes per hop, DRNL labels
// capped at 30 and no node features, the reference DGCNN (graph
// convolutions 32, 32, 32, 1; k from the 60th percentile of subgraph
// sizes; 1-D convolutions of 16 and 32 channels; dense 128, dropout 0.5),
// Adam lr 1e-3 over batches of 32 pairs, at most 30 epochs with patience
// 10. Features are off because with them validation AUC peaks within a
// few epochs and then falls: the wide first layer learns node identities
// that do not carry over to held-out links. The tried settings, the
// commands and the resulting AUCs and times: docs/pair-models.md.
func DefaultConfig() Config {
	return Config{
		Hops:        2,
		MaxPerHop:   100,
		MaxLabel:    30,
		Hidden:      32,
		Layers:      3,
		K:           0,
		Conv1:       16,
		Conv2:       32,
		Dense:       128,
		Dropout:     0.5,
		UseFeatures: false,
		Fit: pairfit.Config{
			LR:        1e-3,
			Epochs:    30,
			Patience:  10,
			BatchSize: 32,
		},
	}
}

// Validate reports the first setting out of range, quoting its value.
func (c Config) Validate() error {
	switch {
	case c.Hops < 1:
		return fmt.Errorf("seal: hops must be at least 1 (got %d)", c.Hops)
	case c.MaxPerHop < 0:
		return fmt.Errorf("seal: max nodes per hop must be non-negative (got %d)", c.MaxPerHop)
	case c.MaxLabel < 1:
		return fmt.Errorf("seal: max label must be at least 1 (got %d)", c.MaxLabel)
	case c.Hidden < 1:
		return fmt.Errorf("seal: hidden width must be at least 1 (got %d)", c.Hidden)
	case c.Layers < 1:
		return fmt.Errorf("seal: layers must be at least 1 (got %d)", c.Layers)
	case c.K != 0 && (c.K < minK || c.K%2 != 0):
		return fmt.Errorf("seal: k must be 0 (from the data) or an even number of at least %d (got %d)", minK, c.K)
	case c.Conv1 < 1:
		return fmt.Errorf("seal: first convolution channels must be at least 1 (got %d)", c.Conv1)
	case c.Conv2 < 1:
		return fmt.Errorf("seal: second convolution channels must be at least 1 (got %d)", c.Conv2)
	case c.Dense < 1:
		return fmt.Errorf("seal: dense width must be at least 1 (got %d)", c.Dense)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fmt.Errorf("seal: dropout must be in [0, 1) (got %g)", c.Dropout)
	}
	if err := c.Fit.Validate(); err != nil {
		return fmt.Errorf("seal: %w", err)
	}
	return nil
}

// RegisterFlags binds c to flags of fs: the training loop's
// (pairfit.Config.RegisterFlags) and the model's own. The seed, the model
// and the data are the command line's.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	c.Fit.RegisterFlags(fs)
	fs.IntVar(&c.Hops, "hops", c.Hops, "SEAL: hops of the enclosing subgraph")
	fs.IntVar(&c.MaxPerHop, "max-per-hop", c.MaxPerHop, "SEAL: most new nodes kept per hop (0: all)")
	fs.IntVar(&c.MaxLabel, "max-label", c.MaxLabel, "SEAL: DRNL labels from this up share one one-hot slot")
	fs.IntVar(&c.Hidden, "hidden", c.Hidden, "SEAL: width of each graph convolution")
	fs.IntVar(&c.Layers, "layers", c.Layers, "SEAL: graph convolutions before the width-1 sort channel")
	fs.BoolVar(&c.SymmetricNorm, "sym-norm", c.SymmetricNorm, "SEAL: propagate with D^-1/2 (A+I) D^-1/2 instead of the mean D^-1 (A+I)")
	fs.IntVar(&c.K, "k", c.K, "SEAL: nodes kept by SortPooling (0: 60th percentile of training subgraph sizes)")
	fs.IntVar(&c.Conv1, "conv1", c.Conv1, "SEAL: channels of the first 1-D convolution")
	fs.IntVar(&c.Conv2, "conv2", c.Conv2, "SEAL: channels of the second 1-D convolution")
	fs.IntVar(&c.Dense, "dense", c.Dense, "SEAL: width of the dense layer")
	fs.Float64Var(&c.Dropout, "dropout", c.Dropout, "SEAL: dropout on the dense layer")
	fs.BoolVar(&c.UseFeatures, "features", c.UseFeatures, "SEAL: append node features to the DRNL one-hot")
	fs.BoolVar(&c.NormalizeFeatures, "normalize-features", c.NormalizeFeatures, "SEAL: L2-normalise each feature row")
}

// Build returns the model on the training graph g (New), for pairfit.Fit.
func (c Config) Build(g *graph.Graph) (*Model, error) { return New(g, c) }
