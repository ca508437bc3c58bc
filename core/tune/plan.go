package tune

import (
	"fmt"
	"math"
	"strings"
	"time"

	"ilpgnn/core/graph"
	"ilpgnn/core/models"
)

// WasmSlowdown is how much longer an epoch takes in the browser's
// WebAssembly than natively on as many threads as workers
// (docs/scale.md measures it); the app plans with it as
// Options.Slowdown, so that the plan fits the tab's time.
const WasmSlowdown = 2

// SerialShare is the share of an ILP-GNN epoch that does not divide
// between threads or workers: 2 of them take SerialShare + (1 −
// SerialShare)/2 of one's time (docs/scale.md measures the ratio).
const SerialShare = 0.14

// OnThreads returns the seconds of an epoch that takes seconds on one
// thread when it runs on threads of them (at least one), by Amdahl's
// law with SerialShare.
func OnThreads(seconds float64, threads int) float64 {
	return seconds * (SerialShare + (1-SerialShare)/float64(max(threads, 1)))
}

// Size is what a model's training cost depends on: the graph's nodes,
// undirected edges, and its features' nonzeros and width.
type Size struct {
	Nodes, Edges, FeatureNNZ, FeatureDim int
}

// SizeOf returns g's size.
func SizeOf(g *graph.Graph) Size {
	return Size{Nodes: g.NumNodes(), Edges: g.NumEdges(), FeatureNNZ: len(g.Features.Values), FeatureDim: g.FeatureDim()}
}

// cost is a model's estimated native seconds as functions of a graph's
// size: an epoch costs Node·N + Edge·E + NNZ·nnz + EdgeDeg·E·d̄ + Width·D
// + Scale·N^NodeExp·E^EdgeExp (d̄ = 2E/N, the mean degree, which sizes
// the pair models' subgraphs; D the features' width, which sizes the
// input layers that every epoch updates; the power term for a cost that
// no sum of those fits, ILP-GNN's, whose candidates and negatives grow
// a little faster than the edges); a run's setup (loading, splitting,
// preparing, testing) Setup + SetupEdge·E + SetupEpochs epochs.
type cost struct {
	Node, Edge, NNZ, EdgeDeg, Width float64
	Scale, NodeExp, EdgeExp         float64
	Setup, SetupEdge, SetupEpochs   float64
}

// costOf returns model's cost constants, fitted on this project's 2-core
// machine to the measurements in docs/tuning.md ("The cost
// model"), where their error against each measurement is written down.
// ok is false for a model without them (the heuristics).
func costOf(model string) (c cost, ok bool) {
	switch model {
	case "ilpgnn":
		return cost{Scale: 2.57e-6, NodeExp: 0.095, EdgeExp: 1.08, Width: 1.7e-6, Setup: 1.5, SetupEdge: 2.2e-5}, true
	case "gae":
		return cost{Node: 1.29e-5, NNZ: 6.2e-8, Setup: 0.8}, true
	case "vgae":
		return cost{Node: 2.05e-5, Edge: 1.52e-6, Setup: 0.8}, true
	case "gat":
		return cost{Node: 2.88e-5, NNZ: 2.31e-7, Setup: 0.8}, true
	case "seal":
		return cost{EdgeDeg: 1.7e-4, Setup: 0.8, SetupEpochs: 0.2}, true
	case "wp":
		return cost{EdgeDeg: 2.58e-4, Setup: 0.8, SetupEpochs: 0.2}, true
	case "conpi":
		return cost{Node: 1.7e-4, EdgeDeg: 8.72e-6, Setup: 0.8, SetupEpochs: 0.2}, true
	}
	return cost{}, false
}

// epoch returns c's seconds per epoch on s.
func (c cost) epoch(s Size) float64 {
	e := float64(s.Edges)
	deg := 0.0
	if s.Nodes > 0 {
		deg = 2 * e / float64(s.Nodes)
	}
	sec := c.Node*float64(s.Nodes) + c.Edge*e + c.NNZ*float64(s.FeatureNNZ) + c.EdgeDeg*e*deg + c.Width*float64(s.FeatureDim)
	if c.Scale != 0 {
		sec += c.Scale * math.Pow(float64(s.Nodes), c.NodeExp) * math.Pow(e, c.EdgeExp)
	}
	return sec
}

// setup returns c's seconds of one run's setup on s.
func (c cost) setup(s Size) float64 {
	return c.Setup + c.SetupEdge*float64(s.Edges) + c.SetupEpochs*c.epoch(s)
}

// EpochSeconds is the estimated native seconds of one training epoch of
// model at its default settings on a graph of size s, 0 for a model
// without a cost model (the heuristics train no epochs). The constants
// were measured once on this project's 2-core machine and are never
// timed at run time, so that a budget gives the same plan on every
// machine: ILP-GNN's as the wall seconds of one thread on a quiet
// machine, the other models' as CPU seconds per epoch on a shared one;
// they are within 1.31x of those measurements (docs/tuning.md, "The
// cost model").
func EpochSeconds(model string, s Size) float64 {
	c, _ := costOf(model)
	return c.epoch(s)
}

// Round is one round of successive halving: how many candidates train,
// for how many epochs at most, and whether it counts the current
// settings' trial (the last round; Search trains them first).
type Round struct {
	Candidates int  `json:"candidates"`
	Epochs     int  `json:"epochs"`
	Current    bool `json:"current,omitempty"`
}

// trials is how many runs the round takes: its candidates and the
// current settings.
func (r Round) trials() int {
	if r.Current {
		return r.Candidates + 1
	}
	return r.Candidates
}

// Estimate is a search's plan and its estimated time.
type Estimate struct {
	// Rounds are the rounds the search runs, in order.
	Rounds []Round `json:"rounds"`
	// Seconds is the estimated time (native, times Options.Slowdown) with
	// every trial running all its epochs; early stopping makes the actual
	// time shorter.
	Seconds float64 `json:"seconds"`
}

// Candidates is how many settings the search draws.
func (e Estimate) Candidates() int {
	if len(e.Rounds) == 0 {
		return 0
	}
	return e.Rounds[0].Candidates
}

// Trials is how many candidate runs the search takes in all.
func (e Estimate) Trials() int {
	n := 0
	for _, r := range e.Rounds {
		n += r.trials()
	}
	return n
}

// String says the plan in words: "9 candidates and the current settings,
// rounds of 100 and 300 epochs, at most about 3 min".
func (e Estimate) String() string {
	return fmt.Sprintf("%s, at most about %s", e.Plan(), Seconds(e.Seconds))
}

// Plan says the rounds in words: "9 candidates and the current settings,
// rounds of 100 and 300 epochs".
func (e Estimate) Plan() string {
	if len(e.Rounds) == 0 {
		return "no rounds"
	}
	ep := make([]string, len(e.Rounds))
	for k, r := range e.Rounds {
		ep[k] = fmt.Sprint(r.Epochs)
	}
	rounds := "one round of " + ep[0] + " epochs"
	if len(ep) > 1 {
		rounds = "rounds of " + strings.Join(ep[:len(ep)-1], ", ") + " and " + ep[len(ep)-1] + " epochs"
	}
	return fmt.Sprintf("%d candidates and the current settings, %s", e.Candidates(), rounds)
}

// Seconds writes a duration in seconds roundly: "40 s", "3 min", "1.5 h".
func Seconds(s float64) string {
	switch {
	case s < 90:
		return fmt.Sprintf("%.0f s", math.Ceil(s))
	case s < 90*60:
		return fmt.Sprintf("%.0f min", math.Ceil(s/60))
	}
	return fmt.Sprintf("%.1f h", s/3600)
}

// Rounds returns the rounds Search runs for spec with opt: every point of
// the free grid but the current settings when it has fewer than
// opt.Candidates, rounds growing by opt.Eta up to the model's maximum
// epochs, the last when one candidate is left or the maximum is reached;
// the last also counts the current settings, which Search trains first,
// to the user's maximum epochs with early stopping, and which the
// estimate counts at the last round's epochs.
func Rounds(spec models.Spec, opt Options) ([]Round, error) {
	if opt.Candidates < 1 || opt.Eta < 2 || opt.MinEpochs < 1 {
		return nil, fmt.Errorf("tune: want at least 1 trial, eta at least 2 and 1 epoch in the first round (got %d, %d, %d)",
			opt.Candidates, opt.Eta, opt.MinEpochs)
	}
	base, err := Configure(spec, opt.Fixed)
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	maxEpochs := max(base.Loop().Epochs, 1)
	n := min(opt.Candidates, gridSize(free(spec.Space, opt.Fixed))-1)
	var out []Round
	for epochs := opt.MinEpochs; ; epochs *= opt.Eta {
		epochs = min(epochs, maxEpochs)
		out = append(out, Round{Candidates: n, Epochs: epochs})
		next := max(1, n/opt.Eta)
		if next == 1 || epochs >= maxEpochs {
			out[len(out)-1].Current = true
			return out, nil
		}
		n = next
	}
}

// EstimateOf returns the rounds and the estimated seconds of Search for
// spec with opt on a graph of size s, each of opt.Seeds (at least one) a
// run of its own in every trial: native seconds times opt.Slowdown.
func EstimateOf(spec models.Spec, s Size, opt Options) (Estimate, error) {
	c, ok := costOf(spec.Name)
	if !ok || len(spec.Space) == 0 {
		return Estimate{}, fmt.Errorf("tune: no cost model for %s: %w", spec.Name, ErrNothingToTune)
	}
	rounds, err := Rounds(spec, opt)
	if err != nil {
		return Estimate{}, err
	}
	runs := float64(max(len(opt.Seeds), 1))
	sec := 0.0
	for _, r := range rounds {
		sec += float64(r.trials()) * runs * (c.setup(s) + float64(r.Epochs)*c.epoch(s))
	}
	if opt.Slowdown > 0 {
		sec *= opt.Slowdown
	}
	return Estimate{Rounds: rounds, Seconds: sec}, nil
}

// planEta is the halving factor of every plan.
const planEta = 3

// longRound is the first round's length, in epochs, that a plan reaches
// before it draws more candidates, for a model training on the whole
// graph every epoch: rounds of 20 and 60 epochs chose fast learners that
// ended lower on Cora, rounds of 100 and 300 beat the defaults
// (docs/tuning.md). The pair models' round is their own maximum,
// few epochs each of which sees every training link.
const longRound = 100

// Plan returns the largest search of spec that fits budget by the cost
// model on a graph of size s, with opt's Seeds (every trial trains once
// per seed) and Fixed settings: opt with Candidates, Eta and MinEpochs
// set, and the plan's estimate. Plans grow first in the length of the
// first round, with 3 candidates, up to a round long enough to matter
// (longRound epochs, or the model's maximum for a pair model), then in
// candidates, by half as many again each step, up to the whole grid. The
// same arguments give the same plan on every machine. A budget too small
// for the smallest plan is an error naming the smallest budget that works.
func Plan(spec models.Spec, s Size, budget time.Duration, opt Options) (Options, Estimate, error) {
	ladder, err := planLadder(spec, opt)
	if err != nil {
		return opt, Estimate{}, err
	}
	best, bestEst := -1, Estimate{}
	var first Estimate
	for k, o := range ladder {
		est, err := EstimateOf(spec, s, o)
		if err != nil {
			return opt, Estimate{}, err
		}
		if k == 0 {
			first = est
		}
		if est.Seconds <= budget.Seconds() {
			best, bestEst = k, est
		}
	}
	if best < 0 && first.Seconds > (366*24*time.Hour).Seconds() {
		return opt, Estimate{}, fmt.Errorf("tune: %s on this graph (%d nodes, %d edges) cannot be tuned: the smallest search is %s",
			spec.Name, s.Nodes, s.Edges, first)
	}
	if best < 0 {
		need := time.Duration(math.Ceil(first.Seconds/60)) * time.Minute
		if first.Seconds < 60 {
			need = time.Duration(math.Ceil(first.Seconds)) * time.Second
		}
		return opt, Estimate{}, fmt.Errorf("tune: a budget of %s is too small for %s on this graph (%d nodes, %d edges): the smallest search is %s; give a budget of at least %s",
			Duration(budget), spec.Name, s.Nodes, s.Edges, first, Duration(need))
	}
	return ladder[best], bestEst, nil
}

// planLadder lists the plans Plan chooses from, smallest search first.
func planLadder(spec models.Spec, opt Options) ([]Options, error) {
	if len(spec.Space) == 0 {
		return nil, ErrNothingToTune
	}
	base, err := Configure(spec, opt.Fixed)
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	maxEpochs := max(base.Loop().Epochs, 1)
	long := maxEpochs
	if _, pair := base.(*models.PairConfig); !pair {
		long = min(longRound, maxEpochs)
	}
	grid := gridSize(free(spec.Space, opt.Fixed)) - 1 // the current settings are not drawn
	at := func(cands, epochs int) Options {
		o := opt
		o.Candidates, o.Eta, o.MinEpochs = min(cands, grid), planEta, max(epochs, 1)
		return o
	}
	var out []Options
	// Short first rounds: an eighth, a quarter, half the long one.
	for _, div := range []int{8, 4, 2} {
		if e := long / div; e >= 1 && (len(out) == 0 || e > out[len(out)-1].MinEpochs) {
			out = append(out, at(planEta, e))
		}
	}
	// Then more candidates, half as many again each step (3, 5, 8, 12,
	// 18, 27, ...): steps of eta would leave much of a budget unused.
	for c := planEta; ; c += (c + 1) / 2 {
		out = append(out, at(c, long))
		if c >= grid {
			return out, nil
		}
	}
}

// Duration writes d as a flag takes it, without zero units: "3m", "1h30m".
func Duration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// gridSize is how many points space's grid has.
func gridSize(space []models.Dim) int {
	n := 1
	for _, d := range space {
		n *= len(d.Values)
	}
	return n
}
