package autograd

import (
	"fmt"
	"sync"

	"ilpgnn/core/f32"
)

// MatMul returns a·b for a m×k and b k×n. It panics if a.Cols != b.Rows.
func MatMul(t *Tape, a, b *Var) *Var {
	if a.Cols != b.Rows {
		panic(fmt.Sprintf("autograd: MatMul: %v times %v", a, b))
	}
	m, k, n := a.Rows, a.Cols, b.Cols
	c := t.result("matmul", m, n, false, matMulBackward, a, b)
	f32.MatMul(c.Value, a.Value, b.Value, m, k, n) // C = A·B
	return c
}

func matMulBackward(c *Var) {
	a, b := c.a, c.b
	m, k, n := a.Rows, a.Cols, b.Cols
	if a.needsGrad() {
		f32.MatMulAddNT(a.Grad, c.Grad, b.Value, m, k, n) // dA += dC·Bᵀ
	}
	if b.needsGrad() {
		f32.MatMulAddTN(b.Grad, a.Value, c.Grad, m, k, n) // dB += Aᵀ·dC
	}
}

// Sparse is a constant sparse matrix A for SpMM. Its transpose, which
// SpMM's backward step may read, is computed on first use and kept: the
// backward of a tall features matrix walks A itself, and inference needs
// neither (an arxiv-sized graph's dense features would hold 174 MB more).
type Sparse struct {
	A    *f32.CSR
	at   *f32.CSR
	once sync.Once
}

// NewSparse wraps a (not copied).
func NewSparse(a *f32.CSR) *Sparse { return &Sparse{A: a} }

// Transposed returns Aᵀ, computing it on the first call. It is safe for
// concurrent use.
func (s *Sparse) Transposed() *f32.CSR {
	s.once.Do(func() { s.at = s.A.Transpose() })
	return s.at
}

// SpMM returns s.A·b for s.A r×c sparse and b c×n. It panics if
// b.Rows != s.A.Cols.
func SpMM(t *Tape, s *Sparse, b *Var) *Var {
	if b.Rows != s.A.Cols {
		panic(fmt.Sprintf("autograd: SpMM: %dx%d sparse times %v", s.A.Rows, s.A.Cols, b))
	}
	c := t.result("spmm", s.A.Rows, b.Cols, false, spmmBackward, b, nil)
	c.sparse = s
	f32.SpMM(c.Value, s.A, b.Value, b.Cols) // C = A·B
	return c
}

// Bounds (floats) of spmmBackward's walk by rows: Aᵀ·dC at most 1 MB, a
// core's L2 here, and dC over 8 MB, beyond a core's share of the caches.
const (
	rowWalkMost  = 1 << 18
	rowWalkLeast = 1 << 21
)

// spmmBackward adds Aᵀ·dC to dB. It walks A by rows (f32.SpMMTAdd) when
// Aᵀ·dC stays cached and dC does not, where the walk over Aᵀ would read dC
// from memory once per row of Aᵀ; with dC in cache the walk over Aᵀ is the
// faster (measured: docs/autograd.md). Both give the same bits.
func spmmBackward(c *Var) {
	if s := c.sparse; s.A.Cols*c.Cols <= rowWalkMost && len(c.Grad) > rowWalkLeast {
		f32.SpMMTAdd(c.a.Grad, s.A, c.Grad, c.Cols)
	} else {
		f32.SpMMAdd(c.a.Grad, s.Transposed(), c.Grad, c.Cols)
	}
}
