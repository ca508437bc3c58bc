// Package split divides a graph's edges into training, validation and test
// sets for link prediction (docs/model.md §1, the VGAE protocol of Kipf & Welling
// 2016, used by the ILP-GNN paper for Cora, Citeseer and Photo), and samples
// the negative pairs the model is trained and evaluated on.
//
// Vocabulary: the training graph Train carries messages (neighbourhoods,
// diffusion, aggregation all use it alone); TrainPos, ValPos/ValNeg and
// TestPos/TestNeg are the labelled pairs that are scored. An undirected edge
// is one pair, so a validation or test edge never appears in Train in either
// direction.
package split

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"ilpgnn/core/graph"
)

// Default fractions of the undirected edges held out (docs/model.md §1: 85% train,
// 5% validation, 10% test).
const (
	DefaultValFrac  = 0.05
	DefaultTestFrac = 0.10
)

// PCG stream constants. Each random consumer seeds rand.NewPCG(seed, stream)
// with the run's seed and its own stream, so that the split and the epoch
// samplers never draw the same numbers although they share one seed.
const (
	// SplitStream drives New: the edge shuffle, then the validation and
	// test negatives (ASCII "split").
	SplitStream uint64 = 0x73_706c_6974
	// SamplerStream drives NegativeSampler (ASCII "negsamp").
	SamplerStream uint64 = 0x6e_6567_7361_6d70
)

// ErrTooSmall is wrapped by New's error when the graph cannot be split: too
// few edges, or too few non-edges for the negatives.
var ErrTooSmall = errors.New("graph too small to split")

// Split is a link-prediction split of a graph.
//
// TrainPos, ValPos and TestPos partition the graph's undirected edges
// (each stored once, U < V, in shuffled order). ValNeg and TestNeg are node
// pairs that are not edges of the full graph, U < V, distinct, disjoint
// from each other, as many as ValPos and TestPos respectively. Train is the
// full graph's nodes, ids, features and labels with exactly the edges of
// TrainPos.
type Split struct {
	Train            *graph.Graph
	TrainPos         []graph.Edge
	ValPos, ValNeg   []graph.Edge
	TestPos, TestNeg []graph.Edge
	// TestHard, when set, holds hard negatives of the test links (the
	// pairs of a heart.Negatives drawn for TestPos): HardPerLink pairs per
	// link of TestPos, in its order. Models are then also ranked by each
	// link's place among its own negatives (loop.Result.Test). ValHard
	// are the same for ValPos, which tune compares settings on.
	TestHard, ValHard []graph.Edge
	HardPerLink       int
	// Known, when set, is the graph of every true link (the one split), and
	// loop.Result.Test then also ranks test links as suggestions are
	// ranked (heart.SuggestionPairs), without the other true links.
	Known *graph.Graph
}

// New splits g's undirected edges (g.Edges(), M of them) with the given
// seed:
//
//  1. shuffle the edges with rand.New(rand.NewPCG(seed, SplitStream));
//  2. TestPos = the first nTest = round(testFrac·M), ValPos = the next
//     nVal = round(valFrac·M), TrainPos = the rest, where round is
//     math.Round (halves away from zero) and a positive fraction holds out
//     at least one edge (Cora: M = 5278 → 528 test, 264 validation, 4486
//     train);
//  3. draw ValNeg then TestNeg from the same generator: uniform pairs
//     i ≠ j (i, j uniform in [0, N) independently, rejected and redrawn
//     when equal, adjacent in g or already drawn), stored as (min, max).
//     When the graph is so dense that rejection would be slow (fewer than
//     twice as many non-edges as negatives needed) the non-edges are listed
//     and a uniform subset drawn instead.
//
// fracs must satisfy 0 <= valFrac, 0 <= testFrac, valFrac+testFrac < 1.
// New returns an error wrapping ErrTooSmall when g has fewer than 3 edges,
// when the split would leave no training edge, or when g has fewer non-edges
// than the negatives needed. g is not modified.
func New(g *graph.Graph, seed uint64, valFrac, testFrac float64) (*Split, error) {
	if !(valFrac >= 0 && testFrac >= 0 && valFrac+testFrac < 1) {
		return nil, fmt.Errorf("split: fractions must be >= 0 and sum below 1 (got val %g, test %g)", valFrac, testFrac)
	}
	edges := g.Edges()
	m := len(edges)
	if m < 3 {
		return nil, fmt.Errorf("split: %w: %d edges, need at least 3", ErrTooSmall, m)
	}
	nTest, nVal := holdOut(testFrac, m), holdOut(valFrac, m)
	if nTest+nVal >= m {
		return nil, fmt.Errorf("split: %w: %d edges leave no training edge after %d test and %d validation",
			ErrTooSmall, m, nTest, nVal)
	}
	n := g.NumNodes()
	nonEdges := int64(n)*int64(n-1)/2 - int64(m)
	if need := int64(nTest + nVal); nonEdges < need {
		return nil, fmt.Errorf("split: %w: %d nodes and %d edges leave %d non-edges, need %d negatives",
			ErrTooSmall, n, m, nonEdges, need)
	}

	rng := rand.New(rand.NewPCG(seed, SplitStream))
	rng.Shuffle(m, func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	s := &Split{
		TestPos:  edges[:nTest:nTest],
		ValPos:   edges[nTest : nTest+nVal : nTest+nVal],
		TrainPos: edges[nTest+nVal:],
	}
	neg := negatives(g, rng, nVal+nTest, nonEdges)
	s.ValNeg, s.TestNeg = neg[:nVal:nVal], neg[nVal:]
	train, err := g.WithEdges(s.TrainPos)
	if err != nil {
		return nil, fmt.Errorf("split: training graph: %w", err) // cannot happen: edges come from g
	}
	s.Train = train
	return s, nil
}

// holdOut returns round(frac·m), at least 1 when frac > 0.
func holdOut(frac float64, m int) int {
	k := int(math.Round(frac * float64(m)))
	if frac > 0 && k == 0 {
		k = 1
	}
	return k
}

// negatives draws k distinct non-edges of g, U < V, in draw order. The
// caller has checked that g has nonEdges >= k non-edges.
func negatives(g *graph.Graph, rng *rand.Rand, k int, nonEdges int64) []graph.Edge {
	out := make([]graph.Edge, 0, k)
	n := g.NumNodes()
	if nonEdges < 2*int64(k) {
		// Dense graph: list the non-edges (fewer than 2k) and take a
		// uniform k-subset by a partial Fisher-Yates shuffle.
		all := make([]graph.Edge, 0, nonEdges)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if !g.HasEdge(i, j) {
					all = append(all, graph.Edge{U: int32(i), V: int32(j)})
				}
			}
		}
		for t := 0; t < k; t++ {
			r := t + rng.IntN(len(all)-t)
			all[t], all[r] = all[r], all[t]
		}
		return append(out, all[:k]...)
	}
	seen := make(map[uint64]struct{}, k)
	for len(out) < k {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j || g.HasEdge(i, j) {
			continue
		}
		if i > j {
			i, j = j, i
		}
		key := uint64(i)<<32 | uint64(j)
		if _, dup := seen[key]; dup {
			continue
		}
		seen[key] = struct{}{}
		out = append(out, graph.Edge{U: int32(i), V: int32(j)})
	}
	return out
}

// NegativeSampler draws the training negatives of each epoch (docs/model.md §1: one
// uniformly random non-edge of the training graph per training positive,
// resampled every epoch). It owns its generator,
// rand.New(rand.NewPCG(seed, SamplerStream)), so the same seed replays the
// same sequence of epochs. The zero value is usable and behaves as seed 0.
// A NegativeSampler is not safe for concurrent use.
type NegativeSampler struct {
	rng *rand.Rand
}

// NewNegativeSampler returns a sampler seeded with seed.
func NewNegativeSampler(seed uint64) *NegativeSampler {
	return &NegativeSampler{rng: rand.New(rand.NewPCG(seed, SamplerStream))}
}

// Sample fills dst with uniformly random non-edges of g and returns dst.
// Each pair is drawn as i then j, independently uniform in [0, N), and
// redrawn while i == j or i and j are adjacent in g; the orientation is
// left as drawn (U may exceed V), since a pair and its reverse score the
// same. Pairs are independent, so dst may hold duplicates. Sample allocates
// nothing.
//
// Sample panics if g has no non-edge (fewer than 2 nodes, or complete) and
// dst is not empty: no pair could ever be accepted.
func (s *NegativeSampler) Sample(dst []graph.Edge, g *graph.Graph) []graph.Edge {
	if len(dst) == 0 {
		return dst
	}
	n := g.NumNodes()
	if n < 2 || int64(g.NumEdges()) >= int64(n)*int64(n-1)/2 {
		panic(fmt.Sprintf("split: Sample on a graph with no non-edge (%d nodes, %d edges)", n, g.NumEdges()))
	}
	if s.rng == nil {
		s.rng = rand.New(rand.NewPCG(0, SamplerStream))
	}
	for k := range dst {
		for {
			i, j := s.rng.IntN(n), s.rng.IntN(n)
			if i != j && !g.HasEdge(i, j) {
				dst[k] = graph.Edge{U: int32(i), V: int32(j)}
				break
			}
		}
	}
	return dst
}

// Fixed returns the split of g whose positives are given: train, val and
// test must together hold every edge of g exactly once (in either
// orientation; they are stored U < V in the order given). The negatives are
// drawn as New draws them, from rand.New(rand.NewPCG(seed, SplitStream)).
// It is for datasets that come with their own split, such as synthetic
// graphs whose held-out links were generated separately.
func Fixed(g *graph.Graph, seed uint64, train, val, test []graph.Edge) (*Split, error) {
	seen := make(map[graph.Edge]string, g.NumEdges())
	s := &Split{}
	for _, set := range []struct {
		name string
		in   []graph.Edge
		out  *[]graph.Edge
	}{{"training", train, &s.TrainPos}, {"validation", val, &s.ValPos}, {"test", test, &s.TestPos}} {
		*set.out = make([]graph.Edge, len(set.in))
		for k, e := range set.in {
			e = graph.Edge{U: min(e.U, e.V), V: max(e.U, e.V)}
			if e.U < 0 || int(e.V) >= g.NumNodes() || !g.HasEdge(int(e.U), int(e.V)) {
				return nil, fmt.Errorf("split: %s pair (%d, %d) is not an edge of the graph", set.name, e.U, e.V)
			}
			if prev, dup := seen[e]; dup {
				return nil, fmt.Errorf("split: edge (%d, %d) is both a %s and a %s edge", e.U, e.V, prev, set.name)
			}
			seen[e] = set.name
			(*set.out)[k] = e
		}
	}
	if len(seen) != g.NumEdges() {
		return nil, fmt.Errorf("split: the given pairs hold %d of the graph's %d edges", len(seen), g.NumEdges())
	}
	if len(s.TrainPos) == 0 {
		return nil, fmt.Errorf("split: %w: no training edge", ErrTooSmall)
	}
	n := g.NumNodes()
	nonEdges := int64(n)*int64(n-1)/2 - int64(g.NumEdges())
	nVal, nTest := len(s.ValPos), len(s.TestPos)
	if need := int64(nVal + nTest); nonEdges < need {
		return nil, fmt.Errorf("split: %w: %d nodes and %d edges leave %d non-edges, need %d negatives",
			ErrTooSmall, n, g.NumEdges(), nonEdges, need)
	}
	neg := negatives(g, rand.New(rand.NewPCG(seed, SplitStream)), nVal+nTest, nonEdges)
	s.ValNeg, s.TestNeg = neg[:nVal:nVal], neg[nVal:]
	train2, err := g.WithEdges(s.TrainPos)
	if err != nil {
		return nil, fmt.Errorf("split: training graph: %w", err)
	}
	s.Train = train2
	return s, nil
}
