package checkpoint

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// Smallest encodings of a metric and a tensor entry in the header: a
// length, a one-byte name and 8 bytes. They bound the counts before
// anything is allocated.
const (
	minMetricLen = 4 + 1 + 8
	minTensorLen = 4 + 1 + 4 + 4
)

// decodeHeader decodes the H header bytes b of a checkpoint with preamble p.
// Every length is checked against the bytes that remain (and the tensor
// shapes against the data length D) before anything is allocated.
func decodeHeader(b []byte, p preamble) (*Header, error) {
	d := &decoder{b: b}
	h := &Header{Version: p.version}
	h.Model = string(d.bytes("model name"))
	h.Dataset = string(d.bytes("dataset name"))
	copy(h.Fingerprint[:], d.next(32, "fingerprint"))
	h.Seed = d.u64("seed")
	h.Created = int64(d.u64("creation time"))
	if cfg := d.bytes("config"); len(cfg) > 0 {
		h.Config = bytes.Clone(cfg)
	}

	if m := d.count("metric", minMetricLen); m > 0 {
		h.Metrics = make([]Metric, 0, m)
		seen := make(map[string]bool, m)
		for i := range m {
			name := d.name("metric", i, seen)
			v := math.Float64frombits(d.u64(fmt.Sprintf("metric %q value", name)))
			if d.err != nil {
				break
			}
			seen[name] = true
			h.Metrics = append(h.Metrics, Metric{name, v})
		}
	}

	rest := p.dataLen // tensor data bytes not yet claimed by a tensor
	if t := d.count("tensor", minTensorLen); t > 0 {
		h.Tensors = make([]TensorInfo, 0, t)
		seen := make(map[string]bool, t)
		for i := range t {
			name := d.name("tensor", i, seen)
			rows := d.u32(fmt.Sprintf("tensor %q rows", name))
			cols := d.u32(fmt.Sprintf("tensor %q cols", name))
			if d.err != nil {
				break
			}
			seen[name] = true
			n := uint64(rows) * uint64(cols)
			if n > rest/4 {
				return nil, fmt.Errorf("%w: header: tensor %q is %d x %d, more than the %d bytes left in the %d-byte data section",
					ErrCorrupt, name, rows, cols, rest, p.dataLen)
			}
			if uint64(rows) > math.MaxInt || uint64(cols) > math.MaxInt {
				return nil, fmt.Errorf("%w: header: tensor %q is %d x %d, too large for this platform", ErrCorrupt, name, rows, cols)
			}
			rest -= 4 * n
			h.Tensors = append(h.Tensors, TensorInfo{name, int(rows), int(cols)})
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) > 0 {
		return nil, fmt.Errorf("%w: header: %d unexpected bytes after the tensor list", ErrCorrupt, len(d.b))
	}
	if rest != 0 {
		return nil, fmt.Errorf("%w: header: the tensors need %d bytes of data, the data section is %d",
			ErrCorrupt, p.dataLen-rest, p.dataLen)
	}
	return h, nil
}

// decoder consumes b from the front. After the first error it returns
// zero values and keeps that error.
type decoder struct {
	b   []byte
	err error
}

// next returns the next n bytes, aliasing the input.
func (d *decoder) next(n uint64, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.err = fmt.Errorf("%w: header: %s needs %d bytes, %d are left", ErrCorrupt, what, n, len(d.b))
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u32(what string) uint32 {
	if p := d.next(4, what); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) u64(what string) uint64 {
	if p := d.next(8, what); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// bytes returns a length-prefixed byte string, aliasing the input.
func (d *decoder) bytes(what string) []byte {
	n := d.u32(what + " length")
	return d.next(uint64(n), what)
}

// count reads the number of entries of a list whose entries take at least
// minLen bytes each, and checks that they can fit in what is left.
func (d *decoder) count(what string, minLen int) int {
	n := uint64(d.u32(what + " count"))
	if d.err == nil && n > uint64(len(d.b)/minLen) {
		d.err = fmt.Errorf("%w: header: %d %ss cannot fit in the %d bytes left", ErrCorrupt, n, what, len(d.b))
	}
	if d.err != nil {
		return 0
	}
	return int(n)
}

// name reads the name of entry i of a list, which must be non-empty and not
// in taken.
func (d *decoder) name(what string, i int, taken map[string]bool) string {
	s := string(d.bytes(fmt.Sprintf("%s %d name", what, i)))
	if d.err != nil {
		return ""
	}
	switch {
	case s == "":
		d.err = fmt.Errorf("%w: header: %s %d has an empty name", ErrCorrupt, what, i)
	case taken[s]:
		d.err = fmt.Errorf("%w: header: two %ss are called %q", ErrCorrupt, what, s)
	}
	return s
}
