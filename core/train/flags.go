package train

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/loop"
)

// RegisterFlags binds every hyperparameter of c to a flag of fs, named as
// the command line and the browser engine call it, with c's values as
// defaults and a one-line help each.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	m := &c.Model
	c.loop().Register(fs, "validation score (AUC, or precision when selecting on it)")
	loop.RegisterPlateau(fs, &c.MinDelta, &c.Decays, &c.DecayFactor, "validation score")
	fs.IntVar(&c.Warmup, "warmup", c.Warmup, "epochs over which the learning rate rises linearly to --lr")
	fs.Float64Var(&c.Dropout, "dropout", c.Dropout, "dropout on the encoder's hidden layers")
	fs.Float64Var(&c.HardNegatives, "hard-negatives", c.HardNegatives, "share of each epoch's negatives drawn hard: for a training link, a pair its ends' heuristics rank high on the training graph (docs/heart.md) instead of a random non-edge")
	fs.IntVar(&c.HardPool, "hard-pool", c.HardPool, "with --hard-negatives: the hard candidates kept per training link, half for each end (0: 20)")
	fs.IntVar(&c.BatchSize, "batch-size", c.BatchSize, "pairs recorded per batch, bounding the memory of an epoch (same gradient, one update per epoch); 0: the whole epoch at once")
	fs.IntVar(&m.Hidden, "hidden", m.Hidden, "width d of the hidden layers")
	fs.IntVar(&m.K, "k", m.K, "neighbours selected per side, |N^r(i|j)|")
	fs.IntVar(&m.Candidates, "candidates", m.Candidates, "neighbours scored per side at most, the best by structure (0: every neighbour; else at least --k)")
	fs.Float64Var(&m.Alpha, "alpha", m.Alpha, "weight of structure similarity in the neighbour score (eq 5)")
	fs.Float64Var(&m.Anchor, "anchor", m.Anchor, "share ρ of the neighbours' feature score given by the encoder at its initial weights, which training does not move (0: SPEC's eq 4)")
	fs.Float64Var(&m.Beta, "beta", m.Beta, "weight of the aggregated neighbours (eq 7)")
	fs.Float64Var(&m.Tau, "tau", m.Tau, "softmax temperature of the neighbour weights (eq 6)")
	fs.BoolVar(&m.MaskTarget, "mask-target", m.MaskTarget, "hide a training pair's own edge from its neighbourhoods")
	fs.BoolVar(&m.NormalizeFeatures, "normalize-features", m.NormalizeFeatures, "L2-normalise each feature row")
	fs.TextVar(&m.Structure, "structure", m.Structure, "structure score scaling: paper or max")
	fs.TextVar(&m.Order, "order", m.Order, "how the K neighbours are taken: common-first (common neighbours of both ends first, docs/model.md §4) or score (the K best by score)")
	fs.TextVar(&m.Init, "init", m.Init, "weight initialisation: glorot or isometric (the MLP starts as a map keeping feature cosines)")
	fs.Float64Var(&m.IsometricBranch, "init-branch", m.IsometricBranch, "scale of the GCN branch's Glorot weights under --init isometric")
	fs.Float64Var(&m.Diffusion.Gamma, "gamma", m.Diffusion.Gamma, "PPR teleport probability (eq 1)")
	fs.Float64Var(&m.Diffusion.Epsilon, "ppr-eps", m.Diffusion.Epsilon, "PPR push residual tolerance")
	fs.IntVar(&m.Diffusion.TopK, "ppr-topk", m.Diffusion.TopK, "PPR entries kept per column")
	fs.Func("ppr-norm", "row sums normalising S̃: full (of the whole PPR matrix, the default) or sparsified (of its top-k part)",
		func(v string) error {
			switch v {
			case "full":
				m.Diffusion.Normalization = diffusion.FullRowSums
			case "sparsified":
				m.Diffusion.Normalization = diffusion.SparsifiedRowSums
			default:
				return fmt.Errorf("want full or sparsified (got %q)", v)
			}
			return nil
		})
	fs.Float64Var(&c.Objective.Lambda, "lambda", c.Objective.Lambda, "weight of the explanation-enhancement losses (eq 13)")
	fs.Float64Var(&c.Objective.Delta, "delta", c.Objective.Delta, "margin of the positive explanation loss (eq 10)")
	fs.BoolVar(&c.Objective.Relaxed, "relaxed", c.Objective.Relaxed, "draw min(K, spare) random neighbours in eq 10 instead of skipping")
	fs.BoolVar(&c.Objective.NegMean, "neg-mean", c.Objective.NegMean, "take the negative explanation loss (eq 12) as a mean over selected neighbours, not a sum")
	loop.RegisterShares(fs, &c.ValFrac, &c.TestFrac)
}

// splitTolerance is how far, as a share of the scale (1 or 100), the three
// shares of a --split may sum from it: 33.33/33.33/33.33 is a split in
// thirds, 60/10/20 is a typo.
const splitTolerance = 1e-3

// ParseSplit reads a --split value TRAIN/VAL/TEST, percentages (60/10/30)
// or fractions (0.6/0.1/0.3) summing to 100 or 1 within a tenth of a
// percentage point, and returns the validation and test fractions; the
// training share is whatever they leave, so shares that sum slightly off
// only change it. Every share must be a positive finite number. The error
// names the flag, the value and the problem.
func ParseSplit(s string) (valFrac, testFrac float64, err error) {
	fail := func(format string, a ...any) (float64, float64, error) {
		return 0, 0, fmt.Errorf("--split %q: %s", s, fmt.Sprintf(format, a...))
	}
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return fail("want TRAIN/VAL/TEST, three shares separated by \"/\" (e.g. 60/10/30 or 0.6/0.1/0.3)")
	}
	var v [3]float64
	for k, name := range [3]string{"train", "validation", "test"} {
		f := strings.TrimSpace(parts[k])
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fail("the %s share %q is not a number", name, f)
		}
		if !(x > 0) {
			return fail("the %s share must be positive (got %g)", name, x)
		}
		v[k] = x
	}
	sum := v[0] + v[1] + v[2]
	var scale float64
	switch {
	case math.Abs(sum-1) <= splitTolerance:
		scale = 1
	case math.Abs(sum-100) <= 100*splitTolerance:
		scale = 100
	default:
		return fail("the shares sum to %.6g; want 100 (percentages) or 1 (fractions)", sum)
	}
	valFrac, testFrac = v[1]/scale, v[2]/scale
	if !(valFrac+testFrac < 1) {
		return fail("no training share remains after validation %g and test %g", v[1], v[2])
	}
	return valFrac, testFrac, nil
}
