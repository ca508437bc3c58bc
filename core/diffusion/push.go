package diffusion

import (
	"cmp"
	"fmt"
	"slices"
	"unsafe"

	"ilpgnn/core/graph"
	"ilpgnn/core/internal/prefetch"
)

// layout is g's adjacency relabelled for the push: nodes renumbered by
// degree, largest first (ties by id), so that the hubs, which almost every
// column touches, share a few cache lines of the Pusher's state instead of
// being scattered over it. Each relabelled row lists the same neighbours
// in the same order as g's row, so a push visits them in exactly the
// order it would on g and its sums are bit-for-bit the same. A layout is
// read-only once built and shared by the Pushers of one New.
type layout struct {
	perm  []int32 // perm[u] = g's id of relabelled node u
	rank  []int32 // rank[v] = relabelled id of g's node v
	start []int32 // row u of adj is adj[start[u]:start[u+1]]
	adj   []int32 // neighbours, relabelled
}

func newLayout(g *graph.Graph) *layout {
	n := g.NumNodes()
	l := &layout{perm: make([]int32, n), rank: make([]int32, n),
		start: make([]int32, n+1), adj: make([]int32, len(g.Indices))}
	for v := range l.perm {
		l.perm[v] = int32(v)
	}
	slices.SortFunc(l.perm, func(a, b int32) int {
		return cmp.Or(cmp.Compare(g.Degree(int(b)), g.Degree(int(a))), cmp.Compare(a, b))
	})
	for u, v := range l.perm {
		l.rank[v] = int32(u)
	}
	k := int32(0)
	for u, v := range l.perm {
		for _, w := range g.Neighbors(int(v)) {
			l.adj[k] = l.rank[w]
			k++
		}
		l.start[u+1] = k
	}
	return l
}

// nodeState is everything a push reads or writes about one node, kept
// together so that visiting a neighbour costs one cache miss, not one per
// array (the push is bound by memory latency on large graphs).
type nodeState struct {
	r     float64 // residual; 0 outside touched
	deg   int32   // degree in g; the threshold is ε·(deg+1)
	stamp uint32  // gen | flags iff the node is in touched, else below gen
}

// Flags of nodeState.stamp, which the generation never has: stamp&^flags
// == gen tests membership of touched.
const (
	queued = 1 << 31 // in the queue
	pushed = 1 << 30 // pushed at least once, so p > 0
	flags  = queued | pushed
)

// pushAhead is how many queued nodes ahead Push prefetches: on an
// arxiv-sized graph the push state outgrows the caches and each queued
// node's state and row are misses.
const pushAhead = 2

// Pusher computes columns of S by forward push (Andersen, Chung and Lang,
// "Local graph partitioning using PageRank vectors", FOCS 2006) on
// T = Â D̂^-1 (docs/model.md §2, eq 1). It keeps a length-N state that is reused
// between sources and cleared through a touched list, so one column costs
// time proportional to the push work, not to N. A Pusher is not safe for
// concurrent use: give each goroutine its own.
type Pusher struct {
	lay        *layout
	gamma, eps float64
	maxWork    int64 // per column; 0 for none

	st      []nodeState // indexed by relabelled node
	p       []float64   // estimates, indexed by relabelled node; 0 outside touched
	gen     uint32
	touched []int32 // relabelled
	pushed  []int32 // relabelled, the touched nodes with p > 0, in push order
	queue   []int32 // relabelled

	nodes []int32   // Push's result in g's ids, aliased by the caller
	vals  []float64 // idem

	work    int64   // Σ (deg(u)+1) over all pushes so far: the cost measure
	colWork int64   // the work of the last column
	tol     float64 // the tolerance the last column reached (see Tolerance)
}

// NewPusher returns a Pusher for g with teleport gamma and residual
// tolerance eps and no work cap. It panics if gamma or eps is not in
// (0, 1).
func NewPusher(g *graph.Graph, gamma, eps float64) *Pusher {
	return newPusher(g, newLayout(g), gamma, eps, 0)
}

// newPusher returns a Pusher on lay, g's layout, that stops a column once
// its work would exceed maxWork (0: never).
func newPusher(g *graph.Graph, lay *layout, gamma, eps float64, maxWork int64) *Pusher {
	if !(gamma > 0 && gamma < 1) {
		panic(fmt.Sprintf("diffusion: teleport %v outside (0, 1)", gamma))
	}
	if !(eps > 0 && eps < 1) {
		panic(fmt.Sprintf("diffusion: push tolerance %v outside (0, 1)", eps))
	}
	st := make([]nodeState, len(lay.perm))
	for u := range st {
		st[u].deg = lay.start[u+1] - lay.start[u]
	}
	return &Pusher{lay: lay, gamma: gamma, eps: eps, maxWork: maxWork, st: st, p: make([]float64, len(st))}
}

// Push approximates column source of S, the PPR vector personalised on
// source. It returns the nodes with a non-zero estimate, in the order they
// were first pushed (not sorted), their estimates p, and the residual mass
// Σ_u r[u] left unpushed. The slices alias the Pusher and are valid until
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
// The error bound. At the end r[u] ≤ ε'·(deg(u)+1) for every u, with ε'
// the tolerance reached (Tolerance: ε unless the work cap stopped the
// column), so for every node c
//
//	0 ≤ S[c, source] - p[c] = Σ_u S[c, u] r[u] ≤ min(ε'·(deg(c)+1), Σ_u r[u]),
//
// using S[c, u]·(deg(u)+1) = S[u, c]·(deg(c)+1) (S D̂ is symmetric because
// T D̂ = Â is) and the columns of S summing to 1. The column's L1 error is
// exactly the returned residual. Each push but the forced first one moves
// more than γ·ε·(deg(u)+1) of mass into p, so the total work Σ (deg(u)+1)
// over pushes is below 1/(γ·ε) + deg(source) + 1, whatever N.
//
// The work cap. A Pusher made by New with Options.MaxWork stops a column
// before the push that would take its work above the cap (the source's
// first push is always made), leaving the residual where it is; the bound
// above then holds with the larger ε' that Tolerance reports.
//
// Push panics if source is not a node of the graph.
func (ps *Pusher) Push(source int) (nodes []int32, p []float64, residual float64) {
	lay := ps.lay
	if source < 0 || source >= len(lay.perm) {
		panic(fmt.Sprintf("diffusion: push source %d outside [0, %d)", source, len(lay.perm)))
	}
	ps.reset()
	st, pp := ps.st, ps.p
	gen, gamma, eps := ps.gen, ps.gamma, ps.eps
	start, adj := lay.start, lay.adj
	limit := ps.maxWork
	if limit <= 0 {
		limit = 1<<63 - 1
	}

	src := lay.rank[source]
	touched, pushedNodes := append(ps.touched, src), ps.pushed
	st[src].stamp = gen | queued
	st[src].r = 1
	queue := append(ps.queue[:0], src)
	var work int64
	capped := false
	for head := 0; head < len(queue); head++ {
		if h := head + pushAhead; h < len(queue) {
			// The node pushed two steps on: its state and the start of its
			// row, which nothing else brings into cache in time.
			w := queue[h]
			prefetch.Line(unsafe.Pointer(&st[w]))
			prefetch.Line(unsafe.Pointer(&adj[start[w]]))
		}
		u := queue[head]
		su := &st[u]
		d1 := float64(su.deg + 1)
		ru := su.r
		if head > 0 { // the source is always pushed once
			if ru <= eps*d1 {
				su.stamp &^= queued
				continue
			}
			if work+int64(su.deg+1) > limit {
				capped = true
				break
			}
		}
		if su.stamp&pushed == 0 {
			pushedNodes = append(pushedNodes, u)
		}
		su.stamp = gen | pushed
		q := (1 - gamma) / d1
		ru /= 1 - q
		pp[u] += gamma * ru
		su.r = 0
		share := q * ru
		work += int64(su.deg + 1)
		row := adj[start[u]:start[u+1]]
		// Two passes: the adds alone, free of branches, let the processor
		// fetch many neighbours' states at once; the bookkeeping then
		// finds them in cache. A row has no repeats, so every r[w] sees
		// the same additions in the same order as in one pass.
		for _, w := range row {
			st[w].r += share
		}
		for _, w := range row {
			sw := &st[w]
			if sw.stamp&^flags != gen {
				sw.stamp = gen
				touched = append(touched, w)
			}
			if sw.stamp&queued == 0 && sw.r > eps*float64(sw.deg+1) {
				sw.stamp |= queued
				queue = append(queue, w)
			}
		}
	}
	ps.touched, ps.pushed, ps.queue = touched, pushedNodes, queue
	ps.work += work
	ps.colWork = work
	return ps.column(capped)
}

// reset clears the previous column's entries (a capped column leaves
// nodes queued) and starts a new generation of stamps.
func (ps *Pusher) reset() {
	st := ps.st
	for _, u := range ps.touched {
		st[u].r, st[u].stamp = 0, 0
	}
	for _, u := range ps.pushed {
		ps.p[u] = 0
	}
	ps.touched, ps.pushed = ps.touched[:0], ps.pushed[:0]
	ps.gen++
	if ps.gen == pushed { // wrapped: no stamp may survive from 2^30 calls ago
		for u := range st {
			st[u].stamp = 0
		}
		ps.gen = 1
	}
}

// column returns the column just pushed: the pushed nodes (in the graph's
// numbering) with their estimates, and the residual left. It sets the
// tolerance reached, larger than ε when the work cap stopped the column.
func (ps *Pusher) column(capped bool) (nodes []int32, p []float64, residual float64) {
	ps.tol = ps.eps
	ps.nodes, ps.vals = ps.nodes[:0], ps.vals[:0]
	for _, u := range ps.touched {
		s := &ps.st[u]
		residual += s.r
		if capped {
			ps.tol = max(ps.tol, s.r/float64(s.deg+1))
		}
	}
	for _, u := range ps.pushed {
		ps.nodes = append(ps.nodes, ps.lay.perm[u])
		ps.vals = append(ps.vals, ps.p[u])
	}
	return ps.nodes, ps.vals, residual
}

// Tolerance returns the tolerance ε' the last column reached: every
// residual r[u] left is at most ε'·(deg(u)+1), so each estimate is within
// ε'·(deg(c)+1) below the true S[c, source] (see Push). It is the Pusher's
// ε unless the work cap stopped the column early.
func (ps *Pusher) Tolerance() float64 { return ps.tol }

// Work returns the work of the last column, Σ (deg(u)+1) over its pushes.
func (ps *Pusher) Work() int64 { return ps.colWork }

// PushColumn approximates column source of S by forward push with teleport
// gamma and tolerance eps (see Pusher.Push for the rule and its error
// bound: 0 ≤ S[c, source] - p[c] ≤ ε·(deg(c)+1)). It returns the nodes with
// a non-zero estimate sorted ascending, their estimates, and the residual
// mass (the column's exact L1 error). It allocates O(N + |E|) scratch per
// call: to compute many columns reuse a Pusher.
func PushColumn(g *graph.Graph, source int, gamma, eps float64) (nodes []int32, p []float64, residual float64) {
	nodes, p, residual = NewPusher(g, gamma, eps).Push(source)
	order := make([]int, len(nodes))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return int(nodes[a] - nodes[b]) })
	sn, sp := make([]int32, len(nodes)), make([]float64, len(nodes))
	for k, o := range order {
		sn[k], sp[k] = nodes[o], p[o]
	}
	return sn, sp, residual
}
