// How neighbour selection (select.go) is computed: a scorer gathers a
// side's candidates with their structure scores, pays the feature score
// only for those that can still be selected, and ranks the first K.

package ilpgnn

import (
	"math"
	"slices"
	"unsafe"

	"ilpgnn/core/detmath"
	"ilpgnn/core/f32"
	"ilpgnn/core/internal/prefetch"
)

// scorer scores and selects neighbours given fixed embeddings H^r. It owns
// scratch buffers, so each goroutine needs its own.
type scorer struct {
	m     *Model
	in    *Inputs
	hr    []float32 // N x d, row-major
	h0    []float32 // the start's H^0 (Model.AnchorEmbeddings), nil when ρ = 0
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
	// whose dot products finish computes at once, into dots (adots for
	// H^0's), and then their sigmoids in place.
	need, needAt []int32
	dots, adots  []float32
	// commonAt holds the places of the common neighbours among the
	// candidates (sideGrouped), top the first k of selectTop.
	commonAt, top []int32
	// lazy skips the feature score of candidates that cannot be selected
	// (training and prediction); explanations and rankings need them all.
	lazy bool
}

// newScorer returns a scorer of m on in with the embeddings hr and the
// start's h0 (nil when m's Config.Anchor is 0).
func (m *Model) newScorer(in *Inputs, hr, h0 []float32) *scorer {
	d := m.Config.Hidden
	checkAnchor(m, h0)
	return &scorer{m: m, in: in, hr: hr, h0: h0, d: d, hi: make([]float32, d), hj: make([]float32, d)}
}

// checkAnchor panics when a model with an anchor is asked to score
// without the start's embeddings, which would score every candidate as if
// the start saw nothing.
func checkAnchor(m *Model, h0 []float32) {
	if m.Config.Anchor != 0 && h0 == nil {
		panic("ilpgnn: a model with an anchor (ρ > 0) scores with the start's embeddings H^0, and none were given")
	}
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
	return cands, sc.finish(slot, cands, commons, nil, j, nil)
}

// finish selects N^r(i|j) among cands (slot's scratch, with s_ST and the
// common flags set, commons of them common) and returns how many, k, form
// it: the first k in selection order. It bounds the candidates
// (Config.Candidates), pays the feature score of those that can still be
// selected (every one unless the scorer is lazy), from tab's cache for
// target j when tab is not nil, and orders the first k.
func (sc *scorer) finish(slot int, cands []Candidate, commons int, commonAt []int32, j int, tab *targetTable) int {
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
	// With K common neighbours, the others cannot be selected (common
	// first): a lazy
	// scorer leaves their feature score unset (0) instead of paying a dot
	// product and an exp each; so it does for those the bound left out.
	// (With C ≥ K, K commons anywhere means K commons within the bound.)
	// Under OrderScore any neighbour may outscore the commons: no skip.
	order := sc.m.Config.Order
	skip := sc.lazy && order == OrderCommonFirst && commons >= sc.m.Config.K
	k := min(sc.m.Config.K, n)
	eq := newEq5(sc.m.Config)
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
		sc.scoreNeeded(cands, j, tab)
		for _, m := range commonAt {
			c := &cands[m]
			if tab != nil {
				e := &tab.e[c.Node]
				c.NO, c.Anchor = e.no, e.an
			}
			c.S = eq.combine(c.ST, c.Anchor, c.NO)
		}
		sc.top = selectTop(cands, k, commonAt, sc.top, order)
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
	sc.scoreNeeded(cands, j, tab)
	for m := range cands {
		c := &cands[m]
		if sc.lazy && (m >= n || skip && !c.Common) {
			c.S = eq.fixed(c.ST, 0) // no feature scores: S without them
			continue
		}
		if tab != nil {
			e := &tab.e[c.Node]
			c.NO, c.Anchor = e.no, e.an
		}
		c.S = eq.combine(c.ST, c.Anchor, c.NO)
	}
	if k <= maxTop {
		sc.top = selectTop(cands[:n], k, nil, sc.top, order)
	} else {
		selectFirst(cands[:n], k, order)
	}
	return k
}

// scoreNeeded sets the feature scores NO and Anchor of the candidates at
// sc.needAt, whose nodes are sc.need, against target j, and records them
// in tab when tab is not nil. The dot products go through f32.DotRows
// together, which computes each as f32.Dot does, bit for bit, but four at
// a time: Amazon Photo's selection spent most of its time in them. Their
// sigmoids go through detmath.Sigmoids together for the same reason (the
// sigmoid's bits, four at a time): with the anchor there are two a
// candidate.
func (sc *scorer) scoreNeeded(cands []Candidate, j int, tab *targetTable) {
	sc.dots = grow(sc.dots, len(sc.need))
	f32.DotRows(sc.dots, sc.row(int32(j)), sc.hr, sc.need)
	detmath.Sigmoids(sc.dots, sc.dots)
	if sc.h0 != nil {
		sc.adots = grow(sc.adots, len(sc.need))
		f32.DotRows(sc.adots, sc.h0[j*sc.d:(j+1)*sc.d], sc.h0, sc.need)
		detmath.Sigmoids(sc.adots, sc.adots)
	}
	for k, m := range sc.needAt {
		c := &cands[m]
		c.NO = sc.dots[k]
		if sc.h0 != nil {
			c.Anchor = sc.adots[k]
		}
		if tab != nil {
			tab.set(c.Node, c.NO, c.Anchor)
		}
	}
}

// anchorScore returns sigmoid(h^0_j · h^0_c), the start's feature score of
// c against j, or 0 when the model has no anchor.
func (sc *scorer) anchorScore(c int32, j int) float32 {
	if sc.h0 == nil {
		return 0
	}
	return sigmoid(f32.Dot(sc.h0[int(c)*sc.d:(int(c)+1)*sc.d], sc.h0[j*sc.d:(j+1)*sc.d]))
}

// Flags of a targetEntry: what it holds about node c for the target j.
const (
	inTarget uint32 = 1 << iota // c ∈ N(j)
	hasST                       // st = S̃[c, j] (absent: 0)
	hasNO                       // no = sigmoid(h^r_j · h^r_c), an = sigmoid(h^0_j · h^0_c)
)

// targetEntry is what a targetTable knows of one node c.
type targetEntry struct {
	gen        uint32 // the entry is valid only when gen is the table's
	flags      uint32
	st, no, an float32
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

// set records no = sigmoid(h^r_j · h^r_c) and an = sigmoid(h^0_j · h^0_c)
// as c's feature scores for the loaded target j.
func (t *targetTable) set(c int32, no, an float32) {
	e := &t.e[c]
	if e.gen != t.gen {
		e.gen, e.flags = t.gen, 0
	}
	e.no, e.an = no, an
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
		cd.Node, cd.ST, cd.NO, cd.Anchor, cd.S, cd.Common = c, st, 0, 0, 0, common
		n++
	}
	cands = cands[:n]
	if sc.m.Config.Structure == ScaleMax && hi > 0 {
		for k := range cands {
			cands[k].ST /= hi
		}
	}
	sc.cands[0], sc.commonAt = cands, commonAt
	return cands, sc.finish(0, cands, commons, commonAt, j, t)
}
