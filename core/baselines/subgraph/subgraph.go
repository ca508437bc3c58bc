// Package subgraph extracts the enclosing subgraph of a candidate link and
// labels its nodes by their distances to the two ends, the input of the
// subgraph link predictors (SEAL: Zhang & Chen, "Link Prediction Based on
// Graph Neural Networks", NeurIPS 2018; WalkPooling builds on the same
// subgraphs).
//
// The target link is never part of what is extracted: a subgraph that
// still holds the link it is asked to predict leaks the answer, the known
// trap of these methods. Extract leaves the edge (x, y) out whether or not
// the graph has it, and the distances behind the labels are measured
// without it.
package subgraph

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"ilpgnn/core/graph"
)

// Enclosing is the h-hop enclosing subgraph of a pair (x, y).
type Enclosing struct {
	// Nodes are the subgraph's nodes as nodes of the whole graph: x and y
	// first, then the others hop by hop, each hop in increasing node order.
	Nodes []int32
	// Edges are the subgraph's edges between local indices (into Nodes),
	// each once with U < V, sorted; never the target (0, 1).
	Edges []graph.Edge
	// Labels are the double-radius node labels (DRNL) of Nodes.
	Labels []int32
}

// Options bound the extraction.
type Options struct {
	// Hops is h: the nodes within h hops of x or y are taken (at least 1).
	Hops int
	// MaxPerHop, when positive, keeps at most this many of the nodes first
	// reached at each hop, drawn uniformly with Rand (SEAL's
	// max_nodes_per_hop for graphs with hubs).
	MaxPerHop int
	// Rand draws the kept nodes; required with MaxPerHop.
	Rand *rand.Rand
}

// Extract returns the enclosing subgraph of (x, y) in g: the nodes within
// opt.Hops hops of x or y, every edge of g between them except (x, y)
// itself, and their DRNL labels.
func Extract(g *graph.Graph, x, y int, opt Options) (*Enclosing, error) {
	n := g.NumNodes()
	switch {
	case x < 0 || x >= n || y < 0 || y >= n:
		return nil, fmt.Errorf("subgraph: pair (%d, %d) outside the graph's %d nodes", x, y, n)
	case x == y:
		return nil, fmt.Errorf("subgraph: pair (%d, %d) is a single node", x, y)
	case opt.Hops < 1:
		return nil, fmt.Errorf("subgraph: hops must be at least 1 (got %d)", opt.Hops)
	case opt.MaxPerHop > 0 && opt.Rand == nil:
		return nil, fmt.Errorf("subgraph: MaxPerHop needs a Rand")
	}
	local := map[int32]int32{int32(x): 0, int32(y): 1}
	nodes := []int32{int32(x), int32(y)}
	frontier := []int32{int32(x), int32(y)}
	for hop := 1; hop <= opt.Hops && len(frontier) > 0; hop++ {
		var next []int32
		for _, u := range frontier {
			for _, v := range g.Neighbors(int(u)) {
				if _, seen := local[v]; !seen {
					local[v] = -1 // reached; indexed below
					next = append(next, v)
				}
			}
		}
		slices.Sort(next)
		if opt.MaxPerHop > 0 && len(next) > opt.MaxPerHop {
			opt.Rand.Shuffle(len(next), func(a, b int) { next[a], next[b] = next[b], next[a] })
			for _, v := range next[opt.MaxPerHop:] {
				delete(local, v)
			}
			next = next[:opt.MaxPerHop]
			slices.Sort(next)
		}
		for _, v := range next {
			local[v] = int32(len(nodes))
			nodes = append(nodes, v)
		}
		frontier = next
	}
	var edges []graph.Edge
	for a, u := range nodes {
		for _, v := range g.Neighbors(int(u)) {
			b, in := local[v]
			if !in || b <= int32(a) || (a == 0 && b == 1) {
				continue // outside, seen from the other end, or the target
			}
			edges = append(edges, graph.Edge{U: int32(a), V: b})
		}
	}
	slices.SortFunc(edges, func(p, q graph.Edge) int {
		if p.U != q.U {
			return int(p.U - q.U)
		}
		return int(p.V - q.V)
	})
	return &Enclosing{Nodes: nodes, Edges: edges, Labels: labels(len(nodes), edges)}, nil
}

// labels computes DRNL on the extracted subgraph (target already absent):
// the distance to x is measured with y removed and the distance to y with
// x removed, as SEAL does, so that each distance says how a node reaches
// one end without passing through the other.
func labels(n int, edges []graph.Edge) []int32 {
	adj := make([][]int32, n)
	for _, e := range edges {
		adj[e.U] = append(adj[e.U], e.V)
		adj[e.V] = append(adj[e.V], e.U)
	}
	dx := distances(adj, 0, 1)
	dy := distances(adj, 1, 0)
	out := make([]int32, n)
	out[0], out[1] = 1, 1
	for i := 2; i < n; i++ {
		out[i] = int32(DRNL(int(dx[i]), int(dy[i])))
	}
	return out
}

// distances returns the hop distance of every node from src in adj with
// node skip removed; -1 where unreachable.
func distances(adj [][]int32, src, skip int32) []int32 {
	d := make([]int32, len(adj))
	for i := range d {
		d[i] = -1
	}
	d[src] = 0
	queue := []int32{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range adj[u] {
			if v != skip && d[v] < 0 {
				d[v] = d[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return d
}

// DRNL is the double-radius node label of a node at distance dx from x and
// dy from y (SEAL, eq. in sec. 4): 1 + min(dx, dy) + (d/2)·((d/2) + d%2 − 1)
// with d = dx + dy, integer division; 0 when either distance is negative
// (unreachable). The two ends themselves are labelled 1 by Extract.
func DRNL(dx, dy int) int {
	if dx < 0 || dy < 0 {
		return 0
	}
	d := dx + dy
	return 1 + min(dx, dy) + (d/2)*((d/2)+d%2-1)
}
