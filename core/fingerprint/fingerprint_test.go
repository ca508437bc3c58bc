package fingerprint

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

func TestOf(t *testing.T) {
	build := func(edges []graph.Edge, v float32, ids []string) *graph.Graph {
		x := &f32.CSR{Rows: 3, Cols: 2, Indptr: []int32{0, 1, 1, 2}, Indices: []int32{0, 1}, Values: []float32{1, v}}
		g, err := graph.New(3, edges, x, ids)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	ids := []string{"a", "b", "c"}
	base := build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 2, ids)
	// Stable: rebuilt from permuted, duplicated input; relabelled graph data
	// that does not enter training (name, labels) does not matter.
	same := build([]graph.Edge{{U: 2, V: 1}, {U: 1, V: 0}, {U: 0, V: 1}}, 2, ids)
	same.Name, same.Labels = "other", []int32{0, 0, 0}
	if Of(base) != Of(same) {
		t.Errorf("fingerprint differs for the same graph")
	}
	if Of(base) != Of(base) {
		t.Errorf("fingerprint not deterministic")
	}
	for i, g := range []*graph.Graph{
		build([]graph.Edge{{U: 0, V: 1}, {U: 0, V: 2}}, 2, ids),                     // 1. an edge moved
		build([]graph.Edge{{U: 0, V: 1}}, 2, ids),                                   // 2. an edge removed
		build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 3, ids),                     // 3. a feature value
		build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 2, []string{"a", "b", "d"}), // 4. an id
		build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 2, []string{"ab", "", "c"}), // 5. id boundaries
	} {
		if Of(g) == Of(base) {
			t.Errorf("case %d: fingerprint unchanged", i+1)
		}
	}
	// 6. a feature moved to another column.
	g := build([]graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, 2, ids)
	g.Features.Indices[1] = 0
	if Of(g) == Of(base) {
		t.Errorf("case 6: fingerprint unchanged")
	}
}

// reference is the fingerprint's stream written value by value into the
// hash, as Of wrote it before it buffered: the oracle that the digests
// of stored checkpoints stay what they were.
func reference(g *graph.Graph) [32]byte {
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

// randomGraph has n nodes, about 4n edges, dense-ish features and ids of
// up to idLen bytes (some longer than Of's buffer when idLen is).
func randomGraph(t testing.TB, n, idLen int, seed uint64) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 1))
	var edges []graph.Edge
	for range 4 * n {
		edges = append(edges, graph.Edge{U: int32(r.IntN(n)), V: int32(r.IntN(n))})
	}
	x := &f32.CSR{Rows: n, Cols: 50, Indptr: []int32{0}}
	for range n {
		for c := range int32(50) {
			if r.IntN(5) == 0 {
				x.Indices = append(x.Indices, c)
				x.Values = append(x.Values, r.Float32())
			}
		}
		x.Indptr = append(x.Indptr, int32(len(x.Indices)))
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("%d-%s", i, strings.Repeat("x", r.IntN(idLen+1)))
	}
	g, err := graph.New(n, edges, x, ids)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestOfIsTheStatedStream(t *testing.T) {
	for k, c := range []struct{ n, idLen int }{{1, 0}, {3, 2}, {500, 20}, {5000, 8}, {40, 3 * bufSize}} {
		g := randomGraph(t, c.n, c.idLen, uint64(k))
		if got, want := Of(g), reference(g); got != want {
			t.Errorf("%d nodes, ids up to %d bytes: Of %x, the stream value by value %x", c.n, c.idLen, got, want)
		}
	}
}

// BenchmarkOf fingerprints a graph of 20,000 nodes and 2e5 feature values
// (Of, then the stream written value by value).
func BenchmarkOf(b *testing.B) {
	g := randomGraph(b, 20000, 8, 1)
	b.Run("buffered", func(b *testing.B) {
		for b.Loop() {
			Of(g)
		}
	})
	b.Run("by-value", func(b *testing.B) {
		for b.Loop() {
			reference(g)
		}
	})
}
