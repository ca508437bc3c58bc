package load

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"flag"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"testing"
)

var npzHostileOut = flag.String("npz-hostile-out", "",
	"TestNPZHostile also writes its archives into this folder (to measure the CLI on them)")

// bigMember is a .npy member to deflate: its header for descr and shape,
// then head, then fill repeated up to the size the shape calls for. A run
// of one byte deflates about 1030 to 1, which is what makes these archives
// small.
type bigMember struct {
	name  string
	descr string
	shape []int
	head  []byte
	fill  byte
}

// small is a bigMember holding an npyArray's data and nothing more.
func small(name string, a npyArray) bigMember {
	return bigMember{name: name, descr: a.descr, shape: a.shape, head: a.data}
}

// dataSize is the number of data bytes m's shape and dtype call for.
func (m bigMember) dataSize(t testing.TB) int64 {
	n, err := strconv.Atoi(m.descr[2:])
	if err != nil {
		t.Fatalf("dtype %q", m.descr)
	}
	size := int64(n)
	if m.descr[1] == 'U' {
		size *= 4
	}
	for _, d := range m.shape {
		size *= int64(d)
	}
	return size
}

// deflateRun returns a raw deflate stream of prefix followed by n bytes
// of fill, and the CRC-32 of what it inflates to, without compressing
// every byte: after a first megabyte of fill, the compressed form of the
// next megabyte refers only to the 32 KiB before it, all fill, so the same
// bytes encode every later megabyte and are repeated.
func deflateRun(t testing.TB, prefix []byte, fill byte, n int64) ([]byte, uint32) {
	const block = 1 << 20
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	run := bytes.Repeat([]byte{fill}, block)
	var crc uint32
	write := func(b []byte) {
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		crc = crc32.Update(crc, crc32.IEEETable, b)
	}
	write(prefix)
	first := min(n, block)
	write(run[:first])
	n -= first
	if n >= block {
		if err := w.Flush(); err != nil { // ends byte-aligned
			t.Fatal(err)
		}
		at := out.Len()
		write(run)
		n -= block
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		unit := slices.Clone(out.Bytes()[at:])
		for ; n >= block; n -= block {
			out.Write(unit)
			crc = crc32.Update(crc, crc32.IEEETable, run)
		}
	}
	write(run[:n])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), crc
}

// deflatedNPZ zips members deflated, as numpy.savez_compressed does.
func deflatedNPZ(t testing.TB, members []bigMember) []byte {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, m := range members {
		header := npyArray{m.descr, m.shape, nil}.bytes()
		size := m.dataSize(t)
		if int64(len(m.head)) > size {
			t.Fatalf("%s: %d bytes of head for %d of data", m.name, len(m.head), size)
		}
		comp, crc := deflateRun(t, append(header, m.head...), m.fill, size-int64(len(m.head)))
		w, err := z.CreateRaw(&zip.FileHeader{Name: m.name + ".npy", Method: zip.Deflate, CRC32: crc,
			CompressedSize64: uint64(len(comp)), UncompressedSize64: uint64(len(header)) + uint64(size)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(comp); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDeflateRun checks the generator against flate itself: the stream
// inflates to the prefix and the run, and the CRC is the run's.
func TestDeflateRun(t *testing.T) {
	for _, n := range []int64{0, 5, 1 << 20, 1<<20 + 1, 3<<20 + 12345} {
		comp, crc := deflateRun(t, []byte("head"), 7, n)
		got, err := io.ReadAll(flate.NewReader(bytes.NewReader(comp)))
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		want := append([]byte("head"), bytes.Repeat([]byte{7}, int(n))...)
		if !bytes.Equal(got, want) || crc != crc32.ChecksumIEEE(want) {
			t.Fatalf("n=%d: inflated %d bytes, want %d; crc %x, want %x", n, len(got), len(want), crc, crc32.ChecksumIEEE(want))
		}
	}
}

// tinyGraph is tinyNPZ's adjacency (4 nodes, edges 0-1 and 1-2), labels and
// names as bigMembers, for the cases that make the rest of an archive
// hostile.
func tinyGraph(except ...string) []bigMember {
	var out []bigMember
	for _, m := range tinyNPZ() {
		if !slices.Contains(except, m.name) && m.name[:4] != "attr" {
			out = append(out, small(m.name, m.arr))
		}
	}
	return out
}

// u1 is a one-dimensional |u1 member of n bytes: head, then fill.
func u1(name string, n int, head []byte, fill byte) bigMember {
	return bigMember{name: name, descr: "|u1", shape: []int{n}, head: head, fill: fill}
}

const (
	m20  = 20_000_000
	m500 = 500_000_000
)

// hostileCase is an archive that once cost far more than it holds, and
// what loading it must give now. Oracles: the messages are the rule each
// case breaks, by hand; the counts of the cases that load are worked out
// in their comments.
type hostileCase struct {
	file    string
	members func(t testing.TB) []bigMember
	err     string // the whole message, or "" when it loads
	check   func(*testing.T, *graphLike)
	alloc   uint64 // bound on the bytes loading may allocate
}

// graphLike is what the cases that load check.
type graphLike struct {
	nodes, edges, dim, nnz int
	at00                   float32 // feature (0, 0)
	ids                    []string
}

func hostileCases() []hostileCase {
	return []hostileCase{
		// 1. The 20 KB file: adj_indptr is 20M+1 |u1 zeros and
		//    adj_indices empty. It took 2 min 24 s and 3.3 GB to report
		//    "nodes: 20000000, edges: 0".
		{file: "indptr-20m.npz", members: func(t testing.TB) []bigMember {
			return []bigMember{small("adj_shape", i64s(m20, m20)), u1("adj_indptr", m20+1, nil, 0), small("adj_indices", i32s())}
		}, err: "adj_indices: holds no entries: the graph has no edges (adj_shape gives it 20000000 nodes)", alloc: 1 << 20},
		// 2. The same at 500M+1 (487 KB): widening adj_indptr to int64
		//    asked for 4 GB at once.
		{file: "indptr-500m.npz", members: func(t testing.TB) []bigMember {
			return []bigMember{small("adj_shape", i64s(m500, m500)), u1("adj_indptr", m500+1, nil, 0), small("adj_indices", i32s())}
		}, err: "adj_indices: holds no entries: the graph has no edges (adj_shape gives it 500000000 nodes)", alloc: 1 << 20},
		// 3. One edge, 0-1, and 20M nodes: indptr 0, 1, 1, ... From the
		//    headers: 1 entry gives at most 2 nodes an edge.
		{file: "one-edge-20m.npz", members: func(t testing.TB) []bigMember {
			return []bigMember{small("adj_shape", i64s(m20, m20)), u1("adj_indptr", m20+1, []byte{0}, 1), small("adj_indices", i32s(1))}
		}, err: "adj_indices: 1 entry can give at most 2 of the 20000000 nodes an edge: " + tooManyIsolated, alloc: 1 << 20},
		// 4. Enough entries to pass the headers' test, all of them the
		//    edge 0-1: adj_indptr is <i4 0, then bytes 0x01 (every later
		//    entry 0x01010101 = 16843009, so row 0 holds all 16843009
		//    entries of adj_indices, each |u1 1). The edges touch nodes 0
		//    and 1 of 20M.
		{file: "padding-20m.npz", members: func(t testing.TB) []bigMember {
			return []bigMember{small("adj_shape", i64s(m20, m20)),
				{name: "adj_indptr", descr: "<i4", shape: []int{m20 + 1}, head: make([]byte, 4), fill: 1},
				u1("adj_indices", 0x01010101, nil, 1)}
		}, err: "adj_indices: its edges touch only 2 of the 20000000 nodes: " + tooManyIsolated, alloc: 40 << 20},
		// 5. adj_shape itself 500M numbers long.
		{file: "shape-500m.npz", members: func(t testing.TB) []bigMember {
			return []bigMember{u1("adj_shape", m500, nil, 0), small("adj_indptr", i32s(0)), small("adj_indices", i32s())}
		}, err: "adj_shape: holds 500000000 numbers, want 2 (rows and columns)", alloc: 1 << 20},
		// 6. A 2-node graph whose adj_indices declares 500M entries that
		//    adj_indptr never reaches: refused once the 3 entries of
		//    adj_indptr are read, before any of adj_indices.
		{file: "indices-500m.npz", members: func(t testing.TB) []bigMember {
			return []bigMember{small("adj_shape", i64s(2, 2)), small("adj_indptr", i32s(0, 0, 0)), u1("adj_indices", m500, nil, 1)}
		}, err: "adj_indptr: runs from 0 to 0, want 0 to 500000000 (the length of adj_indices)", alloc: 1 << 20},
		// 7. 20M entries 0→1 whose adj_data is 0: stored, but no edges.
		{file: "zero-data-20m.npz", members: func(t testing.TB) []bigMember {
			return []bigMember{small("adj_shape", i64s(2, 2)), small("adj_indptr", i32s(0, m20, m20)),
				u1("adj_indices", m20, nil, 1), u1("adj_data", m20, nil, 0)}
		}, err: "adj_indices: none of its 20000000 entries is an edge (each is a self-loop or 0 in adj_data): the graph has no edges",
			alloc: 4 << 20},
		// 8. 20M entries 0→1 with data 1: one edge, two nodes.
		{file: "repeated-edge-20m.npz", members: func(t testing.TB) []bigMember {
			return []bigMember{small("adj_shape", i64s(2, 2)), small("adj_indptr", i32s(0, m20, m20)),
				u1("adj_indices", m20, nil, 1), u1("adj_data", m20, nil, 1)}
		}, check: func(t *testing.T, g *graphLike) {
			if g.nodes != 2 || g.edges != 1 || !slices.Equal(g.ids, []string{"0", "1"}) {
				t.Errorf("got %+v, want 2 nodes and 1 edge", g)
			}
		}, alloc: 40 << 20},
		// 9. The tiny graph with attr_shape (500M, 1) and attr_indptr
		//    500M+1 |u1 zeros: refused on the headers, 4 nodes.
		{file: "attr-rows-500m.npz", members: func(t testing.TB) []bigMember {
			return append(tinyGraph(), small("attr_shape", i64s(m500, 1)), u1("attr_indptr", m500+1, nil, 0), small("attr_indices", i32s()))
		}, err: "attr_shape: 500000000 rows for 4 nodes", alloc: 1 << 20},
		// 10. The tiny graph whose node 0 has 20M entries in feature
		//     column 0, no attr_data (each 1): they sum, in float32 and
		//     in file order, to 2^24 = 16777216, where x + 1 rounds back
		//     to x.
		{file: "attr-repeats-20m.npz", members: func(t testing.TB) []bigMember {
			return append(tinyGraph(), small("attr_shape", i64s(4, 1)), small("attr_indptr", i32s(0, m20, m20, m20, m20)),
				u1("attr_indices", m20, nil, 0))
		}, check: func(t *testing.T, g *graphLike) {
			if g.nodes != 4 || g.edges != 2 || g.dim != 1 || g.nnz != 1 || g.at00 != 1<<24 {
				t.Errorf("got %+v, want 4 nodes, 2 edges, one feature 16777216", g)
			}
		}, alloc: 8 << 20},
		// 11. 500M one-byte class names for 4 nodes: 8 GB of strings.
		{file: "class-names-500m.npz", members: func(t testing.TB) []bigMember {
			return append(tinyGraph("class_names"), bigMember{name: "class_names", descr: "|S1", shape: []int{m500}})
		}, err: "class_names: 500000000 class names for 4 nodes: more classes than nodes", alloc: 1 << 20},
		// 12. Node names a million code points wide (4 MiB each), all
		//     NUL but node 0's "a": names "a", "", "" ... repeat "".
		{file: "wide-names.npz", members: func(t testing.TB) []bigMember {
			return append(tinyGraph("node_names"), bigMember{name: "node_names", descr: "<U1048576", shape: []int{4}, head: []byte{'a', 0, 0, 0}})
		}, err: `node_names: graph: node id "" appears twice`, alloc: 12 << 20},
		// 13. A dense attr_matrix of 4 x 5M float32 zeros (80 MB): D = 5M,
		//     no entries.
		{file: "dense-zeros.npz", members: func(t testing.TB) []bigMember {
			return append(tinyGraph(), bigMember{name: "attr_matrix", descr: "<f4", shape: []int{4, 5_000_000}})
		}, check: func(t *testing.T, g *graphLike) {
			if g.nodes != 4 || g.edges != 2 || g.dim != 5_000_000 || g.nnz != 0 {
				t.Errorf("got %+v, want 4 nodes, 2 edges, D 5000000, no entries", g)
			}
		}, alloc: 4 << 20},
	}
}

// TestNPZHostile loads archives that declare or repeat far more than they
// hold, each refused with a message naming the file and the member or
// loaded with the counts it holds, and never allocating more than a
// bound far below what they once cost (hundreds of MB to tens of GB). An
// allocation bound is deterministic, unlike time.
func TestNPZHostile(t *testing.T) {
	for i, tc := range hostileCases() {
		t.Run(tc.file, func(t *testing.T) {
			data := deflatedNPZ(t, tc.members(t))
			if *npzHostileOut != "" {
				if err := os.WriteFile(filepath.Join(*npzHostileOut, tc.file), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			g, err := NPZBytes(tc.file, data)
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > tc.alloc {
				t.Errorf("case %d: allocated %d bytes, more than %d", i+1, alloc, tc.alloc)
			}
			if tc.err != "" {
				want := tc.file + ": " + tc.err
				var le *Error
				if err == nil || err.Error() != want || !errors.As(err, &le) || le.File != tc.file {
					t.Fatalf("case %d (%d bytes):\n got %v\nwant %s", i+1, len(data), err, want)
				}
				// The CLI's route names the file by its path.
				p := filepath.Join(t.TempDir(), tc.file)
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
				if _, err := Path(p); err == nil || err.Error() != p+": "+tc.err {
					t.Errorf("case %d: Path: %v", i+1, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("case %d: %v", i+1, err)
			}
			checkValid(t, g)
			got := &graphLike{nodes: g.NumNodes(), edges: g.NumEdges(), dim: g.FeatureDim(), nnz: g.Features.NNZ(), ids: g.IDs}
			if got.nnz > 0 {
				got.at00 = g.Features.At(0, 0)
			}
			tc.check(t, got)
		})
	}
}

// TestNPZHostileSizes checks that the first two cases are the issue's
// files: 20M+1 and 500M+1 bytes of adj_indptr in about 20 KB and 487 KB.
func TestNPZHostileSizes(t *testing.T) {
	cases := hostileCases()
	for i, want := range []int{20 << 10, 487 << 10} {
		n := len(deflatedNPZ(t, cases[i].members(t)))
		if n < want*9/10 || n > want*11/10 {
			t.Errorf("%s: %d bytes, want about %d", cases[i].file, n, want)
		}
	}
}

// TestNPZCompressedSizeBeyondFile checks that a member's compressed size,
// a declaration of the zip's headers, is checked against the file before
// it bounds anything: a stored attr_indices (without attr_data) whose
// header declares 500M <i4 entries, 2 GB that its entry claims to store,
// in a 2 KB file.
// Sized from the entry, the features' arrays would have taken 4 GB.
func TestNPZCompressedSizeBeyondFile(t *testing.T) {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, m := range append(without(tinyNPZ(), "attr_indices", "attr_data"), member{"attr_indices", npyArray{"<i4", []int{m500}, nil}, nil}) {
		data := m.arr.bytes()
		size := uint64(len(data))
		if m.name == "attr_indices" {
			size += 4 * m500
		}
		w, err := z.CreateRaw(&zip.FileHeader{Name: m.name + ".npy", Method: zip.Store, CRC32: crc32.ChecksumIEEE(data),
			CompressedSize64: size, UncompressedSize64: size})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := NPZBytes("t.npz", b.Bytes())
	runtime.ReadMemStats(&after)
	want := regexp.MustCompile(`^t\.npz: attr_indices: declares 2000000128 compressed bytes from byte \d+ of a \d+-byte file: the file is cut short or damaged$`)
	if err == nil || !want.MatchString(err.Error()) {
		t.Errorf("error %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
}
