package load

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/graph"
)

// TestBOM checks that a leading UTF-8 byte-order mark, as Excel and Notepad
// write, is not part of the first id or header of any text format.
func TestBOM(t *testing.T) {
	const bomStr = "\ufeff"
	// Edge list: 4 nodes 1..4, not 5 with "\ufeff1" beside "1".
	g, err := Bytes(map[string][]byte{"e.csv": []byte(bomStr + "1,2\n2,3\n3,1\n1,4\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.IDs, []string{"1", "2", "3", "4"}) || g.NumEdges() != 4 {
		t.Errorf("edge list with BOM: ids %q, %d edges", g.IDs, g.NumEdges())
	}
	// A header behind a BOM is still a header.
	g, err = Bytes(map[string][]byte{"e.csv": []byte(bomStr + "source,target\na,b\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.IDs, []string{"a", "b"}) {
		t.Errorf("header with BOM: ids %q", g.IDs)
	}
	// Features: node "1" keeps its row, and no node is missing one.
	g, err = Bytes(map[string][]byte{"edges.csv": []byte(bomStr + "1,2\n"), "features.csv": []byte(bomStr + "1,0.5\n2,0\n")})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 2 || g.Features.At(0, 0) != 0.5 || g.MissingFeatures != nil {
		t.Errorf("features with BOM: ids %q, x[0] %g, missing %q", g.IDs, g.Features.At(0, 0), g.MissingFeatures)
	}
	// LINQS: the first .content id keeps its features and label; a BOM in
	// .cites does not invent a node.
	g, err = Bytes(map[string][]byte{"g.content": []byte(bomStr + "a 1 0 X\nb 0 1 Y\n"), "g.cites": []byte(bomStr + "a b\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.IDs, []string{"a", "b"}) || g.Features.At(0, 0) != 1 || g.Labels[0] != 0 || g.NumEdges() != 1 {
		t.Errorf("LINQS with BOM: ids %q, x[0][0] %g, label %d, %d edges", g.IDs, g.Features.At(0, 0), g.Labels[0], g.NumEdges())
	}
	// Only a leading mark is dropped: one inside an id is part of it.
	g, err = Bytes(map[string][]byte{"e.csv": []byte("1,2\n" + bomStr + "1,3\n")})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 4 {
		t.Errorf("BOM on line 2: %d nodes, want 4 (1, 2, \\ufeff1, 3)", g.NumNodes())
	}
}

// TestMissingFeatures checks that the nodes given no feature row are
// listed, in node order, and counted by Stats with the first five named.
func TestMissingFeatures(t *testing.T) {
	// .content has a, b, c; .cites names 7 more ids, in first appearance
	// order z y x w v u t (u twice): 7 missing, by count.
	content := "a 1 0 X\nb 0 1 Y\nc 1 1 X\n"
	cites := "a z\ny b\nx w\nc v\nu a\nu t\n"
	g, err := LINQSReaders("m", strings.NewReader(content), "m.content", strings.NewReader(cites), "m.cites")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"z", "y", "x", "w", "v", "u", "t"}
	if !slices.Equal(g.MissingFeatures, want) {
		t.Fatalf("MissingFeatures %q, want %q", g.MissingFeatures, want)
	}
	for _, id := range want {
		i, _ := g.NodeIndex(id)
		if idx, _ := g.Features.Row(i); len(idx) != 0 {
			t.Errorf("node %s has features", id)
		}
	}
	st := g.Stats()
	if st.MissingFeatures != 7 || !slices.Equal(st.MissingFeatureIDs, want[:5]) {
		t.Errorf("Stats: %d missing named %q", st.MissingFeatures, st.MissingFeatureIDs)
	}
	if got, w := st.MissingFeaturesNote(), `7 nodes have no feature row (ids "z", "y", "x", "w", "v", ...); their features are all zero`; got != w {
		t.Errorf("note %q\nwant %q", got, w)
	}
	// Every cited id has a row: none missing, no note.
	g, err = LINQSReaders("m", strings.NewReader(content), "m.content", strings.NewReader("a b\nb c\n"), "m.cites")
	if err != nil {
		t.Fatal(err)
	}
	if g.MissingFeatures != nil || g.Stats().MissingFeaturesNote() != "" {
		t.Errorf("complete .content: missing %q", g.MissingFeatures)
	}

	// Edge list: nodes 3 and 1 have no line in features.csv (node order
	// 1 2 3 4 from the edges).
	g, err = Bytes(map[string][]byte{"edges.csv": []byte("1,2\n3,4\n"), "features.csv": []byte("2,1\n4,0\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.MissingFeatures, []string{"1", "3"}) {
		t.Errorf("edge list MissingFeatures %q", g.MissingFeatures)
	}
	if got, w := g.Stats().MissingFeaturesNote(), `2 nodes have no feature row (ids "1", "3"); their features are all zero`; got != w {
		t.Errorf("note %q\nwant %q", got, w)
	}
	one := graph.Stats{MissingFeatures: 1, MissingFeatureIDs: []string{"q"}}
	if got, w := one.MissingFeaturesNote(), `1 node has no feature row (id "q"); its features are all zero`; got != w {
		t.Errorf("note %q\nwant %q", got, w)
	}
	// Without a features file nothing is missing: every row is empty alike.
	g, err = Bytes(map[string][]byte{"edges.csv": []byte("1,2\n")})
	if err != nil {
		t.Fatal(err)
	}
	if g.MissingFeatures != nil {
		t.Errorf("no features file: missing %q", g.MissingFeatures)
	}
}

// endless is a reader that never ends: what /dev/zero is to a loader. It
// counts the bytes read from it.
type endless struct {
	c    byte
	read int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.c
	}
	e.read += len(p)
	return len(p), nil
}

// TestEndlessLine checks that a line without end is refused at maxLine,
// having read little more than that, in every text format.
func TestEndlessLine(t *testing.T) {
	const want = ":1: line is longer than 4 MiB"
	check := func(name string, err error, r *endless) {
		t.Helper()
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: error %v, want one ending %q", name, err, want)
		}
		if r.read > maxLine+1<<20 {
			t.Errorf("%s: read %d bytes before refusing, more than maxLine %d + 1 MiB", name, r.read, maxLine)
		}
	}
	r := &endless{c: 'a'}
	_, err := EdgeListReaders("e", r, "e.csv", nil, "")
	check("edges", err, r)
	r = &endless{c: '0'}
	_, err = EdgeListReaders("e", strings.NewReader("1,2\n"), "e.csv", r, "f.csv")
	check("features", err, r)
	r = &endless{c: 'x'}
	_, err = LINQSReaders("g", r, "g.content", strings.NewReader("a b\n"), "g.cites")
	check("content", err, r)
	r = &endless{c: 'x'}
	_, err = LINQSReaders("g", strings.NewReader("a 1 X\nb 0 Y\n"), "g.content", r, "g.cites")
	check("cites", err, r)
}

// TestNotRegular checks that a device is refused by name before it is
// read (reading /dev/zero would never end).
func TestNotRegular(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip("no", os.DevNull)
	}
	for _, p := range []string{os.DevNull, "/dev/zero"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		_, err := Path(p)
		if err == nil || err.Error() != p+": not a regular file: it is a device, and only files are read" {
			t.Errorf("Path(%s): %v", p, err)
		}
		if _, err := ReadFile(p); err == nil || err.Error() != p+": not a regular file: it is a device, and only files are read" {
			t.Errorf("ReadFile(%s): %v", p, err)
		}
	}
	// A directory passed where a file is wanted.
	dir := t.TempDir()
	if _, err := EdgeListFiles(dir, ""); err == nil || err.Error() != dir+": not a regular file: it is a folder, and only files are read" {
		t.Errorf("EdgeListFiles(dir): %v", err)
	}
}

// TestBigNPZMember checks that a member declaring more bytes than deflate
// could have produced from what it stores is refused before inflating.
func TestBigNPZMember(t *testing.T) {
	// A real archive whose adj_indices entry is deflated, then its declared
	// size, in both the local and the central header, made 4 GiB - 1.
	var b bytes.Buffer
	data := writeNPZ(t, tinyNPZ())
	b.Write(data)
	z := b.Bytes()
	// Patch every header of adj_indices.npy: local (PK\x03\x04, size at
	// +22) and central (PK\x01\x02, size at +24).
	name := []byte("adj_indices.npy")
	patched := 0
	for i := 0; i+46 < len(z); i++ {
		switch {
		case bytes.HasPrefix(z[i:], []byte("PK\x03\x04")) && bytes.HasPrefix(z[i+30:], name):
			copy(z[i+22:], []byte{0xff, 0xff, 0xff, 0x7f})
			patched++
		case bytes.HasPrefix(z[i:], []byte("PK\x01\x02")) && bytes.HasPrefix(z[i+46:], name):
			copy(z[i+24:], []byte{0xff, 0xff, 0xff, 0x7f})
			patched++
		}
	}
	if patched != 2 {
		t.Fatalf("patched %d headers, want 2", patched)
	}
	_, err := NPZBytes("big.npz", z)
	if err == nil || !strings.Contains(err.Error(), "adj_indices: declares 2147483647 bytes uncompressed from") {
		t.Fatalf("error %v", err)
	}
}

// TestNPZShapeBeforeData checks that a member whose shape disagrees with
// the graph is refused with the shape's error (read checks it on the header,
// before inflating the data).
func TestNPZShapeBeforeData(t *testing.T) {
	ms := tinyNPZ()
	lab := i64s(0, 1, 0, 1, 0, 1, 0, 1).bytes() // 8 labels for 4 nodes
	ms = replace(ms, "labels", npyArray{})
	for i := range ms {
		if ms[i].name == "labels" {
			ms[i].raw = lab
		}
	}
	_, err := NPZBytes("s.npz", writeNPZ(t, ms))
	if err == nil || err.Error() != "s.npz: labels: shape [8], want (4,)" {
		t.Fatalf("error %v", err)
	}
}

// TestNPZDenseChunks checks the chunked decoding of attr_matrix against the
// dense values it was written from: a 4 x 40000 float32 matrix (160000
// elements, three chunks) with nonzeros on both sides of the chunk
// boundaries, and a NaN in the last chunk named by its place in the whole
// array.
func TestNPZDenseChunks(t *testing.T) {
	const n, d = 4, 40000
	vals := map[int]float32{0: 1, 65535: 2, 65536: -3, 65537: 4, 131071: 5, 131072: 6, n*d - 1: 7}
	data := make([]byte, 4*n*d)
	for e, v := range vals {
		binary.LittleEndian.PutUint32(data[4*e:], math.Float32bits(v))
	}
	ms := replace(without(tinyNPZ(), "attr_data", "attr_indices", "attr_indptr", "attr_shape"),
		"attr_matrix", npyArray{"<f4", []int{n, d}, data})
	g, err := NPZBytes("x.npz", writeNPZ(t, ms))
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, g)
	if g.FeatureDim() != d || g.Features.NNZ() != len(vals) {
		t.Fatalf("D %d nnz %d, want %d and %d", g.FeatureDim(), g.Features.NNZ(), d, len(vals))
	}
	for e, v := range vals {
		if got := g.Features.At(e/d, e%d); got != v {
			t.Errorf("x[%d][%d] = %g, want %g", e/d, e%d, got, v)
		}
	}
	binary.LittleEndian.PutUint32(data[4*150000:], math.Float32bits(float32(math.NaN())))
	_, err = NPZBytes("x.npz", writeNPZ(t, ms))
	if err == nil || err.Error() != "x.npz: attr_matrix: element 150000 is NaN, not a finite float32" {
		t.Fatalf("NaN: %v", err)
	}
}

// TestDeflatedMemberRatio checks that a deflated member declaring more than
// deflate's 1032:1 could give is refused before inflating, and that one
// whose inflated data ends short of its declared size is refused too.
func TestDeflatedMemberRatio(t *testing.T) {
	build := func(declared uint32) []byte {
		var b bytes.Buffer
		z := zip.NewWriter(&b)
		for _, m := range tinyNPZ() {
			w, err := z.CreateHeader(&zip.FileHeader{Name: m.name + ".npy", Method: zip.Deflate})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(m.arr.bytes())
		}
		z.Close()
		out := b.Bytes()
		name := []byte("labels.npy")
		for i := 0; i+46 < len(out); i++ {
			switch {
			case bytes.HasPrefix(out[i:], []byte("PK\x03\x04")) && bytes.HasPrefix(out[i+30:], name):
				binary.LittleEndian.PutUint32(out[i+22:], declared)
			case bytes.HasPrefix(out[i:], []byte("PK\x01\x02")) && bytes.HasPrefix(out[i+46:], name):
				binary.LittleEndian.PutUint32(out[i+24:], declared)
			}
		}
		return out
	}
	if _, err := NPZBytes("d.npz", build(0)); err == nil || err.Error() != "d.npz: labels: not a .npy array" {
		t.Errorf("declared 0: %v", err)
	}
	if _, err := NPZBytes("d.npz", build(100<<20)); err == nil || !strings.HasPrefix(err.Error(), "d.npz: labels: declares 104857600 bytes uncompressed from ") {
		t.Errorf("declared 100 MiB: %v", err)
	}
	// 8 bytes more than the member holds: the header's shape no longer
	// matches the declared size.
	size := len(i64s(1, 0, -1, 1).bytes())
	if _, err := NPZBytes("d.npz", build(uint32(size+8))); err == nil || !strings.Contains(err.Error(), "labels: holds 40 data bytes, shape [4] of <i8 needs 32") {
		t.Errorf("declared +8: %v", err)
	}
}
