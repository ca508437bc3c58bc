// Package autograd is a reverse-mode tape over row-major float32 matrices,
// small enough to read in one sitting (after karpathy/micrograd's engine.py).
//
// Every op is a function Op(t *Tape, inputs...) *Var. With a non-nil tape the
// op computes its value, records itself, and its backward step runs when
// Backward is called; gradients accumulate with +=. With a nil tape nothing
// is recorded and no gradient is allocated: that is inference, and there is
// no other "no-grad" switch.
//
// A Var needs a gradient when it is a parameter (NewParam) or the result of a
// recorded op with at least one input that needs a gradient. Constants
// (Const) never get one, and ops send gradients only to inputs that need
// them.
//
// Buffers of recorded results belong to the tape: after Reset they are
// handed out again, so a training loop that records the same graph every
// epoch allocates almost nothing after the first. Keep a result across Reset
// with Detach.
package autograd

import (
	"fmt"
	"math/bits"

	"ilpgnn/core/f32"
)

// Var is a Rows×Cols matrix in the graph: a parameter, a constant, or the
// result of an op.
type Var struct {
	Value []float32 // Rows*Cols values, row-major
	// Grad has the shape of Value. It is allocated for parameters and for
	// results of recorded ops that depend on a parameter; otherwise nil.
	Grad       []float32
	Rows, Cols int

	op       string
	tape     *Tape      // the tape that recorded v, or nil
	lazy     bool       // needs a gradient that a lean tape allocates when Backward reaches v
	vbuf     int32      // 1 + index of Value's buffer in tape.used, or 0
	gbuf     int32      // 1 + index of Grad's buffer in tape.used, or 0
	a, b     *Var       // inputs (b may be nil)
	backward func(*Var) // the op's backward step, called with the result

	// Op arguments kept for the backward step.
	sparse *Sparse
	ints   []int32   // GatherRows indices, segment offsets
	ints2  []int32   // a second index list (fused ops)
	ints3  []int32   // a third (GatherSegmentSum's centres)
	floats []float32 // Dropout scales, BCE labels
	scalar float32   // Scale factor
}

// NewParam returns a trainable rows×cols Var with zero Value and zero Grad.
// It panics if a dimension is negative.
func NewParam(rows, cols int) *Var {
	n := size("NewParam", rows, cols)
	return &Var{Value: make([]float32, n), Grad: make([]float32, n), Rows: rows, Cols: cols, op: "param"}
}

// Const returns a rows×cols Var that wraps v (not copied, never modified by
// any op) and never gets a gradient. It panics if len(v) != rows*cols.
func Const(rows, cols int, v []float32) *Var {
	if len(v) != size("Const", rows, cols) {
		panic(fmt.Sprintf("autograd: Const: len(v) = %d, want %dx%d", len(v), rows, cols))
	}
	return &Var{Value: v, Rows: rows, Cols: cols, op: "const"}
}

// ZeroGrad sets every element of v.Grad to 0. It does nothing when v has no
// gradient.
func (v *Var) ZeroGrad() { clear(v.Grad) }

// Detach returns a constant holding a copy of v.Value: it survives Reset of
// the tape that produced v.
func (v *Var) Detach() *Var {
	return Const(v.Rows, v.Cols, append([]float32(nil), v.Value...))
}

// Leaf returns a Var sharing v's Value and Grad (not copied) that belongs
// to no tape, so a second tape can record ops on v's value while the tape
// that recorded v is kept: their backward steps accumulate into v.Grad, and
// the first tape's BackwardFrom(v) then carries the sum further back. This
// splits one loss into pieces recorded and freed one at a time (mini-batches
// of pairs over one encoder pass) without changing its gradient. The leaf
// needs a gradient exactly when v does.
func (v *Var) Leaf() *Var {
	v.tape.ensureGrad(v)
	return &Var{Value: v.Value, Grad: v.Grad, Rows: v.Rows, Cols: v.Cols, op: "leaf"}
}

// String names v's op and shape, e.g. "matmul 2708x64".
func (v *Var) String() string { return fmt.Sprintf("%s %dx%d", v.op, v.Rows, v.Cols) }

// needsGrad reports whether gradients flow into v.
func (v *Var) needsGrad() bool { return v != nil && (v.Grad != nil || v.lazy) }

// Tape records ops in the order they run. It is not safe for concurrent
// use. The zero value is not usable; call NewTape.
type Tape struct {
	nodes []*Var              // recorded results with a backward step, in order
	vars  []*Var              // Var structs handed out; vars[:nvars] are in use
	nvars int                 //
	used  [][]float32         // buffers handed out since the last Reset (nil once released)
	free  map[int][][]float32 // buffers to hand out again, by size class
	lean  bool                // see SetLean
}

// SetLean makes t allocate the gradient of a recorded result only when the
// backward pass first reaches it, and hand back a result's Value and Grad
// buffers as soon as its backward step has run. A recording then peaks at
// about its values plus a few gradients, instead of its values and all
// their gradients (for a whole-graph encoder, half the memory). The
// arithmetic, and so every gradient, is unchanged. The price: between
// recording and Backward the results' Grad is nil (Leaf allocates one), and
// after Backward (or BackwardFrom) the recorded results with a backward
// step have no Value or Grad; read what you need before. Call it on an
// empty tape.
func (t *Tape) SetLean(on bool) { t.lean = on }

// NewTape returns an empty tape.
func NewTape() *Tape { return &Tape{free: make(map[int][][]float32)} }

// Backward runs the backward step of every recorded op in reverse order,
// after adding 1 to loss.Grad (dLoss/dLoss = 1). Gradients accumulate into
// the Grad of parameters and recorded results with +=, so call ZeroGrad on
// the parameters before each step, and call Backward once per recording.
// When loss depends on no parameter (it has no Grad) there is nothing to
// do. Backward panics if loss is not 1x1 or was not recorded on t.
func (t *Tape) Backward(loss *Var) {
	if loss.Rows != 1 || loss.Cols != 1 {
		panic(fmt.Sprintf("autograd: Backward: loss is %v, want 1x1", loss))
	}
	if loss.tape != t {
		panic(fmt.Sprintf("autograd: Backward: loss %v was not recorded on this tape", loss))
	}
	t.ensureGrad(loss)
	if loss.Grad == nil {
		return
	}
	loss.Grad[0] += 1
	t.backward()
}

// backward runs the recorded backward steps in reverse order; a lean tape
// allocates the gradients each step writes just before it and releases the
// step's result just after.
func (t *Tape) backward() {
	for i := len(t.nodes) - 1; i >= 0; i-- {
		n := t.nodes[i]
		if t.lean {
			t.ensureGrad(n)
			n.a.tape.ensureGrad(n.a)
			if n.b != nil {
				n.b.tape.ensureGrad(n.b)
			}
		}
		n.backward(n)
		if t.lean {
			t.release(n)
		}
	}
}

// ensureGrad allocates the zero gradient of a lazy result v of t. t may be
// nil (v belongs to no tape) or v nil.
func (t *Tape) ensureGrad(v *Var) {
	if t == nil || v == nil || !v.lazy || v.Grad != nil {
		return
	}
	v.Grad = t.buf(len(v.Value), true)
	v.gbuf = int32(len(t.used))
}

// release hands v's Value and Grad buffers back to t for later ops.
func (t *Tape) release(v *Var) {
	for _, k := range [2]int32{v.vbuf, v.gbuf} {
		if k > 0 && t.used[k-1] != nil {
			b := t.used[k-1]
			t.used[k-1] = nil
			c := sizeClass(cap(b))
			t.free[c] = append(t.free[c], b[:cap(b)])
		}
	}
	v.Value, v.Grad, v.vbuf, v.gbuf = nil, nil, 0, 0
}

// BackwardFrom runs the backward step of every op recorded on t in reverse
// order, with v.Grad already holding dL/dv: the gradient that ops recorded
// on another tape sent into v through v.Leaf. It does not seed any
// gradient itself, so call it once after all of v's uses have run their
// backward. It does nothing when v has no gradient and panics if v was not
// recorded on t.
func (t *Tape) BackwardFrom(v *Var) {
	if v.tape != t {
		panic(fmt.Sprintf("autograd: BackwardFrom: %v was not recorded on this tape", v))
	}
	if v.Grad == nil {
		return
	}
	t.backward()
}

// Reset forgets the recorded ops and takes back the Value and Grad buffers
// of their results, to hand them out again to later ops of similar sizes.
// Results recorded before Reset must not be used after it (see Detach).
// Parameters and constants are not affected.
func (t *Tape) Reset() {
	for _, b := range t.used {
		if b == nil {
			continue // released during a lean Backward
		}
		c := sizeClass(cap(b))
		t.free[c] = append(t.free[c], b[:cap(b)])
	}
	clear(t.used)
	t.used = t.used[:0]
	clear(t.nodes)
	t.nodes = t.nodes[:0]
	for _, v := range t.vars[:t.nvars] {
		*v = Var{}
	}
	t.nvars = 0
}

// sizeClass returns the power-of-two class of a buffer of capacity n: the
// smallest c with n <= 1<<c.
func sizeClass(n int) int { return bits.Len(uint(max(n, 1) - 1)) }

// exactClass is the first size class whose buffers are allocated to the
// length asked plus 1/32 rather than to the class's power of two. Below it
// the rounding costs little; above it, it would cost up to half of every
// buffer: a whole-graph encoder's N x d results (arxiv: 169,343 x 128, 83
// MiB) would each take 128 MiB.
const exactClass = 21 // buffers of more than 1<<20 float32s (4 MiB)

// buf returns a buffer of length n, reused when possible; zeroed if zero.
// Buffers have power-of-two capacities up to exactClass, so sizes that
// change a little from one recording to the next (the pairs of an epoch)
// still reuse them; a larger buffer has 1/32 of headroom, and when no free
// buffer of its class is long enough one of them is dropped for a new one
// (so a class never holds more buffers than it had in use at once).
func (t *Tape) buf(n int, zero bool) []float32 {
	var b []float32
	c := sizeClass(n)
	l := t.free[c]
	k := len(l) - 1
	if c >= exactClass {
		for k >= 0 && cap(l[k]) < n {
			k--
		}
		if k < 0 && len(l) > 0 {
			l[len(l)-1] = nil // left to the garbage collector
			l = l[:len(l)-1]
			t.free[c] = l
		}
	}
	if k >= 0 {
		b = l[k][:n]
		l[k] = l[len(l)-1]
		l[len(l)-1] = nil
		t.free[c] = l[:len(l)-1]
		if zero {
			each1(clearFloats, b)
		}
	} else {
		capacity := 1 << c
		if c >= exactClass {
			capacity = min(capacity, n+n/32) // ≤ 1<<c keeps sizeClass(cap) == c
		}
		b = make([]float32, n, capacity)
	}
	t.used = append(t.used, b)
	return b
}

// result returns the rows×cols output Var of op with inputs a and b (b may
// be nil). Its Value is zeroed only if zero is set: ops that overwrite every
// element pass false. With a non-nil tape, when a or b needs a gradient, the
// result gets a zero Grad and backward is recorded.
func (t *Tape) result(op string, rows, cols int, zero bool, backward func(*Var), a, b *Var) *Var {
	n := rows * cols
	if t == nil {
		return &Var{Value: make([]float32, n), Rows: rows, Cols: cols, op: op}
	}
	var v *Var
	if t.nvars < len(t.vars) {
		v = t.vars[t.nvars]
	} else {
		v = new(Var)
		t.vars = append(t.vars, v)
	}
	t.nvars++
	*v = Var{Value: t.buf(n, zero), Rows: rows, Cols: cols, op: op, tape: t, a: a, b: b}
	v.vbuf = int32(len(t.used))
	if a.needsGrad() || b.needsGrad() {
		if t.lean {
			v.lazy = true
		} else {
			v.Grad = t.buf(n, true)
			v.gbuf = int32(len(t.used))
		}
		v.backward = backward
		t.nodes = append(t.nodes, v)
	}
	return v
}

// scratch returns a tape-owned buffer of length n (not zeroed) for an op's
// saved state, or a fresh one when t is nil.
func (t *Tape) scratch(n int) []float32 {
	if t == nil {
		return make([]float32, n)
	}
	return t.buf(n, false)
}

func size(op string, rows, cols int) int {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("autograd: %s: negative shape %dx%d", op, rows, cols))
	}
	return rows * cols
}

func sameShape(op string, a, b *Var) {
	if a.Rows != b.Rows || a.Cols != b.Cols {
		panic(fmt.Sprintf("autograd: %s: shapes differ: %v and %v", op, a, b))
	}
}

// axpy adds alpha·x to y when y is non-nil (a gradient that is needed).
func axpy(alpha float32, x, y []float32) {
	if y != nil {
		f32.Axpy(alpha, x, y)
	}
}

// accumulate adds alpha·x to the gradient g when g is non-nil.
func accumulate(g []float32, alpha float32, x []float32) {
	if g != nil {
		eachScalar(axpyInto, g, alpha, x)
	}
}

// Plain-function forms of small kernels, for the each helpers.

func clearFloats(x []float32)                            { clear(x) }
func axpyInto(dst []float32, alpha float32, x []float32) { f32.Axpy(alpha, x, dst) }
