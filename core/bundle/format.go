package bundle

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
)

// headerLen is the fixed header: Magic, the version, the payload's CRC-32
// and its length.
const headerLen = len(Magic) + 4 + 4 + 8

// MarshalBinary encodes b in format Version (FORMAT.md), or in format 1,
// byte for byte as before format 2, when its model has no anchor.
func (b *Bundle) MarshalBinary() ([]byte, error) {
	p := b.Predictor
	g := p.Inputs.Graph
	cfg := p.Model.Config
	n, d := g.NumNodes(), cfg.Hidden
	if len(p.Hr) != n*d {
		return nil, fmt.Errorf("bundle: H^r holds %d values, want %d nodes x %d", len(p.Hr), n, d)
	}
	version := uint32(1)
	if cfg.Anchor != 0 {
		version = 2
		if len(p.Anchor) != n*d {
			return nil, fmt.Errorf("bundle: H^0 holds %d values, want %d nodes x %d", len(p.Anchor), n, d)
		}
		if err := finite(p.Anchor, nil); err != nil {
			return nil, fmt.Errorf("bundle: the start's %w", err)
		}
	}
	sim := p.Inputs.Sim.Columns()
	if sim.Rows != n {
		return nil, fmt.Errorf("bundle: S̃ is on %d nodes, the graph has %d", sim.Rows, n)
	}
	if err := readable(b.Dataset, g.IDs); err != nil {
		return nil, err
	}
	if err := finite(p.Hr, sim.Values); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	var e encoder
	e.str(b.Dataset)
	e.buf = append(e.buf, b.Fingerprint[:]...)
	e.u64(p.Seed)
	e.u8(uint8(p.Attribution))
	e.f64(p.Temperature)
	e.f64(p.Bias)
	e.f64(p.CalibrationError)
	e.u32(uint32(cfg.Hidden))
	e.u32(uint32(cfg.K))
	e.u32(uint32(cfg.Candidates))
	e.f64(cfg.Alpha)
	e.f64(cfg.Beta)
	e.f64(cfg.Tau)
	e.bool(cfg.MaskTarget)
	e.u8(uint8(cfg.Structure))
	e.u8(uint8(cfg.Order))
	if version >= 2 {
		e.f64(cfg.Anchor)
	}
	e.u32(uint32(n))
	for _, id := range g.IDs {
		e.str(id)
	}
	edges := g.Edges()
	e.u32(uint32(len(edges)))
	for _, ed := range edges {
		e.u32(uint32(ed.U))
		e.u32(uint32(ed.V))
	}
	e.bool(b.Explainable != nil)
	if b.Explainable != nil {
		e.i32s(b.Explainable)
	}
	e.f32s(p.Hr)
	if cfg.Anchor != 0 {
		e.f32s(p.Anchor)
	}
	e.u32(uint32(sim.NNZ()))
	e.buf = appendI32s(e.buf, sim.Indptr)
	e.buf = appendI32s(e.buf, sim.Indices)
	for _, v := range sim.Values {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, math.Float32bits(v))
	}

	out := make([]byte, 0, headerLen+len(e.buf))
	out = append(out, Magic...)
	out = binary.LittleEndian.AppendUint32(out, version)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(e.buf))
	out = binary.LittleEndian.AppendUint64(out, uint64(len(e.buf)))
	return append(out, e.buf...), nil
}

// readable refuses the names Unmarshal would refuse, so that no bundle is
// written that its reader cannot load: the dataset's name and every node id
// must be UTF-8 (a loader keeps an id's bytes as the file has them, and an
// edge list in Latin-1 gives ids that are not). Ids are unique in every
// graph.New builds.
func readable(dataset string, ids []string) error {
	if !utf8.ValidString(dataset) {
		return fmt.Errorf("bundle: the dataset's name %s is not UTF-8 text, which the card cannot read: give the data file or folder a UTF-8 name", strconv.Quote(dataset))
	}
	first, bad := -1, 0
	for i, id := range ids {
		if !utf8.ValidString(id) {
			if first < 0 {
				first = i
			}
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	more := ""
	if bad > 1 {
		more = fmt.Sprintf(" (and %d more ids)", bad-1)
	}
	return fmt.Errorf("bundle: node %d's id %s%s is not UTF-8 text, which the card cannot read: convert the data file to UTF-8 (for example with iconv -f latin1 -t utf-8), then train and export again", first, strconv.Quote(ids[first]), more)
}

// Unmarshal decodes a bundle, checking everything a reader relies on: the
// magic, the version, the checksum, and that every count, index and
// setting is in range, so that a foreign or damaged file is an error and
// never a panic. Errors wrap ErrNotBundle, ErrNewer or ErrDamaged.
func Unmarshal(data []byte) (*Bundle, error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, ErrNotBundle
	}
	if len(data) < headerLen {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrDamaged, len(data), headerLen)
	}
	h := data[len(Magic):]
	version := binary.LittleEndian.Uint32(h)
	if version > Version {
		return nil, fmt.Errorf("%w (format %d; this reader knows format %d at most): export it again with this version, or use a newer card", ErrNewer, version, Version)
	}
	if version == 0 {
		return nil, fmt.Errorf("%w: format 0 does not exist", ErrDamaged)
	}
	sum := binary.LittleEndian.Uint32(h[4:])
	size := binary.LittleEndian.Uint64(h[8:])
	payload := data[headerLen:]
	if uint64(len(payload)) != size {
		return nil, fmt.Errorf("%w: %d bytes of contents, the header says %d (cut short in transfer?)", ErrDamaged, len(payload), size)
	}
	if crc32.ChecksumIEEE(payload) != sum {
		return nil, fmt.Errorf("%w: the checksum does not match the contents", ErrDamaged)
	}
	b, err := decode(&decoder{buf: payload}, version)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return b, nil
}

func decode(r *decoder, version uint32) (*Bundle, error) {
	b := &Bundle{Dataset: r.str()}
	copy(b.Fingerprint[:], r.bytes(32))
	p, cfg, err := decodeSettings(r, version)
	if err != nil {
		return nil, err
	}
	g, err := decodeGraph(r, b.Dataset)
	if err != nil {
		return nil, err
	}
	n := g.NumNodes()
	if r.bool() {
		b.Explainable = r.i32s()
		for k, i := range b.Explainable {
			if i < 0 || int(i) >= n || k > 0 && b.Explainable[k-1] >= i {
				return nil, fmt.Errorf("explainable node %d out of range or out of order", i)
			}
		}
		if b.Explainable == nil {
			b.Explainable = []int32{}
		}
	}
	if uint64(n)*uint64(cfg.Hidden) > uint64(r.left()/4) {
		return nil, fmt.Errorf("H^r of %d x %d does not fit in %d bytes", n, cfg.Hidden, r.left())
	}
	p.Hr = r.f32s(n * cfg.Hidden)
	if cfg.Anchor != 0 {
		if uint64(n)*uint64(cfg.Hidden) > uint64(r.left()/4) {
			return nil, fmt.Errorf("H^0 of %d x %d does not fit in %d bytes", n, cfg.Hidden, r.left())
		}
		p.Anchor = r.f32s(n * cfg.Hidden)
	}
	nnz := r.count(8)
	t := &f32.CSR{Rows: n, Cols: n}
	t.Indptr = r.i32n(n + 1)
	t.Indices = r.i32n(nnz)
	t.Values = r.f32s(nnz)
	if r.err != nil {
		return nil, r.err
	}
	if r.left() != 0 {
		return nil, fmt.Errorf("%d bytes left over after S̃", r.left())
	}
	if err := finite(p.Hr, t.Values); err != nil {
		return nil, err
	}
	if err := finite(p.Anchor, nil); err != nil {
		return nil, fmt.Errorf("the start's %w", err)
	}
	sim, err := diffusion.FromColumns(t)
	if err != nil {
		return nil, err
	}
	p.Model = &ilpgnn.Model{Config: cfg}
	p.Inputs = &ilpgnn.Inputs{Graph: g, Sim: sim}
	b.Predictor = p
	return b, nil
}

// decodeSettings reads the predictor's seed, attribution and calibration
// and the model's settings, and checks them.
func decodeSettings(r *decoder, version uint32) (*ilpgnn.Predictor, ilpgnn.Config, error) {
	p := &ilpgnn.Predictor{Seed: r.u64(), Attribution: ilpgnn.Attribution(r.u8())}
	p.Temperature, p.Bias, p.CalibrationError = r.f64(), r.f64(), r.f64()
	cfg := ilpgnn.DefaultConfig()
	cfg.Hidden, cfg.K, cfg.Candidates = int(r.u32()), int(r.u32()), int(r.u32())
	cfg.Alpha, cfg.Beta, cfg.Tau = r.f64(), r.f64(), r.f64()
	cfg.MaskTarget = r.bool()
	cfg.Structure = ilpgnn.StructureScale(r.u8())
	cfg.Order = ilpgnn.SelectionOrder(r.u8())
	cfg.Anchor = 0 // format 1 is of models without an anchor
	if version >= 2 {
		cfg.Anchor = r.f64()
	}
	if r.err != nil {
		return nil, cfg, r.err
	}
	if err := cfg.Validate(); err != nil {
		return nil, cfg, fmt.Errorf("settings: %w", err)
	}
	if p.Attribution > ilpgnn.AttributionOcclusion {
		return nil, cfg, fmt.Errorf("unknown attribution %d", p.Attribution)
	}
	// The ranges calibrate.Fit keeps to; a NaN would turn every p into NaN.
	for _, v := range []float64{p.Temperature, p.Bias, p.CalibrationError} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, cfg, fmt.Errorf("calibration holds %g", v)
		}
	}
	if p.Temperature < 0 || p.CalibrationError < 0 || p.CalibrationError > 1 {
		return nil, cfg, fmt.Errorf("calibration temperature %g or error %g out of range", p.Temperature, p.CalibrationError)
	}
	return p, cfg, nil
}

// decodeGraph reads the node ids and the edge list, and builds the graph
// named name; an edge listed twice makes the bundle damaged.
func decodeGraph(r *decoder, name string) (*graph.Graph, error) {
	n := r.count(4) // every id takes at least its 4-byte length
	ids := make([]string, 0, n)
	for range n {
		ids = append(ids, r.str())
	}
	m := r.count(8)
	edges := make([]graph.Edge, m)
	for k := range edges {
		edges[k] = graph.Edge{U: int32(r.u32()), V: int32(r.u32())}
	}
	if r.err != nil {
		return nil, r.err
	}
	g, err := graph.New(n, edges, nil, ids)
	if err != nil {
		return nil, err
	}
	if g.NumEdges() != m {
		return nil, fmt.Errorf("%d edges listed, %d distinct", m, g.NumEdges())
	}
	g.Name = name
	return g, nil
}

// finite refuses H^r (hr) or S̃'s values (sim) holding a value that is not
// a finite number, which would make every p that reads it NaN: a
// checkpoint with such weights is refused when it is opened, and a bundle
// is too.
func finite(hr, sim []float32) error {
	for _, v := range []struct {
		what string
		vals []float32
	}{{"H^r", hr}, {"S̃", sim}} {
		for k, x := range v.vals {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("%s holds %v at value %d, not a finite number", v.what, x, k)
			}
		}
	}
	return nil
}

type encoder struct{ buf []byte }

func (e *encoder) u8(v uint8)   { e.buf = append(e.buf, v) }
func (e *encoder) u32(v uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, v) }
func (e *encoder) u64(v uint64) { e.buf = binary.LittleEndian.AppendUint64(e.buf, v) }
func (e *encoder) f64(v float64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
}
func (e *encoder) bool(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}
func (e *encoder) str(s string) { e.u32(uint32(len(s))); e.buf = append(e.buf, s...) }
func (e *encoder) i32s(v []int32) {
	e.u32(uint32(len(v)))
	e.buf = appendI32s(e.buf, v)
}
func (e *encoder) f32s(v []float32) {
	for _, x := range v {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, math.Float32bits(x))
	}
}

func appendI32s(buf []byte, v []int32) []byte {
	for _, x := range v {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(x))
	}
	return buf
}

// decoder reads the payload; the first error sticks and every later read
// returns zeros, so decode checks r.err once per section.
type decoder struct {
	buf []byte
	off int
	err error
}

func (r *decoder) left() int { return len(r.buf) - r.off }

func (r *decoder) bytes(k int) []byte {
	if r.err != nil {
		return nil
	}
	if k < 0 || k > r.left() {
		r.err = fmt.Errorf("cut short at byte %d (wanted %d more)", r.off, k)
		return nil
	}
	out := r.buf[r.off : r.off+k]
	r.off += k
	return out
}

func (r *decoder) u8() uint8 {
	if b := r.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *decoder) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *decoder) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *decoder) f64() float64 { return math.Float64frombits(r.u64()) }

func (r *decoder) bool() bool {
	v := r.u8()
	if v > 1 && r.err == nil {
		r.err = fmt.Errorf("byte %d: a flag holds %d", r.off-1, v)
	}
	return v == 1
}

// count reads a count of items that take at least min bytes each and
// checks that they fit in what is left, so that no count can make the
// reader allocate more than the file holds.
func (r *decoder) count(min int) int {
	v := r.u32()
	if r.err == nil && uint64(v)*uint64(min) > uint64(r.left()) {
		r.err = fmt.Errorf("byte %d: %d items cannot fit in the %d bytes left", r.off-4, v, r.left())
		return 0
	}
	return int(v)
}

func (r *decoder) str() string {
	b := r.bytes(r.count(1))
	if b != nil && !utf8.Valid(b) {
		r.err = fmt.Errorf("byte %d: a name is not UTF-8", r.off-len(b))
		return ""
	}
	return string(b)
}

func (r *decoder) i32n(k int) []int32 {
	return words(r, k, func(u uint32) int32 { return int32(u) })
}

func (r *decoder) i32s() []int32 { return r.i32n(r.count(4)) }

func (r *decoder) f32s(k int) []float32 { return words(r, k, math.Float32frombits) }

// words reads k 4-byte little-endian values, each converted by fromBits
// when the machine's byte order is not the format's.
func words[T int32 | float32](r *decoder, k int, fromBits func(uint32) T) []T {
	b := r.bytes(4 * k)
	if b == nil {
		return nil
	}
	out := make([]T, k)
	if littleEndian && k > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*k), b)
		return out
	}
	for i := range out {
		out[i] = fromBits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// littleEndian says the machine stores numbers as the format does
// (WebAssembly always; amd64 and arm64 too): the arrays of a bundle are
// then copied as bytes. Element by element, H^r and S̃ took most of a
// Cora bundle's 80-140 ms to read in the browser.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
