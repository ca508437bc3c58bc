// Package loop is the one training loop every model family runs —
// ILP-GNN's (package train), the autoencoders' (gnn) and the pair models'
// (pairfit): a family says how it trains an epoch (Trainer), and Run does
// the rest — Adam and its learning-rate schedule, cancellation, the best
// weights' snapshot and restore, early stopping (Plateau), the reports
// (Progress) and the timing (Result). The flags every family shares — the
// epochs and patience, Adam's learning rate and weight decay, the
// held-out shares of the split — are named, described and checked here
// once.
package loop

import (
	"flag"
	"fmt"
	"math"
)

// Settings point at a configuration's shared settings.
type Settings struct {
	Epochs, Patience *int
	LR, WeightDecay  *float64
}

// Register binds the settings to the flags epochs, patience, lr and
// weight-decay of fs, with their current values as defaults; score names
// what early stopping waits on to improve.
func (s Settings) Register(fs *flag.FlagSet, score string) {
	fs.IntVar(s.Epochs, "epochs", *s.Epochs, "maximum training epochs")
	fs.IntVar(s.Patience, "patience", *s.Patience, "stop after this many epochs without a better "+score)
	fs.Float64Var(s.LR, "lr", *s.LR, "Adam learning rate")
	fs.Float64Var(s.WeightDecay, "weight-decay", *s.WeightDecay, "L2 weight decay")
}

// Validate reports the first setting out of range, quoting its value: the
// learning rate must be positive and finite, the weight decay
// non-negative, epochs and patience at least 1.
func (s Settings) Validate() error {
	switch lr, wd := *s.LR, *s.WeightDecay; {
	case !(lr > 0) || math.IsInf(lr, 1):
		return fmt.Errorf("learning rate must be positive and finite (got %g)", lr)
	case !(wd >= 0):
		return fmt.Errorf("weight decay must be non-negative (got %g)", wd)
	case *s.Epochs < 1:
		return fmt.Errorf("epochs must be at least 1 (got %d)", *s.Epochs)
	case *s.Patience < 1:
		return fmt.Errorf("patience must be at least 1 (got %d)", *s.Patience)
	}
	return nil
}

// RegisterShares binds the held-out shares of the split to the flags
// val-frac and test-frac of fs.
func RegisterShares(fs *flag.FlagSet, valFrac, testFrac *float64) {
	fs.Float64Var(valFrac, "val-frac", *valFrac, "share of edges held out for validation")
	fs.Float64Var(testFrac, "test-frac", *testFrac, "share of edges held out for testing")
}

// ValidateShares reports held-out shares that are not positive or leave
// no edges to train on.
func ValidateShares(valFrac, testFrac float64) error {
	if !(valFrac > 0 && testFrac > 0 && valFrac+testFrac < 1) {
		return fmt.Errorf("validation and test shares must be positive and sum below 1 (got %g and %g)", valFrac, testFrac)
	}
	return nil
}
