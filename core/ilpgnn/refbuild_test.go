package ilpgnn

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// This file keeps the per-task neighbour selection that Build used before
// tasks were grouped by target (scorer.go's sideGrouped, batch.go's
// BuildAt): each side of each pair merges N(i) with N(j), gathers S̃ by a
// galloping search and pays a dot product per candidate. It is the oracle
// of TestBuildGroupedMatchesReference, and BenchmarkBuildCandidates times
// it beside Build.

// refSide is scorer.side as it was: the reference for one task.
func (sc *scorer) refSide(slot int, i, j int, masked bool, removeI, removeJ []int32) ([]Candidate, int) {
	g := sc.in.Graph
	nodes := sc.nodes[:0]
	for _, c := range g.Neighbors(i) {
		if (masked && int(c) == j) || slices.Contains(removeI, c) {
			continue
		}
		nodes = append(nodes, c)
	}
	sc.nodes = nodes
	if cap(sc.st) < len(nodes) {
		sc.st = make([]float32, len(nodes), 2*len(nodes))
	}
	st := sc.st[:len(nodes)]
	sc.in.Sim.Gather(st, j, nodes)
	if sc.m.Config.Structure == ScaleMax {
		var hi float32
		for _, v := range st {
			// hi = max(hi, v) as a branch (max is a runtime call under
			// wasm); hi starts at +0, so ±0 come out as with max, and a
			// NaN still gives a NaN.
			if v > hi || v != v {
				hi = v
			}
		}
		if hi > 0 {
			for k := range st {
				st[k] /= hi
			}
		}
	}
	eq := newEq5(sc.m.Config)
	hj := sc.row(int32(j))
	nj := g.Neighbors(j)
	cands := sc.cands[slot][:0]
	p := 0 // merge pointer into N(j), both sorted
	commons := 0
	for k, c := range nodes {
		for p < len(nj) && nj[p] < c {
			p++
		}
		common := p < len(nj) && nj[p] == c && !slices.Contains(removeJ, c) && !(masked && int(c) == i)
		if common {
			commons++
		}
		cands = append(cands, Candidate{Node: c, ST: st[k], Common: common})
	}
	// The bound picks its candidates before any feature score is paid for.
	// Common neighbours go first, as in selection order: then the bound
	// never trades a common neighbour for another, and N^r(i|j) holds
	// min(K, commons) of them as without the bound (C ≥ K). s_ST keeps the
	// scaling over every neighbour, so a candidate scores as without it.
	n := len(cands)
	if bound := sc.m.Config.Candidates; bound > 0 && n > bound {
		selectBound(cands, bound)
		n = bound
	}
	sc.bound[slot] = n
	// With K common neighbours, the others cannot be selected: a lazy
	// scorer leaves their feature score unset (0) instead of paying a dot
	// product and an exp each; so it does for those the bound left out.
	// (With C ≥ K, K commons anywhere means K commons within the bound.)
	skip := sc.lazy && sc.m.Config.Order == OrderCommonFirst && commons >= sc.m.Config.K
	for m := range cands {
		c := &cands[m]
		if sc.lazy && (m >= n || skip && !c.Common) {
			c.S = eq.fixed(c.ST, 0)
			continue
		}
		c.NO = sigmoid(f32.Dot(hj, sc.row(c.Node)))
		c.Anchor = sc.anchorScore(c.Node, j)
		c.S = eq.combine(c.ST, c.Anchor, c.NO)
	}
	sc.cands[slot] = cands
	k := min(sc.m.Config.K, n)
	selectFirst(cands[:n], k, sc.m.Config.Order)
	return cands, k
}

// refBuildAt is BuildAt as it was, selecting task by task with refSide.
func (m *Model) refBuildAt(b *Batch, in *Inputs, hr []float32, pairs []graph.Edge, labels []float32, obj Objective, seed uint64, first int) {
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

	// Pass 2: select, in parallel over contiguous chunks of pairs.
	workers := min(runtime.GOMAXPROCS(0), max(1, P/256))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*P/workers, (w+1)*P/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := m.newScorer(in, hr, m.AnchorEmbeddings(in))
			sc.lazy = true
			eq := newEq5(m.Config)
			var spare []Candidate
			for p := lo; p < hi; p++ {
				i, j := int(pairs[p].U), int(pairs[p].V)
				mask := m.masked(in, i, j)
				for s, side := range [2][2]int{{i, j}, {j, i}} {
					cands, k := sc.refSide(0, side[0], side[1], mask, nil, nil)
					seg := s*P + p
					at := b.sel.offsets[seg]
					for _, c := range cands[:k] {
						b.sel.node[at] = c.Node
						b.sel.target[at] = int32(side[1])
						b.sel.st[at] = eq.fixed(c.ST, c.Anchor)
						at++
					}
					q := rndSeg[p]
					if q < 0 {
						continue
					}
					// K random spare neighbours, from a stream fixed by (seed, pair, side).
					spare = append(spare[:0], cands[k:]...)
					rseg := int(q) + s*nContrib
					at, end := b.rnd.offsets[rseg], b.rnd.offsets[rseg+1]
					src := rand.NewPCG(seed, uint64(2*(first+p)+s))
					for n := 0; at < end; n, at = n+1, at+1 {
						r := n + int(src.Uint64()%uint64(len(spare)-n))
						spare[n], spare[r] = spare[r], spare[n]
						b.rnd.node[at] = spare[n].Node
						b.rnd.target[at] = int32(side[1])
						b.rnd.st[at] = eq.fixed(spare[n].ST, sc.anchorScore(spare[n].Node, side[1]))
					}
				}
			}
		}()
	}
	wg.Wait()

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
