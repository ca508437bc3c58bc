package heart

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/split"
)

func TestFileRoundTrip(t *testing.T) {
	w := newWorld(t, 9)
	o := Options{PerLink: 10, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 1e-4, Features: true}
	n, err := Sample(w.train, w.known, w.held, 5, o)
	if err != nil {
		t.Fatal(err)
	}
	h := header(n, [32]byte{1, 2, 3}, 5, o)
	var b bytes.Buffer
	if err := Write(&b, n, h); err != nil {
		t.Fatal(err)
	}
	if want := len(magic) + 4*len(w.held)*(2+10) + 4; b.Len() <= want {
		t.Fatalf("file of %d bytes, want the header beside %d", b.Len(), want)
	}
	back, hb, err := Read(bytes.NewReader(b.Bytes()), int64(b.Len()), w.known.NumNodes())
	if err != nil {
		t.Fatal(err)
	}
	if hb != h || !slices.Equal(back.Links, n.Links) || !slices.Equal(back.Nodes, n.Nodes) || back.PerLink != n.PerLink {
		t.Fatalf("read back %+v %v, wrote %+v", hb, back.Nodes[:10], h)
	}
	// Any byte changed is caught: by the checksum, or before it.
	for _, at := range []int{0, len(magic) + 3, b.Len() / 2, b.Len() - 1} {
		bad := bytes.Clone(b.Bytes())
		bad[at] ^= 0x10
		if _, _, err := Read(bytes.NewReader(bad), int64(len(bad)), w.known.NumNodes()); err == nil {
			t.Fatalf("a file with byte %d changed was read", at)
		}
	}
	if _, _, err := Read(bytes.NewReader(b.Bytes()), int64(b.Len()-4), w.known.NumNodes()); err == nil {
		t.Fatal("a file cut short was read")
	}
	if _, _, err := Read(bytes.NewReader(b.Bytes()), int64(b.Len()), 3); err == nil || !strings.Contains(err.Error(), "is not one of the graph's 3") {
		t.Fatalf("nodes beyond the graph: err = %v", err)
	}
}

func TestForSplitWritesThenReads(t *testing.T) {
	w := newWorld(t, 10)
	sp := &split.Split{Train: w.train, TestPos: w.held}
	path := filepath.Join(t.TempDir(), "negatives.heart")
	o := Options{PerLink: 8, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 1e-4, Features: true}
	first, written, err := ForSplit(w.known, sp, 2, o, path)
	if err != nil || !written {
		t.Fatalf("first: written %v, err %v", written, err)
	}
	if len(sp.TestHard) != len(w.held)*8 || sp.HardPerLink != 8 {
		t.Fatalf("TestHard holds %d pairs, %d a link", len(sp.TestHard), sp.HardPerLink)
	}
	again := &split.Split{Train: w.train, TestPos: w.held}
	second, written, err := ForSplit(w.known, again, 2, o, path)
	if err != nil || written {
		t.Fatalf("second: written %v, err %v", written, err)
	}
	if !slices.Equal(first.Nodes, second.Nodes) || !slices.Equal(sp.TestHard, again.TestHard) {
		t.Fatal("the file read back gives other negatives")
	}
	// Another seed, other options or other links: refused, never used.
	if _, _, err := ForSplit(w.known, &split.Split{Train: w.train, TestPos: w.held}, 3, o, path); err == nil || !strings.Contains(err.Error(), "another graph, seed or options") {
		t.Fatalf("another seed: err = %v", err)
	}
	if _, _, err := ForSplit(w.known, &split.Split{Train: w.train, TestPos: slices.Clone(w.held[1:])}, 2, o, path); err == nil {
		t.Fatal("a file for other links was used")
	}
	other, _ := newWorldPair(t)
	if _, _, err := ForSplit(other, &split.Split{Train: w.train, TestPos: w.held}, 2, o, path); err == nil {
		t.Fatal("a file for another graph was used")
	}
	if err := os.WriteFile(path, []byte("not negatives"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ForSplit(w.known, &split.Split{Train: w.train, TestPos: w.held}, 2, o, path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a damaged file: err = %v (want its name)", err)
	}
}

// newWorldPair returns the known graph of another world with as many nodes.
func newWorldPair(t *testing.T) (*graph.Graph, error) {
	w := newWorld(t, 11)
	return w.known, nil
}

func FuzzRead(f *testing.F) {
	w := newWorld(&testing.T{}, 12)
	n, _ := Sample(w.train, w.known, w.held[:3], 1, Options{PerLink: 4, Alpha: 0.15, Epsilon: 1e-3})
	var b bytes.Buffer
	_ = Write(&b, n, header(n, [32]byte{}, 1, Options{PerLink: 4, Alpha: 0.15, Epsilon: 1e-3}))
	f.Add(b.Bytes())
	f.Add([]byte(magic + "{\"format\":1,\"links\":1,\"per_link\":2}\n"))
	f.Add([]byte(magic + "{\"format\":1,\"links\":4611686018427387904,\"per_link\":4611686018427387904}\n0000"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, h, err := Read(bytes.NewReader(data), int64(len(data)), 90)
		if err != nil {
			return
		}
		if len(n.Links) != h.Links || len(n.Nodes) != h.Links*h.PerLink {
			t.Fatalf("read %d links, %d nodes; the header says %d of %d", len(n.Links), len(n.Nodes), h.Links, h.PerLink)
		}
		for _, v := range n.Nodes {
			if v < 0 || v >= 90 {
				t.Fatalf("node %d read", v)
			}
		}
	})
}
