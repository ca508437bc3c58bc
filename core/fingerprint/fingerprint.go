// Package fingerprint identifies a graph by a digest of what a model
// trained on it reads: its structure, features and node ids. A checkpoint
// records its graph's fingerprint, so that it is never opened on another.
//
// It is a package of its own so that package graph does not import
// crypto/sha256, whose initialisation (the FIPS 140 self-tests and their
// ciphers) costs a WebAssembly build that never fingerprints about 100 KB
// with brotli: the embeddable card (wasm/card) is such a build.
package fingerprint

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"math"

	"ilpgnn/core/graph"
)

// Of returns a SHA-256 digest of g's structure, features and ids: two
// graphs with the same fingerprint train the same model. Name, labels and
// class names do not enter it.
//
// The digest is of this stream, little-endian: the node count and the
// number of adjacency entries as uint64, the adjacency's Indptr and
// Indices as int32, the feature columns as uint64, the features' Indptr
// and Indices as int32, each feature value's float32 bits as uint64, then
// each id as its length (uint64) and its bytes.
func Of(g *graph.Graph) [32]byte {
	w := writer{h: sha256.New(), buf: make([]byte, 0, bufSize)}
	w.u64(uint64(g.NumNodes()))
	w.u64(uint64(len(g.Indices)))
	w.i32s(g.Indptr)
	w.i32s(g.Indices)
	f := g.Features
	w.u64(uint64(f.Cols))
	w.i32s(f.Indptr)
	w.i32s(f.Indices)
	for _, v := range f.Values {
		w.u64(uint64(math.Float32bits(v)))
	}
	for _, id := range g.IDs {
		w.u64(uint64(len(id)))
		w.bytes(id)
	}
	w.flush()
	var sum [32]byte
	copy(sum[:], w.h.Sum(nil))
	return sum
}

// bufSize is the bytes a writer gathers before hashing them: one call to
// the hash per buffer instead of one per value, which in WebAssembly cost
// more than the hashing (a large graph is fingerprinted on every load and
// every checkpoint of it).
const bufSize = 64 << 10

// writer feeds a hash through a buffer.
type writer struct {
	h   hash.Hash
	buf []byte
}

func (w *writer) room(n int) {
	if len(w.buf)+n > cap(w.buf) {
		w.flush()
	}
}

func (w *writer) flush() {
	w.h.Write(w.buf)
	w.buf = w.buf[:0]
}

func (w *writer) u64(v uint64) {
	w.room(8)
	w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
}

func (w *writer) i32s(s []int32) {
	for _, v := range s {
		w.room(4)
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(v))
	}
}

func (w *writer) bytes(s string) {
	for len(s) > 0 {
		w.room(1)
		n := min(len(s), cap(w.buf)-len(w.buf))
		w.buf = append(w.buf, s[:n]...)
		s = s[n:]
	}
}
