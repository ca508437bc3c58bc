package load

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// npzHostileSeeds are the shapes of TestNPZHostile's archives at a scale
// small enough for seeds (about 600 bytes deflated): an adj_indptr of
// zeros and no entries; one edge among 2000 nodes; one entry repeated
// 5000 times, with data 1 and with data 0; attr_shape rows far above N;
// one feature column repeated 5000 times; 5000 class names for 3 nodes.
// Members are deflated with their real CRC, so that mutations reach
// flate's and the checksum's errors too.
func npzHostileSeeds(t testing.TB) [][]byte {
	triangle := []bigMember{small("adj_shape", i64s(3, 3)), small("adj_indptr", i32s(0, 2, 3, 3)), small("adj_indices", i32s(1, 2, 2))}
	var out [][]byte
	for _, ms := range [][]bigMember{
		{small("adj_shape", i64s(2000, 2000)), u1("adj_indptr", 2001, nil, 0), small("adj_indices", i32s())},
		{small("adj_shape", i64s(2000, 2000)), u1("adj_indptr", 2001, []byte{0}, 1), small("adj_indices", i32s(1))},
		{small("adj_shape", i64s(2, 2)), small("adj_indptr", i32s(0, 5000, 5000)), u1("adj_indices", 5000, nil, 1), u1("adj_data", 5000, nil, 1)},
		{small("adj_shape", i64s(2, 2)), small("adj_indptr", i32s(0, 5000, 5000)), u1("adj_indices", 5000, nil, 1), u1("adj_data", 5000, nil, 0)},
		append(slices.Clone(triangle), small("attr_shape", i64s(5000, 1)), u1("attr_indptr", 5001, nil, 0), small("attr_indices", i32s())),
		append(slices.Clone(triangle), small("attr_shape", i64s(3, 1)), small("attr_indptr", i32s(0, 5000, 5000, 5000)), u1("attr_indices", 5000, nil, 0)),
		append(slices.Clone(triangle), small("labels", i32s(0, 0, 0)), bigMember{name: "class_names", descr: "|S1", shape: []int{5000}}),
	} {
		out = append(out, deflatedNPZ(t, ms))
	}
	return out
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
	for _, seed := range npzHostileSeeds(f) {
		f.Add(seed)
	}
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
	// The hostile shapes (npzHostileSeeds) with attr_shape (4, 5): an
	// adj_indptr of 301 zeros and no entries; node 0 with 300 entries of
	// node 1 and 300 of feature column 0, so that half the nodes have an
	// edge; 300 class names for 4 nodes.
	zeros := func(descr string, n int, fill byte) []byte {
		return npyArray{descr, []int{n}, bytes.Repeat([]byte{fill}, n)}.bytes()
	}
	f.Add(zeros("|u1", 301, 0), i32s().bytes(), i64s(300, 300).bytes(), i32s(0, 0, 0, 0, 0).bytes(), i32s().bytes(), get("labels"), get("class_names"))
	f.Add(i32s(0, 300, 300, 300, 300).bytes(), zeros("|u1", 300, 1), i64s(4, 4).bytes(), i32s(0, 300, 300, 300, 300).bytes(),
		zeros("|u1", 300, 0), npyArray{"|u1", []int{4}, []byte{0, 1, 0, 1}}.bytes(), npyArray{"|S1", []int{2}, []byte("ab")}.bytes())
	f.Add(get("adj_indptr"), get("adj_indices"), get("adj_shape"), get("attr_indptr"), get("attr_indices"), get("labels"),
		zeros("|S1", 300, 'x'))
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
