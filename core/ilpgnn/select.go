// Neighbour selection (docs/model.md §4): which neighbours of i form
// N^r(i|j), the ones the model aggregates for the pair (i, j).
//
// Each neighbour c of i is a Candidate scored against j by eq 5, with the
// anchor of docs/anchor.md:
//
//	S(c) = α·s_ST(c, j) + (1-α)·((1-ρ)·σ(h^r_j·h^r_c) + ρ·σ(h^0_j·h^0_c))
//
// (eq5, the one definition that selection, the tape's losses and
// LossGrad share), and N^r(i|j) is the first K of them in selection order:
// common neighbours of i and j first, then by S, ties by node id
// (selectionOrder; OrderScore drops the common-first rule). selectTop and
// selectFirst apply that order without sorting everything. How the scores
// are computed fast — the candidate bound, the lazy feature scores, the
// target table — is scorer.go's.

package ilpgnn

import (
	"cmp"
	"math/bits"
	"slices"

	"ilpgnn/core/autograd"
	"ilpgnn/core/detmath"
)

// Candidate is one neighbour c of a node i, scored against the other end j
// of a pair (docs/model.md §4, eq 5, with the anchor of docs/anchor.md):
// S = α·ST + (1-α)·((1-ρ)·NO + ρ·Anchor).
type Candidate struct {
	Node   int32
	ST     float32 // s_ST(i, c, j) = S̃[c, j], scaled as configured
	NO     float32 // sigmoid(h^r_j · h^r_c), the learned feature score
	Anchor float32 // sigmoid(h^0_j · h^0_c), the start's (0 when ρ = 0)
	S      float32 // the combined score, eq5.combine(ST, Anchor, NO)
	Common bool    // c is also a neighbour of j
}

// eq5 is equation 5 of docs/model.md §4 with the anchored feature score of
// docs/anchor.md, S = α·s_ST + (1-α)·((1-ρ)·σ(h^r_j·h^r_c) + ρ·σ(h^0_j·h^0_c)),
// with its weights α, (1-α)ρ and (1-α)(1-ρ) in float32: the one definition
// that selection, the tape's losses and LossGrad share. The weights are
// rounded once from float64; at ρ = 0 they are α and 1-α, as the losses
// always took them. Each product is rounded on its own (an explicit
// conversion), as the tape's separate ops round it, so that no platform
// fuses it into a multiply-add and the three paths agree bit for bit
// everywhere.
type eq5 struct{ st, an, no float32 }

func newEq5(c Config) eq5 {
	return eq5{st: float32(c.Alpha), an: float32((1 - c.Alpha) * c.Anchor), no: float32((1 - c.Alpha) * (1 - c.Anchor))}
}

// fixed returns α·s_ST + (1-α)ρ·an, the part of S that the weights being
// trained do not move (a constant on the tape): the structure score and
// the frozen start's feature score an. At ρ = 0 it is α·s_ST alone.
func (e eq5) fixed(st, an float32) float32 {
	a := float32(e.st * st)
	if e.an != 0 {
		a += float32(e.an * an)
	}
	return a
}

// withFeatures returns S from its fixed part a and the learned feature
// score no.
func (e eq5) withFeatures(a, no float32) float32 { return a + float32(e.no*no) }

// combine returns S from s_ST, the start's feature score an and the
// learned one no.
func (e eq5) combine(st, an, no float32) float32 { return e.withFeatures(e.fixed(st, an), no) }

// features returns the mixed feature score (1-ρ)·no + ρ·an that S weighs
// by 1-α, for display: no itself at ρ = 0.
func (c Config) features(an, no float32) float64 {
	if c.Anchor == 0 {
		return float64(no)
	}
	return (1-c.Anchor)*float64(no) + c.Anchor*float64(an)
}

// record records withFeatures on t for the learned feature scores no
// (n x 1) and the fixed parts a (n of them).
func (e eq5) record(t *autograd.Tape, no *autograd.Var, a []float32) *autograd.Var {
	return autograd.AddConst(t, autograd.Scale(t, no, e.no), a)
}

// sigmoid is the logistic function in float32, the same bits everywhere.
func sigmoid(x float32) float32 { return detmath.Sigmoid(x) }

// The orders of candidates (docs/model.md §4, §7) and the partial sorts
// that apply them.

// selectionOrder sorts candidates as N^r(i|j) is filled: common neighbours
// first, then by descending score, ties by node id (docs/model.md §4).
func selectionOrder(a, b Candidate) int {
	if a.Common != b.Common {
		if a.Common {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(b.S, a.S); c != 0 {
		return c
	}
	return cmp.Compare(a.Node, b.Node)
}

// scoreOrder sorts candidates by descending score, ties by node id: the
// ranking that Precision@k and fidelity use (docs/model.md §7).
func scoreOrder(a, b Candidate) int {
	if c := cmp.Compare(b.S, a.S); c != 0 {
		return c
	}
	return cmp.Compare(a.Node, b.Node)
}

// boundsBefore reports whether the bound on candidates (Config.Candidates)
// prefers a to b: common neighbours first, then by descending s_ST, ties by
// node id. NaNs come last and equal scores (±0 included) fall back to node
// ids, as in selectsBefore, so the order is total.
func boundsBefore(a, b *Candidate) bool {
	if a.Common != b.Common {
		return a.Common
	}
	return higherFirst(a.ST, b.ST, a.Node, b.Node)
}

// higherFirst reports whether the score as of node an comes before the
// score bs of node bn in descending order: NaNs last, equal scores (±0
// included) and two NaNs by node id, so the order is total.
func higherFirst(as, bs float32, an, bn int32) bool {
	switch {
	case as > bs:
		return true
	case as < bs:
		return false
	case as == bs, as != as && bs != bs:
		return an < bn
	default: // exactly one NaN: the number comes first
		return bs != bs
	}
}

// boundOrder is boundsBefore as a comparison function for sorting.
func boundOrder(a, b Candidate) int {
	switch {
	case boundsBefore(&a, &b):
		return -1
	case boundsBefore(&b, &a):
		return 1
	}
	return 0
}

// selectBound moves the c best candidates by boundsBefore to cands[:c], in
// no specified (but deterministic) order, by quickselect with a
// median-of-three pivot: O(len(cands)) expected, with a sort of the range
// left as a fallback should the pivots keep falling badly. 0 < c < len.
func selectBound(cands []Candidate, c int) {
	lo, hi := 0, len(cands) // the c-th best lies in cands[lo:hi]
	for budget := 2 * bits.Len(uint(len(cands))); hi-lo > 1; budget-- {
		if budget == 0 {
			slices.SortFunc(cands[lo:hi], boundOrder)
			return
		}
		// Median of three to cands[hi-1], then a Lomuto partition.
		mid := lo + (hi-lo)/2
		if boundsBefore(&cands[mid], &cands[lo]) {
			cands[mid], cands[lo] = cands[lo], cands[mid]
		}
		if boundsBefore(&cands[hi-1], &cands[lo]) {
			cands[hi-1], cands[lo] = cands[lo], cands[hi-1]
		}
		if boundsBefore(&cands[mid], &cands[hi-1]) {
			cands[mid], cands[hi-1] = cands[hi-1], cands[mid]
		}
		pivot := cands[hi-1]
		p := lo
		for u := lo; u < hi-1; u++ {
			if boundsBefore(&cands[u], &pivot) {
				cands[u], cands[p] = cands[p], cands[u]
				p++
			}
		}
		cands[p], cands[hi-1] = cands[hi-1], cands[p]
		// cands[:p] are all better than the pivot at p, the rest worse.
		switch {
		case p == c || p == c-1:
			return
		case p > c:
			hi = p
		default:
			lo = p + 1
		}
	}
}

// selectFirst moves the first k candidates in selection order o to the front,
// in that order; the others keep a deterministic but unspecified order. For
// small k it costs O(k·n) instead of a sort's O(n log n): on Amazon Photo,
// whose hubs have a thousand neighbours, sorting every candidate list took
// a third of an epoch. A large k (every neighbour, as in the ablation
// without selection) sorts instead.
func selectFirst(cands []Candidate, k int, o SelectionOrder) {
	if k > 16 {
		// Both are total orders: ties end at node ids.
		if o == OrderScore {
			slices.SortFunc(cands, scoreOrder)
		} else {
			slices.SortFunc(cands, selectionOrder)
		}
		return
	}
	for t := 0; t < k; t++ {
		best := t
		for u := t + 1; u < len(cands); u++ {
			if selectsBefore(&cands[u], &cands[best], o) {
				best = u
			}
		}
		cands[t], cands[best] = cands[best], cands[t]
	}
}

// maxTop is the largest k that selectTop takes; selectFirst sorts above it.
const maxTop = 16

// selectTop is selectFirst(cands, k, o) for k ≤ maxTop, leaving the whole list
// in the same order, when the first k in selection order all lie at the
// places at (every place when at is nil, else ascending). It finds them in
// one pass, comparing most candidates once with the k-th best so far
// instead of k times, then makes selectFirst's k swaps: its pass t swaps
// cands[t] with the t-th best, wherever the earlier swaps left it. The
// order of the rest matters: the random neighbours of L^p_dis are drawn
// from it by place. Node ids are distinct and selectsBefore is a total
// order, so the k best do not depend on the scan. It returns top (the
// scratch it used).
func selectTop(cands []Candidate, k int, at []int32, top []int32, o SelectionOrder) []int32 {
	top = top[:0]
	if k == 0 {
		return top
	}
	var worst *Candidate // the k-th best so far, once there are k
	if at == nil {
		for u := range cands {
			c := &cands[u]
			if worst != nil && !selectsBefore(c, worst, o) {
				continue
			}
			top = insertTop(cands, top, k, int32(u), o)
			if len(top) == k {
				worst = &cands[top[k-1]]
			}
		}
	} else {
		for _, u := range at {
			c := &cands[u]
			if worst != nil && !selectsBefore(c, worst, o) {
				continue
			}
			top = insertTop(cands, top, k, u, o)
			if len(top) == k {
				worst = &cands[top[k-1]]
			}
		}
	}
	for t := range k {
		cur := top[t]
		cands[t], cands[cur] = cands[cur], cands[t]
		// What stood at t now stands at cur: follow it if it is a later best.
		for u := t + 1; u < k; u++ {
			if top[u] == int32(t) {
				top[u] = cur
			}
		}
	}
	return top
}

// insertTop inserts place u into top, the places of the best candidates
// so far in selection order o (at most k, best first), dropping the k+1-th.
func insertTop(cands []Candidate, top []int32, k int, u int32, o SelectionOrder) []int32 {
	if len(top) == k {
		top = top[:k-1]
	}
	top = append(top, u)
	c := &cands[u]
	for x := len(top) - 1; x > 0 && selectsBefore(c, &cands[top[x-1]], o); x-- {
		top[x], top[x-1] = top[x-1], top[x]
	}
	return top
}

// selectsBefore reports selectionOrder(*a, *b) < 0 under OrderCommonFirst
// and scoreOrder(*a, *b) < 0 under OrderScore. It is the comparison
// of selectFirst's inner loop, taking pointers and comparing the scores
// directly: under wasm the call to selectionOrder with two Candidates by
// value and cmp.Compare's NaN tests made selectFirst ~12 ms of a Cora epoch,
// ~2.5 ms with this (node --cpu-prof, 20 epochs).
// NaN scores sort last, as with cmp.Compare, and equal scores (+0 and -0
// included) fall back to node ids.
func selectsBefore(a, b *Candidate, o SelectionOrder) bool {
	if a.Common != b.Common && o == OrderCommonFirst {
		return a.Common
	}
	return higherFirst(a.S, b.S, a.Node, b.Node)
}
