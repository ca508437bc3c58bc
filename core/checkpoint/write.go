package checkpoint

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
)

// MarshalBinary returns the encoding of c described in the package
// documentation. It returns an error, and no bytes, if c cannot be encoded:
// a tensor whose Rows*Cols differs from len(Data) or whose dimension is
// negative or above 2³²-1, an empty or repeated tensor or metric name, or a
// string, Config or header longer than 2³²-1 bytes.
func (c *Checkpoint) MarshalBinary() ([]byte, error) {
	hdr, dataLen, err := c.encodeHeader()
	if err != nil {
		return nil, err
	}
	size := uint64(overhead) + uint64(len(hdr)) + dataLen
	if size > math.MaxInt {
		return nil, fmt.Errorf("checkpoint: %d bytes do not fit in memory", size)
	}
	buf := &sliceWriter{b: make([]byte, 0, size)}
	if _, err := c.write(buf, hdr, dataLen); err != nil {
		return nil, err // cannot happen: sliceWriter does not fail
	}
	return buf.b, nil
}

// WriteTo writes the encoding of c to w, streaming the tensor data rather
// than building the whole file in memory, and returns the number of bytes
// written. c is validated before anything is written, as by MarshalBinary;
// an error after that is w's.
func (c *Checkpoint) WriteTo(w io.Writer) (int64, error) {
	hdr, dataLen, err := c.encodeHeader()
	if err != nil {
		return 0, err
	}
	return c.write(w, hdr, dataLen)
}

// WriteFile writes c to the file path, atomically: it writes a temporary
// file in the same directory, syncs it to disk and renames it over path. A
// crash or an error therefore leaves either the old file or the new one,
// never a half-written checkpoint, and if c cannot be encoded nothing is
// touched. The file gets mode 0644.
func (c *Checkpoint) WriteFile(path string) error {
	data, err := c.MarshalBinary()
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("checkpoint: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// encodeHeader validates c and returns its header bytes (without preamble
// or checksum) and the length D of its tensor data.
func (c *Checkpoint) encodeHeader() (hdr []byte, dataLen uint64, err error) {
	if err := checkNames("tensor", len(c.Tensors), func(i int) string { return c.Tensors[i].Name }); err != nil {
		return nil, 0, err
	}
	if err := checkNames("metric", len(c.Metrics), func(i int) string { return c.Metrics[i].Name }); err != nil {
		return nil, 0, err
	}
	for _, t := range c.Tensors {
		if t.Rows < 0 || t.Cols < 0 || uint64(t.Rows) > math.MaxUint32 || uint64(t.Cols) > math.MaxUint32 {
			return nil, 0, fmt.Errorf("checkpoint: tensor %q: shape %d x %d out of range [0, 2³²-1]", t.Name, t.Rows, t.Cols)
		}
		if uint64(t.Rows)*uint64(t.Cols) != uint64(len(t.Data)) {
			return nil, 0, fmt.Errorf("checkpoint: tensor %q: shape %d x %d needs %d values, Data has %d",
				t.Name, t.Rows, t.Cols, uint64(t.Rows)*uint64(t.Cols), len(t.Data))
		}
		dataLen += 4 * uint64(len(t.Data))
	}
	for _, f := range []struct {
		what string
		n    int
	}{{"model name", len(c.Model)}, {"dataset name", len(c.Dataset)}, {"config", len(c.Config)}} {
		if uint64(f.n) > math.MaxUint32 {
			return nil, 0, fmt.Errorf("checkpoint: %s is %d bytes, more than 2³²-1", f.what, f.n)
		}
	}

	size := 3*4 + len(c.Model) + len(c.Dataset) + len(c.Config) + 32 + 8 + 8 + 4 + 4
	for _, m := range c.Metrics {
		size += 4 + len(m.Name) + 8
	}
	for _, t := range c.Tensors {
		size += 4 + len(t.Name) + 8
	}
	if uint64(size) > math.MaxUint32 {
		return nil, 0, fmt.Errorf("checkpoint: header is %d bytes, more than 2³²-1", size)
	}
	le := binary.LittleEndian
	b := make([]byte, 0, size)
	b = appendString(b, c.Model)
	b = appendString(b, c.Dataset)
	b = append(b, c.Fingerprint[:]...)
	b = le.AppendUint64(b, c.Seed)
	b = le.AppendUint64(b, uint64(c.Created))
	b = appendString(b, c.Config)
	b = le.AppendUint32(b, uint32(len(c.Metrics)))
	for _, m := range c.Metrics {
		b = appendString(b, m.Name)
		b = le.AppendUint64(b, math.Float64bits(m.Value))
	}
	b = le.AppendUint32(b, uint32(len(c.Tensors)))
	for _, t := range c.Tensors {
		b = appendString(b, t.Name)
		b = le.AppendUint32(b, uint32(t.Rows))
		b = le.AppendUint32(b, uint32(t.Cols))
	}
	return b, dataLen, nil
}

// checkNames returns an error if one of the n names is empty, too long or
// repeated.
func checkNames(what string, n int, name func(int) string) error {
	seen := make(map[string]int, n)
	for i := range n {
		s := name(i)
		if s == "" {
			return fmt.Errorf("checkpoint: %s %d has an empty name", what, i)
		}
		if uint64(len(s)) > math.MaxUint32 {
			return fmt.Errorf("checkpoint: %s %d: name is %d bytes, more than 2³²-1", what, i, len(s))
		}
		if j, ok := seen[s]; ok {
			return fmt.Errorf("checkpoint: %ss %d and %d are both called %q", what, j, i, s)
		}
		seen[s] = i
	}
	return nil
}

// appendString appends s with its uint32 length in front.
func appendString[S string | []byte](b []byte, s S) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// write writes the whole file given the encoded header and the data length.
func (c *Checkpoint) write(w io.Writer, hdr []byte, dataLen uint64) (int64, error) {
	cw := &crcWriter{w: w, crc: crc32.New(castagnoli)}
	le := binary.LittleEndian
	pre := make([]byte, 0, preambleLen)
	pre = append(pre, Magic...)
	pre = le.AppendUint32(pre, Version)
	pre = le.AppendUint32(pre, uint32(len(hdr)))
	pre = le.AppendUint64(pre, dataLen)
	cw.write(pre)
	cw.writeSum()
	cw.write(hdr)
	cw.writeSum()

	var chunk [32 << 10]byte
	for _, t := range c.Tensors {
		data := t.Data
		for len(data) > 0 && cw.err == nil {
			n := min(len(data), len(chunk)/4)
			for i, v := range data[:n] {
				le.PutUint32(chunk[4*i:], math.Float32bits(v))
			}
			cw.write(chunk[:4*n])
			data = data[n:]
		}
	}
	cw.writeSum()
	return cw.n, cw.err
}

// crcWriter writes to w while keeping the CRC of everything written; after
// the first error it writes nothing more.
type crcWriter struct {
	w   io.Writer
	crc hash.Hash32
	n   int64
	err error
}

func (cw *crcWriter) write(p []byte) {
	if cw.err != nil {
		return
	}
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	cw.err = err
	cw.crc.Write(p[:n])
}

// writeSum writes the CRC of everything written so far.
func (cw *crcWriter) writeSum() {
	var sum [crcLen]byte
	binary.LittleEndian.PutUint32(sum[:], cw.crc.Sum32())
	cw.write(sum[:])
}

// sliceWriter appends to b and never fails.
type sliceWriter struct{ b []byte }

func (s *sliceWriter) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}
