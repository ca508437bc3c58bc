package diffusion

import (
	"fmt"

	"ilpgnn/core/graph"
)

// Part is the sparsified columns of S for the sources [Lo, Hi), before
// normalisation: column Lo+k is Rows[Indptr[k]:Indptr[k+1]] (sorted
// ascending) with Vals alike. Parts computed anywhere (another goroutine,
// a Web Worker) and put together by Assemble give New's S̃ bit for bit,
// because each column is computed by one Pusher exactly as New's are and
// everything order-dependent happens in Assemble.
type Part struct {
	Lo, Hi int
	Indptr []int32
	Rows   []int32
	Vals   []float64
	// Capped counts the part's columns the push work cap stopped early.
	Capped int
}

// RangePusher computes parts of S̃ for one graph and one set of options
// (Method Push), one range of sources after another, reusing its state
// between them. It is not safe for concurrent use: give each goroutine,
// or each Web Worker, its own.
type RangePusher struct {
	n   int
	opt Options
	ps  *Pusher
	sel selector
}

// NewRangePusher returns a RangePusher for g under opt, which must
// validate and use Method Push.
func NewRangePusher(g *graph.Graph, opt Options) (*RangePusher, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if opt.Method != Push {
		return nil, fmt.Errorf("diffusion: pushing ranges needs Method Push (got %v)", opt.Method)
	}
	return &RangePusher{n: g.NumNodes(), opt: opt, ps: newPusher(g, newLayout(g), opt.Gamma, opt.Epsilon, opt.workCap())}, nil
}

// column returns the top-k push column of S for source v, and whether
// the work cap stopped it early.
func (r *RangePusher) column(v int) (c column, capped bool) {
	nodes, vals, _ := r.ps.Push(v)
	return r.sel.topK(nodes, vals, r.opt.TopK), r.ps.Tolerance() > r.opt.Epsilon
}

// Push computes the top-k push columns of S for the sources [lo, hi).
func (r *RangePusher) Push(lo, hi int) (*Part, error) {
	if lo < 0 || hi < lo || hi > r.n {
		return nil, fmt.Errorf("diffusion: sources [%d, %d) outside the %d nodes", lo, hi, r.n)
	}
	p := &Part{Lo: lo, Hi: hi, Indptr: make([]int32, 1, hi-lo+1)}
	for v := lo; v < hi; v++ {
		c, capped := r.column(v)
		p.Rows = append(p.Rows, c.rows...)
		p.Vals = append(p.Vals, c.vals...)
		p.Indptr = append(p.Indptr, int32(len(p.Rows)))
		if capped {
			p.Capped++
		}
	}
	return p, nil
}

// Assemble returns S̃ of g under opt from parts that together hold every
// column once, in source order (parts[0].Lo = 0, each part's Lo the
// previous one's Hi, the last Hi = N): New's result, bit for bit. With
// FullRowSums it computes RowSums here.
func Assemble(g *graph.Graph, opt Options, parts []*Part) (*Similarity, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	n := g.NumNodes()
	cols := make([]column, n)
	next, capped := 0, 0
	for i, p := range parts {
		if p.Lo != next || p.Hi < p.Lo || p.Hi > n || len(p.Indptr) != p.Hi-p.Lo+1 || len(p.Rows) != len(p.Vals) {
			return nil, fmt.Errorf("diffusion: part %d holds sources [%d, %d), want them from %d of %d", i, p.Lo, p.Hi, next, n)
		}
		for k := range p.Hi - p.Lo {
			a, b := int(p.Indptr[k]), int(p.Indptr[k+1])
			if a < 0 || b < a || b > len(p.Rows) {
				return nil, fmt.Errorf("diffusion: part %d: column %d's offsets [%d, %d) do not fit", i, p.Lo+k, a, b)
			}
			rows := p.Rows[a:b]
			for t, r := range rows {
				if r < 0 || int(r) >= n || t > 0 && rows[t-1] >= r {
					return nil, fmt.Errorf("diffusion: part %d: column %d's rows not sorted within the %d nodes", i, p.Lo+k, n)
				}
			}
			cols[p.Lo+k] = column{rows: rows, vals: p.Vals[a:b]}
		}
		capped += p.Capped
		next = p.Hi
	}
	if next != n {
		return nil, fmt.Errorf("diffusion: parts hold sources up to %d of %d", next, n)
	}
	return fromColumns(g, opt, cols, capped), nil
}
