package load

import (
	"archive/zip"
	"bytes"
	"compress/flate"
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

// array is a decoded .npy header, or a chunk of its data (see npyStream).
type array struct {
	member string
	kind   byte // 'b', 'i', 'u', 'f', 'U' or 'S'
	size   int  // bytes per element
	order  binary.ByteOrder
	shape  []int
	n      int    // number of elements
	data   []byte // a chunk's bytes; nil in a header
	base   int    // index in the whole array of element 0 of a chunk
}

// maxRatio bounds how far a member may claim to inflate: deflate cannot
// compress by more than 1032 to 1, so a member declaring more than that
// times its compressed size (plus slack for tiny members) lies about its
// size.
const maxRatio = 1032

// maxHeader bounds a .npy header (numpy writes 64 to a few hundred bytes).
const maxHeader = 1 << 16

// chunkBytes is about how many bytes of a member's data are decoded at a
// time (at least one element; a numpy string element can be 4 MiB).
const chunkBytes = 1 << 18

// npyStream is a member whose .npy header has been read and checked. Its
// data is never held whole: it is read a chunk at a time, so that what a
// member costs is a chunk, whatever its header or its zip entry declares,
// and nothing sized from a declaration is allocated before the bytes have
// been inflated.
type npyStream struct {
	array          // the header
	r     *npzFile // for errors
	rc    io.ReadCloser
	f     *zip.File // the member's entry
	next  int       // index of the next element to read
	buf   []byte
}

// open reads member's .npy header and checks it: the data its shape and
// dtype call for must be exactly what the zip entry declares it holds, and
// check (when not nil) must accept the header. Nothing of the data is read.
// The stream must be closed; finish checks that it ended where declared.
func (r *npzFile) open(member string, check func(a *array) error) (s *npyStream, err error) {
	f := r.keys[member]
	if f == nil {
		return nil, r.errorf("", "no %s member", member)
	}
	declared, err := r.checkEntry(member, f)
	if err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		return nil, r.errorf(member, "%v", readProblem(err))
	}
	s = &npyStream{r: r, rc: rc, f: f}
	defer func() {
		if err != nil {
			rc.Close()
		}
	}()
	head, hdr, err := s.readHeader(member, declared)
	if err != nil {
		return nil, err
	}
	s.array = array{member: member, shape: hdr.Descr.Shape}
	if err := s.setDtype(hdr.Descr.Type); err != nil {
		return nil, &Error{File: r.file, Err: fmt.Errorf("%s: %w", member, err)}
	}
	if hdr.Descr.Fortran && len(s.shape) > 1 {
		return nil, r.errorf(member, "Fortran-order arrays are not supported")
	}
	s.n = 1
	for _, d := range s.shape {
		if d < 0 {
			return nil, r.errorf(member, "negative dimension in shape %v", s.shape)
		}
		hi, lo := bits.Mul64(uint64(s.n), uint64(d))
		if hi != 0 || lo > math.MaxInt32 {
			return nil, r.errorf(member, "shape %v too large", s.shape)
		}
		s.n = int(lo)
	}
	hi, want := bits.Mul64(uint64(s.n), uint64(s.size))
	if have := declared - uint64(len(head)); hi != 0 || have != want {
		return nil, r.errorf(member, "holds %d data bytes, shape %v of %s needs %d",
			have, s.shape, hdr.Descr.Type, want)
	}
	if check != nil {
		if err := check(&s.array); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkEntry checks what member's zip entry f declares before any of it
// is read, and returns its uncompressed size. The sizes in the zip's
// headers are declarations too: the compressed bytes must lie within the
// file before they bound anything.
func (r *npzFile) checkEntry(member string, f *zip.File) (declared uint64, err error) {
	at, err := f.DataOffset()
	if err != nil {
		return 0, r.errorf(member, "damaged zip entry: %v", unwrapAll(err))
	}
	if at < 0 || at > r.size || f.CompressedSize64 > uint64(r.size-at) {
		return 0, r.errorf(member, "declares %d compressed bytes from byte %d of a %d-byte file: the file is cut short or damaged",
			f.CompressedSize64, at, r.size)
	}
	declared = f.UncompressedSize64
	if declared > math.MaxInt32 {
		return 0, r.errorf(member, "declares %d bytes uncompressed, more than the 2 GiB a member may hold", declared)
	}
	// (Divided, not multiplied: CompressedSize64 comes from the file and
	// could overflow.)
	if f.Method == zip.Store && declared != f.CompressedSize64 ||
		declared > maxHeader && (declared-maxHeader)/maxRatio > f.CompressedSize64 {
		return 0, r.errorf(member, "declares %d bytes uncompressed from %d compressed: not a real archive member",
			declared, f.CompressedSize64)
	}
	return declared, nil
}

// readHeader reads and parses the member's .npy header: magic (6 bytes),
// version (2), header length (2 bytes in version 1, 4 in versions 2 and
// 3), header. Its length is checked against what the member declares
// (declared bytes) here, so that npyio never allocates a length read from
// a corrupt file. It returns the header's bytes and what they say.
func (s *npyStream) readHeader(member string, declared uint64) ([]byte, npy.Header, error) {
	r := s.r
	var none npy.Header
	if declared < 10 {
		return nil, none, r.errorf(member, "not a .npy array")
	}
	var pre [12]byte
	if err := s.readFull(member, pre[:10]); err != nil {
		return nil, none, err
	}
	if !bytes.Equal(pre[:6], npy.Magic[:]) {
		return nil, none, r.errorf(member, "not a .npy array")
	}
	start, hlen := 10, uint64(binary.LittleEndian.Uint16(pre[8:10]))
	if pre[6] >= 2 {
		if declared < 12 {
			return nil, none, r.errorf(member, "truncated .npy header")
		}
		if err := s.readFull(member, pre[10:12]); err != nil {
			return nil, none, err
		}
		start, hlen = 12, uint64(binary.LittleEndian.Uint32(pre[8:12]))
	}
	if hlen > declared-uint64(start) {
		return nil, none, r.errorf(member, "truncated .npy header")
	}
	if hlen > maxHeader {
		return nil, none, r.errorf(member, ".npy header of %d bytes, more than %d", hlen, maxHeader)
	}
	head := make([]byte, start+int(hlen))
	copy(head, pre[:start])
	if err := s.readFull(member, head[start:]); err != nil {
		return nil, none, err
	}
	hdr, err := parseHeader(head)
	if err != nil {
		return nil, none, r.errorf(member, "bad .npy header: %v", err)
	}
	return head, hdr, nil
}

// readFull fills b from the member's data, naming a short member as
// truncated.
func (s *npyStream) readFull(member string, b []byte) error {
	if _, err := io.ReadFull(s.rc, b); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return s.r.errorf(member, "truncated: holds fewer bytes than it declares")
		}
		return s.r.errorf(member, "%v", readProblem(err))
	}
	return nil
}

// readProblem says in words what an error from inside the archive means.
func readProblem(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.As(err, &corrupt):
		return fmt.Errorf("damaged: its compressed data is corrupt (%v)", err)
	case errors.Is(err, zip.ErrChecksum):
		return errors.New("damaged: its data does not match its checksum")
	case errors.Is(err, zip.ErrAlgorithm):
		return errors.New("compressed with a method other than deflate: only stored or deflated members are read")
	}
	return err
}

// chunk reads the next chunk of elements: an array holding up to
// chunkBytes of data (at least one element), with base set to the index of
// its first element and shape nil. It reuses the stream's buffer, so a
// chunk is valid until the next call. ok is false after the last element.
func (s *npyStream) chunk() (c *array, ok bool, err error) {
	if s.next >= s.n {
		return nil, false, nil
	}
	per := max(1, chunkBytes/max(s.size, 8)) // decoded, a chunk may widen to int64
	k := min(s.n-s.next, per)
	if s.buf == nil {
		s.buf = make([]byte, min(s.n, per)*s.size)
	}
	c = &array{member: s.member, kind: s.kind, size: s.size, order: s.order,
		n: k, data: s.buf[:k*s.size], base: s.next}
	if err := s.readFull(s.member, c.data); err != nil {
		return nil, false, err
	}
	s.next += k
	return c, true, nil
}

// finish checks that every element has been read and that the member
// ends there: reading on to the end is what makes archive/zip verify the
// checksum. It does not close the stream.
func (s *npyStream) finish() error {
	if s.next != s.n {
		panic("load: npy stream finished early")
	}
	if n, err := s.rc.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			return s.r.errorf(s.member, "holds more bytes than it declares")
		}
		return s.r.errorf(s.member, "%v", readProblem(err))
	}
	return nil
}

// present bounds the number of elements from the bytes the file itself
// holds for the member (open has checked that they are within the file):
// all of them when it is stored, no more than its compressed bytes could
// hold uncompressed when it is deflated. It sizes buffers that would
// otherwise be sized from the header and then grown.
func (s *npyStream) present() int {
	return int(min(uint64(s.n), s.f.CompressedSize64/uint64(s.size)))
}

// close releases the stream; it may be called on a nil stream and more
// than once.
func (s *npyStream) close() {
	if s != nil && s.rc != nil {
		s.rc.Close()
		s.rc = nil
	}
}

// intReader hands out the elements of an integer member in order,
// decoding a chunk at a time: a narrow dtype is never widened for more
// than a chunk.
type intReader struct {
	s    *npyStream
	vals []int64 // the chunk, decoded
	pos  int     // vals[pos:] are still to be handed out
}

// newIntReader checks that s holds integers (or booleans).
func newIntReader(s *npyStream) (*intReader, error) {
	if s.kind != 'b' && s.kind != 'i' && s.kind != 'u' {
		return nil, s.r.errorf(s.member, "want integers, got dtype kind %q", s.kind)
	}
	return &intReader{s: s}, nil
}

// fill decodes the next chunk once the last has been handed out. It panics
// past the end: the callers count the elements they take.
func (ir *intReader) fill() error {
	if ir.pos < len(ir.vals) {
		return nil
	}
	c, ok, err := ir.s.chunk()
	if err != nil {
		return err
	}
	if !ok {
		panic("load: read past the end of " + ir.s.member)
	}
	if ir.vals, err = c.intsInto(ir.vals); err != nil {
		return ir.s.r.errorf("", "%v", err)
	}
	ir.pos = 0
	return nil
}

// take hands out the next m elements, m no more than fill left.
func (ir *intReader) take(m int) []int64 {
	out := ir.vals[ir.pos : ir.pos+m]
	ir.pos += m
	return out
}

// next returns the next element.
func (ir *intReader) next() (int64, error) {
	if err := ir.fill(); err != nil {
		return 0, err
	}
	return ir.take(1)[0], nil
}

// floatReader hands out the elements of a numeric member in order as
// float32, decoding a chunk at a time.
type floatReader struct {
	s       *npyStream
	vals    []float32
	pos     int
	scratch []int64 // an integer chunk before conversion
}

// newFloatReader checks that s holds numbers.
func newFloatReader(s *npyStream) (*floatReader, error) {
	if s.kind != 'b' && s.kind != 'i' && s.kind != 'u' && s.kind != 'f' {
		return nil, s.r.errorf(s.member, "want numbers, got dtype kind %q", s.kind)
	}
	return &floatReader{s: s}, nil
}

// fill is intReader.fill for floats.
func (fr *floatReader) fill() error {
	if fr.pos < len(fr.vals) {
		return nil
	}
	c, ok, err := fr.s.chunk()
	if err != nil {
		return err
	}
	if !ok {
		panic("load: read past the end of " + fr.s.member)
	}
	if fr.vals, err = c.floatsInto(fr.vals, &fr.scratch); err != nil {
		return fr.s.r.errorf("", "%v", err)
	}
	fr.pos = 0
	return nil
}

// take is intReader.take for floats.
func (fr *floatReader) take(m int) []float32 {
	out := fr.vals[fr.pos : fr.pos+m]
	fr.pos += m
	return out
}

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

// dtypeError is an unsupported numpy dtype.
type dtypeError struct{ dtype string }

func (e *dtypeError) Error() string { return fmt.Sprintf("unsupported dtype %q", e.dtype) }

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

// intsInto decodes an integer or boolean chunk into buf's storage (grown
// when too small) and returns it.
func (a *array) intsInto(buf []int64) ([]int64, error) {
	if a.kind != 'b' && a.kind != 'i' && a.kind != 'u' {
		return nil, fmt.Errorf("%s: want integers, got dtype kind %q", a.member, a.kind)
	}
	out := buf[:0]
	if cap(out) < a.n {
		out = make([]int64, a.n)
	}
	out = out[:a.n]
	d, signed := a.data, a.kind == 'i'
	switch {
	case a.size == 1 && signed:
		for i := range out {
			out[i] = int64(int8(d[i]))
		}
	case a.size == 1:
		for i := range out {
			out[i] = int64(d[i])
		}
	case a.size == 2 && signed:
		for i := range out {
			out[i] = int64(int16(a.order.Uint16(d[2*i:])))
		}
	case a.size == 2:
		for i := range out {
			out[i] = int64(a.order.Uint16(d[2*i:]))
		}
	case a.size == 4 && signed:
		for i := range out {
			out[i] = int64(int32(a.order.Uint32(d[4*i:])))
		}
	case a.size == 4:
		for i := range out {
			out[i] = int64(a.order.Uint32(d[4*i:]))
		}
	default:
		for i := range out {
			v := a.order.Uint64(d[8*i:])
			if !signed && v > math.MaxInt64 {
				return nil, fmt.Errorf("%s: element %d is %d, more than a signed 64-bit integer holds", a.member, a.base+i, v)
			}
			out[i] = int64(v)
		}
	}
	return out, nil
}

// floatsInto decodes a numeric chunk as float32 into buf's storage (grown
// when too small) and returns it; an integer chunk is decoded through
// *scratch. Non-finite values are errors naming the element's index in
// the whole array.
func (a *array) floatsInto(buf []float32, scratch *[]int64) ([]float32, error) {
	out := buf[:0]
	if cap(out) < a.n {
		out = make([]float32, a.n)
	}
	out = out[:a.n]
	if a.kind != 'f' {
		iv, err := a.intsInto(*scratch)
		if err != nil {
			return nil, err
		}
		*scratch = iv
		for i, v := range iv {
			out[i] = float32(v)
		}
		return out, nil
	}
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
	return out, nil
}

// appendStrings decodes a 'U' (UTF-32) or 'S' (bytes) chunk onto out,
// dropping the NUL padding. A string costs what it holds: each is at most
// as long in UTF-8 as its bytes in the member. It panics on other kinds.
func (a *array) appendStrings(out []string) []string {
	var buf []byte
	for i := range a.n {
		el := a.data[i*a.size : (i+1)*a.size]
		switch a.kind {
		case 'U':
			buf = buf[:0]
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
			out = append(out, string(buf))
		case 'S':
			if k := bytes.IndexByte(el, 0); k >= 0 {
				el = el[:k]
			}
			out = append(out, string(el))
		default:
			panic("load: strings from dtype kind " + string(a.kind))
		}
	}
	return out
}

// isStrings reports whether a holds names this package decodes.
func (a *array) isStrings() bool { return a.kind == 'U' || a.kind == 'S' }
