// Package heart draws hard negatives for link-prediction evaluation as
// HeaRT (the Heuristic Related Sampling Technique; Li et al., NeurIPS
// 2023, "Evaluating Graph Neural Networks for Link Prediction: Current
// Pitfalls and New Benchmarking") draws them: each held-out link (i, j)
// gets negatives of its own, half of them (i, x) for the nodes x that
// heuristics rank highest for i, half (x, j) for those ranked highest for
// j. A model is then judged by the rank of each link among its own
// negatives (eval.RankingOf), not by how it separates links from random
// pairs, most of which share no neighbour at all.
//
// The heuristics, computed on the graph the models train on: resource
// allocation (or common neighbours), personalized PageRank by push, and
// the cosine similarity of the input features. Each ranks the candidates
// it scores above zero; a candidate's rank is the best of its ranks; the
// best-ranked candidates are the negatives. docs/heart.md states the
// rules, where they follow HeaRT's code and where they depart from it.
package heart

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"ilpgnn/core/graph"
)

// Heuristic is the neighbourhood-overlap score of Options.
type Heuristic int

const (
	// ResourceAllocation scores x for i by Σ 1/deg(w) over their common
	// neighbours w (HeaRT's default, "RA").
	ResourceAllocation Heuristic = iota
	// CommonNeighbours scores x for i by the number of their common
	// neighbours ("CN").
	CommonNeighbours
)

// String returns "ra" or "cn".
func (h Heuristic) String() string {
	switch h {
	case ResourceAllocation:
		return "ra"
	case CommonNeighbours:
		return "cn"
	}
	return fmt.Sprintf("Heuristic(%d)", int(h))
}

// ParseHeuristic reads "ra" or "cn".
func ParseHeuristic(s string) (Heuristic, error) {
	switch s {
	case "ra":
		return ResourceAllocation, nil
	case "cn":
		return CommonNeighbours, nil
	}
	return 0, fmt.Errorf("heuristic %q: want ra or cn", s)
}

// Options configures Sample.
type Options struct {
	// PerLink is the number of negatives of each link, even: PerLink/2
	// paired with each end. HeaRT's is 500.
	PerLink int
	// Overlap is the neighbourhood-overlap heuristic.
	Overlap Heuristic
	// Alpha is the teleport probability of the personalized PageRank and
	// Epsilon its push tolerance: the push stops when every residual r[u]
	// is below Epsilon·deg(u). HeaRT's defaults: 0.15 and 5e-5.
	Alpha, Epsilon float64
	// Features says whether the cosine similarity of the graph's features
	// is a heuristic: true for features the input gave, false for made-up
	// ones (one-hot ids, say), which tell nodes apart and nothing more.
	Features bool
}

// DefaultOptions returns HeaRT's defaults: 500 negatives a link, resource
// allocation, PPR with α 0.15 and ε 5e-5, and the features' cosine.
func DefaultOptions() Options {
	return Options{PerLink: 500, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 5e-5, Features: true}
}

// OptionsFor returns DefaultOptions for g: the features' cosine only when
// the input gave the features (graph.Graph.MadeUpFeatures is empty).
func OptionsFor(g *graph.Graph) Options {
	o := DefaultOptions()
	o.Features = g.MadeUpFeatures == ""
	return o
}

// Validate reports the first option out of range.
func (o Options) Validate() error {
	switch {
	case o.PerLink < 2 || o.PerLink%2 != 0:
		return fmt.Errorf("heart: %d negatives a link: want an even number, 2 or more", o.PerLink)
	case o.Overlap != ResourceAllocation && o.Overlap != CommonNeighbours:
		return fmt.Errorf("heart: unknown heuristic %v", o.Overlap)
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("heart: PPR teleport %v: want it in (0, 1)", o.Alpha)
	case !(o.Epsilon > 0 && o.Epsilon < 1):
		return fmt.Errorf("heart: PPR tolerance %v: want it in (0, 1)", o.Epsilon)
	}
	return nil
}

// Negatives are the hard negatives of a list of links.
type Negatives struct {
	// Links are the links the negatives belong to, each (I, J) as given.
	Links []graph.Edge
	// PerLink is the number of negatives of each link.
	PerLink int
	// Nodes holds PerLink nodes per link, link after link: for link k, the
	// first PerLink/2 are paired with Links[k].U, the rest with Links[k].V.
	Nodes []int32
}

// Pairs returns the negatives of every link as pairs, PerLink per link in
// link order: (I, x) for the first half of a link's nodes, (x, J) for the
// second, so that each keeps the end it was drawn for in its place.
func (n *Negatives) Pairs() []graph.Edge {
	out := make([]graph.Edge, len(n.Nodes))
	half := n.PerLink / 2
	for k, l := range n.Links {
		row := n.Nodes[k*n.PerLink : (k+1)*n.PerLink]
		for m, x := range row {
			if m < half {
				out[k*n.PerLink+m] = graph.Edge{U: l.U, V: x}
			} else {
				out[k*n.PerLink+m] = graph.Edge{U: x, V: l.V}
			}
		}
	}
	return out
}

// ErrTooFewCandidates is wrapped by Sample's error when an end of a link
// has no non-neighbour to pair with. (An end with fewer than it needs
// repeats them.)
var ErrTooFewCandidates = errors.New("too few non-neighbours for the negatives asked")

// Sample draws o.PerLink hard negatives for each link of links. The
// heuristics are computed on train, the graph the models learn from; the
// candidates for an end i of link (i, j) are the nodes that are neither i,
// j nor a neighbour of i in known, the graph of every true link, so that
// no negative is a link. seed makes the only random choice (the fill of
// an end whose candidates no heuristic scores, see docs/heart.md); the
// result is the same on any number of threads. train and known have the
// same nodes, and train's features are the cosine's.
func Sample(train, known *graph.Graph, links []graph.Edge, seed uint64, o Options) (*Negatives, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	n := train.NumNodes()
	if known.NumNodes() != n {
		return nil, fmt.Errorf("heart: the training graph has %d nodes, the graph of known links %d", n, known.NumNodes())
	}
	half := o.PerLink / 2
	for k, l := range links {
		if l.U < 0 || int(l.U) >= n || l.V < 0 || int(l.V) >= n || l.U == l.V {
			return nil, fmt.Errorf("heart: link %d (%d, %d) is not a pair of distinct nodes of the graph", k, l.U, l.V)
		}
	}
	// Each node's scores are computed once, however many links it ends;
	// then each of its link ends is ranked without the link's other end.
	type linkEnd struct {
		link, end int
		other     int32
	}
	byNode := make(map[int32][]linkEnd)
	var ends []int32
	for k, l := range links {
		for e, pair := range [2][2]int32{{l.U, l.V}, {l.V, l.U}} {
			if _, ok := byNode[pair[0]]; !ok {
				ends = append(ends, pair[0])
			}
			byNode[pair[0]] = append(byNode[pair[0]], linkEnd{k, e, pair[1]})
		}
	}
	slices.Sort(ends)
	out := &Negatives{Links: slices.Clone(links), PerLink: o.PerLink, Nodes: make([]int32, len(links)*o.PerLink)}
	sc := newScorer(train, o)
	workers := min(runtime.GOMAXPROCS(0), max(len(ends), 1))
	errs := make([]error, 2*len(links)) // by link end: the two ends of a link may fail on two workers
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := sc.scratch()
			for e := w; e < len(ends); e += workers {
				v := ends[e]
				sc.score(s, int(v), known)
				for _, le := range byNode[v] {
					row := out.Nodes[le.link*o.PerLink+le.end*half : le.link*o.PerLink+(le.end+1)*half]
					k := s.best(row, le.other)
					if k < len(row) {
						if err := s.fill(row, k, int(v), int(le.other), known, seed, le.link, le.end); err != nil {
							errs[2*le.link+le.end] = err
						}
					}
				}
				s.clear(int(v), known)
			}
		}()
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			l := links[k/2]
			return nil, fmt.Errorf("heart: link %d (%d, %d): %w", k/2, l.U, l.V, err)
		}
	}
	return out, nil
}

// fill completes row, whose first k are v's scored candidates, with nodes
// no heuristic scores for v (nor other, nor v's known neighbours), drawn
// uniformly with the link end's own stream: without replacement while
// there are enough, with it beyond. When every candidate is scored, the
// rest repeat them, drawn the same way from row[:k].
func (s *scratch) fill(row []int32, k, v, other int, known *graph.Graph, seed uint64, link, end int) error {
	var pool []int32
	for x := range known.NumNodes() {
		if x != v && x != other && !s.excluded[x] && !s.scored[x] {
			pool = append(pool, int32(x))
		}
	}
	if len(pool) == 0 {
		if k == 0 {
			return fmt.Errorf("node %d has no non-neighbour but the link's other end: %w", v, ErrTooFewCandidates)
		}
		pool = append(pool, row[:k]...)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(link)<<1|uint64(end)))
	need := len(row) - k
	if need <= len(pool) {
		// A partial Fisher–Yates shuffle: need distinct nodes.
		for m := range need {
			r := m + rng.IntN(len(pool)-m)
			pool[m], pool[r] = pool[r], pool[m]
			row[k+m] = pool[m]
		}
		return nil
	}
	for m := range need {
		row[k+m] = pool[rng.IntN(len(pool))]
	}
	return nil
}

// scorer holds what every end's ranking reads: the training graph, its
// features by column (for the cosine) and their row norms.
type scorer struct {
	g     *graph.Graph
	o     Options
	inv   []float64 // 1/deg in g, 0 for an isolated node
	cols  *columns  // nil without features
	norms []float64
}

// columns are the features by column: for feature f, the nodes holding it
// (ascending) and their values.
type columns struct {
	indptr []int32
	rows   []int32
	vals   []float32
}

func newScorer(g *graph.Graph, o Options) *scorer {
	n := g.NumNodes()
	sc := &scorer{g: g, o: o, inv: make([]float64, n)}
	for v := range n {
		if d := g.Degree(v); d > 0 {
			sc.inv[v] = 1 / float64(d)
		}
	}
	x := g.Features
	if o.Features && x != nil && x.Cols > 0 && x.NNZ() > 0 {
		c := &columns{indptr: make([]int32, x.Cols+1), rows: make([]int32, x.NNZ()), vals: make([]float32, x.NNZ())}
		for _, f := range x.Indices {
			c.indptr[f+1]++
		}
		for f := range x.Cols {
			c.indptr[f+1] += c.indptr[f]
		}
		next := slices.Clone(c.indptr[:x.Cols])
		sc.norms = make([]float64, n)
		for r := range x.Rows {
			idx, val := x.Row(r)
			var ss float64
			for m, f := range idx {
				p := next[f]
				c.rows[p], c.vals[p] = int32(r), val[m]
				next[f]++
				ss += float64(val[m]) * float64(val[m])
			}
			sc.norms[r] = math.Sqrt(ss)
		}
		sc.cols = c
	}
	return sc
}

// scratch is one worker's buffers for the node it scores; clear resets
// what score wrote.
type scratch struct {
	heur              [3][]float64 // overlap, PPR, cosine
	resid             []float64
	excluded, written []bool
	scored            []bool  // some heuristic scores the node above zero
	touched, queue    []int32 // touched: the nodes written, once each
	inQueue           []bool
	sorted            [3][]float64 // each heuristic's positive scores, ascending
	cand, pick        []candidate
	limit             int
}

type candidate struct {
	node int32
	best int // the best of its ranks
}

func (sc *scorer) scratch() *scratch {
	n := sc.g.NumNodes()
	s := &scratch{resid: make([]float64, n), excluded: make([]bool, n), written: make([]bool, n), scored: make([]bool, n),
		inQueue: make([]bool, n), limit: sc.o.PerLink / 2}
	for h := range s.heur {
		s.heur[h] = make([]float64, n)
	}
	return s
}

// touch records that x's scores are written.
func (s *scratch) touch(x int32) {
	if !s.written[x] {
		s.written[x] = true
		s.touched = append(s.touched, x)
	}
}

// score computes v's heuristics over every node, marks v and its known
// neighbours excluded, sorts each heuristic's positive scores among the
// candidates, and keeps the candidates that best may pick.
func (sc *scorer) score(s *scratch, v int, known *graph.Graph) {
	s.excluded[v] = true
	for _, x := range known.Neighbors(v) {
		s.excluded[x] = true
	}
	// Each heuristic adds in an order fixed by the graph, so its scores
	// are the same bits on any thread.
	//
	// Overlap: over the common neighbours w, ascending, Σ 1/deg(w) (or 1).
	overlap, dot := s.heur[0], s.heur[2]
	for _, w := range sc.g.Neighbors(v) {
		inc := 1.0
		if sc.o.Overlap == ResourceAllocation {
			inc = sc.inv[w]
		}
		for _, x := range sc.g.Neighbors(int(w)) {
			overlap[x] += inc
			s.touch(x)
		}
	}
	sc.push(s, v)
	if sc.cols != nil && sc.norms[v] > 0 {
		idx, val := sc.g.Features.Row(v)
		for m, f := range idx {
			lo, hi := sc.cols.indptr[f], sc.cols.indptr[f+1]
			for p := lo; p < hi; p++ {
				x := sc.cols.rows[p]
				dot[x] += float64(val[m]) * float64(sc.cols.vals[p])
				s.touch(x)
			}
		}
		for _, x := range s.touched {
			if dot[x] != 0 {
				dot[x] /= sc.norms[v] * sc.norms[x]
			}
		}
	}
	for h := range s.sorted {
		s.sorted[h] = s.sorted[h][:0]
	}
	s.cand = s.cand[:0]
	for _, x := range s.touched {
		if s.excluded[x] {
			continue
		}
		for h := range s.heur {
			if y := s.heur[h][x]; y > 0 {
				s.sorted[h] = append(s.sorted[h], y)
				s.scored[x] = true
			}
		}
		if s.scored[x] {
			s.cand = append(s.cand, candidate{node: x})
		}
	}
	for h := range s.sorted {
		slices.Sort(s.sorted[h])
	}
	// Ranked with no other end left out first: leaving one node out lowers
	// a rank by at most one, so only the candidates within one of the
	// (limit+1)th best can be among the best limit once it is left out.
	for k := range s.cand {
		s.cand[k].best = s.bestRank(s.cand[k].node, -1)
	}
	byRank(s.cand)
	if len(s.cand) > s.limit+1 {
		cut := s.cand[s.limit].best + 1
		n := s.limit + 1
		for n < len(s.cand) && s.cand[n].best <= cut {
			n++
		}
		s.cand = s.cand[:n]
	}
}

// byRank orders candidates best rank first, ties by node.
func byRank(c []candidate) {
	slices.SortFunc(c, func(a, b candidate) int {
		if d := cmp.Compare(a.best, b.best); d != 0 {
			return d
		}
		return cmp.Compare(a.node, b.node)
	})
}

// bestRank is the best of x's ranks over the heuristics that score it,
// among the candidates but other (-1: none left out). A heuristic ranks
// as HeaRT's code does (scipy's rankdata, method "min", reversed): its top
// score ranks 1, and a lower score y ranks 1 + #{u : y ≤ u < top}.
func (s *scratch) bestRank(x, other int32) int {
	best := math.MaxInt
	for h := range s.heur {
		y := s.heur[h][x]
		if y <= 0 {
			continue
		}
		pos := s.sorted[h]
		n := len(pos)
		var yo float64 // other's score here: one of pos, left out
		if other >= 0 && !s.excluded[other] {
			yo = s.heur[h][other]
		}
		top := pos[n-1]
		if yo == top && pos[n-2] != top {
			top = pos[n-2] // other held the top alone (x scores, so n ≥ 2)
		}
		// #{u ≥ t} among the scores without other's.
		atLeast := func(t float64) int {
			c := n - firstAtLeast(pos, t)
			if yo > 0 && yo >= t {
				c--
			}
			return c
		}
		r := 1
		if y != top {
			r = 1 + atLeast(y) - atLeast(top)
		}
		best = min(best, r)
	}
	return best
}

// best writes into row v's best-ranked candidates but other, as many as
// fit, and returns how many it wrote.
func (s *scratch) best(row []int32, other int32) int {
	s.pick = s.pick[:0]
	for _, c := range s.cand {
		if c.node != other {
			s.pick = append(s.pick, candidate{node: c.node, best: s.bestRank(c.node, other)})
		}
	}
	byRank(s.pick)
	k := min(len(row), len(s.pick))
	for m := range k {
		row[m] = s.pick[m].node
	}
	return k
}

// clear resets what score wrote for v.
func (s *scratch) clear(v int, known *graph.Graph) {
	for _, x := range s.touched {
		for h := range s.heur {
			s.heur[h][x] = 0
		}
		s.resid[x] = 0
		s.written[x], s.scored[x] = false, false
	}
	s.touched = s.touched[:0]
	s.excluded[v] = false
	for _, x := range known.Neighbors(v) {
		s.excluded[x] = false
	}
}

// firstAtLeast returns the index of the first element of the ascending xs
// that is at least v.
func firstAtLeast(xs []float64, v float64) int {
	i, _ := slices.BinarySearch(xs, v)
	return i
}

// push approximates the PPR vector personalised on v (teleport α) by
// forward push, Andersen, Chung and Lang's: from r = e_v, while some u has
// r[u] ≥ ε·deg(u), move α·r[u] into p[u] and spread the rest evenly over
// u's neighbours. v is pushed first; then nodes are pushed first in,
// first out, so that the sums are fixed by the graph.
func (sc *scorer) push(s *scratch, v int) {
	g, alpha, eps := sc.g, sc.o.Alpha, sc.o.Epsilon
	s.queue = append(s.queue[:0], int32(v))
	s.inQueue[v] = true
	s.resid[v] = 1
	s.touch(int32(v))
	for head := 0; head < len(s.queue); head++ {
		u := s.queue[head]
		s.inQueue[u] = false
		r := s.resid[u]
		s.resid[u] = 0
		s.heur[1][u] += alpha * r
		nb := g.Neighbors(int(u))
		if len(nb) == 0 {
			continue
		}
		share := (1 - alpha) * r / float64(len(nb))
		for _, w := range nb {
			s.touch(w)
			s.resid[w] += share
			if !s.inQueue[w] && s.resid[w] >= eps*float64(len(g.Neighbors(int(w)))) {
				s.inQueue[w] = true
				s.queue = append(s.queue, w)
			}
		}
	}
}
