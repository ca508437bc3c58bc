// Package diffusion computes the structure similarity of ILP-GNN (docs/model.md §2,
// paper eq 1-2): the personalised-PageRank matrix
//
//	S = Σ_k γ(1-γ)^k T^k = γ (I - (1-γ) T)^-1,   T = Â D̂^-1,  Â = A + I,
//
// sparsified to its top-k_ppr entries per column and normalised to
// S̃ = D_S^-1/2 S D_S^-1/2, with D_S the diagonal of S's row sums. The model
// reads s_ST(i, c, j) = S̃[c, j] for the neighbours c of i.
//
// By default D_S holds the row sums of the full S (RowSums), not of the
// sparsified one as docs/model.md §2 writes: measured on Cora, renormalising after
// top-k moves the surviving entries by up to 0.8 (entries are at most
// 0.53), while the full row sums keep every stored entry within the push
// error of the paper's dense S̃. SparsifiedRowSums restores the SPEC
// reading. The measurements are in docs/diffusion.md.
//
// New builds S̃ by forward push (PushColumn), one column per source, in
// parallel; ExactPPR is the dense solve used for small graphs and as the
// test oracle. Similarity stores S̃ column by column, so "column j
// restricted to N(i)" is a merge of two sorted lists (Gather).
package diffusion

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Similarity holds S̃ = D_S^-1/2 S D_S^-1/2 (docs/model.md §2, eq 2) stored column
// by column: for each target j, the rows c with S̃[c, j] ≠ 0, sorted
// ascending, and their values. Entries dropped by the top-k sparsification
// are 0. The zero value is an empty similarity on 0 nodes.
type Similarity struct {
	t      f32.CSR // S̃ᵀ: row j of t is column j of S̃
	capped int     // columns the push work cap stopped early
}

// New computes S̃ for g with the given options (docs/model.md §2, eq 1-2): column v
// of S is the PPR vector personalised on v, computed by forward push
// (Method Push) or taken from the dense solve (Method Exact); each column
// keeps its TopK largest entries (ties to the smaller row index; TopK 0
// keeps all); then S̃[c, j] = S[c, j] / sqrt(D_S[c]·D_S[j]) with D_S[c] the
// sum of row c of the full S (FullRowSums, by RowSums) or of the sparsified
// S (SparsifiedRowSums), an entry whose D_S[j] is 0 staying 0.
//
// The push path runs over runtime.GOMAXPROCS(0) goroutines; each column is
// computed by exactly one of them and the row sums are added in column
// order, so the result is bit-for-bit the same whatever the parallelism.
// New returns an error for invalid options.
func New(g *graph.Graph, opt Options) (*Similarity, error) {
	return NewWithProgress(g, opt, nil)
}

// NewWithProgress is New reporting progress: progress(done, total) is
// called at most about 100 times, one call at a time (from the worker
// goroutines), with done non-decreasing and the last call (total, total),
// where total is the number of columns (nodes). A nil progress is ignored;
// a graph with no nodes makes no call.
func NewWithProgress(g *graph.Graph, opt Options, progress func(done, total int)) (*Similarity, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	n := g.NumNodes()
	rep := &reporter{fn: progress, total: n}
	if opt.Method == Exact {
		return fromDense(ExactPPR(g, opt.Gamma), opt.TopK, opt.Normalization, rep), nil
	}
	cols := make([]column, n)
	return fromColumns(g, opt, cols, pushColumns(cols, g, opt, rep)), nil
}

// fromColumns returns S̃ of g from the sparsified push columns of S, of
// which the work cap stopped capped: normalised by opt's row sums.
func fromColumns(g *graph.Graph, opt Options, cols []column, capped int) *Similarity {
	var rowSum []float64 // nil: from the sparsified S
	if opt.Normalization == FullRowSums {
		rowSum = RowSums(g, opt.Gamma)
	}
	s := normalise(cols, rowSum)
	s.capped = capped
	return s
}

// fromDense returns S̃ for a dense S: the Exact path of New (with FullRowSums
// the row sums are taken from s itself). rep may be nil.
func fromDense(s *mat.Dense, topK int, z Normalization, rep *reporter) *Similarity {
	n, _ := s.Dims()
	if rep == nil {
		rep = &reporter{total: n}
	}
	cols := make([]column, n)
	denseColumns(cols, s, topK, rep)
	var rowSum []float64
	if z == FullRowSums {
		rowSum = make([]float64, n)
		for c := range rowSum {
			rowSum[c] = mat.Sum(s.RowView(c))
		}
	}
	return normalise(cols, rowSum)
}

// column is one sparsified column of S: rows sorted ascending, values > 0.
type column struct {
	rows []int32
	vals []float64
}

// pushColumns fills cols[v] with the top-k of the push estimate of column v
// of S, over GOMAXPROCS workers pulling sources one at a time from a shared
// counter (so a worker stuck on a hub's column leaves the rest to the
// others), and returns the number of columns the work cap stopped.
func pushColumns(cols []column, g *graph.Graph, opt Options, rep *reporter) int {
	n := len(cols)
	workers := min(runtime.GOMAXPROCS(0), n)
	lay := newLayout(g)
	var next, capped atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			ps := newPusher(g, lay, opt.Gamma, opt.Epsilon, opt.workCap())
			var sel selector
			for {
				v := int(next.Add(1) - 1)
				if v >= n {
					return
				}
				nodes, p, _ := ps.Push(v)
				cols[v] = sel.topK(nodes, p, opt.TopK)
				if ps.Tolerance() > opt.Epsilon {
					capped.Add(1)
				}
				rep.add()
			}
		})
	}
	wg.Wait()
	return int(capped.Load())
}

// denseColumns fills cols[v] with the top-k of column v of the dense S.
func denseColumns(cols []column, s *mat.Dense, topK int, rep *reporter) {
	n := len(cols)
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	buf := make([]float64, n)
	var sel selector
	for v := range cols {
		mat.Col(buf, v, s)
		cols[v] = sel.topK(ids, buf, topK)
		rep.add()
	}
}

// selector picks the k largest positive entries of a sparse vector with a
// bounded heap, reusing its scratch between calls.
type selector struct {
	heap []int32 // positions into nodes/vals; heap[0] is the worst kept
}

// topK returns the entries (nodes[t], vals[t]) with vals[t] > 0 that rank
// among the k largest by value, ties to the smaller node, sorted by node; k
// = 0 keeps all. The returned slices are freshly allocated.
func (s *selector) topK(nodes []int32, vals []float64, k int) column {
	h := s.heap[:0]
	// worse reports whether position a ranks below position b.
	worse := func(a, b int32) bool {
		return vals[a] < vals[b] || (vals[a] == vals[b] && nodes[a] > nodes[b])
	}
	siftDown := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			if r := l + 1; r < len(h) && worse(h[r], h[l]) {
				l = r
			}
			if !worse(h[l], h[i]) {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for t := range nodes {
		if !(vals[t] > 0) {
			continue
		}
		pos := int32(t)
		switch {
		case k == 0 || len(h) < k:
			h = append(h, pos)
			for i := len(h) - 1; i > 0; { // sift up
				parent := (i - 1) / 2
				if !worse(h[i], h[parent]) {
					break
				}
				h[i], h[parent] = h[parent], h[i]
				i = parent
			}
		case worse(h[0], pos):
			h[0] = pos
			siftDown(0)
		}
	}
	s.heap = h
	slices.SortFunc(h, func(a, b int32) int { return int(nodes[a] - nodes[b]) })
	c := column{rows: make([]int32, len(h)), vals: make([]float64, len(h))}
	for i, pos := range h {
		c.rows[i], c.vals[i] = nodes[pos], vals[pos]
	}
	return c
}

// normalise returns S̃ = D_S^-1/2 S D_S^-1/2 (docs/model.md §2, eq 2) for the
// sparsified columns of S, D_S[c] = Σ_j S[c, j] over the sparsified S when
// rowSum is nil, else D_S = rowSum.
func normalise(cols []column, rowSum []float64) *Similarity {
	n := len(cols)
	nnz := 0
	for _, col := range cols {
		nnz += len(col.rows)
	}
	if rowSum == nil {
		rowSum = make([]float64, n)
		for _, col := range cols { // column order: deterministic sums
			for k, c := range col.rows {
				rowSum[c] += col.vals[k]
			}
		}
	}
	inv := make([]float64, n) // D_S^-1/2, 0 where D_S is 0
	for c, d := range rowSum {
		if d > 0 {
			inv[c] = 1 / math.Sqrt(d)
		}
	}
	t := f32.CSR{Rows: n, Cols: n, Indptr: make([]int32, n+1),
		Indices: make([]int32, 0, nnz), Values: make([]float32, 0, nnz)}
	for j, col := range cols {
		if inv[j] > 0 {
			for k, c := range col.rows {
				t.Indices = append(t.Indices, c)
				t.Values = append(t.Values, float32(col.vals[k]*inv[c]*inv[j]))
			}
		}
		t.Indptr[j+1] = int32(len(t.Indices))
	}
	return &Similarity{t: t}
}

// FromColumns returns the similarity whose column j is row j of t, that
// is S̃ᵀ as Columns returns it: how a stored S̃ (the explanation card's
// bundle) becomes one again without the push. t must be square with rows
// sorted (f32.CSR.Validate); the similarity shares its storage.
func FromColumns(t *f32.CSR) (*Similarity, error) {
	if t.Rows != t.Cols {
		return nil, fmt.Errorf("diffusion: S̃ᵀ is %dx%d, want square", t.Rows, t.Cols)
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("diffusion: S̃ᵀ: %w", err)
	}
	return &Similarity{t: *t}, nil
}

// Columns returns S̃ᵀ: row j holds column j of S̃. It aliases s and must
// not be modified.
func (s *Similarity) Columns() *f32.CSR { return &s.t }

// N returns the number of nodes.
func (s *Similarity) N() int { return s.t.Rows }

// CappedColumns returns the number of columns whose push the work cap
// (Options.MaxWork) stopped early, each with a looser error bound (see
// Pusher.Push): 0 for the Exact method and for every graph small enough.
func (s *Similarity) CappedColumns() int { return s.capped }

// NNZ returns the number of stored (non-zero) entries of S̃.
func (s *Similarity) NNZ() int { return len(s.t.Indices) }

// Column returns column j of S̃: the rows c with a stored entry, sorted
// ascending, and S̃[c, j]. The slices alias s and must not be modified.
func (s *Similarity) Column(j int) (rows []int32, vals []float32) {
	return s.t.Row(j)
}

// At returns S̃[c, j] = s_ST(i, c, j) for any i adjacent to c (docs/model.md §2), 0
// when the entry was dropped by sparsification. It binary-searches column
// j and panics if j is not a node.
func (s *Similarity) At(c, j int) float32 { return s.t.At(j, c) }

// Gather sets dst[k] = S̃[cands[k], j] for every k, merging the sorted
// candidate list with the sorted column j (a galloping merge: O(len(cands)
// · log(nnz of column j)) at worst, O(len(cands) + nnz) when both are
// long), no allocation. This is how the model reads s_ST(i, c, j) for the
// candidate neighbours c ∈ N(i) (docs/model.md §2).
//
// cands must be sorted ascending (repeats are allowed). Gather panics if
// len(dst) != len(cands), if cands is not sorted, or if j is not a node.
func (s *Similarity) Gather(dst []float32, j int, cands []int32) {
	if len(dst) != len(cands) {
		panic(fmt.Sprintf("diffusion: Gather len(dst) = %d != len(cands) = %d", len(dst), len(cands)))
	}
	rows, vals := s.t.Row(j)
	p := 0
	prev := int32(math.MinInt32)
	for k, c := range cands {
		if c < prev {
			panic("diffusion: Gather candidates not sorted ascending")
		}
		prev = c
		p = gallop(rows, p, c)
		if p < len(rows) && rows[p] == c {
			dst[k] = vals[p]
		} else {
			dst[k] = 0
		}
	}
}

// gallop returns the first index q ≥ p with rows[q] ≥ c (len(rows) if
// none): an exponential search from p, then a binary search, so a merge of
// a few candidates against a long column costs O(log) per candidate and a
// dense merge stays O(1) amortised per step.
func gallop(rows []int32, p int, c int32) int {
	if p >= len(rows) || rows[p] >= c {
		return p
	}
	// rows[lo] < c; grow the step until rows[hi] ≥ c or the end.
	lo, step := p, 1
	hi := p + step
	for hi < len(rows) && rows[hi] < c {
		lo = hi
		step <<= 1
		hi = lo + step
	}
	hi = min(hi, len(rows))
	for lo+1 < hi { // invariant: rows[lo] < c, rows[hi] ≥ c or hi == len
		mid := int(uint(lo+hi) >> 1)
		if rows[mid] < c {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// Dense returns S̃ as a dense N x N float64 matrix (for tests and small
// graphs); an empty similarity gives the zero-value matrix.
func (s *Similarity) Dense() *mat.Dense {
	n := s.N()
	if n == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		rows, vals := s.t.Row(j)
		for k, c := range rows {
			d.Set(int(c), j, float64(vals[k]))
		}
	}
	return d
}

// reporter forwards progress to a callback at most once per percent.
type reporter struct {
	fn    func(done, total int)
	total int
	done  atomic.Int64
	step  atomic.Int64 // last percent reported
	mu    sync.Mutex
}

// add records one finished column and reports when a new percent is
// reached.
func (r *reporter) add() {
	d := r.done.Add(1)
	if r.fn == nil || d*100/int64(r.total) <= r.step.Load() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	d = r.done.Load()
	if s := d * 100 / int64(r.total); s > r.step.Load() {
		r.step.Store(s)
		r.fn(int(d), r.total)
	}
}
