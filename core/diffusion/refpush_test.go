package diffusion

import (
	"fmt"

	"ilpgnn/core/graph"
)

// The forward push as it was before the cache-friendly layout (issue 16),
// kept verbatim as the oracle of the bit-identity tests and as the
// baseline of BenchmarkPushLayout.

// refPusher computes columns of S by forward push (Andersen, Chung and Lang,
// "Local graph partitioning using PageRank vectors", FOCS 2006) on
// T = Â D̂^-1 (docs/model.md §2, eq 1). It keeps dense length-N scratch vectors that
// are reused between sources and cleared through a touched list, so one
// column costs time proportional to the push work, not to N. A refPusher is not
// safe for concurrent use: give each goroutine its own.
type refPusher struct {
	g          *graph.Graph
	gamma, eps float64

	p, r    []float64 // estimate and residual; zero outside touched
	thr     []float64 // thr[u] = ε·(deg(u)+1)
	stamp   []uint32  // stamp[u] == gen iff u is in touched
	gen     uint32
	inQueue []bool // false for every node between calls
	touched []int32
	queue   []int32

	nodes []int32   // Push's result, aliased by the caller
	vals  []float64 // idem

	work int64 // Σ (deg(u)+1) over all pushes so far: the cost measure
}

// newRefPusher returns a refPusher for g with teleport gamma and residual
// tolerance eps. It panics if gamma or eps is not in (0, 1).
func newRefPusher(g *graph.Graph, gamma, eps float64) *refPusher {
	if !(gamma > 0 && gamma < 1) {
		panic(fmt.Sprintf("diffusion: teleport %v outside (0, 1)", gamma))
	}
	if !(eps > 0 && eps < 1) {
		panic(fmt.Sprintf("diffusion: push tolerance %v outside (0, 1)", eps))
	}
	n := g.NumNodes()
	thr := make([]float64, n)
	for u := range thr {
		thr[u] = eps * float64(g.Degree(u)+1)
	}
	return &refPusher{g: g, gamma: gamma, eps: eps,
		p: make([]float64, n), r: make([]float64, n), thr: thr,
		stamp: make([]uint32, n), inQueue: make([]bool, n)}
}

// Push approximates column source of S, the PPR vector personalised on
// source. It returns the nodes with a non-zero estimate, in the order they
// were first reached (not sorted), their estimates p, and the residual mass
// Σ_u r[u] left unpushed. The slices alias the refPusher and are valid until
// its next call.
//
// The rule. Start from p = 0, r = e_source and push the source once (so a
// hub's column is never empty); then, while some node u has
// r[u] > ε·(deg(u)+1), push u (FIFO order): with q = (1-γ)/(deg(u)+1),
//
//	p[u]   += γ r[u] / (1-q)
//	r[w]   += q r[u] / (1-q)   for each neighbour w of u
//	r[u]    = 0
//
// which is the limit of repeatedly pushing the mass that u's self-loop sends
// back to u. Each push keeps the invariant S e_source = p + S r (from
// S = γ I + (1-γ) S T), and keeps Σp + Σr = 1.
//
// The error bound. At the end r[u] ≤ ε·(deg(u)+1) for every u, so for every
// node c
//
//	0 ≤ S[c, source] - p[c] = Σ_u S[c, u] r[u] ≤ min(ε·(deg(c)+1), Σ_u r[u]),
//
// using S[c, u]·(deg(u)+1) = S[u, c]·(deg(c)+1) (S D̂ is symmetric because
// T D̂ = Â is) and the columns of S summing to 1. The column's L1 error is
// exactly the returned residual. Each push but the forced first one moves
// more than γ·ε·(deg(u)+1) of mass into p, so the total work Σ (deg(u)+1)
// over pushes is below 1/(γ·ε) + deg(source) + 1, whatever N.
//
// Push panics if source is not a node of the graph.
func (ps *refPusher) Push(source int) (nodes []int32, p []float64, residual float64) {
	g := ps.g
	if source < 0 || source >= g.NumNodes() {
		panic(fmt.Sprintf("diffusion: push source %d outside [0, %d)", source, g.NumNodes()))
	}
	// Clear the previous call's entries.
	for _, u := range ps.touched {
		ps.p[u], ps.r[u] = 0, 0
	}
	ps.touched = ps.touched[:0]
	ps.gen++
	if ps.gen == 0 { // wrapped: no stamp may survive from 2^32 calls ago
		clear(ps.stamp)
		ps.gen = 1
	}
	pp, r, thr, stamp, inQueue, gen := ps.p, ps.r, ps.thr, ps.stamp, ps.inQueue, ps.gen
	gamma := ps.gamma
	indptr, indices := g.Indptr, g.Indices

	touched := append(ps.touched, int32(source))
	stamp[source] = gen
	r[source] = 1
	queue := append(ps.queue[:0], int32(source))
	inQueue[source] = true
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		inQueue[u] = false
		lo, hi := indptr[u], indptr[u+1]
		d1 := float64(hi - lo + 1)
		ru := r[u]
		if ru <= thr[u] && head > 0 { // the source is always pushed once
			continue
		}
		q := (1 - gamma) / d1
		ru /= 1 - q
		pp[u] += gamma * ru
		r[u] = 0
		share := q * ru
		ps.work += int64(d1)
		for _, w := range indices[lo:hi] {
			if stamp[w] != gen {
				stamp[w] = gen
				touched = append(touched, w)
			}
			r[w] += share
			if !inQueue[w] && r[w] > thr[w] {
				inQueue[w] = true
				queue = append(queue, w)
			}
		}
	}
	ps.touched, ps.queue = touched, queue

	ps.nodes, ps.vals = ps.nodes[:0], ps.vals[:0]
	for _, u := range touched {
		residual += r[u]
		if pp[u] > 0 {
			ps.nodes = append(ps.nodes, u)
			ps.vals = append(ps.vals, pp[u])
		}
	}
	return ps.nodes, ps.vals, residual
}
