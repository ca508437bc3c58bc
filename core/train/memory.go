package train

import (
	"runtime"

	"cmp"
	"fmt"
	"ilpgnn/core/shard"
	"slices"

	"ilpgnn/core/graph"
)

// MemoryPart is one term of a MemoryEstimate: what it holds, its bytes,
// and the setting or input that would shrink it.
type MemoryPart struct {
	What   string `json:"what"`
	Bytes  int64  `json:"bytes"`
	Shrink string `json:"shrink"`
}

// MemoryEstimate is the estimated peak memory of training ILP-GNN on a
// graph: the total and its terms, largest first.
type MemoryEstimate struct {
	Bytes int64        `json:"bytes"`
	Parts []MemoryPart `json:"parts"`
}

// The coefficients of EstimateMemory, in bytes, fitted to the peak
// resident memory of `ilpgnn train --epochs 2` on twelve graphs from 50
// to 169,343 nodes, 200 to 1.17M edges and 16 to 1,000,000 feature
// columns, hidden widths 32 to 256 and S̃ kept to 32 or 128 entries per
// column; every estimate is within 11% of its measurement
// (docs/scale.md, "Memory before training").
const (
	memBase          = 34e6 // the program, its runtime and its buffers
	memPerNodeHidden = 67   // per node and hidden unit: about 17 N×d float matrices on the tape
	memPerNodeTopK   = 14   // per node and entry of S̃ kept per column
	memPerEdge       = 280  // per edge: the graph, the split, the negatives, the pairs' selections
	memPerNonzero    = 27   // per stored feature value, in its copies
	memPerWeight     = 59   // per input-layer weight (D × d, two layers): value, gradient, Adam's moments, the backward's buffers
)

// EstimateMemory returns the estimated peak memory of training ILP-GNN
// with cfg on g, natively; in WebAssembly the engine's heap is about the
// same (GOGC 25 in both). It is a linear model of the graph's size and
// the settings that scale memory (hidden width, S̃'s entries per
// column), fitted to measurements; it does not depend on the number of
// epochs, which reuse their buffers.
func EstimateMemory(g *graph.Graph, cfg Config) MemoryEstimate {
	n, d := int64(g.NumNodes()), int64(cfg.Model.Hidden)
	parts := []MemoryPart{
		{"the input layers' weights (feature columns × hidden width, two layers, with their gradients and Adam's state)",
			memPerWeight * int64(g.FeatureDim()) * d, "fewer feature columns, or a smaller --hidden"},
		{"node representations (nodes × hidden width, on the tape)", memPerNodeHidden * n * d, "a smaller --hidden"},
		{"the structure similarity S̃ (nodes × entries kept per column)", memPerNodeTopK * n * int64(cfg.Model.Diffusion.TopK), "a smaller --ppr-topk"},
		{"edges, their split and the pairs' neighbour selections", memPerEdge * int64(g.NumEdges()), "a smaller graph"},
		{"the features", memPerNonzero * int64(g.Features.NNZ()), "fewer nonzero feature values"},
		{"the program", memBase, ""},
	}
	if cfg.Model.Anchor > 0 {
		// Values only: the start's two input layers and H^0, which never
		// train (docs/anchor.md).
		parts = append(parts, MemoryPart{"the anchor's frozen input weights and node representations (the start's)",
			8*int64(g.FeatureDim())*d + 4*n*d, "--anchor 0, or a smaller --hidden"})
	}
	if threads := shardThreads(g, cfg); threads > 0 {
		parts = append(parts, MemoryPart{"a shard's gradient per thread (nodes × hidden width × threads)",
			4 * n * d * int64(threads), "a smaller --hidden, or fewer threads (GOMAXPROCS)"})
	}
	slices.SortStableFunc(parts, func(a, b MemoryPart) int { return cmp.Compare(b.Bytes, a.Bytes) })
	var total int64
	for _, p := range parts {
		total += p.Bytes
	}
	return MemoryEstimate{Bytes: total, Parts: parts}
}

// shardThreads is how many goroutines compute shards at once when cfg's
// epochs on g are sharded (shard.Parallel: one per CPU, at most
// shard.Count), each holding a shard's gradient; 0 when an epoch's pairs,
// twice the training links, fit one batch.
func shardThreads(g *graph.Graph, cfg Config) int {
	trainLinks := float64(g.NumEdges()) * (1 - cfg.ValFrac - cfg.TestFrac)
	if cfg.BatchSize == 0 || float64(cfg.BatchSize) >= 2*trainLinks {
		return 0
	}
	return min(runtime.GOMAXPROCS(0), shard.Count)
}

// Refusal returns why training that needs m cannot run within limit bytes
// ("the machine's memory", "the tab's memory", as where names it), with
// the largest terms and what would shrink them, or nil when it fits.
func (m MemoryEstimate) Refusal(limit int64, where string) error {
	if limit <= 0 || m.Bytes <= limit {
		return nil
	}
	msg := fmt.Sprintf("training would need about %s of memory at its peak, more than %s (%s)", Bytes(m.Bytes), where, Bytes(limit))
	for k, p := range m.Parts {
		if k == 2 || p.Shrink == "" || p.Bytes < m.Bytes/10 {
			break
		}
		msg += fmt.Sprintf("; %s take about %s: %s", p.What, Bytes(p.Bytes), p.Shrink)
	}
	return fmt.Errorf("%s", msg)
}

// Bytes writes a byte count for people in binary units: "512 MiB",
// "7.4 GiB".
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
