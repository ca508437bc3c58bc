// Package synth generates graphs whose links have known causes: the
// synthetic benchmark of the ILP-GNN paper (appendix A), as docs/model.md §8 settles
// it. Node features come from a Gaussian mixture, a homophilous base graph
// links similar nodes, and every further edge (i, j) is drawn with a weight
// that depends only on the groundtruth neighbours GT(i|j) and GT(j|i): the
// K_gt neighbours of each end most similar to the other end. An explainer
// that recovers GT has found the true reason for the link.
//
// Two processes draw the edges: Exact, docs/model.md §8 over all node pairs (the
// presets'), and Sampled, the same two stages in linear time for graphs of
// ogbn-arxiv's size, which draws pairs by rejection from block proposals
// and computes groundtruth only for the pairs it evaluates (sampled.go
// says where it departs from Exact and why the groundtruth stays causal).
//
// The output depends only on the Config and the seed, and is bit-identical
// natively and under WebAssembly (all transcendental functions come from
// detmath).
package synth

import (
	"fmt"
	"math"
	"slices"
)

// Config holds every knob of the generator. The zero value is not valid;
// start from a preset (Preset) or DefaultConfig and change fields.
type Config struct {
	// Nodes is N; they fall into Groups equal groups (node i is in group
	// i·Groups/Nodes), each with its own mixture component. A node draws its
	// features from its group's component with high probability, else from
	// another; the component drawn is its class label.
	Nodes, Groups int
	// FeatureDim is d0, the length of every feature vector.
	FeatureDim int
	// GroupSpread is σ_μ: group means are drawn from N(0, σ_μ² I).
	GroupSpread float64
	// MixNoise is the width of the uniform noise added to a node's one-hot
	// group before normalising it into mixture weights φ_i.
	MixNoise float64

	// Edges is the total number of undirected edges of the final graph.
	Edges int
	// BaseShare is the share of Edges in the homophilous base graph G1.
	BaseShare float64
	// Homophily is the exponent q of the base graph's pair weight
	// ((cos(x_i, x_j) + 1) / 2)^q.
	Homophily float64

	// KGT is K_gt, the number of groundtruth neighbours on each side.
	KGT int
	// Alpha weighs structure against features in r(c, j) (docs/model.md §8, item 3).
	Alpha float64
	// Tau is the temperature of the new-edge weight exp(r̄_ij / τ): the
	// difficulty knob (lower means the groundtruth decides more sharply).
	Tau float64

	// TrainShare and TestShare are the shares of the new (explained) edges
	// that go to training (stage 1) and to the test set; validation gets
	// the rest. Test and validation edges are drawn in stage 2.
	TrainShare, TestShare float64

	// Method is the process that draws the edges: Exact (the zero value,
	// every preset's) or Sampled, the linear-time process for large graphs
	// (sampled.go says where it departs from the exact one).
	Method Method
}

// DefaultConfig returns the knobs of docs/model.md §8 with the medium preset's size.
func DefaultConfig() Config {
	return Config{
		Nodes: 1000, Groups: 10, FeatureDim: 128, GroupSpread: 1, MixNoise: 0.1,
		Edges: 9576, BaseShare: 0.6, Homophily: 10,
		KGT: 3, Alpha: 0.3, Tau: 0.05,
		TrainShare: 0.5, TestShare: 0.4,
	}
}

// presets are the paper's table 4: edge counts and K_gt.
var presets = map[string]struct{ edges, kgt int }{
	"sparse": {4243, 2},
	"medium": {9576, 3},
	"dense":  {19826, 4},
}

// Presets returns the preset names, sparsest first.
func Presets() []string { return []string{"sparse", "medium", "dense"} }

// Preset returns the configuration of a named preset.
func Preset(name string) (Config, error) {
	p, ok := presets[name]
	if !ok {
		return Config{}, fmt.Errorf("synth: unknown preset %q (have %v)", name, Presets())
	}
	c := DefaultConfig()
	c.Edges, c.KGT = p.edges, p.kgt
	return c, nil
}

// PresetName returns the name of the preset c equals, or "" if it is not
// one.
func PresetName(c Config) string {
	for _, name := range Presets() {
		if p, _ := Preset(name); p == c {
			return name
		}
	}
	return ""
}

// counts returns the number of base, stage-1 (training), test and
// validation edges.
func (c Config) counts() (base, train, test, val int) {
	base = int(math.Round(c.BaseShare * float64(c.Edges)))
	added := c.Edges - base
	train = int(math.Round(c.TrainShare * float64(added)))
	test = int(math.Round(c.TestShare * float64(added)))
	val = added - train - test
	return base, train, test, val
}

// MaxFeatureValues caps Nodes × FeatureDim: the generator holds the
// features three times over (float64 draws, unit rows, float32 CSR with
// indices), 24 bytes a value, so 2^27 values take 3 GiB.
const MaxFeatureValues = 1 << 27

// MaxExactNodes is the largest graph the exact process accepts: its five
// N×N matrices take 33·N² bytes, 825 MB at 5,000 nodes.
const MaxExactNodes = 5000

// Validate reports the first knob that is out of range. The knobs that
// `ilpgnn synth` and "synth:" specs set are named as their flags and keys
// are (nodes, groups, dim, edges, kgt, method), with the field in
// parentheses.
func (c Config) Validate() error {
	pairs := int64(c.Nodes) * int64(c.Nodes-1) / 2
	switch {
	case c.Method != Exact && c.Method != Sampled:
		return fmt.Errorf("synth: method (Method) = %v, need exact or sampled", c.Method)
	case c.Nodes < 2:
		return fmt.Errorf("synth: nodes (Nodes) = %d, need at least 2", c.Nodes)
	case c.Method == Exact && c.Nodes > MaxExactNodes:
		return fmt.Errorf("synth: nodes (Nodes) = %d, the exact method takes at most %d (its N×N matrices); use method sampled", c.Nodes, MaxExactNodes)
	case c.Groups < 1 || c.Groups > c.Nodes:
		return fmt.Errorf("synth: groups (Groups) = %d, need 1..nodes (%d)", c.Groups, c.Nodes)
	case c.FeatureDim < 1:
		return fmt.Errorf("synth: dim (FeatureDim) = %d, need at least 1", c.FeatureDim)
	case int64(c.Nodes)*int64(c.FeatureDim) > MaxFeatureValues:
		return fmt.Errorf("synth: nodes × dim = %d × %d feature values, more than the %d the generator holds in memory", c.Nodes, c.FeatureDim, MaxFeatureValues)
	case !(c.GroupSpread >= 0) || math.IsInf(c.GroupSpread, 0):
		return fmt.Errorf("synth: GroupSpread = %g, need a finite value >= 0", c.GroupSpread)
	case !(c.MixNoise >= 0) || math.IsInf(c.MixNoise, 0):
		return fmt.Errorf("synth: MixNoise = %g, need a finite value >= 0", c.MixNoise)
	case c.Edges < 1 || int64(c.Edges) > pairs:
		return fmt.Errorf("synth: edges (Edges) = %d, need 1..%d for %d nodes", c.Edges, pairs, c.Nodes)
	case c.Method == Sampled && float64(c.Edges) > maxSampledDensity*float64(pairs):
		return fmt.Errorf("synth: edges (Edges) = %d, the sampled method draws at most %g of the %d node pairs (%d); use method exact", c.Edges, maxSampledDensity, pairs, int64(maxSampledDensity*float64(pairs)))
	case !(c.BaseShare > 0 && c.BaseShare < 1):
		return fmt.Errorf("synth: BaseShare = %g, need 0 < BaseShare < 1", c.BaseShare)
	case !(c.Homophily >= 0) || math.IsInf(c.Homophily, 0):
		return fmt.Errorf("synth: Homophily = %g, need a finite value >= 0", c.Homophily)
	case c.KGT < 1:
		return fmt.Errorf("synth: kgt (KGT) = %d, need at least 1", c.KGT)
	case !(c.Alpha >= 0 && c.Alpha <= 1):
		return fmt.Errorf("synth: Alpha = %g, need 0 <= Alpha <= 1", c.Alpha)
	case !(c.Tau > 0) || math.IsInf(c.Tau, 0):
		return fmt.Errorf("synth: Tau = %g, need a finite value > 0", c.Tau)
	case !(c.TrainShare >= 0 && c.TestShare >= 0 && c.TrainShare+c.TestShare <= 1):
		return fmt.Errorf("synth: TrainShare = %g and TestShare = %g, need both >= 0 with a sum <= 1", c.TrainShare, c.TestShare)
	}
	if _, train, test, val := c.counts(); slices.Min([]int{train, test, val}) < 0 || test+val == 0 {
		return fmt.Errorf("synth: edges (Edges) = %d with BaseShare %g leave no test or validation edge", c.Edges, c.BaseShare)
	}
	if base, _, _, _ := c.counts(); c.KGT > base {
		return fmt.Errorf("synth: kgt (KGT) = %d, more than the %d base edges: no node can have that many neighbours", c.KGT, base)
	}
	return nil
}
