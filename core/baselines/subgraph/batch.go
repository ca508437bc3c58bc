package subgraph

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"ilpgnn/core/graph"
)

// Batch is the enclosing subgraphs of several pairs laid out one after the
// other, as the blocks of one disconnected graph.
type Batch struct {
	// Nodes are the nodes of every subgraph as nodes of the whole graph,
	// subgraph by subgraph: subgraph k holds Nodes[Offsets[k]:Offsets[k+1]],
	// its pair's x at Offsets[k] and y at Offsets[k]+1.
	Nodes   []int32
	Offsets []int32
	// Labels are the DRNL labels of Nodes.
	Labels []int32
	// Edges are the subgraphs' edges between batch indices (into Nodes),
	// U < V, subgraph by subgraph: subgraph k holds
	// Edges[EdgeOffsets[k]:EdgeOffsets[k+1]]. No target pair is among them.
	Edges       []graph.Edge
	EdgeOffsets []int32
}

// Len returns the number of subgraphs.
func (b *Batch) Len() int { return len(b.Offsets) - 1 }

// ExtractBatch extracts the enclosing subgraph of every pair (Extract with
// opt) in parallel. When opt.MaxPerHop is set each pair draws its nodes
// from a generator seeded with seed and the pair itself (opt.Rand is
// ignored), so a pair's subgraph does not depend on the batch it is in, on
// its orientation, or on the number of CPUs.
func ExtractBatch(g *graph.Graph, pairs []graph.Edge, opt Options, seed uint64) (*Batch, error) {
	subs := make([]*Enclosing, len(pairs))
	errs := make([]error, len(pairs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(pairs)/8))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(pairs); k += workers {
				o := opt
				x, y := pairs[k].U, pairs[k].V
				if o.MaxPerHop > 0 {
					lo, hi := min(x, y), max(x, y)
					o.Rand = rand.New(rand.NewPCG(seed, uint64(lo)<<32|uint64(hi)))
				}
				subs[k], errs[k] = Extract(g, int(x), int(y), o)
			}
		})
	}
	wg.Wait()
	b := &Batch{Offsets: make([]int32, 1, len(pairs)+1), EdgeOffsets: make([]int32, 1, len(pairs)+1)}
	for k, s := range subs {
		if errs[k] != nil {
			return nil, fmt.Errorf("pair %d: %w", k, errs[k])
		}
		base := int32(len(b.Nodes))
		b.Nodes = append(b.Nodes, s.Nodes...)
		b.Labels = append(b.Labels, s.Labels...)
		for _, e := range s.Edges {
			b.Edges = append(b.Edges, graph.Edge{U: base + e.U, V: base + e.V})
		}
		b.Offsets = append(b.Offsets, int32(len(b.Nodes)))
		b.EdgeOffsets = append(b.EdgeOffsets, int32(len(b.Edges)))
	}
	return b, nil
}
