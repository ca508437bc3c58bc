// Package checkpoint reads and writes trained ILP-GNN models in a versioned,
// self-checking binary format.
//
// A checkpoint holds the model's name, the dataset it was trained on and that
// graph's SHA-256 fingerprint, the seed, a creation time, the model's
// configuration (opaque bytes, JSON by convention), its named weight tensors
// and its named metrics. Writing is deterministic: the same Checkpoint always
// gives the same bytes (set Created to 0 to make them a pure function of the
// content). Floats are stored as their IEEE 754 bits, so NaN payloads, ±0
// and ±Inf survive a round trip.
//
// # Format, version 1
//
// All integers are little-endian. A string or byte string is a uint32 byte
// length followed by that many bytes (no terminator; names are conventionally
// UTF-8 but are not checked). A file is a preamble, a header and the tensor
// data, each followed by a CRC-32C (Castagnoli) of every byte before it:
//
//	offset     size  field
//	0          8     magic "ILPGNNCK"
//	8          4     format version, uint32 = 1
//	12         4     H, header length in bytes, uint32
//	16         8     D, tensor data length in bytes, uint64 (a multiple of 4)
//	24         4     CRC-32C of bytes [0, 24)             (preamble check)
//	28         H     header:
//	                   string   model
//	                   string   dataset
//	                   [32]byte graph fingerprint (SHA-256)
//	                   uint64   seed
//	                   int64    created, unix seconds (0 = unset)
//	                   bytes    config
//	                   uint32   M, number of metrics; then M times:
//	                              string name, uint64 IEEE 754 bits of the value
//	                   uint32   T, number of tensors; then T times:
//	                              string name, uint32 rows, uint32 cols
//	28+H       4     CRC-32C of bytes [0, 28+H)           (header check)
//	32+H       D     tensor data: for each tensor in header order, rows·cols
//	                 float32 IEEE 754 bits, row-major
//	32+H+D     4     CRC-32C of bytes [0, 32+H+D)         (file check)
//	36+H+D           end of file
//
// Metric and tensor names are non-empty and unique within their list. The
// header must be exactly H bytes long and D must equal 4·Σ rows·cols; there
// is exactly one encoding of each Checkpoint, and Unmarshal accepts nothing
// else.
//
// Why this layout. Metrics, configuration and the tensor directory come
// before the weights, so ReadHeader can list a checkpoint reading a few
// hundred bytes, and can verify them against their own checksum without
// touching the weights. The preamble has its own checksum so that its two
// lengths can be trusted before anything is allocated or read: a reader knows
// the exact file size after 28 bytes, which is how a cut-off file (ErrTruncated)
// is told apart from a damaged one (ErrCorrupt). A later format changes the
// version number but keeps the first 28 bytes' layout (magic, version, and
// the CRC of bytes [0, 24) at offset 24); this build rejects any version
// above 1 with ErrVersion, but only when that checksum holds, since a version
// field read from damaged bytes or from some other file after the magic says
// nothing (then the error is ErrCorrupt: not a checkpoint, or damaged).
//
// Why CRC-32C and not SHA-256. The checksums guard against accidents — a
// flipped bit on disk, a truncated download, an interrupted copy — not
// against an adversary, who can recompute any unkeyed checksum, SHA-256
// included. CRC-32C detects every error burst of up to 32 bits (so every
// changed byte, which the tests check exhaustively) and misses random damage
// with probability 2⁻³², costs 4 bytes, and is hardware-accelerated in
// hash/crc32 on amd64 and arm64 (with a table fallback in WebAssembly). It is
// the checksum of ext4 metadata, iSCSI and LevelDB for the same reasons.
//
// # Errors
//
// Reading returns errors that wrap one of the sentinels below (test with
// errors.Is) with the section or tensor concerned: ErrNotCheckpoint for
// a bad magic, ErrVersion for a newer format (a larger version behind a valid
// preamble checksum), ErrTruncated when the input
// ends early, ErrCorrupt for a failed checksum, an impossible length or
// shape, or trailing bytes. Because the lengths are checked by the preamble
// checksum before they are used, a changed byte is never mistaken for a
// truncation, nor a cut-off file for a damaged one. A read allocates in
// proportion to the bytes actually present, whatever its length fields say.
package checkpoint

import (
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
)

// Magic is the first 8 bytes of every checkpoint.
const Magic = "ILPGNNCK"

// Version is the format version this build writes, and the newest it reads.
const Version uint32 = 1

// Sizes of the fixed parts of the format, in bytes.
const (
	preambleLen = 28 // magic, version, H, D, CRC
	crcLen      = 4
	overhead    = preambleLen + 2*crcLen // everything but header and data
)

// Sentinel errors; the errors returned wrap them with context.
var (
	// ErrNotCheckpoint reports input that does not start with Magic.
	ErrNotCheckpoint = errors.New("not an ILP-GNN checkpoint")
	// ErrVersion reports a format version this build cannot read, in a
	// preamble whose checksum holds.
	ErrVersion = errors.New("unsupported checkpoint format version")
	// ErrCorrupt reports a checksum mismatch (including a version field
	// that its checksum does not vouch for), an impossible length or shape,
	// or bytes after the end of the checkpoint.
	ErrCorrupt = errors.New("corrupt checkpoint")
	// ErrTruncated reports input that ends before the checkpoint does.
	ErrTruncated = errors.New("truncated checkpoint")
	// ErrForeignGraph reports a checkpoint trained on another graph.
	ErrForeignGraph = errors.New("checkpoint was trained on a different graph")
)

// castagnoli is the CRC-32C table.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Tensor is a named Rows x Cols float32 matrix stored row-major in Data,
// with len(Data) == Rows*Cols. A vector is 1 x n or n x 1; either dimension
// may be 0.
type Tensor struct {
	Name       string
	Rows, Cols int
	Data       []float32
}

// Metric is a named number recorded with the model, such as "test_auc".
type Metric struct {
	Name  string
	Value float64
}

// Checkpoint is a trained model with what is needed to reload, audit and
// list it. The zero value is a valid (empty) checkpoint.
//
// Tensor and metric names must be non-empty and unique within their list;
// MarshalBinary returns an error otherwise. Data read back from a file has
// nil slices where the file holds none: an empty Config, Tensors, Metrics or
// Tensor.Data reads back as nil.
type Checkpoint struct {
	Model       string   // e.g. "ilpgnn"
	Dataset     string   // dataset name, for listing
	Fingerprint [32]byte // SHA-256 of the graph it was trained on
	Seed        uint64
	Created     int64    // unix seconds; 0 allowed (then output is a pure function of the content)
	Config      []byte   // the model's configuration, opaque here (JSON by convention)
	Tensors     []Tensor // weights, in the order given
	Metrics     []Metric // e.g. test_auc, val_auc, epochs, in the order given
}

// TensorInfo is a tensor's name and shape, without its data.
type TensorInfo struct {
	Name       string
	Rows, Cols int
}

// Header is everything in a checkpoint except the tensor data, as returned
// by ReadHeader for listings.
type Header struct {
	Version     uint32 // format version of the file
	Model       string
	Dataset     string
	Fingerprint [32]byte
	Seed        uint64
	Created     int64
	Config      []byte
	Metrics     []Metric
	Tensors     []TensorInfo // names and shapes, in file order
}

// Params returns the number of weights, Σ Rows·Cols over the tensors.
func (h *Header) Params() int {
	n := 0
	for _, t := range h.Tensors {
		n += t.Rows * t.Cols
	}
	return n
}

// Metric returns the value of the metric called name and whether there is
// one.
func (h *Header) Metric(name string) (float64, bool) { return metric(h.Metrics, name) }

// CheckGraph returns nil if the checkpoint was trained on the graph with
// this fingerprint, and otherwise an error wrapping ErrForeignGraph that
// names both fingerprints in short hex.
func (h *Header) CheckGraph(fingerprint [32]byte) error {
	return checkGraph(h.Fingerprint, fingerprint)
}

// Metric returns the value of the metric called name and whether there is
// one.
func (c *Checkpoint) Metric(name string) (float64, bool) { return metric(c.Metrics, name) }

// CheckGraph returns nil if the checkpoint was trained on the graph with
// this fingerprint, and otherwise an error wrapping ErrForeignGraph that
// names both fingerprints in short hex, such as
//
//	checkpoint was trained on a different graph: checkpoint 3f2a9c01d4e5, graph 77b0c2e8aa10
func (c *Checkpoint) CheckGraph(fingerprint [32]byte) error {
	return checkGraph(c.Fingerprint, fingerprint)
}

// Tensor returns the tensor called name, pointing into c.Tensors, or an
// error that names it and lists the tensors there are.
func (c *Checkpoint) Tensor(name string) (*Tensor, error) {
	for i := range c.Tensors {
		if c.Tensors[i].Name == name {
			return &c.Tensors[i], nil
		}
	}
	names := make([]string, 0, len(c.Tensors))
	for _, t := range c.Tensors {
		names = append(names, fmt.Sprintf("%q", t.Name))
	}
	have := "none"
	if len(names) > 0 {
		have = strings.Join(names, ", ")
	}
	return nil, fmt.Errorf("checkpoint: no tensor %q (model %q has %s)", name, c.Model, have)
}

// Header returns the header of c: everything but the tensor data. It shares
// Config and Metrics with c.
func (c *Checkpoint) Header() *Header {
	h := &Header{
		Version:     Version,
		Model:       c.Model,
		Dataset:     c.Dataset,
		Fingerprint: c.Fingerprint,
		Seed:        c.Seed,
		Created:     c.Created,
		Config:      c.Config,
		Metrics:     c.Metrics,
	}
	if len(c.Tensors) > 0 {
		h.Tensors = make([]TensorInfo, len(c.Tensors))
		for i, t := range c.Tensors {
			h.Tensors[i] = TensorInfo{t.Name, t.Rows, t.Cols}
		}
	}
	return h
}

func metric(ms []Metric, name string) (float64, bool) {
	for _, m := range ms {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

func checkGraph(have, want [32]byte) error {
	if have == want {
		return nil
	}
	return fmt.Errorf("%w: checkpoint %s, graph %s", ErrForeignGraph, shortHex(have), shortHex(want))
}

// shortHex returns the first 6 bytes of a fingerprint in hex.
func shortHex(fp [32]byte) string { return hex.EncodeToString(fp[:6]) }
