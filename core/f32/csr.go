// Package f32 holds the float32 kernels the training loop runs on: sparse
// (CSR) times dense, dense times dense, and the small vector helpers around
// them. The loops are plain Go, unrolled, because under WebAssembly they run
// ~2x slower than native while gonum's matrix product runs 7-14x slower
// (see the measurements in docs/kernels.md). On amd64 with AVX the three inner
// loops everything runs through (madd2, spmmRow, axpy) are assembly
// instead (kernels_amd64.s), eight columns per instruction with exactly
// the Go loops' operations per element, so native and WebAssembly results
// stay bit-identical; build with -tags purego to run the Go loops natively.
// Every kernel is tested against a float64 gonum reference, and bit for bit
// against its reference loop (kernels_test.go). The big kernels split their
// rows over up to GOMAXPROCS goroutines with results that do not depend on
// the split.
//
// Matrices are row-major []float32 slices with their shape passed beside
// them. Destinations come first; inputs are never modified.
package f32

import (
	"fmt"
	"math"
)

// CSR is a sparse Rows x Cols float32 matrix in compressed sparse row form.
// Row r holds the column indices Indices[Indptr[r]:Indptr[r+1]], sorted
// ascending and without duplicates, with values Values at the same positions.
// len(Indptr) == Rows+1, Indptr[0] == 0, Indptr[Rows] == len(Indices).
type CSR struct {
	Rows, Cols int
	Indptr     []int32
	Indices    []int32
	Values     []float32
}

// NNZ returns the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Indices) }

// Row returns the column indices and values of row r. The slices alias m.
func (m *CSR) Row(r int) ([]int32, []float32) {
	lo, hi := m.Indptr[r], m.Indptr[r+1]
	return m.Indices[lo:hi], m.Values[lo:hi]
}

// At returns the entry (r, c), or 0 when it is not stored. It binary-searches
// row r.
func (m *CSR) At(r, c int) float32 {
	idx, val := m.Row(r)
	lo, hi := 0, len(idx)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int(idx[mid]) < c {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(idx) && int(idx[lo]) == c {
		return val[lo]
	}
	return 0
}

// Validate reports the first structural problem of m, or nil.
func (m *CSR) Validate() error {
	if m.Rows < 0 || m.Cols < 0 {
		return fmt.Errorf("f32: negative shape %dx%d", m.Rows, m.Cols)
	}
	if len(m.Indptr) != m.Rows+1 {
		return fmt.Errorf("f32: len(Indptr) = %d, want Rows+1 = %d", len(m.Indptr), m.Rows+1)
	}
	if m.Indptr[0] != 0 || int(m.Indptr[m.Rows]) != len(m.Indices) || len(m.Values) != len(m.Indices) {
		return fmt.Errorf("f32: Indptr ends (%d, %d) do not match %d indices and %d values",
			m.Indptr[0], m.Indptr[m.Rows], len(m.Indices), len(m.Values))
	}
	for r := 0; r < m.Rows; r++ {
		lo, hi := m.Indptr[r], m.Indptr[r+1]
		if hi < lo || int(hi) > len(m.Indices) {
			return fmt.Errorf("f32: row %d has Indptr (%d, %d) outside [0, %d] or decreasing", r, lo, hi, len(m.Indices))
		}
		for k := lo; k < hi; k++ {
			c := m.Indices[k]
			if c < 0 || int(c) >= m.Cols {
				return fmt.Errorf("f32: row %d column %d out of range [0, %d)", r, c, m.Cols)
			}
			if k > lo && m.Indices[k-1] >= c {
				return fmt.Errorf("f32: row %d columns not strictly increasing at %d", r, c)
			}
		}
	}
	return nil
}

// Transpose returns mᵀ as a new CSR matrix (rows sorted, as CSR requires).
func (m *CSR) Transpose() *CSR {
	t := &CSR{Rows: m.Cols, Cols: m.Rows, Indptr: make([]int32, m.Cols+1),
		Indices: make([]int32, len(m.Indices)), Values: make([]float32, len(m.Values))}
	for _, c := range m.Indices {
		t.Indptr[c+1]++
	}
	for c := 0; c < m.Cols; c++ {
		t.Indptr[c+1] += t.Indptr[c]
	}
	next := make([]int32, m.Cols)
	copy(next, t.Indptr[:m.Cols])
	for r := 0; r < m.Rows; r++ {
		for k := m.Indptr[r]; k < m.Indptr[r+1]; k++ {
			c := m.Indices[k]
			p := next[c]
			t.Indices[p] = int32(r)
			t.Values[p] = m.Values[k]
			next[c]++
		}
	}
	return t
}

// NormalizeRows returns a copy of m with every non-empty row scaled to unit
// L2 norm (sums in float64); the structure is shared with m.
func (m *CSR) NormalizeRows() *CSR {
	y := &CSR{Rows: m.Rows, Cols: m.Cols, Indptr: m.Indptr, Indices: m.Indices, Values: make([]float32, len(m.Values))}
	for r := range m.Rows {
		lo, hi := m.Indptr[r], m.Indptr[r+1]
		var ss float64
		for _, v := range m.Values[lo:hi] {
			ss += float64(v) * float64(v)
		}
		if ss == 0 {
			continue
		}
		inv := 1 / math.Sqrt(ss)
		for k := lo; k < hi; k++ {
			y.Values[k] = float32(float64(m.Values[k]) * inv)
		}
	}
	return y
}
