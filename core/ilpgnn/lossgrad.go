// The objective and its gradient without a tape (docs/model.md §5): what training runs.

package ilpgnn

import (
	"math"
	"sync"

	"ilpgnn/core/detmath"
	"ilpgnn/core/f32"
)

// LossValues are the values of the objective's terms for one batch, as
// Losses holds them on a tape.
type LossValues struct {
	Total, Cls, Pos, Neg float64
}

// lossGradChunk is how many pairs LossGrad treats at a time: their six
// d-vectors of scratch (the two ends' aggregated rows, those of the random
// neighbours, and the gradients of the two ends' own rows) stay within a
// few megabytes.
const lossGradChunk = 2048

// LossGrad computes what LossOver records for batch b, without a tape: the
// loss terms, normalised by the epoch's counts n, and their gradient with
// respect to H^r = hr (N x d), which it adds into grad (same shape). Up to
// float rounding it equals LossOver followed by a backward pass from its
// Total.
//
// A pair's work stays with the pair: its rows are aggregated in scratch
// while they are in cache, its gradients are reduced to a few scalars per
// neighbour and a vector per end, and grad is then updated chunk by chunk
// with every row receiving its updates in pair order, whichever goroutine
// owns it. The result therefore does not depend on the number of
// goroutines. On large graphs the tape's version reads each selected row
// of H^r and its gradient several times, one op at a time, from main
// memory; here a row is read once going forward and once more to update
// its gradient.
func (m *Model) LossGrad(hr, grad []float32, b *Batch, obj Objective, n Norms) LossValues {
	d := m.Config.Hidden
	P := len(b.Pairs)
	lg := &b.lossGrad
	lg.prepare(m, hr, grad, b, obj, n, d)
	var cls, neg, pos float64
	// Each scatter worker owns the rows of every workers-th block of 64:
	// interleaved, so that hubs, often at low ids, do not all fall to one.
	threads := b.threads()
	workers := min(threads, max(1, len(hr)/d/64))
	for lo := 0; lo < P; lo += lossGradChunk {
		hi := min(lo+lossGradChunk, P)
		parallelRange(hi-lo, threads, func(a, z int) {
			for p := lo + a; p < lo+z; p++ {
				if p+prefetchAhead < lo+z {
					lg.prefetchPair(p + prefetchAhead)
				}
				lg.pair(p, p-lo)
			}
		})
		parallelEach(workers, func(w int) { lg.scatter(lo, hi, int32(w), int32(workers)) })
		for k := range hi - lo {
			cls += lg.cls[k]
			neg += lg.neg[k]
			pos += lg.pos[k]
		}
	}
	v := LossValues{Cls: cls / float64(max(n.Pairs, 1)), Neg: neg, Pos: pos}
	if n.Negatives > 0 {
		v.Neg /= float64(n.Negatives)
	}
	if len(b.contrib) > 0 {
		v.Pos /= float64(max(n.Contributing, 1))
	}
	v.Total = v.Cls
	if obj.Lambda != 0 {
		v.Total += obj.Lambda * (v.Pos + v.Neg)
	}
	return v
}

// lossGrad is LossGrad's state for one batch, and its scratch, which a
// Batch keeps from batch to batch.
type lossGrad struct {
	hr, grad []float32
	b        *Batch
	obj      Objective
	d        int
	eq       eq5 // α and 1-α, β and 1/τ of the model
	beta     float32
	invTau   float32
	// Scales of the gradient: dL/dlogit = (σ - y)·clsScale, and those of
	// the explanation terms (0 when λ is 0).
	clsScale, negScale, posScale float32

	// Per chunk slot: h (four d-vectors: the two ends' aggregated rows,
	// then those of the random neighbours) and g (two: the gradients of
	// the pair's own rows u and v). Losses per slot.
	h, g          []float32
	cls, neg, pos []float64
	// Per entry of b.sel and b.rnd: the coefficients of the partner's
	// aggregated row and of the target's row of H^r in the entry's
	// neighbour's gradient; and the entry's softmax weight, feature score
	// and score (forward values the backward step reads).
	selH, selR, rndH, rndR []float32
	w, no, s               []float32
}

// prepare sets lg up for batch b of model m, keeping its scratch.
func (lg *lossGrad) prepare(m *Model, hr, grad []float32, b *Batch, obj Objective, n Norms, d int) {
	cfg := m.Config
	*lg = lossGrad{
		hr: hr, grad: grad, b: b, obj: obj, d: d,
		eq: newEq5(cfg), beta: float32(cfg.Beta), invTau: float32(1 / cfg.Tau),
		clsScale: float32(1 / float64(max(n.Pairs, 1))),
		h:        grow(lg.h, lossGradChunk*6*d),
		cls:      grow(lg.cls, lossGradChunk), neg: grow(lg.neg, lossGradChunk), pos: grow(lg.pos, lossGradChunk),
		selH: grow(lg.selH, len(b.sel.node)), selR: grow(lg.selR, len(b.sel.node)),
		rndH: grow(lg.rndH, len(b.rnd.node)), rndR: grow(lg.rndR, len(b.rnd.node)),
		w: grow(lg.w, len(b.sel.node)+len(b.rnd.node)), no: grow(lg.no, len(b.sel.node)+len(b.rnd.node)),
		s: grow(lg.s, len(b.sel.node)+len(b.rnd.node)),
	}
	lg.g = lg.h[lossGradChunk*4*d:]
	if obj.Lambda != 0 {
		lg.negScale = float32(obj.Lambda)
		if n.Negatives > 0 {
			lg.negScale = float32(obj.Lambda / float64(n.Negatives))
		}
		lg.posScale = float32(obj.Lambda / float64(max(n.Contributing, 1)))
	}
}

func (lg *lossGrad) row(i int32) []float32 { return lg.hr[int(i)*lg.d : int(i+1)*lg.d] }

// vec returns d-vector k of slot's scratch: 0 and 1 the pair's aggregated
// rows (sides i and j), 2 and 3 those of its random neighbours.
func (lg *lossGrad) vec(slot, k int) []float32 {
	at := (slot*4 + k) * lg.d
	return lg.h[at : at+lg.d]
}

// gvec returns the gradient of the pair's row u (k = 0) or v (k = 1).
func (lg *lossGrad) gvec(slot, k int) []float32 {
	at := (slot*2 + k) * lg.d
	return lg.g[at : at+lg.d]
}

// side is one segment of b.sel or b.rnd as the pair pass sees it: its
// entries [lo, hi), their index base in the forward scratch (w, no, s), and
// the coefficient arrays of its entries.
type side struct {
	e      *entries
	seg    int
	base   int // offset of e's entries in lg.w, lg.no and lg.s
	coefH  []float32
	coefR  []float32
	lo, hi int32
}

// forward computes the side's scores, softmax weights and aggregated row
// h = h^r_centre + β Σ b_c h^r_c (eq 5-7), as aggregate does on the tape.
func (lg *lossGrad) forward(sd *side, h []float32) {
	e := sd.e
	for k := sd.lo; k < sd.hi; k++ {
		x := f32.Dot(lg.row(e.node[k]), lg.row(e.target[k]))
		no := sigmoid32(x)
		lg.no[sd.base+int(k)] = no
		lg.s[sd.base+int(k)] = lg.eq.withFeatures(e.st[k], no)
	}
	centre := lg.row(e.centre[sd.seg])
	if lg.beta == 0 || sd.lo == sd.hi {
		copy(h, centre)
		return
	}
	// Softmax of s/τ over the segment, as SegmentSoftmax.
	s, w := lg.s[sd.base+int(sd.lo):sd.base+int(sd.hi)], lg.w[sd.base+int(sd.lo):sd.base+int(sd.hi)]
	mx := s[0] * lg.invTau
	for _, v := range s {
		mx = max(mx, v*lg.invTau)
	}
	var sum float64
	for k, v := range s {
		ex := detmath.Exp(float64(v*lg.invTau - mx))
		w[k] = float32(ex)
		sum += ex
	}
	copy(h, centre)
	for k := range w {
		w[k] = float32(float64(w[k]) / sum)
		f32.Axpy(lg.beta*w[k], lg.row(e.node[sd.lo+int32(k)]), h)
	}
}

// backward takes the side's part of the gradient, given dlogit (the
// gradient of the pair's logit h·partner), negCoef (L^n_dis's gradient of
// a score s is negCoef·s; 0 for none) and partner, the other end's
// aggregated row: it sets the entries' coefficients and adds the
// gradients of the centre's own row into gCentre and of the target's into
// gTarget.
func (lg *lossGrad) backward(sd *side, dlogit, negCoef float32, partner, gCentre, gTarget []float32) {
	e := sd.e
	f32.Axpy(dlogit, partner, gCentre) // dh = dlogit·partner; the centre's own row takes dh
	if sd.lo == sd.hi {
		return
	}
	lo, hi := sd.base+int(sd.lo), sd.base+int(sd.hi)
	w, db, no := lg.w[lo:hi], lg.s[lo:hi], lg.no[lo:hi]
	var dot float64
	if lg.beta != 0 {
		// db_k = β·dh·h^r_c; the softmax's backward needs Σ b·db first.
		// The scores are not read again (L^n_dis recomputes its own), so
		// db takes their place.
		for k := range db {
			db[k] = lg.beta * dlogit * f32.Dot(partner, lg.row(e.node[sd.lo+int32(k)]))
			dot += float64(w[k]) * float64(db[k])
		}
	}
	for k := range no {
		ke := sd.lo + int32(k)
		var ds float32
		if lg.beta != 0 {
			ds = w[k] * (db[k] - float32(dot)) * lg.invTau
			sd.coefH[ke] = w[k] * lg.beta * dlogit // dh^r_c += b_c·β·dh
		} else {
			sd.coefH[ke] = 0
		}
		if negCoef != 0 {
			ds += negCoef * lg.eq.withFeatures(e.st[ke], no[k])
		}
		dx := lg.eq.no * ds * no[k] * (1 - no[k]) // through s = (1-α)(1-ρ)σ(x) + fixed
		sd.coefR[ke] = dx                         // dh^r_c += dx·h^r_target
		f32.Axpy(dx, lg.row(e.node[ke]), gTarget) // dh^r_target += dx·h^r_c
	}
}

// prefetchAhead is how many pairs ahead LossGrad asks for the rows a pair
// will read (and, when scattering, the gradient rows it will update): on
// large graphs H^r and its gradient live in main memory, and rows picked
// by edges are misses the hardware cannot predict.
const prefetchAhead = 4

// prefetchPair prefetches the rows of H^r that pair p's forward step reads
// first: its ends' and its selected neighbours'.
func (lg *lossGrad) prefetchPair(p int) {
	b := lg.b
	P := len(b.Pairs)
	f32.Prefetch(lg.row(b.Pairs[p].U))
	f32.Prefetch(lg.row(b.Pairs[p].V))
	for _, seg := range [2]int{p, P + p} {
		for _, c := range b.sel.node[b.sel.offsets[seg]:b.sel.offsets[seg+1]] {
			f32.Prefetch(lg.row(c))
		}
	}
	if q := int(b.rndSeg[p]); q >= 0 {
		for _, seg := range [2]int{q, len(b.contrib) + q} {
			for _, c := range b.rnd.node[b.rnd.offsets[seg]:b.rnd.offsets[seg+1]] {
				f32.Prefetch(lg.row(c))
			}
		}
	}
}

// pair runs pair p's forward and backward steps into chunk slot slot.
func (lg *lossGrad) pair(p, slot int) {
	b := lg.b
	P := len(b.Pairs)
	y := b.Labels[p]
	nSel := len(b.sel.node)
	sel := func(seg int) side {
		return side{e: &b.sel, seg: seg, coefH: lg.selH, coefR: lg.selR, lo: b.sel.offsets[seg], hi: b.sel.offsets[seg+1]}
	}
	si, sj := sel(p), sel(P+p)
	hi, hj := lg.vec(slot, 0), lg.vec(slot, 1)
	lg.forward(&si, hi)
	lg.forward(&sj, hj)
	logit := f32.Dot(hi, hj)
	z := float64(logit)
	lg.cls[slot] = max(z, 0) - z*float64(y) + math.Log1p(detmath.Exp(-math.Abs(z)))
	prob := sigmoid32(logit)
	dlogit := (prob - y) * lg.clsScale

	// L^n_dis: Σ s² (or their mean) over the negative pair's neighbours.
	lg.neg[slot] = 0
	var negCoef float32
	if y == 0 {
		wt := float32(1)
		if lg.obj.NegMean {
			c := b.counts[p]
			wt = 1 / float32(max(1, c.selI+c.selJ))
		}
		var sum float64
		for _, sd := range [2]*side{&si, &sj} {
			for _, s := range lg.s[sd.lo:sd.hi] {
				sum += float64(s * s * wt)
			}
		}
		lg.neg[slot] = sum
		negCoef = 2 * wt * lg.negScale // d(w·s²)/ds, scaled as the term
	}

	// L^p_dis: max(0, p^rand + δ - p) for a contributing positive.
	lg.pos[slot] = 0
	g0, g1 := lg.gvec(slot, 0), lg.gvec(slot, 1)
	clear(g0)
	clear(g1)
	if q := b.rndSeg[p]; q >= 0 {
		Q := len(b.contrib)
		rnd := func(seg int) side {
			return side{e: &b.rnd, seg: seg, base: nSel, coefH: lg.rndH, coefR: lg.rndR, lo: b.rnd.offsets[seg], hi: b.rnd.offsets[seg+1]}
		}
		ri, rj := rnd(int(q)), rnd(Q+int(q))
		rhi, rhj := lg.vec(slot, 2), lg.vec(slot, 3)
		lg.forward(&ri, rhi)
		lg.forward(&rj, rhj)
		prand := sigmoid32(f32.Dot(rhi, rhj))
		margin := (prand - prob) + float32(lg.obj.Delta)
		var drand float32
		if margin > 0 {
			lg.pos[slot] = float64(margin)
			dlogit -= lg.posScale * prob * (1 - prob)
			drand = lg.posScale * prand * (1 - prand)
		}
		lg.backward(&ri, drand, 0, rhj, g0, g1)
		lg.backward(&rj, drand, 0, rhi, g1, g0)
	}
	lg.backward(&si, dlogit, negCoef, hj, g0, g1)
	lg.backward(&sj, dlogit, negCoef, hi, g1, g0)
}

// scatter adds the gradients of chunk [lo, hi)'s pairs into the rows of
// grad that worker w of n owns (those in blocks of 64 numbered w mod n),
// in pair order.
func (lg *lossGrad) scatter(lo, hi int, w, n int32) {
	b, d := lg.b, lg.d
	P := len(b.Pairs)
	gradRow := func(r int32) []float32 { return lg.grad[int(r)*d : int(r+1)*d] }
	own := func(r int32) bool { return (r>>6)%n == w }
	apply := func(e *entries, seg int, coefH, coefR, partner []float32) {
		for k := e.offsets[seg]; k < e.offsets[seg+1]; k++ {
			c := e.node[k]
			if !own(c) {
				continue
			}
			g := gradRow(c)
			if coefH[k] != 0 {
				f32.Axpy(coefH[k], partner, g)
			}
			f32.Axpy(coefR[k], lg.row(e.target[k]), g)
		}
	}
	for p := lo; p < hi; p++ {
		if p+prefetchAhead < hi {
			q := p + prefetchAhead
			for _, seg := range [2]int{q, P + q} {
				for _, c := range b.sel.node[b.sel.offsets[seg]:b.sel.offsets[seg+1]] {
					if own(c) {
						f32.Prefetch(gradRow(c))
					}
				}
			}
		}
		slot := p - lo
		u, v := b.Pairs[p].U, b.Pairs[p].V
		if own(u) {
			f32.Axpy(1, lg.gvec(slot, 0), gradRow(u))
		}
		if own(v) {
			f32.Axpy(1, lg.gvec(slot, 1), gradRow(v))
		}
		apply(&b.sel, p, lg.selH, lg.selR, lg.vec(slot, 1))
		apply(&b.sel, P+p, lg.selH, lg.selR, lg.vec(slot, 0))
		if q := b.rndSeg[p]; q >= 0 {
			Q := len(b.contrib)
			apply(&b.rnd, int(q), lg.rndH, lg.rndR, lg.vec(slot, 3))
			apply(&b.rnd, Q+int(q), lg.rndH, lg.rndR, lg.vec(slot, 2))
		}
	}
}

// sigmoid32 is autograd's sigmoid: e^{-|x|} only, so it never overflows.
func sigmoid32(x float32) float32 {
	e := detmath.Exp(-math.Abs(float64(x)))
	if x >= 0 {
		return float32(1 / (1 + e))
	}
	return float32(e / (1 + e))
}

// parallelRange runs fn on contiguous pieces of [0, n), on up to threads
// goroutines when n is large enough to be worth them; fn must write
// disjoint outputs for disjoint pieces.
func parallelRange(n, threads int, fn func(lo, hi int)) {
	g := min(threads, max(1, n/64))
	parallelEach(g, func(k int) { fn(k*n/g, (k+1)*n/g) })
}

// parallelEach runs fn(0), …, fn(n-1) on n goroutines (the calling one
// included) and waits for them.
func parallelEach(n int, fn func(i int)) {
	if n == 1 {
		fn(0)
		return
	}
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		wg.Go(func() { fn(i) })
	}
	fn(0)
	wg.Wait()
}
