package gnnexplainer

import (
	"math"
	"slices"

	"ilpgnn/core/autograd"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/graph"
)

// subgraph is the computation subgraph of a pair (i, j) for a two-layer
// encoder: the second layer computes rows i and j from the first layer's
// rows T = {i, j} ∪ N(i) ∪ N(j), which read the input rows S = T ∪ N(T).
// Message entries follow the pattern of A+I in CSR order (sources
// ascending), as gnn.Prepare lays them out, so sums run in the model's
// order.
type subgraph struct {
	i, j    int
	targets []int32 // T, ascending
	sources []int32 // S, ascending

	// First layer, a segment per target: the source's position in S, the
	// global ids of the two ends (GAT attention), the mask entry (masks
	// for a self loop, which is never masked) and the GCN weight.
	off1, src1, dst1Node, src1Node, gate1 []int32
	norm1                                 []float32
	// Second layer, segments for i and j: the source's position in T,
	// the row's own position in T, the mask entry and the GCN weight.
	off2, src2, dst2, gate2 []int32
	norm2                   []float32

	masks int              // masked message edges
	edge  map[uint64]int32 // edgeKey(src, dst) → mask entry

	xs     []*autograd.Var // first-layer inputs X·W restricted to S, per projection
	alpha1 [][]float32     // GAT: first-layer attention per head, per entry
}

// edgeKey names the directed message edge src → dst.
func edgeKey(src, dst int32) uint64 { return uint64(uint32(src))<<32 | uint64(uint32(dst)) }

// subgraph builds the computation subgraph of (i, j) on the
// message-passing graph without the undirected edges in removed (keys
// pairKey; nil removes nothing).
func (e *Explainer) subgraph(i, j int, removed map[uint64]bool) *subgraph {
	g := e.Graph
	nbrs := func(n int32) []int32 {
		all := g.Neighbors(int(n))
		if len(removed) == 0 {
			return all
		}
		out := make([]int32, 0, len(all))
		for _, c := range all {
			if !removed[pairKey(int(n), int(c))] {
				out = append(out, c)
			}
		}
		return out
	}
	s := &subgraph{i: i, j: j, edge: map[uint64]int32{}}
	posT, posS, rows := s.nodes(nbrs)
	s.firstLayer(g, removed, rows, posS)
	s.secondLayer(posT)
	for _, xw := range e.xw {
		d := xw.Cols
		v := make([]float32, len(s.sources)*d)
		for k, n := range s.sources {
			copy(v[k*d:(k+1)*d], xw.Value[int(n)*d:(int(n)+1)*d])
		}
		s.xs = append(s.xs, autograd.Const(len(s.sources), d, v))
	}
	if e.Model.Config.Kind == gnn.GAT {
		// The first layer's attention does not depend on the mask (it is
		// applied after the softmax): once per pair, with the model's ops.
		for k := range e.sd1 {
			ev := autograd.Add(nil, autograd.GatherRows(nil, e.sd1[k], s.dst1Node), autograd.GatherRows(nil, e.ss1[k], s.src1Node))
			s.alpha1 = append(s.alpha1, autograd.SegmentSoftmax(nil, autograd.LeakyReLU(nil, ev, 0.2), s.off1).Value)
		}
	}
	return s
}

// nodes fills s's targets (i, j and their neighbours under nbrs) and
// sources (the targets' neighbours and themselves), each sorted, and
// returns their positions and each target's row of A+I, the self loop in
// its ascending place.
func (s *subgraph) nodes(nbrs func(int32) []int32) (posT, posS map[int32]int32, rows [][]int32) {
	posT, posS = map[int32]int32{}, map[int32]int32{}
	add := func(set map[int32]int32, list *[]int32, n int32) {
		if _, ok := set[n]; !ok {
			set[n] = 0
			*list = append(*list, n)
		}
	}
	for _, n := range []int32{int32(s.i), int32(s.j)} {
		add(posT, &s.targets, n)
		for _, c := range nbrs(n) {
			add(posT, &s.targets, c)
		}
	}
	slices.Sort(s.targets)
	for k, n := range s.targets {
		posT[n] = int32(k)
	}
	rows = make([][]int32, len(s.targets))
	for k, t := range s.targets {
		row := []int32{}
		self := false
		for _, c := range nbrs(t) {
			if !self && c > t {
				row = append(row, t)
				self = true
			}
			row = append(row, c)
		}
		if !self {
			row = append(row, t)
		}
		rows[k] = row
		for _, c := range row {
			add(posS, &s.sources, c)
		}
	}
	slices.Sort(s.sources)
	for k, n := range s.sources {
		posS[n] = int32(k)
	}
	return posT, posS, rows
}

// firstLayer lays out the first layer's entries, one per row entry, with
// their GCN weights 1/√(d̂_t d̂_c), computed as gnn.Prepare does with the
// degrees of g after removal, and a mask entry per non-self message.
func (s *subgraph) firstLayer(g *graph.Graph, removed map[uint64]bool, rows [][]int32, posS map[int32]int32) {
	lost := map[int32]int{}
	for key := range removed {
		if !g.HasEdge(int(key>>32), int(uint32(key))) {
			continue
		}
		lost[int32(key>>32)]++
		lost[int32(uint32(key))]++
	}
	inv := func(n int32) float64 { return 1 / math.Sqrt(float64(g.Degree(int(n))-lost[n]+1)) }
	s.off1 = append(s.off1, 0)
	for k, t := range s.targets {
		it := inv(t)
		for _, c := range rows[k] {
			s.src1 = append(s.src1, posS[c])
			s.dst1Node = append(s.dst1Node, t)
			s.src1Node = append(s.src1Node, c)
			s.norm1 = append(s.norm1, float32(it*inv(c)))
			gate := int32(-1)
			if c != t {
				gate = int32(s.masks)
				s.edge[edgeKey(c, t)] = gate
				s.masks++
			}
			s.gate1 = append(s.gate1, gate)
		}
		s.off1 = append(s.off1, int32(len(s.src1)))
	}
	for k := range s.gate1 {
		if s.gate1[k] < 0 {
			s.gate1[k] = int32(s.masks) // the constant 1 after the masks
		}
	}
}

// secondLayer lays out the second layer, which reads the first layer's
// rows i and j: the same entries, sources now positions in the targets.
func (s *subgraph) secondLayer(posT map[int32]int32) {
	s.off2 = append(s.off2, 0)
	for _, n := range []int{s.i, s.j} {
		p := posT[int32(n)]
		for k := s.off1[p]; k < s.off1[p+1]; k++ {
			s.src2 = append(s.src2, posT[s.src1Node[k]])
			s.dst2 = append(s.dst2, p)
			s.gate2 = append(s.gate2, s.gate1[k])
			s.norm2 = append(s.norm2, s.norm1[k])
		}
		s.off2 = append(s.off2, int32(len(s.src2)))
	}
}

// forward records the encoder on s with every non-self message scaled by
// its entry of sig (masks×1; nil scales by 1) and returns the 1×1 logit
// z_i·z_j.
func (e *Explainer) forward(t *autograd.Tape, s *subgraph, sig *autograd.Var) *autograd.Var {
	var g1, g2 *autograd.Var
	if sig != nil {
		all := autograd.ConcatRows(t, sig, autograd.Const(1, 1, []float32{1}))
		g1, g2 = autograd.GatherRows(t, all, s.gate1), autograd.GatherRows(t, all, s.gate2)
	}
	gate := func(g, w *autograd.Var) *autograd.Var {
		if g == nil {
			return w
		}
		return autograd.Mul(t, g, w)
	}
	col := func(w []float32) *autograd.Var { return autograd.Const(len(w), 1, w) }
	var z *autograd.Var
	if e.Model.Config.Kind != gnn.GAT {
		h := autograd.ReLU(t, autograd.SegmentGatherSum(t, gate(g1, col(s.norm1)), s.xs[0], s.src1, s.off1))
		// z = Ã(HW2) = (ÃH)W2 on rows i and j: aggregating first
		// multiplies 2 rows by W2 instead of |T| (equal up to rounding).
		z = autograd.MatMul(t, autograd.SegmentGatherSum(t, gate(g2, col(s.norm2)), h, s.src2, s.off2), e.w2[0])
	} else {
		heads := make([]*autograd.Var, len(s.xs))
		for k := range heads {
			heads[k] = autograd.SegmentGatherSum(t, gate(g1, col(s.alpha1[k])), s.xs[k], s.src1, s.off1)
		}
		h := autograd.ELU(t, autograd.AddBias(t, autograd.ConcatColsAll(t, heads), e.b1))
		for k := range e.w2 {
			// Attention logits h·(W aDst) and output (Σ α h)W: the
			// projection of the second layer applied to 2 rows and two
			// vectors instead of |T| rows (equal up to rounding).
			sd := autograd.MatMul(t, h, e.vDst2[k])
			ss := autograd.MatMul(t, h, e.vSrc2[k])
			ev := autograd.Add(t, autograd.GatherRows(t, sd, s.dst2), autograd.GatherRows(t, ss, s.src2))
			alpha := autograd.SegmentSoftmax(t, autograd.LeakyReLU(t, ev, 0.2), s.off2)
			o := autograd.MatMul(t, autograd.SegmentGatherSum(t, gate(g2, alpha), h, s.src2, s.off2), e.w2[k])
			if z == nil {
				z = o
			} else {
				z = autograd.Add(t, z, o)
			}
		}
		if len(e.w2) > 1 {
			z = autograd.Scale(t, z, 1/float32(len(e.w2)))
		}
		z = autograd.AddBias(t, z, e.b2)
	}
	return autograd.GatherDot(t, z, z, []int32{0}, []int32{1})
}
