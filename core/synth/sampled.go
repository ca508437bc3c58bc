package synth

// The sampled process: docs/model.md §8's two stages in O((N + E)·polylog) time and
// O(N·d + E) memory, for graphs far beyond the exact process's N×N
// matrices (ogbn-arxiv's 169,343 nodes and 1,166,243 edges).
//
// What stays exact. Features are the exact process's (same stream, same
// numbers). Every weight the sampled process evaluates follows the exact
// process's formulas and operations: the base key q·log((cos+1)/2), and
// for a new edge the path counts of A, A² and A³ (counted on the sparse
// graph), S_ST's normalisation by its largest off-diagonal entry (found by
// walking every node's three-hop neighbourhood), r(c, j), GT(i|j) with its
// ties by id, and r̄_ij / τ. Only the cosine is computed otherwise, from
// float32 rows in another order (sampler.cos says why); given the same cosines, every explained link's
// groundtruth and weight are bit for bit what the exact process would give
// the same pair in the same stage graph (TestSampledGroundtruthExact), and
// the link's weight depends on its groundtruth neighbours only: the
// causal property holds unchanged.
//
// Where it departs: which pairs are drawn. The exact process keeps the m
// largest log w + Gumbel keys over all N²/2 pairs, which is sequential
// sampling without replacement in proportion to w. The sampled process
// draws pairs i.i.d. in proportion to w and skips repeats, which is the same
// sequential sampling, by rejection from an envelope: a block (a pair of
// mixture components, the groups homophily runs along) is proposed in
// proportion to its number of pairs times its bound B, then a uniform pair
// of the block, accepted with probability w / B. A pair's chance is then
// proportional to w exactly, as long as w <= B. B is the largest weight
// among probeLimit pairs of the block (all of them when it has no more),
// so
//   - a pair whose weight exceeds its block's largest probed weight is
//     drawn as if its weight were that bound (about 1/probeLimit of a
//     block's pairs; they are under-drawn, never excluded);
//   - a block with no eligible probed pair is never drawn.
// Blocks enumerated in full have neither departure. None of this touches
// a drawn link's groundtruth or its weight, and pairs' relative chances are
// the exact process's up to the clipping, so links still go where their
// groundtruth neighbours point.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"ilpgnn/core/detmath"
	"ilpgnn/core/graph"
)

// Method is the process Generate draws edges with.
type Method int8

const (
	// Exact is docs/model.md §8's process over all node pairs: O(N²) memory and
	// O(N²·d) time. It is the zero value and the presets' method.
	Exact Method = iota
	// Sampled follows the same two stages drawing from block proposals
	// (sampled.go): linear in N and E.
	Sampled
)

// String returns the name ParseMethod reads.
func (m Method) String() string {
	switch m {
	case Exact:
		return "exact"
	case Sampled:
		return "sampled"
	}
	return fmt.Sprintf("Method(%d)", int8(m))
}

// ParseMethod is the inverse of Method.String.
func ParseMethod(s string) (Method, error) {
	for _, m := range []Method{Exact, Sampled} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown method %q (want exact or sampled)", s)
}

// AutoExactNodes is the largest graph AutoMethod gives the exact process:
// its five N×N matrices take 33·N² bytes, 132 MB at 2,000 nodes.
const AutoExactNodes = 2000

// AutoMethod returns the method for a graph of n nodes when none is named:
// Exact up to AutoExactNodes (so the presets' sizes keep it), else Sampled.
func AutoMethod(n int) Method {
	if n <= AutoExactNodes {
		return Exact
	}
	return Sampled
}

// probeLimit is the number of pairs a block's total weight and bound are
// measured on.
const probeLimit = 1024

// maxSampledDensity is the largest share of all node pairs the sampled
// process draws as edges: repeats are skipped, so denser graphs would
// spend most proposals on pairs already drawn.
const maxSampledDensity = 0.1

// sampler holds what the sampled process's stages read.
type sampler struct {
	cfg     Config
	n, d    int
	unit    []float32 // N×d feature rows scaled to unit length
	members [][]int32 // nodes by mixture component, increasing
	scratch stageScratch
}

func newSampler(cfg Config, x []float64, components []int32) *sampler {
	s := &sampler{cfg: cfg, n: cfg.Nodes, d: cfg.FeatureDim, unit: unitRows(x, cfg.Nodes, cfg.FeatureDim),
		members: make([][]int32, cfg.Groups)}
	for i, z := range components {
		s.members[z] = append(s.members[z], int32(i))
	}
	s.scratch = newStageScratch(cfg.Nodes)
	return s
}

// unitRows scales the rows of the n×d matrix x to unit length as newWorld
// does, then rounds them to float32; zero rows stay zero.
func unitRows(x []float64, n, d int) []float32 {
	unit := make([]float32, len(x))
	for i := range n {
		row := x[i*d : i*d+d]
		var ss float64
		for _, v := range row {
			ss += float64(v * v)
		}
		if ss == 0 {
			continue
		}
		inv := 1 / math.Sqrt(ss)
		for k, v := range row {
			unit[i*d+k] = float32(v * inv)
		}
	}
	return unit
}

// cos is the cosine of the features of i and j, from unit rows rounded to
// float32: their products are exact in float64, summed in four lanes,
// (l0 + l1) + (l2 + l3) with lane k%4, then the tail. These dot products
// are most of the sampled process's time, and it is bound by reading rows
// of nodes scattered over the graph: half-width rows halve that, and four
// lanes do not wait on each addition. The order is fixed, so the result is
// deterministic and portable; it differs from newWorld's cosine by about
// 1e-7, which moves no rule of the process.
func (s *sampler) cos(i, j int) float64 {
	d := s.d
	ui := s.unit[i*d : i*d+d]
	uj := s.unit[j*d : j*d+d][:len(ui)]
	var l0, l1, l2, l3 float64
	k := 0
	for ; k+4 <= len(ui); k += 4 {
		l0 += float64(ui[k]) * float64(uj[k])
		l1 += float64(ui[k+1]) * float64(uj[k+1])
		l2 += float64(ui[k+2]) * float64(uj[k+2])
		l3 += float64(ui[k+3]) * float64(uj[k+3])
	}
	sum := (l0 + l1) + (l2 + l3)
	for ; k < len(ui); k++ {
		sum += float64(ui[k]) * float64(uj[k])
	}
	return sum
}

// generateSampled draws the base graph and the two stages' links.
func generateSampled(cfg Config, seed uint64, x []float64, components []int32) (base []graph.Edge, stage1, stage2 []Link, err error) {
	nBase, nTrain, nTest, nVal := cfg.counts()
	s := newSampler(cfg, x, components)
	q := cfg.Homophily
	baseKey := func(i, j int) (float64, bool) {
		if q == 0 {
			return 0, true
		}
		return q * detmath.Log((s.cos(i, j)+1)/2), true
	}
	base, err = s.draw(nBase, baseKey, rand.New(rand.NewPCG(seed, streamBase)), nil)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("synth: base graph: %w", err)
	}
	stage1, err = s.drawLinks(s.stage(base), nTrain, rand.New(rand.NewPCG(seed, streamStage1)))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("synth: stage 1: %w", err)
	}
	trainEdges := append(slices.Clone(base), edgesOf(stage1)...)
	stage2, err = s.drawLinks(s.stage(trainEdges), nTest+nVal, rand.New(rand.NewPCG(seed, streamStage2)))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("synth: stage 2: %w", err)
	}
	return base, stage1, stage2, nil
}

// block is a pair of mixture components a <= b and its part of the
// envelope the proposal draws from.
type block struct {
	a, b     int
	envelope float64 // log(pairs · bound); -Inf if no pair can be drawn
	bound    float64 // the largest probed log weight
}

// pairs returns the number of node pairs of the block.
func (s *sampler) pairs(bl block) int64 {
	na, nb := int64(len(s.members[bl.a])), int64(len(s.members[bl.b]))
	if bl.a == bl.b {
		return na * (na - 1) / 2
	}
	return na * nb
}

// pairAt returns pair number k of the block (0 <= k < pairs).
func (s *sampler) pairAt(bl block, k int64) (int, int) {
	ma, mb := s.members[bl.a], s.members[bl.b]
	if bl.a != bl.b {
		return int(ma[k/int64(len(mb))]), int(mb[k%int64(len(mb))])
	}
	// Row r of the upper triangle holds len-1-r pairs.
	r := int64(0)
	for rowLen := int64(len(ma) - 1); k >= rowLen; rowLen-- {
		k -= rowLen
		r++
	}
	return int(ma[r]), int(ma[r+1+k])
}

// randomPair returns a uniform pair of distinct nodes of the block.
func (s *sampler) randomPair(bl block, rng *rand.Rand) (int, int) {
	ma := s.members[bl.a]
	if bl.a == bl.b {
		i := rng.IntN(len(ma))
		j := rng.IntN(len(ma) - 1)
		if j >= i {
			j++
		}
		return int(ma[i]), int(ma[j])
	}
	mb := s.members[bl.b]
	return int(ma[rng.IntN(len(ma))]), int(mb[rng.IntN(len(mb))])
}

// keyFunc returns log w_ij, or false for a pair that cannot be drawn.
type keyFunc func(i, j int) (float64, bool)

// blocks bounds every block's weights by the largest of probeLimit probed
// pairs, all of them when the block has no more.
func (s *sampler) blocks(key keyFunc, rng *rand.Rand) []block {
	var out []block
	for a := range s.members {
		for b := a; b < len(s.members); b++ {
			bl := block{a: a, b: b, envelope: math.Inf(-1), bound: math.Inf(-1)}
			p := s.pairs(bl)
			if p == 0 {
				continue
			}
			for k := range min(p, probeLimit) {
				var i, j int
				if p <= probeLimit {
					i, j = s.pairAt(bl, k)
				} else {
					i, j = s.randomPair(bl, rng)
				}
				if v, ok := key(min(i, j), max(i, j)); ok {
					bl.bound = max(bl.bound, v)
				}
			}
			if !math.IsInf(bl.bound, -1) {
				bl.envelope = detmath.Log(float64(p)) + bl.bound
			}
			out = append(out, bl)
		}
	}
	return out
}

// draw draws m distinct pairs (U < V) in proportion to exp(key), in the
// order drawn: the proposal picks a block in proportion to its envelope
// and a uniform pair of it, accepted with probability exp(key - bound);
// repeats are skipped.
//
// accepted, when not nil, is called after each accepted pair, whose key
// was the last one computed.
func (s *sampler) draw(m int, key keyFunc, rng *rand.Rand, accepted func()) ([]graph.Edge, error) {
	bls := s.blocks(key, rng)
	top := math.Inf(-1)
	for _, bl := range bls {
		top = max(top, bl.envelope)
	}
	if math.IsInf(top, -1) {
		return nil, fmt.Errorf("%d edges to draw but no probed pair can be drawn", m)
	}
	cum := make([]float64, len(bls))
	var total float64
	for k, bl := range bls {
		total += detmath.Exp(bl.envelope - top)
		cum[k] = total
	}
	out := make([]graph.Edge, 0, m)
	drawn := make(map[graph.Edge]struct{}, m)
	// Acceptance is a few per cent at worst; a thousand proposals per edge
	// means the eligible pairs are (nearly) used up.
	limit := 1000*int64(m) + 1<<20
	for tries := int64(0); len(out) < m; tries++ {
		if tries == limit {
			return nil, fmt.Errorf("drew %d of %d edges in %d proposals: too few pairs can be drawn", len(out), m, tries)
		}
		u := rng.Float64() * total
		b, _ := slices.BinarySearchFunc(cum, u, func(c, u float64) int {
			if c <= u {
				return -1
			}
			return 1
		})
		bl := bls[min(b, len(bls)-1)]
		i, j := s.randomPair(bl, rng)
		e := graph.Edge{U: int32(min(i, j)), V: int32(max(i, j))}
		if _, dup := drawn[e]; dup {
			continue
		}
		v, ok := key(int(e.U), int(e.V))
		if !ok {
			continue
		}
		if v < bl.bound {
			uu := (float64(rng.Uint64()>>11) + 0.5) / (1 << 53)
			if detmath.Log(uu) >= v-bl.bound {
				continue
			}
		}
		drawn[e] = struct{}{}
		out = append(out, e)
		if accepted != nil {
			accepted()
		}
	}
	return out, nil
}

// sparseStage is one stage's graph for the sampled process: adjacency in
// compressed rows and the largest off-diagonal entry of A + A²/2 + A³/3.
type sparseStage struct {
	indptr []int
	nbrs   []int32 // each row sorted
	top    float64
}

// adj returns the sorted neighbours of i.
func (st *sparseStage) adj(i int) []int32 { return st.nbrs[st.indptr[i]:st.indptr[i+1]] }

// degree returns the number of neighbours of i.
func (st *sparseStage) degree(i int) int { return st.indptr[i+1] - st.indptr[i] }

// stageScratch holds per-node counters that are reset after use, so a
// stage's path counts cost the neighbourhoods they touch, not N. Integer
// counters are exact, as the exact process's float64 counts are, and
// small enough to stay in cache.
type stageScratch struct {
	a1 []uint8 // 1 for a neighbour of the node counted around
	a2 []int32 // walks of length 2
	a3 []int64 // walks of length 3
	t  []int32 // nodes touched
}

func newStageScratch(n int) stageScratch {
	return stageScratch{a1: make([]uint8, n), a2: make([]int32, n), a3: make([]int64, n)}
}

// stage builds the stage graph of edges and finds S_ST's normaliser by
// counting every node's walks of length 2 and 3.
func (s *sampler) stage(edges []graph.Edge) *sparseStage {
	n := s.n
	st := &sparseStage{indptr: make([]int, n+1), nbrs: make([]int32, 2*len(edges))}
	for _, e := range edges {
		st.indptr[e.U+1]++
		st.indptr[e.V+1]++
	}
	for i := range n {
		st.indptr[i+1] += st.indptr[i]
	}
	fill := slices.Clone(st.indptr[:n])
	for _, e := range edges {
		st.nbrs[fill[e.U]], st.nbrs[fill[e.V]] = e.V, e.U
		fill[e.U]++
		fill[e.V]++
	}
	for i := range n {
		slices.Sort(st.adj(i))
	}
	// Rows are independent and the maximum does not depend on the order
	// they are visited in, so workers split them with scratch of their own.
	workers := max(1, min(runtime.GOMAXPROCS(0), n/1024))
	tops := make([]float64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			sc := &s.scratch
			if w > 0 {
				own := newStageScratch(n)
				sc = &own
			}
			tops[w] = st.rowsTop(sc, w*n/workers, (w+1)*n/workers)
		})
	}
	wg.Wait()
	st.top = slices.Max(tops)
	return st
}

// rowsTop returns the largest off-diagonal entry of A + A²/2 + A³/3 in
// rows lo..hi-1.
func (st *sparseStage) rowsTop(sc *stageScratch, lo, hi int) float64 {
	top := 0.0
	var t2, t3 []int32
	for i := lo; i < hi; i++ {
		for _, c := range st.adj(i) {
			sc.a1[c] = 1
			for _, k := range st.adj(int(c)) {
				if sc.a2[k] == 0 {
					t2 = append(t2, k)
				}
				sc.a2[k]++
			}
		}
		for _, k := range t2 {
			for _, l := range st.adj(int(k)) {
				if sc.a3[l] == 0 {
					t3 = append(t3, l)
				}
				sc.a3[l] += int64(sc.a2[k])
			}
		}
		// Every neighbour is in t3 (the walk i, l, i, l), so t2 and t3
		// cover every non-zero entry of row i.
		for _, ts := range [][]int32{t2, t3} {
			for _, l := range ts {
				if int(l) == i {
					continue
				}
				v := float64(sc.a2[l])/2 + float64(sc.a3[l])/3
				if sc.a1[l] != 0 {
					v++
				}
				top = max(top, v)
			}
		}
		for _, c := range st.adj(i) {
			sc.a1[c] = 0
		}
		for _, k := range t2 {
			sc.a2[k] = 0
		}
		for _, l := range t3 {
			sc.a3[l] = 0
		}
		t2, t3 = t2[:0], t3[:0]
	}
	return top
}

// hasEdge reports whether i and j are adjacent.
func (st *sparseStage) hasEdge(i, j int) bool {
	if st.degree(j) < st.degree(i) {
		i, j = j, i
	}
	_, ok := slices.BinarySearch(st.adj(i), int32(j))
	return ok
}

// why returns GT(i|j), the KGT neighbours c of i with the largest r(c, j),
// largest first, ties by id, and the sum of their r, in the exact
// process's operations: r(c, j) = α·S_ST[c, j]/top + (1-α)·(cos+1)/2 with
// S_ST[c, j] = A + A²/2 + A³/3 counted around j.
func (s *sampler) why(st *sparseStage, i, j int, dst []int32, rs []float64) ([]int32, float64) {
	sc := &s.scratch
	// a1 marks j's neighbours, a2 counts walks of length 2 from j.
	t := sc.t[:0]
	for _, l := range st.adj(j) {
		sc.a1[l] = 1
		for _, k := range st.adj(int(l)) {
			if sc.a2[k] == 0 {
				t = append(t, k)
			}
			sc.a2[k]++
		}
	}
	alpha, kgt := s.cfg.Alpha, s.cfg.KGT
	r := func(c int32) float64 {
		var p2, p3 int64
		for _, k := range st.adj(int(c)) {
			p2 += int64(sc.a1[k])
			p3 += int64(sc.a2[k])
		}
		v := float64(p2)/2 + float64(p3)/3
		if sc.a1[c] != 0 {
			v++
		}
		if st.top > 0 {
			v /= st.top
		}
		return float64(alpha*v) + float64((1-alpha)*(s.cos(int(c), j)+1)/2)
	}
	dst, rs = dst[:0], rs[:0]
	for _, c := range st.adj(i) {
		rc := r(c)
		// As whyStrided: neighbours come in increasing id, so a tie never
		// displaces.
		if len(dst) == kgt && rc <= rs[kgt-1] {
			continue
		}
		if len(dst) < kgt {
			dst, rs = append(dst, c), append(rs, rc)
		} else {
			dst[kgt-1], rs[kgt-1] = c, rc
		}
		for p := len(dst) - 1; p > 0 && rs[p] > rs[p-1]; p-- {
			dst[p], dst[p-1] = dst[p-1], dst[p]
			rs[p], rs[p-1] = rs[p-1], rs[p]
		}
	}
	var sum float64
	for _, v := range rs {
		sum += v
	}
	for _, l := range st.adj(j) {
		sc.a1[l] = 0
	}
	for _, k := range t {
		sc.a2[k] = 0
	}
	sc.t = t[:0]
	return dst, sum
}

// linkKey returns log w_ij = r̄_ij / τ for i < j, or false when (i, j) is
// an edge of the stage graph or an end has fewer than KGT neighbours.
func (s *sampler) linkKey(st *sparseStage, i, j int, bufI, bufJ []int32, rs []float64) (key float64, whyI, whyJ []int32, ok bool) {
	k := s.cfg.KGT
	if st.degree(i) < k || st.degree(j) < k || st.hasEdge(i, j) {
		return 0, nil, nil, false
	}
	whyI, si := s.why(st, i, j, bufI, rs)
	whyJ, sj := s.why(st, j, i, bufJ, rs)
	rbar := (si + sj) / float64(2*k)
	return rbar / s.cfg.Tau, whyI, whyJ, true
}

// drawLinks draws m explained links among the stage graph's eligible
// non-edges in proportion to exp(r̄_ij / τ), in the order drawn.
func (s *sampler) drawLinks(st *sparseStage, m int, rng *rand.Rand) ([]Link, error) {
	k := s.cfg.KGT
	bufI, bufJ, rs := make([]int32, 0, k), make([]int32, 0, k), make([]float64, 0, k)
	var whyI, whyJ []int32
	key := func(i, j int) (float64, bool) {
		var v float64
		var ok bool
		v, whyI, whyJ, ok = s.linkKey(st, i, j, bufI, bufJ, rs)
		return v, ok
	}
	links := make([]Link, 0, m)
	accepted := func() {
		links = append(links, Link{Role: Train, WhyU: slices.Clone(whyI), WhyV: slices.Clone(whyJ)})
	}
	edges, err := s.draw(m, key, rng, accepted)
	if err != nil {
		return nil, fmt.Errorf("%w (non-edges with both ends of %d neighbours)", err, k)
	}
	for t, e := range edges {
		links[t].Edge = e
	}
	return links, nil
}
