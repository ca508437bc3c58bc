// A training batch (docs/model.md §4-5): every pair's selection and L^p_dis's random neighbours, in parallel.

package ilpgnn

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"ilpgnn/core/graph"
)

// entries is a flat list of (neighbour, target) entries grouped in segments:
// segment s holds node[offsets[s]:offsets[s+1]], the neighbours of centre[s]
// scored against target (the other end of the pair).
type entries struct {
	node    []int32    // c
	target  []int32    // the other end of the pair: s(i, c, j) compares c with j
	st      []float32  // eq5.fixed: α·s_ST(i, c, j) + (1-α)ρ·σ(h^0_j·h^0_c), a constant of the tape
	offsets []int32    // len = segments+1
	centre  []int32    // the node each segment belongs to
	halves  [2][]int32 // 0..n-1 and n..2n-1 for n = segments/2: the two ends of each pair
}

func (e *entries) reset(segments, n int) {
	e.node = grow(e.node, n)
	e.target = grow(e.target, n)
	e.st = grow(e.st, n)
	e.offsets = grow(e.offsets, segments+1)
	e.centre = grow(e.centre, segments)
	pairs := segments / 2
	for h := range e.halves {
		e.halves[h] = grow(e.halves[h], pairs)
		for k := range pairs {
			e.halves[h][k] = int32(h*pairs + k)
		}
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Batch is one epoch's labelled pairs with their selected neighbours (and,
// for positives, the random neighbours of L^p_dis). Selection is discrete
// and done outside the tape; Loss records the differentiable part. A Batch
// reuses its buffers across epochs.
type Batch struct {
	Pairs  []graph.Edge
	Labels []float32

	sel        entries   // 2 segments per pair: sides i (0..P-1) then j (P..2P-1)
	negEntries []int32   // entries of sel that belong to negative pairs
	negWeights []float32 // 1/(selected neighbours of the pair), for NegMean
	rnd        entries   // 2 segments per contributing positive
	contrib    []int32   // pairs that feed L^p_dis

	counts []pairCount
	rndSeg []int32 // per pair, its index in contrib, or -1

	// Scratch of selectAll, kept across epochs.
	byTarget []int32 // task ids (segments of sel) sorted by target
	start    []int32 // per node j, where its tasks begin in byTarget
	chunks   []int32 // bounds of the work-balanced chunks of byTarget
	workers  []*selector

	lossGrad lossGrad // LossGrad's scratch

	// Threads caps the goroutines Build and LossGrad use on this batch
	// (0: one per CPU); a caller that runs several batches at once gives
	// each one. The results do not depend on it.
	Threads int
}

// threads is how many goroutines work on b.
func (b *Batch) threads() int {
	if b.Threads > 0 {
		return min(b.Threads, runtime.GOMAXPROCS(0))
	}
	return runtime.GOMAXPROCS(0)
}

// ContributingPositives returns how many positives feed L^p_dis.
func (b *Batch) ContributingPositives() int { return len(b.contrib) }

type pairCount struct{ selI, selJ, rndI, rndJ int32 }

// Build selects the neighbours of every pair of pairs (labels 1 for links,
// 0 for non-links) given the current embeddings hr (N x d), and draws the
// random neighbours of L^p_dis from the stream seed. It runs on all CPUs;
// the result does not depend on their number.
func (m *Model) Build(b *Batch, in *Inputs, hr []float32, pairs []graph.Edge, labels []float32, obj Objective, seed uint64) {
	m.BuildAt(b, in, hr, pairs, labels, obj, seed, 0)
}

// count returns how many neighbours pair e (with label y) selects and draws
// at random on each side.
func (m *Model) count(in *Inputs, e graph.Edge, y float32, obj Objective) pairCount {
	K := m.Config.K
	g := in.Graph
	di, dj := g.Degree(int(e.U)), g.Degree(int(e.V))
	if m.masked(in, int(e.U), int(e.V)) {
		di, dj = di-1, dj-1
	}
	c := pairCount{selI: int32(min(K, di)), selJ: int32(min(K, dj))}
	if y == 1 {
		si, sj := di-int(c.selI), dj-int(c.selJ)
		switch {
		case !obj.Relaxed && si >= K && sj >= K:
			c.rndI, c.rndJ = int32(K), int32(K)
		case obj.Relaxed && si > 0 && sj > 0:
			c.rndI, c.rndJ = int32(min(K, si)), int32(min(K, sj))
		}
	}
	return c
}

// BuildAt is Build for the batch pairs that starts at index first of the
// epoch's pairs: the random neighbours of L^p_dis of pair p are drawn from
// the stream of its epoch index first+p, so they do not depend on how the
// epoch is split into batches.
func (m *Model) BuildAt(b *Batch, in *Inputs, hr []float32, pairs []graph.Edge, labels []float32, obj Objective, seed uint64, first int) {
	P := len(pairs)
	b.Pairs, b.Labels = pairs, labels
	b.counts = grow(b.counts, P)
	// Pass 1: sizes, so every pair knows where its entries go.
	nSel, nRnd, nContrib := 0, 0, 0
	for p, e := range pairs {
		c := m.count(in, e, labels[p], obj)
		if c.rndI > 0 {
			nContrib++
		}
		b.counts[p] = c
		nSel += int(c.selI + c.selJ)
		nRnd += int(c.rndI + c.rndJ)
	}
	b.sel.reset(2*P, nSel)
	b.rnd.reset(2*nContrib, nRnd)
	b.contrib = grow(b.contrib, nContrib)
	// Offsets: side-i segments of all pairs, then side-j segments.
	off := int32(0)
	b.sel.offsets[0] = 0
	for p := range pairs {
		off += b.counts[p].selI
		b.sel.offsets[p+1] = off
		b.sel.centre[p] = pairs[p].U
	}
	for p := range pairs {
		off += b.counts[p].selJ
		b.sel.offsets[P+p+1] = off
		b.sel.centre[P+p] = pairs[p].V
	}
	q, roff := 0, int32(0)
	b.rnd.offsets[0] = 0
	for p := range pairs {
		if c := b.counts[p]; c.rndI > 0 {
			b.contrib[q] = int32(p)
			roff += c.rndI
			b.rnd.offsets[q+1] = roff
			b.rnd.centre[q] = pairs[p].U
			q++
		}
	}
	for q2, p := range b.contrib {
		roff += b.counts[p].rndJ
		b.rnd.offsets[nContrib+q2+1] = roff
		b.rnd.centre[nContrib+q2] = pairs[p].V
	}
	// rndSeg[p] is the contributing index of pair p, or -1.
	b.rndSeg = grow(b.rndSeg, P)
	rndSeg := b.rndSeg
	for p := range rndSeg {
		rndSeg[p] = -1
	}
	for q, p := range b.contrib {
		rndSeg[p] = int32(q)
	}

	m.selectAll(b, in, hr, obj, seed, first)

	b.negEntries, b.negWeights = b.negEntries[:0], b.negWeights[:0]
	for p := range pairs {
		if labels[p] != 0 {
			continue
		}
		w := 1 / float32(max(1, b.counts[p].selI+b.counts[p].selJ))
		for _, seg := range [2]int{p, P + p} {
			for e := b.sel.offsets[seg]; e < b.sel.offsets[seg+1]; e++ {
				b.negEntries = append(b.negEntries, e)
				b.negWeights = append(b.negWeights, w)
			}
		}
	}
}

// selector is one worker of selectAll: a lazy scorer and its target table.
type selector struct {
	sc  scorer
	tab targetTable
}

// selectAll is pass 2 of BuildAt: it selects the neighbours of every task,
// one side of one pair, and draws the random ones of L^p_dis, writing each
// task's entries at the offsets pass 1 laid out. Task s·P + p is side s of
// pair p: centre U and target V for s = 0, the reverse for s = 1.
//
// Tasks are grouped by target (a stable counting sort), so a worker loads
// each target's table once for all its tasks: O(1) common-neighbour tests
// and S̃ lookups, and feature scores shared between the tasks. Workers
// claim contiguous, work-balanced chunks of the grouped tasks; every value
// is a function of its task alone, so the result does not depend on the
// number of workers nor on which chunk each one took.
func (m *Model) selectAll(b *Batch, in *Inputs, hr []float32, obj Objective, seed uint64, first int) {
	P := len(b.Pairs)
	if P == 0 {
		return
	}
	b.groupByTarget(in.Graph.NumNodes())
	workers := min(b.threads(), max(1, P/256))
	nChunks := 1
	if workers > 1 {
		// Several chunks per worker even out what the estimate misses.
		nChunks = min(8*workers, 2*P)
	}
	b.balanceChunks(in, nChunks)

	for len(b.workers) < workers {
		b.workers = append(b.workers, new(selector))
	}
	var next atomic.Int32
	h0 := m.AnchorEmbeddings(in)
	checkAnchor(m, h0)
	run := func(w *selector) {
		w.sc = scorer{m: m, in: in, hr: hr, h0: h0, d: m.Config.Hidden, lazy: true,
			cands: w.sc.cands, need: w.sc.need, needAt: w.sc.needAt, dots: w.sc.dots,
			commonAt: w.sc.commonAt, top: w.sc.top}
		w.tab.j = -1 // the table holds scores of the last Build's embeddings
		for c := int(next.Add(1)) - 1; c < nChunks; c = int(next.Add(1)) - 1 {
			for _, t := range b.byTarget[b.chunks[c]:b.chunks[c+1]] {
				m.selectTask(b, w, in, int(t), seed, first)
			}
		}
	}
	if workers == 1 {
		run(b.workers[0])
		return
	}
	var wg sync.WaitGroup
	for _, w := range b.workers[:workers] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(w)
		}()
	}
	wg.Wait()
}

// taskTarget is the target of task t of pairs (see selectAll): V for
// side 0, U for side 1.
func taskTarget(pairs []graph.Edge, t int) int {
	if t < len(pairs) {
		return int(pairs[t].V)
	}
	return int(pairs[t-len(pairs)].U)
}

// taskCentre is the node whose neighbours task t of pairs selects.
func taskCentre(pairs []graph.Edge, t int) int {
	if t < len(pairs) {
		return int(pairs[t].U)
	}
	return int(pairs[t-len(pairs)].V)
}

// groupByTarget orders b's 2P tasks by target, a stable counting sort over
// the graph's n nodes, into b.byTarget.
func (b *Batch) groupByTarget(n int) {
	pairs := b.Pairs
	tasks := 2 * len(pairs)
	b.start = grow(b.start, n+1)
	clear(b.start)
	for t := range tasks {
		b.start[taskTarget(pairs, t)+1]++
	}
	for j := range n {
		b.start[j+1] += b.start[j]
	}
	b.byTarget = grow(b.byTarget, tasks)
	for t := range tasks {
		j := taskTarget(pairs, t)
		b.byTarget[b.start[j]] = int32(t)
		b.start[j]++
	}
	// start[j] now ends j's tasks; nothing after needs it.
}

// balanceChunks cuts the grouped tasks into nChunks contiguous chunks of
// about equal work, in b.chunks. The work of a task is about its centre's
// degree (candidates), that of a target about deg(j) and its column of S̃
// (loading its table).
func (b *Batch) balanceChunks(in *Inputs, nChunks int) {
	pairs, g := b.Pairs, in.Graph
	tasks := 2 * len(pairs)
	cost := func(k int) int {
		t := int(b.byTarget[k])
		c := g.Degree(taskCentre(pairs, t)) + 1
		if j := taskTarget(pairs, t); k == 0 || taskTarget(pairs, int(b.byTarget[k-1])) != j {
			rows, _ := in.Sim.Column(j)
			c += g.Degree(j) + len(rows)
		}
		return c
	}
	b.chunks = grow(b.chunks, nChunks+1)
	b.chunks[0] = 0
	if nChunks > 1 {
		total := 0
		for k := range tasks {
			total += cost(k)
		}
		c, acc := 1, 0
		for k := range tasks {
			acc += cost(k)
			for c < nChunks && acc*nChunks >= c*total {
				b.chunks[c] = int32(k + 1)
				c++
			}
		}
	}
	b.chunks[nChunks] = int32(tasks)
}

// selectTask selects the neighbours of task t (see selectAll) with worker
// w and writes its entries, and its random spare neighbours when its pair
// feeds L^p_dis.
func (m *Model) selectTask(b *Batch, w *selector, in *Inputs, t int, seed uint64, first int) {
	P := len(b.Pairs)
	p, s := t%P, t/P
	// Tasks come grouped by target, so these reads are random, mostly
	// cache misses: issued first, they overlap with the selection.
	u, v := int(b.Pairs[p].U), int(b.Pairs[p].V)
	at, q := b.sel.offsets[t], b.rndSeg[p]
	i, j := u, v
	if s == 1 {
		i, j = v, u
	}
	if w.tab.j != j {
		w.tab.load(in, j)
	}
	// m.masked(in, u, v), with the table's marks of N(j) for HasEdge's
	// binary search.
	masked := m.Config.MaskTarget && i != j && w.tab.adjacent(int32(i))
	cands, k := w.sc.sideGrouped(i, j, masked, &w.tab)
	eq := newEq5(m.Config)
	for _, c := range cands[:k] {
		b.sel.node[at] = c.Node
		b.sel.target[at] = int32(j)
		b.sel.st[at] = eq.fixed(c.ST, c.Anchor)
		at++
	}
	if q < 0 {
		return
	}
	// K random spare neighbours, from a stream fixed by (seed, pair, side):
	// a partial Fisher-Yates shuffle of cands[k:], in place (the scratch
	// is not read again), swapping only the two fields the draws read.
	spare := cands[k:]
	rseg := int(q) + s*len(b.contrib)
	at, end := b.rnd.offsets[rseg], b.rnd.offsets[rseg+1]
	src := rand.NewPCG(seed, uint64(2*(first+p)+s))
	for n := 0; at < end; n, at = n+1, at+1 {
		r := n + int(src.Uint64()%uint64(len(spare)-n))
		a, c := &spare[n], &spare[r]
		a.Node, c.Node = c.Node, a.Node
		a.ST, c.ST = c.ST, a.ST
		b.rnd.node[at] = a.Node
		b.rnd.target[at] = int32(j)
		b.rnd.st[at] = eq.fixed(a.ST, w.sc.anchorScore(a.Node, j))
	}
}
