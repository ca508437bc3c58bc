package load

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sbinet/npyio/npy"
)

// array is a decoded .npy header with the raw data after it.
type array struct {
	member string
	kind   byte // 'b', 'i', 'u', 'f', 'U' or 'S'
	size   int  // bytes per element
	order  binary.ByteOrder
	shape  []int
	n      int // number of elements
	data   []byte
	base   int // index in the whole array of element 0 (see readEach)
}

// maxRatio bounds how far a member may claim to inflate: deflate cannot
// compress by more than 1032 to 1, so a member declaring more than that
// times its compressed size (plus slack for tiny members) lies about its
// size.
const maxRatio = 1032

// maxHeader bounds a .npy header (numpy writes 64 to a few hundred bytes).
const maxHeader = 1 << 16

// read reads member. Its .npy header is read first and checked: the data its
// shape and dtype call for must be exactly what the zip entry declares it
// holds, and check (when not nil) must accept the array's shape before the
// data is inflated, so that no declared size is allocated before it has
// been found consistent. The data read is then never more than declared.
func (r *npzFile) read(member string, check func(a *array) error) (a *array, err error) {
	return r.readEach(member, check, nil)
}

// chunkElems is how many elements readEach hands over at a time.
const chunkElems = 1 << 16

// readEach is read, except that when each is not nil the data is not kept:
// each is called on consecutive chunks of it instead (arrays of up to
// chunkElems elements, base set to the index of their first element, shape
// nil), so that a large array costs only what each keeps of it.
func (r *npzFile) readEach(member string, check func(a *array) error, each func(chunk *array) error) (a *array, err error) {
	f := r.keys[member]
	declared := f.UncompressedSize64
	if declared > math.MaxInt32 {
		return nil, r.errorf(member, "declares %d bytes uncompressed, more than the 2 GiB a member may hold", declared)
	}
	// (Divided, not multiplied: CompressedSize64 comes from the file and
	// could overflow.)
	if f.Method == zip.Store && declared != f.CompressedSize64 ||
		declared > maxHeader && (declared-maxHeader)/maxRatio > f.CompressedSize64 {
		return nil, r.errorf(member, "declares %d bytes uncompressed from %d compressed: not a real archive member",
			declared, f.CompressedSize64)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, r.errorf(member, "%v", err)
	}
	defer rc.Close()
	readFull := func(b []byte) error {
		if _, err := io.ReadFull(rc, b); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return r.errorf(member, "truncated: holds fewer bytes than it declares")
			}
			return r.errorf(member, "%v", err)
		}
		return nil
	}

	// Magic (6 bytes), version (2), header length (2 bytes in version 1,
	// 4 in versions 2 and 3), header. Checked here so that npyio never
	// allocates a length read from a corrupt file.
	if declared < 10 {
		return nil, r.errorf(member, "not a .npy array")
	}
	var pre [12]byte
	if err := readFull(pre[:10]); err != nil {
		return nil, err
	}
	if !bytes.Equal(pre[:6], npy.Magic[:]) {
		return nil, r.errorf(member, "not a .npy array")
	}
	start, hlen := 10, uint64(binary.LittleEndian.Uint16(pre[8:10]))
	if pre[6] >= 2 {
		if declared < 12 {
			return nil, r.errorf(member, "truncated .npy header")
		}
		if err := readFull(pre[10:12]); err != nil {
			return nil, err
		}
		start, hlen = 12, uint64(binary.LittleEndian.Uint32(pre[8:12]))
	}
	if hlen > declared-uint64(start) {
		return nil, r.errorf(member, "truncated .npy header")
	}
	if hlen > maxHeader {
		return nil, r.errorf(member, ".npy header of %d bytes, more than %d", hlen, maxHeader)
	}
	head := make([]byte, start+int(hlen))
	copy(head, pre[:start])
	if err := readFull(head[start:]); err != nil {
		return nil, err
	}
	hdr, err := parseHeader(head)
	if err != nil {
		return nil, r.errorf(member, "bad .npy header: %v", err)
	}
	a = &array{member: member, shape: hdr.Descr.Shape}
	if err := a.setDtype(hdr.Descr.Type); err != nil {
		return nil, &Error{File: r.file, Err: fmt.Errorf("%s: %w", member, err)}
	}
	if hdr.Descr.Fortran && len(a.shape) > 1 {
		return nil, r.errorf(member, "Fortran-order arrays are not supported")
	}
	a.n = 1
	for _, d := range a.shape {
		if d < 0 {
			return nil, r.errorf(member, "negative dimension in shape %v", a.shape)
		}
		hi, lo := bits.Mul64(uint64(a.n), uint64(d))
		if hi != 0 || lo > math.MaxInt32 {
			return nil, r.errorf(member, "shape %v too large", a.shape)
		}
		a.n = int(lo)
	}
	hi, want := bits.Mul64(uint64(a.n), uint64(a.size))
	if have := declared - uint64(len(head)); hi != 0 || have != want {
		return nil, r.errorf(member, "holds %d data bytes, shape %v of %s needs %d",
			have, a.shape, hdr.Descr.Type, want)
	}
	if check != nil {
		if err := check(a); err != nil {
			return nil, err
		}
	}
	if each == nil {
		a.data = make([]byte, want)
		if err := readFull(a.data); err != nil {
			return nil, err
		}
	} else {
		buf := make([]byte, min(a.n, chunkElems)*a.size)
		for first := 0; first < a.n; first += chunkElems {
			c := *a
			c.shape, c.n, c.base = nil, min(a.n-first, chunkElems), first
			c.data = buf[:c.n*a.size]
			if err := readFull(c.data); err != nil {
				return nil, err
			}
			if err := each(&c); err != nil {
				return nil, err
			}
		}
	}
	// Reading on to the end is what makes archive/zip verify the checksum.
	if n, err := rc.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			return nil, r.errorf(member, "holds more bytes than it declares")
		}
		return nil, r.errorf(member, "%v", err)
	}
	return a, nil
}

// readNames reads an optional array of names. An array whose dtype is not
// a string kind this package decodes (a pickled object array, say) gives a
// nil *array, so that a.strings() reports !ok and the names are skipped.
func (r *npzFile) readNames(member string, check func(a *array) error) (*array, error) {
	a, err := r.read(member, check)
	var de *dtypeError
	if errors.As(err, &de) {
		return nil, nil
	}
	return a, err
}

// dtypeError is an unsupported numpy dtype.
type dtypeError struct{ dtype string }

func (e *dtypeError) Error() string { return fmt.Sprintf("unsupported dtype %q", e.dtype) }

// parseHeader parses a .npy header with npyio, turning its panics on
// malformed headers into errors.
func parseHeader(b []byte) (h npy.Header, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed header dictionary")
		}
	}()
	rd, err := npy.NewReader(bytes.NewReader(b))
	if err != nil {
		return h, unwrapAll(err)
	}
	return rd.Header, nil
}

// setDtype parses a numpy type string such as "<i4", "|b1", ">f8", "<U19".
func (a *array) setDtype(t string) error {
	s := t
	a.order = binary.LittleEndian
	if s != "" && strings.ContainsRune("<>|=", rune(s[0])) {
		if s[0] == '>' {
			a.order = binary.BigEndian
		}
		s = s[1:]
	}
	if len(s) < 2 {
		return &dtypeError{t}
	}
	k := s[0]
	n, err := strconv.Atoi(s[1:])
	if err != nil || n <= 0 || n > 1<<20 {
		return &dtypeError{t}
	}
	a.kind, a.size = k, n
	switch k {
	case 'b', 'i', 'u':
		if n != 1 && n != 2 && n != 4 && n != 8 || k == 'b' && n != 1 {
			return &dtypeError{t}
		}
	case 'f':
		if n != 4 && n != 8 {
			return &dtypeError{t}
		}
	case 'U':
		a.size = 4 * n // n UTF-32 code units
	case 'S':
	default:
		return &dtypeError{t}
	}
	return nil
}

// ints decodes an integer or boolean array.
func (a *array) ints() ([]int64, error) {
	if a.kind != 'b' && a.kind != 'i' && a.kind != 'u' {
		return nil, fmt.Errorf("%s: want integers, got dtype kind %q", a.member, a.kind)
	}
	out := make([]int64, a.n)
	d := a.data
	for i := range out {
		switch a.size {
		case 1:
			if a.kind == 'i' {
				out[i] = int64(int8(d[i]))
			} else {
				out[i] = int64(d[i])
			}
		case 2:
			v := a.order.Uint16(d[2*i:])
			if a.kind == 'i' {
				out[i] = int64(int16(v))
			} else {
				out[i] = int64(v)
			}
		case 4:
			v := a.order.Uint32(d[4*i:])
			if a.kind == 'i' {
				out[i] = int64(int32(v))
			} else {
				out[i] = int64(v)
			}
		case 8:
			v := a.order.Uint64(d[8*i:])
			if a.kind == 'u' && v > math.MaxInt64 {
				return nil, fmt.Errorf("%s: value %d out of range", a.member, v)
			}
			out[i] = int64(v)
		}
	}
	return out, nil
}

// floats decodes a numeric array as float32. Non-finite values are errors.
func (a *array) floats() ([]float32, error) { return a.floatsInto(nil) }

// floatsInto is floats decoding into buf's storage when it is large enough.
func (a *array) floatsInto(buf []float32) ([]float32, error) {
	out := buf[:0]
	if cap(out) < a.n {
		out = make([]float32, a.n)
	}
	out = out[:a.n]
	switch a.kind {
	case 'f':
		d := a.data
		for i := range out {
			var v float64
			if a.size == 4 {
				v = float64(math.Float32frombits(a.order.Uint32(d[4*i:])))
			} else {
				v = math.Float64frombits(a.order.Uint64(d[8*i:]))
			}
			if math.IsNaN(v) || math.IsInf(float64(float32(v)), 0) {
				return nil, fmt.Errorf("%s: element %d is %g, not a finite float32", a.member, a.base+i, v)
			}
			out[i] = float32(v)
		}
	default:
		iv, err := a.ints()
		if err != nil {
			return nil, err
		}
		for i, v := range iv {
			out[i] = float32(v)
		}
	}
	return out, nil
}

// strings decodes a 'U' (UTF-32) or 'S' (bytes) array, dropping the NUL
// padding. ok is false for other kinds.
func (a *array) strings() (out []string, ok bool) {
	if a == nil {
		return nil, false
	}
	switch a.kind {
	case 'U':
		out = make([]string, a.n)
		var buf []byte
		for i := range out {
			buf = buf[:0]
			el := a.data[i*a.size : (i+1)*a.size]
			for k := 0; k < len(el); k += 4 {
				c := a.order.Uint32(el[k:])
				if c == 0 {
					break
				}
				if c > utf8.MaxRune {
					c = utf8.RuneError
				}
				buf = utf8.AppendRune(buf, rune(c))
			}
			out[i] = string(buf)
		}
		return out, true
	case 'S':
		out = make([]string, a.n)
		for i := range out {
			el := a.data[i*a.size : (i+1)*a.size]
			if k := bytes.IndexByte(el, 0); k >= 0 {
				el = el[:k]
			}
			out[i] = string(el)
		}
		return out, true
	}
	return nil, false
}
