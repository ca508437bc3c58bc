package load

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// checkError asserts that a loader's error is a *Error.
func checkError(t *testing.T, err error) {
	t.Helper()
	var le *Error
	if err != nil && !errors.As(err, &le) {
		t.Fatalf("error %q is a %T, not a *load.Error", err, err)
	}
}

func FuzzLINQS(f *testing.F) {
	f.Add([]byte("p1\t1\t0\tA\np2\t0\t1\tB\n"), []byte("p1\tp2\np2\tghost\n"))
	f.Add([]byte("a 1 0 X\nb 0 1 Y\n"), []byte("a b\nb c\nc c\n"))
	f.Add([]byte("a X\n"), []byte("a a\n"))
	f.Add([]byte("a 0.5 -1e3 X\r\n\nb 0 0 Y\n"), []byte("a\tb\n"))
	f.Add([]byte("a 1 NaN X\n"), []byte("a b\n"))
	f.Add([]byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, content, cites []byte) {
		g, err := LINQSReaders("f", bytes.NewReader(content), "f.content", bytes.NewReader(cites), "f.cites")
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}

func FuzzEdgeList(f *testing.F) {
	f.Add([]byte("source,target,weight\nalice,bob,1\nbob,carol,2\n"), []byte("id,a,b\nalice,1,0\nerin,0,2.5\n"), true)
	f.Add([]byte("1 2\n2 3\n3 1\n4 4\n"), []byte(""), false)
	f.Add([]byte("# c\nfoo\tbar\nbaz\tqux\n"), []byte("foo\t1\n"), true)
	f.Add([]byte("x,y\n1,2\n"), []byte("1,0,1\n2,1\n"), true)
	f.Add([]byte("a b\n,\n"), []byte("% c\n\n"), true)
	f.Fuzz(func(t *testing.T, edges, feats []byte, withFeatures bool) {
		var featsReader io.Reader
		if withFeatures {
			featsReader = bytes.NewReader(feats)
		}
		g, err := EdgeListReaders("f", bytes.NewReader(edges), "edges.csv", featsReader, "features.csv")
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}

// FuzzNPZ feeds whole archives. Its seeds are kept small (about 600 bytes)
// on purpose: when the fuzzer finds new coverage, Go's minimizer tries
// O(n²) cuts of the n-byte input before it counts another exec, so 3 KB
// seeds kept it minimizing for the whole of -fuzzminimizetime (60 s) and
// the run reported almost no execs. The seeds store their members with a
// zero CRC, which archive/zip does not check, so that mutated data reaches
// the loader instead of failing the checksum. FuzzNPZArrays below mutates
// the arrays inside a well-formed archive.
func FuzzNPZ(f *testing.F) {
	// A triangle 0-1-2 in the fewest members, with and without labels.
	graph := []member{
		{"adj_indptr", i32s(0, 2, 3, 3), nil},
		{"adj_indices", i32s(1, 2, 2), nil},
		{"adj_shape", i64s(3, 3), nil},
	}
	f.Add(compactNPZ(f, graph))
	f.Add(compactNPZ(f, append(slices.Clone(graph), member{"labels", i32s(0, 1, -1), nil})))
	// Regression seed: a header npyio's parser panics on (no newline).
	f.Add(compactNPZ(f, append(slices.Clone(graph[:2]), member{"adj_shape", npyArray{}, []byte("\x93NUMPY\x01\x00\x04\x00abcd")})))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := NPZBytes("f.npz", data)
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}

// compactNPZ is writeNPZ with the smallest archive that holds members: .npy
// headers without numpy's alignment padding, names without ".npy", stored
// uncompressed with a zero CRC (not checked by archive/zip).
func compactNPZ(t testing.TB, members []member) []byte {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, m := range members {
		data := m.raw
		if data == nil {
			data = m.arr.compactBytes()
		}
		w, err := z.CreateRaw(&zip.FileHeader{Name: m.name, Method: zip.Store,
			CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(data))})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// compactBytes is a's .npy file without the header's alignment padding.
func (a npyArray) compactBytes() []byte {
	dims := make([]string, len(a.shape))
	for i, d := range a.shape {
		dims[i] = fmt.Sprint(d)
	}
	shape := "(" + strings.Join(dims, ",")
	if len(a.shape) == 1 {
		shape += ","
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }\n", a.descr, shape+")")
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(dict)))
	b.WriteString(dict)
	b.Write(a.data)
	return b.Bytes()
}

// FuzzNPZArrays builds an archive from raw .npy members (the adjacency's
// indptr, indices and shape, the attributes' indptr and indices, labels and
// class names), so that the fuzzer reaches the array and graph checks.
func FuzzNPZArrays(f *testing.F) {
	m := tinyNPZ()
	get := func(name string) []byte {
		for _, x := range m {
			if x.name == name {
				return x.arr.bytes()
			}
		}
		return nil
	}
	f.Add(get("adj_indptr"), get("adj_indices"), get("adj_shape"), get("attr_indptr"), get("attr_indices"), get("labels"), get("class_names"))
	f.Add(i32s(0, 1, 1).bytes(), i32s(1).bytes(), i64s(2, 2).bytes(), i32s(0, 0, 2).bytes(), i32s(1, 1).bytes(), i64s(0, 0).bytes(), unicode(1, "a").bytes())
	f.Fuzz(func(t *testing.T, adjPtr, adjIdx, adjShape, attrPtr, attrIdx, labels, classes []byte) {
		ms := []member{
			{name: "adj_indptr", raw: adjPtr}, {name: "adj_indices", raw: adjIdx}, {name: "adj_shape", raw: adjShape},
			{name: "attr_indptr", raw: attrPtr}, {name: "attr_indices", raw: attrIdx}, {"attr_shape", i64s(4, 5), nil},
			{name: "labels", raw: labels}, {name: "class_names", raw: classes},
		}
		g, err := NPZBytes("f.npz", writeNPZ(t, ms))
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}
