package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"ilpgnn/core/userfile"
)

// Unmarshal decodes a checkpoint that is exactly data: it verifies all three
// checksums and every length, and rejects bytes after the end. It does not
// retain data. Errors wrap ErrNotCheckpoint, ErrVersion, ErrTruncated or
// ErrCorrupt (see the package documentation).
func Unmarshal(data []byte) (*Checkpoint, error) {
	p, err := parsePreamble(data)
	if err != nil {
		return nil, err
	}
	total := p.total()
	if uint64(len(data)) < total {
		return nil, fmt.Errorf("%w: input is %d bytes, the checkpoint is %d", ErrTruncated, len(data), total)
	}
	if uint64(len(data)) > total {
		return nil, fmt.Errorf("%w: %d trailing bytes after the checkpoint's %d", ErrCorrupt, uint64(len(data))-total, total)
	}
	hdrEnd := preambleLen + int(p.hdrLen)
	if err := verify(data, hdrEnd, "header"); err != nil {
		return nil, err
	}
	h, err := decodeHeader(data[preambleLen:hdrEnd], p)
	if err != nil {
		return nil, err
	}
	dataStart := hdrEnd + crcLen
	dataEnd := dataStart + int(p.dataLen)
	if err := verify(data, dataEnd, "file (tensor data)"); err != nil {
		return nil, err
	}

	c := &Checkpoint{
		Model:       h.Model,
		Dataset:     h.Dataset,
		Fingerprint: h.Fingerprint,
		Seed:        h.Seed,
		Created:     h.Created,
		Config:      h.Config,
		Metrics:     h.Metrics,
	}
	if len(h.Tensors) > 0 {
		c.Tensors = make([]Tensor, len(h.Tensors))
	}
	b := data[dataStart:dataEnd]
	for i, ti := range h.Tensors {
		t := Tensor{Name: ti.Name, Rows: ti.Rows, Cols: ti.Cols}
		if n := ti.Rows * ti.Cols; n > 0 { // sizes were checked against D in decodeHeader
			t.Data = make([]float32, n)
			for j := range t.Data {
				t.Data[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
			}
			b = b[4*n:]
		}
		c.Tensors[i] = t
	}
	return c, nil
}

// Read reads one checkpoint from r, verifying it as Unmarshal does. It
// reads exactly the checkpoint's bytes, which the preamble declares, and
// nothing after them; use ReadFile or Unmarshal to reject trailing data. It
// allocates in step with the bytes r actually delivers, so a corrupt length
// cannot make it allocate more than the input holds.
func Read(r io.Reader) (*Checkpoint, error) {
	pre, p, err := readPreamble(r)
	if err != nil {
		return nil, err
	}
	data, err := readN(r, pre, p.total()-preambleLen, "checkpoint")
	if err != nil {
		return nil, err
	}
	return Unmarshal(data)
}

// ReadHeader reads the preamble and header of a checkpoint from r, verifying
// their checksums, and stops there: it neither reads nor checks the tensor
// data, so it works on a file whose weights are cut off or damaged. Use it
// to list checkpoints cheaply. Errors are those of Unmarshal.
func ReadHeader(r io.Reader) (*Header, error) {
	pre, p, err := readPreamble(r)
	if err != nil {
		return nil, err
	}
	data, err := readN(r, pre, uint64(p.hdrLen)+crcLen, "header")
	if err != nil {
		return nil, err
	}
	hdrEnd := preambleLen + int(p.hdrLen)
	if err := verify(data, hdrEnd, "header"); err != nil {
		return nil, err
	}
	return decodeHeader(data[preambleLen:hdrEnd], p)
}

// ReadFile reads the checkpoint in the file path with Unmarshal, after
// userfile.ReadFile has made sure it is a regular file within the cap of
// userfile.Checkpoint. Errors name the file once.
func ReadFile(path string) (*Checkpoint, error) {
	data, err := userfile.ReadFile(path, userfile.Checkpoint)
	if err != nil {
		return nil, err
	}
	c, err := Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// preamble is the decoded fixed-size start of a checkpoint.
type preamble struct {
	version uint32
	hdrLen  uint32 // H
	dataLen uint64 // D
}

// total returns the size of the whole checkpoint; parsePreamble made sure
// it does not overflow.
func (p preamble) total() uint64 { return overhead + uint64(p.hdrLen) + p.dataLen }

// parsePreamble checks the magic, the preamble's checksum and the version
// at the start of b, which may be shorter than a preamble. The version is
// believed only once the checksum over it holds: every format version keeps
// the magic, the version and the CRC of bytes [0, 24) at offset 24, so a
// larger version behind a good checksum is a newer format (ErrVersion) and
// anything else is damage or not a checkpoint at all (ErrCorrupt).
func parsePreamble(b []byte) (preamble, error) {
	var p preamble
	if n := min(len(b), len(Magic)); string(b[:n]) != Magic[:n] {
		return p, fmt.Errorf("%w (it starts with %q)", ErrNotCheckpoint, b[:min(len(b), 16)])
	}
	if len(b) < preambleLen {
		return p, fmt.Errorf("%w: input ends after %d bytes, inside the preamble", ErrTruncated, len(b))
	}
	le := binary.LittleEndian
	p.version = le.Uint32(b[8:])
	if p.version != Version {
		// Say what the version field claims only if the checksum vouches
		// for it: random bytes after the magic are no newer format.
		if want, got := le.Uint32(b[preambleLen-crcLen:]), crc32.Checksum(b[:preambleLen-crcLen], castagnoli); got != want {
			return p, fmt.Errorf("%w: not a checkpoint, or damaged: the preamble checksum does not match (stored %08x, computed %08x), so its version field (%d) cannot be trusted",
				ErrCorrupt, want, got, p.version)
		}
	}
	if p.version > Version {
		return p, fmt.Errorf("%w: the file is version %d, this build reads versions up to %d", ErrVersion, p.version, Version)
	}
	if p.version == 0 {
		return p, fmt.Errorf("%w: preamble: format version 0 does not exist", ErrCorrupt)
	}
	if err := verify(b, preambleLen-crcLen, "preamble"); err != nil {
		return p, err
	}
	p.hdrLen = le.Uint32(b[12:])
	p.dataLen = le.Uint64(b[16:])
	if p.dataLen%4 != 0 {
		return p, fmt.Errorf("%w: preamble: tensor data length %d is not a multiple of 4", ErrCorrupt, p.dataLen)
	}
	if p.dataLen > math.MaxInt64-overhead-uint64(p.hdrLen) || p.total() > math.MaxInt {
		return p, fmt.Errorf("%w: preamble: impossible tensor data length %d", ErrCorrupt, p.dataLen)
	}
	return p, nil
}

// verify checks that the CRC-32C of b[:end] equals the uint32 stored at
// b[end:end+4].
func verify(b []byte, end int, section string) error {
	want := binary.LittleEndian.Uint32(b[end:])
	if got := crc32.Checksum(b[:end], castagnoli); got != want {
		return fmt.Errorf("%w: %s checksum mismatch (stored %08x, computed %08x)", ErrCorrupt, section, want, got)
	}
	return nil
}

// readPreamble reads and checks a preamble from r.
func readPreamble(r io.Reader) ([]byte, preamble, error) {
	buf := make([]byte, preambleLen)
	n, err := io.ReadFull(r, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, preamble{}, fmt.Errorf("checkpoint: reading: %w", err)
	}
	p, perr := parsePreamble(buf[:n])
	return buf, p, perr
}

// readN appends the next n bytes of r to buf, growing it only as data
// arrives.
func readN(r io.Reader, buf []byte, n uint64, what string) ([]byte, error) {
	b := bytes.NewBuffer(buf)
	b.Grow(int(min(n, 1<<20)))
	got, err := io.CopyN(b, r, int64(n))
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: input ends after %d bytes, the %s ends at byte %d", ErrTruncated, uint64(len(buf))+uint64(got), what, uint64(len(buf))+n)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: reading: %w", err)
	}
	return b.Bytes(), nil
}
