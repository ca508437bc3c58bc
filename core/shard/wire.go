package shard

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
)

// The messages between a coordinator and its helpers: little-endian, each
// opening with a four-byte tag. They pass between the workers of one
// page, built by this package on both ends, but a decoder still checks
// every length and index before it trusts one.
const (
	tagKit    = "SKT1"
	tagTask   = "STK2"
	tagLeaf   = "SLF2"
	tagLogits = "SLG2"
)

var errShort = errors.New("shard: message ends early")

// kitHeader is the part of a kit that is not an array.
type kitHeader struct {
	Model     ilpgnn.Config
	Objective ilpgnn.Objective
	BatchSize int
	Nodes     int
	Adjacency int // stored neighbours: 2 per edge
	Similar   int // entries of S̃
	Pos       int
	Val       int
	Anchor    int `json:",omitempty"` // values of H^0
}

// header returns k's header.
func (k *Kit) header() kitHeader {
	g, sim := k.Inputs.Graph, k.Inputs.Sim.Columns()
	return kitHeader{Model: k.Model, Objective: k.Objective, BatchSize: k.BatchSize,
		Nodes: g.NumNodes(), Adjacency: len(g.Indices), Similar: len(sim.Indices), Pos: len(k.Pos), Val: len(k.Val),
		Anchor: len(k.Anchor)}
}

// arrayBytes is the size of the arrays after the header: two Indptr,
// the adjacency, S̃'s indices and values, the positives, the validation
// pairs and H^0.
func (h kitHeader) arrayBytes() int {
	return 4 * (2*(h.Nodes+1) + h.Adjacency + 2*h.Similar + 2*h.Pos + 2*h.Val + h.Anchor)
}

// MarshalBinary encodes the kit for a helper: the settings, the graph's
// adjacency, S̃, the positives, the validation pairs and the start's H^0
// (no features: helpers do not encode).
func (k *Kit) MarshalBinary() ([]byte, error) {
	g, sim := k.Inputs.Graph, k.Inputs.Sim.Columns()
	h := k.header()
	head, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("shard: kit: %w", err)
	}
	b := make([]byte, 0, 8+len(head)+h.arrayBytes())
	b = append(b, tagKit...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(head)))
	b = append(b, head...)
	b = appendInt32s(b, g.Indptr)
	b = appendInt32s(b, g.Indices)
	b = appendInt32s(b, sim.Indptr)
	b = appendInt32s(b, sim.Indices)
	b = appendFloat32s(b, sim.Values)
	b = appendEdges(b, k.Pos)
	b = appendEdges(b, k.Val)
	return appendFloat32s(b, k.Anchor), nil
}

// UnmarshalKit decodes a kit MarshalBinary wrote, checking it.
func UnmarshalKit(data []byte) (*Kit, error) {
	r := reader{b: data}
	if r.tag() != tagKit {
		return nil, errors.New("shard: not a kit")
	}
	var h kitHeader
	n := int(r.u32())
	if err := json.Unmarshal(r.bytes(n), &h); err != nil || r.err != nil {
		return nil, fmt.Errorf("shard: kit header: %w", errors.Join(err, r.err))
	}
	if err := h.Model.Validate(); err != nil {
		return nil, fmt.Errorf("shard: kit: %w", err)
	}
	for _, v := range []int{h.Nodes, h.Adjacency, h.Similar, h.Pos, h.Val, h.Anchor} {
		if v < 0 || v > len(data) {
			return nil, errors.New("shard: kit: a size does not fit its length")
		}
	}
	if h.BatchSize < 0 {
		return nil, errors.New("shard: kit: negative batch size")
	}
	if want := h.Nodes * h.Model.Hidden; h.Model.Anchor != 0 && h.Anchor != want || h.Model.Anchor == 0 && h.Anchor != 0 {
		return nil, fmt.Errorf("shard: kit: %d values of H^0 with anchor %g on %d nodes x %d", h.Anchor, h.Model.Anchor, h.Nodes, h.Model.Hidden)
	}
	if h.arrayBytes() != len(r.b)-r.at {
		return nil, errors.New("shard: kit: sizes do not match its length")
	}
	g := &graph.Graph{Indptr: r.int32s(h.Nodes + 1), Indices: r.int32s(h.Adjacency)}
	adj := f32.CSR{Rows: h.Nodes, Cols: h.Nodes, Indptr: g.Indptr, Indices: g.Indices, Values: make([]float32, h.Adjacency)}
	if err := adj.Validate(); err != nil {
		return nil, fmt.Errorf("shard: kit adjacency: %w", err)
	}
	t := &f32.CSR{Rows: h.Nodes, Cols: h.Nodes, Indptr: r.int32s(h.Nodes + 1), Indices: r.int32s(h.Similar), Values: r.float32s(h.Similar)}
	sim, err := diffusion.FromColumns(t)
	if err != nil {
		return nil, fmt.Errorf("shard: kit: %w", err)
	}
	pos, err := r.edges(h.Pos, h.Nodes, "positive")
	if err != nil {
		return nil, err
	}
	val, err := r.edges(h.Val, h.Nodes, "validation pair")
	if err != nil {
		return nil, err
	}
	var h0 []float32
	if h.Anchor > 0 {
		h0 = r.float32s(h.Anchor)
	}
	if r.err != nil {
		return nil, r.err
	}
	return &Kit{Model: h.Model, Objective: h.Objective, BatchSize: h.BatchSize,
		Inputs: &ilpgnn.Inputs{Graph: g, Sim: sim}, Pos: pos, Val: val, Anchor: h0}, nil
}

func inRange(e graph.Edge, n int) bool {
	return e.U >= 0 && e.V >= 0 && int(e.U) < n && int(e.V) < n
}

// encodeTask is the message asking helper k of n workers for its shards
// (Owner) of e, the gen-th epoch the coordinator started.
func encodeTask(gen int, e *Epoch, k, n int) []byte {
	b := make([]byte, 0, 84+8*len(e.Neg)+4*len(e.HR))
	b = append(b, tagTask...)
	validate := 0
	if e.Validate != nil {
		validate = 1
	}
	for _, v := range []int{gen, e.Index, e.Norms.Pairs, e.Norms.Negatives, e.Norms.Contributing, k, n, validate, len(e.Neg), len(e.HR)} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	b = binary.LittleEndian.AppendUint64(b, e.Seed)
	b = appendEdges(b, e.Neg)
	return appendFloat32s(b, e.HR)
}

// decodeTask reads a task for kit's run; validate says whether it asks
// for validation logits first.
func decodeTask(data []byte, kit *Kit) (gen int, e *Epoch, k, n int, validate bool, err error) {
	r := reader{b: data}
	if r.tag() != tagTask {
		return 0, nil, 0, 0, false, errors.New("shard: not a task")
	}
	var v [10]int
	for i := range v {
		v[i] = r.int()
	}
	seed := r.u64()
	if r.err != nil {
		return 0, nil, 0, 0, false, r.err
	}
	e = &Epoch{Index: v[1], Seed: seed, Norms: ilpgnn.Norms{Pairs: v[2], Negatives: v[3], Contributing: v[4]}}
	k, n, nNeg, nHR := v[5], v[6], v[8], v[9]
	validate = v[7] == 1
	nodes := kit.Inputs.Graph.NumNodes()
	switch {
	case n < 2 || n > Count || k < 1 || k >= n || v[7] > 1:
		return 0, nil, 0, 0, false, fmt.Errorf("shard: task for worker %d of %d", k, n)
	case nNeg != len(kit.Pos):
		return 0, nil, 0, 0, false, fmt.Errorf("shard: task with %d negatives for %d positives", nNeg, len(kit.Pos))
	case nHR != nodes*kit.Model.Hidden:
		return 0, nil, 0, 0, false, fmt.Errorf("shard: task with H^r of %d values, want %d", nHR, nodes*kit.Model.Hidden)
	case 8*nNeg+4*nHR != len(r.b)-r.at:
		return 0, nil, 0, 0, false, errors.New("shard: task sizes do not match its length")
	}
	if e.Neg, err = r.edges(nNeg, nodes, "negative"); err != nil {
		return 0, nil, 0, 0, false, err
	}
	e.HR = r.float32s(nHR)
	return v[0], e, k, n, validate, r.err
}

// encodeLogits is a helper's first answer to a task that validates: the
// logits of its chunks of Kit.Val, in chunk order.
func encodeLogits(gen int, logits []float32) []byte {
	out := make([]byte, 0, 20+4*len(logits))
	out = append(out, tagLogits...)
	out = binary.LittleEndian.AppendUint64(out, uint64(gen))
	out = binary.LittleEndian.AppendUint64(out, uint64(len(logits)))
	return appendFloat32s(out, logits)
}

// decodeLogits reads the logits of the gen-th task, n of them.
func decodeLogits(data []byte, gen, n int) ([]float32, error) {
	r := reader{b: data}
	if r.tag() != tagLogits {
		return nil, errors.New("shard: not validation logits")
	}
	g, size := r.int(), r.int()
	if r.err != nil {
		return nil, r.err
	}
	if g != gen || size != n || 4*n != len(r.b)-r.at {
		return nil, fmt.Errorf("shard: %d logits of task %d do not fit (want %d of task %d)", size, g, n, gen)
	}
	return r.float32s(n), r.err
}

// stale reports whether msg answers an epoch other than the gen-th: every
// answer opens with its tag and its epoch's number.
func stale(msg []byte, gen int) bool {
	r := reader{b: msg}
	tag := r.tag()
	g := r.int()
	return r.err == nil && (tag == tagLeaf || tag == tagLogits) && g != gen
}

func appendEdges(b []byte, edges []graph.Edge) []byte {
	for _, e := range edges {
		b = binary.LittleEndian.AppendUint32(b, uint32(e.U))
		b = binary.LittleEndian.AppendUint32(b, uint32(e.V))
	}
	return b
}

// encodeLeaf is a helper's answer: shard s of its gen-th task, its losses
// and its gradient.
func encodeLeaf(gen, s int, l Loss, grad []float32) []byte {
	out := make([]byte, 0, 68+4*len(grad))
	out = append(out, tagLeaf...)
	for _, v := range []int{gen, s, len(grad)} {
		out = binary.LittleEndian.AppendUint64(out, uint64(v))
	}
	for _, f := range []float64{l.Total, l.Cls, l.Pos, l.Neg} {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(f))
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(l.Contributing))
	return appendFloat32s(out, grad)
}

// decodeLeaf reads a shard's answer whose gradient has len(into) values,
// into into.
func decodeLeaf(data []byte, into []float32) (gen, s int, grad []float32, l Loss, err error) {
	n := len(into)
	r := reader{b: data}
	if r.tag() != tagLeaf {
		return 0, 0, nil, l, errors.New("shard: not a shard's gradient")
	}
	gen, s = r.int(), r.int()
	size := r.int()
	l.Total, l.Cls, l.Pos, l.Neg = r.f64(), r.f64(), r.f64(), r.f64()
	l.Contributing = r.int()
	if r.err != nil {
		return 0, 0, nil, l, r.err
	}
	if s >= Count || size != n || 4*n != len(r.b)-r.at {
		return 0, 0, nil, l, fmt.Errorf("shard: gradient of shard %d with %d values does not fit its length", s, size)
	}
	r.float32sInto(into)
	return gen, s, into, l, r.err
}

func appendInt32s(b []byte, v []int32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return b
}

// littleEndian says whether this machine stores a float32 as the
// messages do, so that arrays of them can be copied as bytes.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func appendFloat32s(b []byte, v []float32) []byte {
	if littleEndian && len(v) > 0 {
		return append(b, unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))...)
	}
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// reader reads a message front to back; its first shortfall sticks in err
// and every later read returns zeros.
type reader struct {
	b   []byte
	at  int
	err error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.at {
		r.err = errShort
		return nil
	}
	out := r.b[r.at : r.at+n]
	r.at += n
	return out
}

func (r *reader) tag() string { return string(r.bytes(4)) }

func (r *reader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// int reads a uint64 that must fit an int32-sized count.
func (r *reader) int() int {
	v := r.u64()
	if v > math.MaxInt32 {
		if r.err == nil {
			r.err = fmt.Errorf("shard: count %d out of range", v)
		}
		return 0
	}
	return int(v)
}

func (r *reader) f64() float64 { return math.Float64frombits(r.u64()) }

// edges reads n pairs of node indices below nodes; what names them in an
// error.
func (r *reader) edges(n, nodes int, what string) ([]graph.Edge, error) {
	out := make([]graph.Edge, n)
	for i := range out {
		out[i] = graph.Edge{U: int32(r.u32()), V: int32(r.u32())}
		if r.err == nil && !inRange(out[i], nodes) {
			return nil, fmt.Errorf("shard: %s %d (%d, %d) outside the %d nodes", what, i, out[i].U, out[i].V, nodes)
		}
	}
	return out, r.err
}

func (r *reader) int32s(n int) []int32 {
	b := r.bytes(4 * n)
	if b == nil {
		return make([]int32, max(n, 0))
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// float32sInto reads len(out) floats into out.
func (r *reader) float32sInto(out []float32) {
	n := len(out)
	b := r.bytes(4 * n)
	if b == nil {
		return
	}
	if littleEndian && n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*n), b)
		return
	}
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

func (r *reader) float32s(n int) []float32 {
	out := make([]float32, max(n, 0))
	r.float32sInto(out)
	return out
}
