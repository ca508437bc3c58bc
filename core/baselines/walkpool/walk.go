package walkpool

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"ilpgnn/core/autograd"
	"ilpgnn/core/detmath"
)

// walkGraphs is the edge pattern of a batch's subgraphs for the walk
// profile: per subgraph the directed edges of G+ (G− plus both directions
// of the target x–y) in CSR order by source, x the local node 0 and y the
// local node 1. Edge scores are laid out head by head, and within a head
// subgraph by subgraph in this order: entry e of subgraph k in head h is
// row h·E + EdgeOff[k] + e of the score column.
type walkGraphs struct {
	// Size[k] is the node count of subgraph k; RowPtr[RowOff[k]:][:Size[k]+1]
	// its CSR row pointers (local, from 0) and Col[EdgeOff[k]:EdgeOff[k+1]]
	// its local column indices.
	Size    []int32
	RowOff  []int32
	RowPtr  []int32
	EdgeOff []int32
	Col     []int32
	// Target[2k] and Target[2k+1] are the local entry indices of x→y and
	// y→x in subgraph k: the two entries G− leaves out.
	Target []int32
	MaxN   int // the largest Size
}

// E returns the number of directed G+ edges over all subgraphs (one head).
func (w *walkGraphs) E() int { return int(w.EdgeOff[len(w.EdgeOff)-1]) }

// Len returns the number of subgraphs.
func (w *walkGraphs) Len() int { return len(w.Size) }

// sub returns subgraph k's node count, row pointers, columns and the two
// target entries.
func (w *walkGraphs) sub(k int) (n int, rowPtr, col []int32, tx, ty int32) {
	n = int(w.Size[k])
	rowPtr = w.RowPtr[w.RowOff[k] : int(w.RowOff[k])+n+1]
	col = w.Col[w.EdgeOff[k]:w.EdgeOff[k+1]]
	return n, rowPtr, col, w.Target[2*k], w.Target[2*k+1]
}

// newWalkGraphs builds the pattern from each subgraph's node count and its
// undirected G− edges (local indices, never (0, 1)).
func newWalkGraphs(sizes []int, edges [][][2]int32) *walkGraphs {
	w := &walkGraphs{EdgeOff: []int32{0}}
	deg := []int32{}
	for k, n := range sizes {
		w.Size = append(w.Size, int32(n))
		w.RowOff = append(w.RowOff, int32(len(w.RowPtr)))
		w.MaxN = max(w.MaxN, n)
		deg = append(deg[:0], make([]int32, n)...)
		deg[0]++ // x→y
		deg[1]++ // y→x
		for _, e := range edges[k] {
			deg[e[0]]++
			deg[e[1]]++
		}
		base := len(w.Col)
		ptr := int32(0)
		for i := range n {
			w.RowPtr = append(w.RowPtr, ptr)
			ptr += deg[i]
		}
		w.RowPtr = append(w.RowPtr, ptr)
		rp := w.RowPtr[w.RowOff[k]:]
		w.Col = append(w.Col, make([]int32, ptr)...)
		fill := append([]int32(nil), rp[:n]...)
		put := func(i, j int32) int32 {
			p := fill[i]
			w.Col[base+int(p)] = j
			fill[i]++
			return p
		}
		// Edges arrive sorted by (U, V) with U < V; placing the target
		// first and then every edge in that order keeps each row's
		// columns in a fixed order that depends only on the subgraph.
		w.Target = append(w.Target, put(0, 1), put(1, 0))
		for _, e := range edges[k] {
			put(e[0], e[1])
			put(e[1], e[0])
		}
		w.EdgeOff = append(w.EdgeOff, int32(len(w.Col)))
	}
	return w
}

// profileWidth is the number of walk features per head for walk lengths up
// to tc: the τ = 1 link value of G+ and, for τ = 2..tc, node+, node−,
// link+, link− and graph+ − graph−.
func profileWidth(tc int) int { return 1 + 5*(tc-1) }

// walkProfile returns the B×(heads·profileWidth(tc)) walk features of the
// subgraphs of wg from the (heads·E)×1 column of edge scores w, as one
// recorded op: per subgraph and head, P± is the row softmax of the scores
// on G±'s edges, and the features read (P±)^τ's entries at x and y and its
// trace. The backward step recomputes the powers (nothing n×n is kept
// between the passes) and runs subgraphs in parallel; each (subgraph,
// head) task writes only its own outputs, so results do not depend on the
// scheduling.
func walkProfile(t *autograd.Tape, w *autograd.Var, wg *walkGraphs, heads, tc int) *autograd.Var {
	E := wg.E()
	if w.Rows != heads*E || w.Cols != 1 {
		panic(fmt.Sprintf("walkpool: walkProfile: scores %v, want %dx1", w, heads*E))
	}
	fw := profileWidth(tc)
	B := wg.Len()
	out := make([]float32, B*heads*fw)
	forEachTask(B*heads, wg.MaxN, tc, func(task int, s *scratch) {
		k, h := task/heads, task%heads
		lo := h*E + int(wg.EdgeOff[k])
		n, rowPtr, col, tx, ty := wg.sub(k)
		scores := w.Value[lo : lo+len(col)]
		o := out[(k*heads+h)*fw : (k*heads+h+1)*fw]
		for v, sign := range [2]int{1, -1} {
			s.softmax(n, rowPtr, scores, tx, ty, v == 1)
			s.powers(n, rowPtr, col, tc)
			for tau := 1; tau <= tc; tau++ {
				m := s.m[tau][:n*n]
				node := m[0] + m[n+1]
				link := m[1] + m[n]
				var tr float64
				for i := range n {
					tr += m[i*n+i]
				}
				if tau == 1 {
					if sign > 0 {
						o[0] = float32(link)
					}
					continue
				}
				f := o[1+5*(tau-2):]
				f[v] = float32(node)
				f[2+v] = float32(link)
				if sign > 0 {
					s.tr[tau] = tr
				} else {
					f[4] = float32(s.tr[tau] - tr) // the difference in float64
				}
			}
		}
	})
	return autograd.Custom(t, "walkprofile", w, B, heads*fw, out, func(grad, ga []float32) {
		forEachTask(B*heads, wg.MaxN, tc, func(task int, s *scratch) {
			k, h := task/heads, task%heads
			lo := h*E + int(wg.EdgeOff[k])
			n, rowPtr, col, tx, ty := wg.sub(k)
			scores := w.Value[lo : lo+len(col)]
			g := grad[(k*heads+h)*fw : (k*heads+h+1)*fw]
			gw := ga[lo : lo+len(col)]
			for v, sign := range [2]float64{1, -1} {
				s.softmax(n, rowPtr, scores, tx, ty, v == 1)
				s.powers(n, rowPtr, col, tc)
				// seed(τ) adds the features' gradient at length τ to G.
				seed := func(tau int, G []float64) {
					var gn, gl, gt float64
					if tau == 1 {
						if v == 0 {
							gl = float64(g[0])
						}
					} else {
						f := g[1+5*(tau-2):]
						gn, gl, gt = float64(f[v]), float64(f[2+v]), sign*float64(f[4])
					}
					G[0] += gn
					G[n+1] += gn
					G[1] += gl
					G[n] += gl
					for i := range n {
						G[i*n+i] += gt
					}
				}
				s.backward(n, rowPtr, col, tc, seed)
				s.softmaxBackward(n, rowPtr, gw)
			}
		})
	})
}

// scratch is one worker's buffers: the softmax P on the edge pattern, the
// dense powers m[1..tc] (m[0] unused: the identity is implicit), and the
// two dense gradient buffers of the backward recursion.
type scratch struct {
	p, gp []float64
	tr    []float64 // tr((P+)^τ), kept for the difference
	m     [][]float64
	g, g2 []float64
}

func newScratch(maxN, tc int) *scratch {
	s := &scratch{m: make([][]float64, tc+1), tr: make([]float64, tc+1)}
	for tau := 1; tau <= tc; tau++ {
		s.m[tau] = make([]float64, maxN*maxN)
	}
	s.g, s.g2 = make([]float64, maxN*maxN), make([]float64, maxN*maxN)
	return s
}

// forEachTask runs fn on tasks 0..n-1 over GOMAXPROCS workers, each with
// its own scratch; tasks are handed out by an atomic counter, which only
// changes who computes a task, never what it writes.
func forEachTask(n, maxN, tc int, fn func(task int, s *scratch)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := newScratch(maxN, tc)
			for {
				task := int(next.Add(1) - 1)
				if task >= n {
					return
				}
				fn(task, s)
			}
		})
	}
	wg.Wait()
}

// softmax fills s.p (one value per G+ entry) with P's entries: each row's
// softmax over its entries, the target entries tx, ty excluded (p = 0)
// when minus is set. A row without entries stays zero.
func (s *scratch) softmax(n int, rowPtr []int32, scores []float32, tx, ty int32, minus bool) {
	nnz := int(rowPtr[n])
	s.p = grow(s.p, nnz)
	p := s.p
	for i := range n {
		a, b := rowPtr[i], rowPtr[i+1]
		mx, any := 0.0, false
		for e := a; e < b; e++ {
			if minus && (e == tx || e == ty) {
				continue
			}
			if v := float64(scores[e]); !any || v > mx {
				mx, any = v, true
			}
		}
		var sum float64
		for e := a; e < b; e++ {
			if minus && (e == tx || e == ty) {
				p[e] = 0
				continue
			}
			p[e] = detmath.Exp(float64(scores[e]) - mx)
			sum += p[e]
		}
		if any {
			for e := a; e < b; e++ {
				p[e] /= sum
			}
		}
	}
}

// powers fills s.m[τ] = P^τ (n×n row-major) for τ = 1..tc, each as P times
// the previous one on the edge pattern: E·n work per step.
func (s *scratch) powers(n int, rowPtr, col []int32, tc int) {
	m1 := s.m[1][:n*n]
	clear(m1)
	for i := range n {
		for e := rowPtr[i]; e < rowPtr[i+1]; e++ {
			m1[i*n+int(col[e])] += s.p[e]
		}
	}
	for tau := 2; tau <= tc; tau++ {
		mulP(s.m[tau][:n*n], s.m[tau-1][:n*n], s.p, n, rowPtr, col)
	}
}

// mulP sets dst = P·src for P on the edge pattern (values p).
func mulP(dst, src, p []float64, n int, rowPtr, col []int32) {
	clear(dst)
	for i := range n {
		d := dst[i*n : i*n+n]
		for e := rowPtr[i]; e < rowPtr[i+1]; e++ {
			pe, j := p[e], int(col[e])
			for c, v := range src[j*n : j*n+n] {
				d[c] += pe * v
			}
		}
	}
}

// backward fills s.gp with dL/dP on the edge pattern, given seed adding
// dL/d(P^τ) into a dense n×n buffer. With M_τ = P·M_{τ−1} and M_0 = I,
// G_τ = dL/dM_τ (total) = seed_τ + Pᵀ·G_{τ+1}, and dL/dP = Σ_τ G_τ·M_{τ−1}ᵀ
// read on the edges only.
func (s *scratch) backward(n int, rowPtr, col []int32, tc int, seed func(tau int, G []float64)) {
	nnz := int(rowPtr[n])
	s.gp = grow(s.gp, nnz)
	clear(s.gp)
	G, next := s.g[:n*n], s.g2[:n*n]
	clear(G)
	seed(tc, G)
	for tau := tc; tau >= 1; tau-- {
		for i := range n {
			gi := G[i*n : i*n+n]
			for e := rowPtr[i]; e < rowPtr[i+1]; e++ {
				j := int(col[e])
				if tau == 1 {
					s.gp[e] += gi[j] // M_0 = I
					continue
				}
				var acc float64
				for c, v := range s.m[tau-1][j*n : j*n+n] {
					acc += gi[c] * v
				}
				s.gp[e] += acc
			}
		}
		if tau == 1 {
			break
		}
		// next = Pᵀ·G + seed_{τ−1}.
		clear(next)
		for i := range n {
			gi := G[i*n : i*n+n]
			for e := rowPtr[i]; e < rowPtr[i+1]; e++ {
				pe, j := s.p[e], int(col[e])
				d := next[j*n : j*n+n]
				for c, v := range gi {
					d[c] += pe * v
				}
			}
		}
		seed(tau-1, next)
		G, next = next, G
	}
}

// softmaxBackward adds to gw (float32, per entry) the gradient through the
// row softmax: gw_e += p_e (gp_e − Σ_row p·gp). Excluded entries have
// p = 0 and get nothing.
func (s *scratch) softmaxBackward(n int, rowPtr []int32, gw []float32) {
	for i := range n {
		a, b := rowPtr[i], rowPtr[i+1]
		var dot float64
		for e := a; e < b; e++ {
			dot += s.p[e] * s.gp[e]
		}
		for e := a; e < b; e++ {
			gw[e] += float32(s.p[e] * (s.gp[e] - dot))
		}
	}
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}
