package diffusion

import (
	"fmt"
	"math"
)

// Method selects how New computes the PPR matrix S (docs/model.md §2, eq 1).
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
// (docs/model.md §2, eq 2).
type Normalization int

const (
	// FullRowSums takes D_S = S·1, the row sums of the un-sparsified S
	// (RowSums; exact to 1e-12), so that a stored entry of S̃ is what the
	// paper's dense S̃ holds, up to the push error. The default: with the
	// sparsified row sums, top-k changes the surviving entries by up to
	// 0.8 on Cora (docs/diffusion.md).
	FullRowSums Normalization = iota
	// SparsifiedRowSums takes D_S = the row sums of the sparsified S, as
	// docs/model.md §2 writes it (GDC-style renormalisation of the sparsified
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
// below (200,000 at γ = 0.05, ε = 5e-5). No column of the shared datasets
// or the synthetic presets reaches it under DefaultOptions, so their S̃ is
// what it was without a cap (measured: docs/diffusion.md).
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
// k_ppr = 128, the Push method and FullRowSums: on Cora, against the exact
// S̃, ε below 5e-5 and k above 128 barely change which neighbour ranks
// first by s_ST. On graphs where PPR is spread thin, such as Amazon Photo,
// push resolves that ranking only coarsely; where it matters there, use
// Method Exact or a smaller ε. Chosen by measurement: docs/diffusion.md.
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
