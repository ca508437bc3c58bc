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
	"math"

	"ilpgnn/core/graph"
)

// Of returns a SHA-256 digest of g's structure, features and ids: two
// graphs with the same fingerprint train the same model. Name, labels and
// class names do not enter it.
func Of(g *graph.Graph) [32]byte {
	h := sha256.New()
	var b [8]byte
	put := func(v uint64) { binary.LittleEndian.PutUint64(b[:], v); h.Write(b[:]) }
	put(uint64(g.NumNodes()))
	put(uint64(len(g.Indices)))
	binary.Write(h, binary.LittleEndian, g.Indptr)
	binary.Write(h, binary.LittleEndian, g.Indices)
	f := g.Features
	put(uint64(f.Cols))
	binary.Write(h, binary.LittleEndian, f.Indptr)
	binary.Write(h, binary.LittleEndian, f.Indices)
	for _, v := range f.Values {
		put(uint64(math.Float32bits(v)))
	}
	for _, id := range g.IDs {
		put(uint64(len(id)))
		h.Write([]byte(id))
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum
}
