package ilpgnn

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"ilpgnn/core/detmath"
	"ilpgnn/core/f32"
	"ilpgnn/core/internal/prefetch"
)

// Candidate is one neighbour c of a node i, scored against the other end j
// of a pair (SPEC §4, eq 5): S = α·ST + (1-α)·NO.
type Candidate struct {
	Node   int32
	ST     float32 // s_ST(i, c, j) = S̃[c, j], scaled as configured
	NO     float32 // s_NO(i, c, j) = sigmoid(h^r_j · h^r_c)
	S      float32 // the combined score
	Common bool    // c is also a neighbour of j
}

// selectionOrder sorts candidates as N^r(i|j) is filled: common neighbours
// first, then by descending score, ties by node id (SPEC §4).
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
// ranking that Precision@k and fidelity use (SPEC §7).
func scoreOrder(a, b Candidate) int {
	if c := cmp.Compare(b.S, a.S); c != 0 {
		return c
	}
	return cmp.Compare(a.Node, b.Node)
}

// scorer scores and selects neighbours given fixed embeddings H^r. It owns
// scratch buffers, so each goroutine needs its own.
type scorer struct {
	m     *Model
	in    *Inputs
	hr    []float32 // N x d, row-major
	d     int
	nodes []int32
	st    []float32
	cands [2][]Candidate
	hi    []float32
	hj    []float32
	w     []float32 // softmax weights of one side
	// remove holds the neighbours LogitsWithout takes out of each side.
	remove [2][]int32
	// bound[slot] is how many of the last side's candidates in that slot
	// lie within Config.Candidates: cands[:bound] were scored, the rest
	// were left out by the bound (none when it is 0 or not reached).
	bound [2]int
	// need and needAt are the nodes, and their places in the candidates,
	// whose dot products finish computes at once, into dots.
	need, needAt []int32
	dots         []float32
	// commonAt holds the places of the common neighbours among the
	// candidates (sideGrouped), top the first k of selectTop.
	commonAt, top []int32
	// lazy skips the feature score of candidates that cannot be selected
	// (training and prediction); explanations and rankings need them all.
	lazy bool
}

func (m *Model) newScorer(in *Inputs, hr []float32) *scorer {
	d := m.Config.Hidden
	return &scorer{m: m, in: in, hr: hr, d: d, hi: make([]float32, d), hj: make([]float32, d)}
}

func (sc *scorer) row(i int32) []float32 { return sc.hr[int(i)*sc.d : (int(i)+1)*sc.d] }

// masked reports whether target-edge masking removes (i, j) from the
// neighbourhoods for this pair.
func (m *Model) masked(in *Inputs, i, j int) bool {
	return m.Config.MaskTarget && i != j && in.Graph.HasEdge(i, j)
}

// side returns the candidate neighbours of i scored against j and how many
// of them, k, form N^r(i|j): the first k, in selection order. When i has
// more neighbours than Config.Candidates, only the first sc.bound[slot]
// (the best by boundsBefore) are scored and selectable; the others follow
// them, in no specified order, with their structure score (and, unless the
// scorer is lazy, their feature score, for explanations and the random
// neighbours of eq 10, which may be any neighbour). Neighbours listed in
// removeI are left out of N(i) and those in removeJ out of N(j)
// (counterfactuals and fidelity); masked removes j from N(i) and i from
// N(j). slot (0 or 1) picks the scratch buffer, so both sides of a pair can
// be alive at once.
func (sc *scorer) side(slot int, i, j int, masked bool, removeI, removeJ []int32) ([]Candidate, int) {
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
	sc.cands[slot] = cands
	return cands, sc.finish(slot, cands, commons, nil, hj, nil)
}

// finish selects N^r(i|j) among cands (slot's scratch, with s_ST and the
// common flags set, commons of them common) and returns how many, k, form
// it: the first k in selection order. It bounds the candidates
// (Config.Candidates), pays the feature score of those that can still be
// selected (every one unless the scorer is lazy), from tab's cache for
// target j when tab is not nil, and orders the first k.
func (sc *scorer) finish(slot int, cands []Candidate, commons int, commonAt []int32, hj []float32, tab *targetTable) int {
	// The bound picks its candidates before any feature score is paid for.
	// Common neighbours go first, as in selection order: then the bound
	// never trades a common neighbour for another, and N^r(i|j) holds
	// min(K, commons) of them as without the bound (C ≥ K). s_ST keeps the
	// scaling over every neighbour, so a candidate scores as without it.
	n := len(cands)
	if bound := sc.m.Config.Candidates; bound > 0 && n > bound {
		selectBound(cands, bound)
		n = bound
		commonAt = nil // the bound moved the candidates
	}
	sc.bound[slot] = n
	// With K common neighbours, the others cannot be selected: a lazy
	// scorer leaves their feature score unset (0) instead of paying a dot
	// product and an exp each; so it does for those the bound left out.
	// (With C ≥ K, K commons anywhere means K commons within the bound.)
	skip := sc.lazy && commons >= sc.m.Config.K
	k := min(sc.m.Config.K, n)
	if skip && commonAt != nil && k <= maxTop {
		// The commons' places are known (sideGrouped): score and rank them
		// alone. The others' scores stay unset too (S and NO as given);
		// only their places, nodes and s_ST are used (the spare draws).
		sc.need, sc.needAt = sc.need[:0], sc.needAt[:0]
		for _, m := range commonAt {
			if c := cands[m].Node; tab == nil || !tab.has(c) {
				sc.need = append(sc.need, c)
				sc.needAt = append(sc.needAt, m)
			}
		}
		sc.scoreNeeded(cands, hj, tab)
		alpha := float32(sc.m.Config.Alpha)
		for _, m := range commonAt {
			c := &cands[m]
			if tab != nil {
				c.NO = tab.e[c.Node].no
			}
			c.S = alpha*c.ST + (1-alpha)*c.NO
		}
		sc.top = selectTop(cands, k, commonAt, sc.top)
		return k
	}
	sc.need, sc.needAt = sc.need[:0], sc.needAt[:0]
	for m := range cands {
		c := &cands[m]
		if sc.lazy && (m >= n || skip && !c.Common) || tab != nil && tab.has(c.Node) {
			continue
		}
		sc.need = append(sc.need, c.Node)
		sc.needAt = append(sc.needAt, int32(m))
	}
	sc.scoreNeeded(cands, hj, tab)
	alpha := float32(sc.m.Config.Alpha)
	for m := range cands {
		c := &cands[m]
		if sc.lazy && (m >= n || skip && !c.Common) {
			c.S = alpha * c.ST
			continue
		}
		if tab != nil {
			c.NO = tab.e[c.Node].no
		}
		c.S = alpha*c.ST + (1-alpha)*c.NO
	}
	if k <= maxTop {
		sc.top = selectTop(cands[:n], k, nil, sc.top)
	} else {
		selectFirst(cands[:n], k)
	}
	return k
}

// scoreNeeded sets the feature score NO of the candidates at sc.needAt,
// whose nodes are sc.need, and records it in tab when tab is not nil. The
// dot products go through f32.DotRows together, which computes each as
// f32.Dot does, bit for bit, but four at a time: Amazon Photo's selection
// spent most of its time in them.
func (sc *scorer) scoreNeeded(cands []Candidate, hj []float32, tab *targetTable) {
	sc.dots = grow(sc.dots, len(sc.need))
	f32.DotRows(sc.dots, hj, sc.hr, sc.need)
	for k, m := range sc.needAt {
		c := &cands[m]
		c.NO = sigmoid(sc.dots[k])
		if tab != nil {
			tab.set(c.Node, c.NO)
		}
	}
}

// Flags of a targetEntry: what it holds about node c for the target j.
const (
	inTarget uint32 = 1 << iota // c ∈ N(j)
	hasST                       // st = S̃[c, j] (absent: 0)
	hasNO                       // no = sigmoid(h^r_j · h^r_c)
)

// targetEntry is what a targetTable knows of one node c.
type targetEntry struct {
	gen    uint32 // the entry is valid only when gen is the table's
	flags  uint32
	st, no float32
}

// targetTable is a worker's dense scratch for the tasks that share a
// target j (sideGrouped): N(j) as marks, column j of S̃ scattered, and the
// feature scores sigmoid(h^r_j · h^r_c) computed so far, which depend on c
// and j only, so the tasks of a hub's pairs, whose 2-hop neighbourhoods
// overlap, share them. A generation stamp per entry makes switching target
// O(deg j + nnz of column j) instead of O(N).
type targetTable struct {
	e   []targetEntry
	gen uint32
	j   int // the loaded target; -1 for none
}

// load makes j the table's target for inputs in. The table must be reset
// (j = -1) whenever the embeddings or the inputs change.
func (t *targetTable) load(in *Inputs, j int) {
	if n := in.Graph.NumNodes(); len(t.e) < n {
		t.e, t.gen = make([]targetEntry, n), 0
	}
	if t.gen == math.MaxUint32 {
		clear(t.e)
		t.gen = 0
	}
	t.gen++
	t.j = j
	gen := t.gen
	nj := in.Graph.Neighbors(j)
	rows, vals := in.Sim.Column(j)
	// The entries are scattered over a table of N; asking for all of them
	// first overlaps their misses (the table outgrows the caches on
	// large graphs).
	for _, c := range nj {
		prefetch.Line(unsafe.Pointer(&t.e[c]))
	}
	for _, c := range rows {
		prefetch.Line(unsafe.Pointer(&t.e[c]))
	}
	for _, c := range nj {
		e := &t.e[c]
		if e.gen != gen {
			e.gen, e.flags = gen, 0
		}
		e.flags |= inTarget
	}
	for k, c := range rows {
		e := &t.e[c]
		if e.gen != gen {
			e.gen, e.flags = gen, 0
		}
		e.flags |= hasST
		e.st = vals[k]
	}
}

// adjacent reports whether c is a neighbour of the loaded target.
func (t *targetTable) adjacent(c int32) bool {
	e := &t.e[c]
	return e.gen == t.gen && e.flags&inTarget != 0
}

// has reports whether the table holds the feature score of c for the
// loaded target.
func (t *targetTable) has(c int32) bool {
	e := &t.e[c]
	return e.gen == t.gen && e.flags&hasNO != 0
}

// set records no = sigmoid(h^r_j · h^r_c) as c's feature score for the
// loaded target j.
func (t *targetTable) set(c int32, no float32) {
	e := &t.e[c]
	if e.gen != t.gen {
		e.gen, e.flags = t.gen, 0
	}
	e.no = no
	e.flags |= hasNO
}

// sideGrouped is side(0, i, j, masked, nil, nil) for a table t loaded with
// target j: the same candidates in the same order with the same scores,
// bit for bit, and the same k. A common neighbour is a mark instead of a
// merge walk over N(j), which cost O(deg j) per task: Σ deg² over the
// pairs of hubs.
func (sc *scorer) sideGrouped(i, j int, masked bool, t *targetTable) ([]Candidate, int) {
	tab, gen := t.e, t.gen
	nbrs := sc.in.Graph.Neighbors(i)
	// Each candidate is written field by field into a slot of the grown
	// slice: appending a Candidate literal built it on the stack and
	// copied it with wide loads that stalled on the narrow stores just
	// made (store forwarding), the costliest line of selection.
	cands := grow(sc.cands[0], len(nbrs))
	n := 0
	var hi float32
	commons := 0
	commonAt := sc.commonAt[:0]
	for _, c := range nbrs {
		prefetch.Line(unsafe.Pointer(&tab[c])) // as in targetTable.load
	}
	for _, c := range nbrs {
		if masked && int(c) == j {
			continue
		}
		var st float32
		common := false
		if e := &tab[c]; e.gen == gen {
			if e.flags&hasST != 0 {
				st = e.st
			}
			common = e.flags&inTarget != 0 && !(masked && int(c) == i)
		}
		// The maximum as in side, in the same order.
		if st > hi || st != st {
			hi = st
		}
		if common {
			commons++
			commonAt = append(commonAt, int32(n))
		}
		cd := &cands[n]
		cd.Node, cd.ST, cd.NO, cd.S, cd.Common = c, st, 0, 0, common
		n++
	}
	cands = cands[:n]
	if sc.m.Config.Structure == ScaleMax && hi > 0 {
		for k := range cands {
			cands[k].ST /= hi
		}
	}
	sc.cands[0], sc.commonAt = cands, commonAt
	return cands, sc.finish(0, cands, commons, commonAt, sc.row(int32(j)), t)
}

// boundsBefore reports whether the bound on candidates (Config.Candidates)
// prefers a to b: common neighbours first, then by descending s_ST, ties by
// node id. NaNs come last and equal scores (±0 included) fall back to node
// ids, as in selectsBefore, so the order is total.
func boundsBefore(a, b *Candidate) bool {
	if a.Common != b.Common {
		return a.Common
	}
	switch as, bs := a.ST, b.ST; {
	case as > bs:
		return true
	case as < bs:
		return false
	case as == bs, as != as && bs != bs:
		return a.Node < b.Node
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

// selectFirst moves the first k candidates in selection order to the front,
// in that order; the others keep a deterministic but unspecified order. For
// small k it costs O(k·n) instead of a sort's O(n log n): on Amazon Photo,
// whose hubs have a thousand neighbours, sorting every candidate list took
// a third of an epoch. A large k (every neighbour, as in the ablation
// without selection) sorts instead.
func selectFirst(cands []Candidate, k int) {
	if k > 16 {
		slices.SortFunc(cands, selectionOrder) // a total order: ties end at node ids
		return
	}
	for t := 0; t < k; t++ {
		best := t
		for u := t + 1; u < len(cands); u++ {
			if selectsBefore(&cands[u], &cands[best]) {
				best = u
			}
		}
		cands[t], cands[best] = cands[best], cands[t]
	}
}

// maxTop is the largest k that selectTop takes; selectFirst sorts above it.
const maxTop = 16

// selectTop is selectFirst(cands, k) for k ≤ maxTop, leaving the whole list
// in the same order, when the first k in selection order all lie at the
// places at (every place when at is nil, else ascending). It finds them in
// one pass, comparing most candidates once with the k-th best so far
// instead of k times, then makes selectFirst's k swaps: its pass t swaps
// cands[t] with the t-th best, wherever the earlier swaps left it. The
// order of the rest matters: the random neighbours of L^p_dis are drawn
// from it by place. Node ids are distinct and selectsBefore is a total
// order, so the k best do not depend on the scan. It returns top (the
// scratch it used).
func selectTop(cands []Candidate, k int, at []int32, top []int32) []int32 {
	top = top[:0]
	if k == 0 {
		return top
	}
	var worst *Candidate // the k-th best so far, once there are k
	if at == nil {
		for u := range cands {
			c := &cands[u]
			if worst != nil && !selectsBefore(c, worst) {
				continue
			}
			top = insertTop(cands, top, k, int32(u))
			if len(top) == k {
				worst = &cands[top[k-1]]
			}
		}
	} else {
		for _, u := range at {
			c := &cands[u]
			if worst != nil && !selectsBefore(c, worst) {
				continue
			}
			top = insertTop(cands, top, k, u)
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
// so far in selection order (at most k, best first), dropping the k+1-th.
func insertTop(cands []Candidate, top []int32, k int, u int32) []int32 {
	if len(top) == k {
		top = top[:k-1]
	}
	top = append(top, u)
	c := &cands[u]
	for x := len(top) - 1; x > 0 && selectsBefore(c, &cands[top[x-1]]); x-- {
		top[x], top[x-1] = top[x-1], top[x]
	}
	return top
}

// selectsBefore reports selectionOrder(*a, *b) < 0. It is the comparison
// of selectFirst's inner loop, taking pointers and comparing the scores
// directly: under wasm the call to selectionOrder with two Candidates by
// value and cmp.Compare's NaN tests made selectFirst ~12 ms of a Cora epoch,
// ~2.5 ms with this (node --cpu-prof, 20 epochs).
// NaN scores sort last, as with cmp.Compare, and equal scores (+0 and -0
// included) fall back to node ids.
func selectsBefore(a, b *Candidate) bool {
	if a.Common != b.Common {
		return a.Common
	}
	switch as, bs := a.S, b.S; {
	case as > bs:
		return true
	case as < bs:
		return false
	case as == bs, as != as && bs != bs:
		return a.Node < b.Node
	default: // exactly one NaN: the number comes first
		return bs != bs
	}
}

// embed writes h_i = h^r_i + β Σ_c b_c h^r_c (eq 7) into dst, with
// b = softmax(s/τ) over sel (eq 6). An empty sel gives h^r_i.
func (sc *scorer) embed(dst []float32, i int, sel []Candidate) {
	copy(dst, sc.row(int32(i)))
	if len(sel) == 0 || sc.m.Config.Beta == 0 {
		return
	}
	beta := float32(sc.m.Config.Beta)
	sc.w = softmaxWeights(sc.w, sel, sc.m.Config.Tau)
	for k, w := range sc.w {
		f32.Axpy(beta*w, sc.row(sel[k].Node), dst)
	}
}

// logit returns h_i · h_j for the selections selI ⊂ N(i) and selJ ⊂ N(j).
func (sc *scorer) logit(i, j int, selI, selJ []Candidate) float32 {
	sc.embed(sc.hi, i, selI)
	sc.embed(sc.hj, j, selJ)
	return f32.Dot(sc.hi, sc.hj)
}

// pairLogit is the model's logit for (i, j): selection on both sides, then
// eq 6-8 (without the final sigmoid).
func (sc *scorer) pairLogit(i, j int) float32 {
	mask := sc.m.masked(sc.in, i, j)
	ci, ki := sc.side(0, i, j, mask, nil, nil)
	cj, kj := sc.side(1, j, i, mask, nil, nil)
	return sc.logit(i, j, ci[:ki], cj[:kj])
}

// softmaxWeights returns b_c = softmax over sel of S/τ (eq 6), computed in
// float64 for stability, in buf's storage when it is large enough.
func softmaxWeights(buf []float32, sel []Candidate, tau float64) []float32 {
	w := grow(buf, len(sel))
	hi := math.Inf(-1)
	for _, c := range sel {
		hi = max(hi, float64(c.S)/tau)
	}
	var sum float64
	for k, c := range sel {
		e := detmath.Exp(float64(c.S)/tau - hi)
		w[k] = float32(e)
		sum += e
	}
	for k := range w {
		w[k] = float32(float64(w[k]) / sum)
	}
	return w
}

func sigmoid(x float32) float32 { return float32(1 / (1 + detmath.Exp(-float64(x)))) }
