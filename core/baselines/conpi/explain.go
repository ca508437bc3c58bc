package conpi

import (
	"cmp"
	"slices"

	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
)

// NodeMass is a context node and its interaction mass: the share of the
// pair's interaction weight its context pairs carry (Σ over the other
// side's contexts of α).
type NodeMass struct {
	Node int32
	Mass float64
}

// PairWeight is one interacting context pair: A from the first end's
// context set, B from the second's, and its weight α_AB.
type PairWeight struct {
	A     int32
	B     int32
	Alpha float64
}

// ContextWeights is CONPI's account of one pair (I, J): the evaluation-mode
// logit, each end's context set with the nodes' masses (best first, ties by
// node; each side sums to 1, the end itself included, since it is part of
// its own context), and the most strongly interacting context pairs.
type ContextWeights struct {
	I        int
	J        int
	Logit    float32
	ContextI []NodeMass
	ContextJ []NodeMass
	TopPairs []PairWeight // at most TopPairs, highest α first, ties by (A, B)
}

// TopPairs is the number of interacting pairs Explain lists.
const TopPairs = 10

// pairScore is one pair computed alone: the context sets (nodes) of its
// ends in the orientation (min, max), the interaction weights (a over CU
// outer, b over CV inner) and the logit.
type pairScore struct {
	CU, CV []int32
	Alpha  []float32
	Logit  float32
}

// scoreOne computes the pair (i, j) alone, reading neighbour lists from nb.
// It encodes only the nodes of the two context sets.
func (m *Model) scoreOne(i, j int, nb neighbors) pairScore {
	l := m.buildLayout([]graph.Edge{{U: int32(i), V: int32(j)}}, nb, false)
	h := m.encode(nil, l.Nodes, nil)
	out := m.forward(nil, h, l, nil)
	ps := pairScore{Alpha: out.Alpha.Value, Logit: out.Logits.Value[0]}
	for _, r := range l.CtxU {
		ps.CU = append(ps.CU, l.Nodes[r])
	}
	for _, r := range l.CtxV {
		ps.CV = append(ps.CV, l.Nodes[r])
	}
	return ps
}

// masses returns the context nodes of end i of the pair and their masses,
// and those of the other end, as computed in ps.
func (ps pairScore) masses(i, j int) (ci []int32, mi []float64, cj []int32, mj []float64) {
	mu, mv := make([]float64, len(ps.CU)), make([]float64, len(ps.CV))
	for a := range ps.CU {
		for b := range ps.CV {
			w := float64(ps.Alpha[a*len(ps.CV)+b])
			mu[a] += w
			mv[b] += w
		}
	}
	if i <= j {
		return ps.CU, mu, ps.CV, mv
	}
	return ps.CV, mv, ps.CU, mu
}

// Ranker returns CONPI's explainer: for a pair (i, j) it ranks the
// neighbours of i in the model's graph by their interaction mass in the
// evaluation-mode computation of (i, j), highest first, ties by node.
// Neighbours the context cap left out come after them, by node id; i
// itself and j are not candidates (j is never in i's context: a link must
// not explain itself). The ranker is safe for concurrent use; it reads the
// weights at call time.
func (m *Model) Ranker() explain.Ranker {
	return func(i, j int) []int32 {
		ps := m.scoreOne(i, j, m.graphNeighbors)
		ctx, mass, _, _ := ps.masses(i, j)
		nb := m.g.Neighbors(i)
		nodes := make([]int32, 0, len(nb))
		score := make([]float64, 0, len(nb))
		for _, c := range nb {
			if int(c) == i || int(c) == j {
				continue
			}
			s := -1.0 // after every context node (masses are ≥ 0), ties by node
			if k := slices.Index(ctx, c); k >= 0 {
				s = mass[k]
			}
			nodes, score = append(nodes, c), append(score, s)
		}
		return explain.ByScore(nodes, score)
	}
}

// Explain returns the context sets of (i, j) with their masses and the
// TopPairs most strongly interacting context pairs, for display.
func (m *Model) Explain(i, j int) ContextWeights {
	ps := m.scoreOne(i, j, m.graphNeighbors)
	ci, mi, cj, mj := ps.masses(i, j)
	cw := ContextWeights{I: i, J: j, Logit: ps.Logit, ContextI: ranked(ci, mi), ContextJ: ranked(cj, mj)}
	var pw []PairWeight
	for a, na := range ps.CU {
		for b, nb := range ps.CV {
			w := PairWeight{A: na, B: nb, Alpha: float64(ps.Alpha[a*len(ps.CV)+b])}
			if i > j {
				w.A, w.B = nb, na
			}
			pw = append(pw, w)
		}
	}
	slices.SortFunc(pw, func(x, y PairWeight) int {
		return cmp.Or(cmp.Compare(y.Alpha, x.Alpha), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	cw.TopPairs = pw[:min(TopPairs, len(pw))]
	return cw
}

// ranked pairs nodes with their masses in explain.ByScore's order.
func ranked(nodes []int32, mass []float64) []NodeMass {
	at := make(map[int32]float64, len(nodes))
	for k, n := range nodes {
		at[n] = mass[k]
	}
	out := make([]NodeMass, 0, len(nodes))
	for _, n := range explain.ByScore(nodes, mass) {
		out = append(out, NodeMass{Node: n, Mass: at[n]})
	}
	return out
}

// LogitWithout returns the evaluation-mode logit of (i, j) on the model's
// graph with the undirected edges of removed deleted, so that their ends
// drop out of each other's context sets. Pairs of removed that are not
// edges are ignored; with removed empty it equals Logits exactly. It is
// safe for concurrent use.
func (m *Model) LogitWithout(i, j int, removed []graph.Edge) float32 {
	drop := func(u int32) []int32 {
		nb := m.g.Neighbors(int(u))
		var out []int32
		for k, c := range nb {
			if slices.ContainsFunc(removed, func(e graph.Edge) bool { return e == graph.Edge{U: u, V: c} || e == graph.Edge{U: c, V: u} }) {
				if out == nil {
					out = append(make([]int32, 0, len(nb)), nb[:k]...)
				}
				continue
			}
			if out != nil {
				out = append(out, c)
			}
		}
		if out == nil {
			return nb
		}
		return out
	}
	return m.scoreOne(i, j, drop).Logit
}
