package diffusion

import (
	"fmt"
	"math"
)

// Method selects how New computes the PPR matrix S (SPEC §2, eq 1).
type Method int

const (
	// Push approximates each column of S by forward push (PushColumn): the
	// production path, O(1/(γ·ε)) work per column whatever the graph size.
	Push Method = iota
	// Exact solves for the dense S (ExactPPR): O(N³) time and O(N²) memory,
	// for small graphs and as the test oracle.
	Exact
)

// String returns "push" or "exact".
func (m Method) String() string {
	switch m {
	case Push:
		return "push"
	case Exact:
		return "exact"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Normalization selects the diagonal D_S of S̃ = D_S^-1/2 S D_S^-1/2
// (SPEC §2, eq 2).
type Normalization int

const (
	// FullRowSums takes D_S = S·1, the row sums of the un-sparsified S
	// (RowSums; exact to 1e-12), so that a stored entry of S̃ is what the
	// paper's dense S̃ holds, up to the push error. The default: with the
	// sparsified row sums, top-k changes the surviving entries by up to
	// 0.8 on Cora (see DefaultOptions).
	FullRowSums Normalization = iota
	// SparsifiedRowSums takes D_S = the row sums of the sparsified S, as
	// SPEC §2 writes it (GDC-style renormalisation of the sparsified
	// matrix); a row whose sum is 0 leaves its entries 0.
	SparsifiedRowSums
)

// String returns "full" or "sparsified".
func (z Normalization) String() string {
	switch z {
	case FullRowSums:
		return "full"
	case SparsifiedRowSums:
		return "sparsified"
	}
	return fmt.Sprintf("Normalization(%d)", int(z))
}

// Options configures New.
//
// Gamma is the teleport probability γ of S = γ (I - (1-γ) T)^-1 (eq 1), in
// (0, 1). Epsilon is the forward-push residual tolerance ε (see PushColumn),
// in (0, 1); it is ignored by Exact. TopK is the number of entries k_ppr kept
// per column of S before normalisation (eq 2); 0 keeps every non-zero entry.
// Normalization chooses D_S.
//
// MaxWork caps the push work of one column, Σ (deg(u)+1) over its pushes
// (see Pusher.Push): a column stops before the push that would exceed it,
// with a looser error bound. 0 means DefaultMaxWork, a negative value no
// cap. It is omitted from JSON when 0, so configurations written before it
// existed read and write the same bytes.
type Options struct {
	Gamma         float64
	Epsilon       float64
	TopK          int
	Method        Method
	Normalization Normalization
	MaxWork       int64 `json:",omitempty"`
}

// DefaultMaxWork returns the work cap per column that MaxWork 0 stands for:
// 1/(2γε), half the bound 1/(γε) + deg + 1 that an uncapped column stays
// below (200,000 at γ = 0.05, ε = 5e-5). Measured with DefaultOptions
// (go test ./core/diffusion/ -run TestMeasureMaxWork -measure.scale -v),
// the largest column takes 65,944 on Cora, 63,017 on Citeseer, 123,463 on
// Amazon Photo, 87,874 on Amazon Computers and 102,668 on the synthetic
// presets (seeds 0-2), so none is capped and their S̃ is what it was
// without a cap; an ogbn-arxiv-sized preferential-attachment graph takes
// at most 9,849 (mean 6,751).
func DefaultMaxWork(gamma, eps float64) int64 {
	c := math.Ceil(1 / (2 * gamma * eps))
	if !(c < 1<<62) { // a tolerance so small no column can reach it
		return 1 << 62
	}
	return int64(c)
}

// workCap returns the per-column cap MaxWork stands for, 0 for none.
func (o Options) workCap() int64 {
	switch {
	case o.MaxWork < 0:
		return 0
	case o.MaxWork == 0:
		return DefaultMaxWork(o.Gamma, o.Epsilon)
	}
	return o.MaxWork
}

// DefaultOptions returns γ = 0.05 (the paper's teleport), ε = 5e-5,
// k_ppr = 128, the Push method and FullRowSums.
//
// Chosen by measurement on Cora (2708 nodes, 5278 edges; go test
// ./core/diffusion/ -run TestMeasureDefaults -measure -v; 2 cores shared
// with other jobs, so times are ±30%) against ExactPPR and against S̃ of
// the exact S with no sparsification. The pairs the model reads are
// (c, j) with c within 3 hops of j (c ∈ N(i) for i within 2 hops of j):
// 346,846 pairs, on which the exact S̃ has mean 5.1e-3 and max 0.53.
// "work" is Σ (deg(u)+1) over all pushes (deterministic); "push max" is
// max |S - P| over all N² entries of the un-sparsified push and "resid" its
// largest column L1 error; "S̃ max" and "mean" are |S̃ - S̃_exact| over the
// pairs; "argmax" is the share of pairs (i, j), i within 2 hops of j,
// whose best neighbour c ∈ N(i) \ {j} by S̃[c, j] is the exact one, and
// "≤5%" the share whose pick is within 5% of the exact best.
//
//	                             push          | D_S = row sums of full S (default) | D_S of sparsified S (SPEC)
//	   ε     k  build  nnz   work   max   resid  | S̃ max   mean   argmax  ≤5%        | S̃ max   argmax  ≤5%
//	3e-4   128  0.19s  311k  1.5e7  2.4e-2  0.68 | 6.5e-3  7e-4   98.56%  99.32%     | 0.68    98.11%  99.23%
//	1e-4    64  0.54s  160k  5.0e7  9.1e-3  0.47 | 6.4e-3  7e-4   99.17%  99.75%     | 0.77    97.78%  98.96%
//	1e-4   128  0.56s  317k  5.0e7  9.1e-3  0.47 | 2.8e-3  5e-4   99.26%  99.84%     | 0.77    98.43%  99.51%
//	1e-4     0  0.64s  1.6M  5.0e7  9.1e-3  0.47 | 2.4e-3  3e-4   99.27%  99.86%     | 0.14    99.29%  99.88%
//	5e-5    64  1.00s  160k  1.0e8  4.9e-3  0.31 | 6.4e-3  7e-4   99.42%  99.86%     | 0.77    97.60%  98.92%
//	5e-5   128  0.99s  319k  1.0e8  4.9e-3  0.31 | 2.8e-3  4e-4   99.51%  99.95%     | 0.77    98.31%  99.47%  <- default
//	5e-5   256  1.13s  630k  1.0e8  4.9e-3  0.31 | 2.0e-3  2e-4   99.52%  99.96%     | 0.44    98.73%  99.76%
//	5e-5     0  1.24s  2.7M  1.0e8  4.9e-3  0.31 | 1.3e-3  1e-4   99.53%  99.97%     | 0.09    99.54%  99.97%
//	3e-5   128  1.68s  319k  1.7e8  3.0e-3  0.20 | 2.8e-3  4e-4   99.61%  99.96%     | 0.77    98.22%  99.37%
//	1e-5   128  3.73s  319k  4.1e8  1.0e-3  0.07 | 3.1e-3  4e-4   99.75%  99.96%     | 0.77    97.90%  99.14%
//	1e-5     0  4.44s  5.3M  4.1e8  1.0e-3  0.07 | 2.7e-4  3e-5   99.78% 100.00%     | 0.02    99.83% 100.00%
//
// Readings: renormalising by the sparsified row sums (SPEC §2 as written)
// moves surviving entries by up to 0.8 whatever k < N, which is why
// FullRowSums is the default; with it, k = 128 costs little against k = 0
// and ε below 5e-5 buys little on the ranking the model uses. Without
// contention: one goroutine pushes every Cora source in 1.1 s (11 ns per
// unit of work, BenchmarkPush), so New takes about 0.55 s on two cores.
//
// Scale, same options: a random graph of Amazon Photo's size (7650 nodes,
// 118,806 edges, PCG seed 1) builds in 0.2 s (work 2.2e7); Amazon Photo
// itself (7650 nodes, 119,081 edges, hubs) in 1.2 s (work 2.8e8). On Photo
// PPR is spread thin (exact S̃ mean 4.0e-4 on the 3-hop pairs of every
// 10th target) and push resolves it only coarsely: at k = 128,
//
//	   ε   build   S̃ max   mean   argmax  ≤5%
//	1e-4   0.52s  1.1e-2  3e-4   42.38%  46.80%
//	5e-5   1.19s  8.0e-3  3e-4   52.05%  57.67%
//	3e-5   4.47s  8.2e-3  2e-4   59.27%  65.04%
//	1e-5  15.4s   8.2e-3  2e-4   69.75%  76.40%
//
// so where the ranking by s_ST matters on such graphs, use Method Exact
// (3 min and 1.4 GB for Photo) or a smaller ε.
func DefaultOptions() Options {
	return Options{Gamma: 0.05, Epsilon: 5e-5, TopK: 128, Method: Push, Normalization: FullRowSums}
}

// Validate reports the first option out of range, quoting its value.
func (o Options) Validate() error {
	if !(o.Gamma > 0 && o.Gamma < 1) || math.IsNaN(o.Gamma) {
		return fmt.Errorf("diffusion: teleport Gamma must be in (0, 1) (got %v)", o.Gamma)
	}
	if o.Method != Push && o.Method != Exact {
		return fmt.Errorf("diffusion: unknown Method %d (want Push or Exact)", int(o.Method))
	}
	if o.Method == Push && !(o.Epsilon > 0 && o.Epsilon < 1) {
		return fmt.Errorf("diffusion: push tolerance Epsilon must be in (0, 1) (got %v)", o.Epsilon)
	}
	if o.Normalization != FullRowSums && o.Normalization != SparsifiedRowSums {
		return fmt.Errorf("diffusion: unknown Normalization %d (want FullRowSums or SparsifiedRowSums)", int(o.Normalization))
	}
	if o.TopK < 0 {
		return fmt.Errorf("diffusion: TopK must be >= 0, 0 keeping every entry (got %d)", o.TopK)
	}
	return nil
}
