package load

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// NPZBytes reads a graph in the gnn-benchmark .npz layout (Shchur et al.
// 2018, "Pitfalls of Graph Neural Network Evaluation"; the files of Amazon
// Photo, Cora and Citeseer in shchur/gnn-benchmark) from the bytes of the
// file called name. name is used in errors, and the graph is named after it
// without its extension.
//
// The archive holds .npy arrays (member names with or without ".npy"):
//
//   - adj_indptr, adj_indices, adj_shape (N, N) and optional adj_data: the
//     adjacency in scipy CSR form. It is symmetrised (the stored matrix of
//     Amazon Photo is not), entries whose data is 0 are not edges, and
//     self-loops and duplicates are dropped.
//   - attr_indptr, attr_indices, attr_shape (N, D) and optional attr_data
//     (all ones when absent): CSR features. Rows may be unsorted and hold
//     repeated columns, as scipy allows; repeats are summed and zeros
//     dropped. Or attr_matrix, a dense N x D array. Or neither: D = 0.
//   - labels (optional): one integer class per node, -1 for unknown.
//   - class_names (optional): one name per class; without it classes are
//     named "0", "1", ...
//   - node_names (optional): the node ids; without them ids are "0".."N-1".
//
// The zip container is read with archive/zip and the .npy headers with
// github.com/sbinet/npyio; the array data is decoded here. Each member's
// header is checked against the size its zip entry declares, and its shape
// against the graph, before its data is inflated, and no more than the
// declared size is ever inflated. npyio v0.6.0
// decodes a unicode array (numpy "<U19", UTF-32LE) as if its bytes were
// UTF-8, returning each name interleaved with NUL bytes, and its element
// reader ignores short reads, so a truncated array would come back padded
// with stale values instead of failing. Here string arrays of kind 'U'
// (UTF-32) and 'S' (bytes) are decoded properly; a class_names or
// node_names array of any other kind (say a pickled object array) is
// skipped, not an error.
//
// Errors name the file and the member: a missing or malformed member, a
// shape that does not match N, a negative or out-of-range index, a
// non-finite feature value or a label out of range.
func NPZBytes(name string, data []byte) (*graph.Graph, error) {
	return npzBytes(name, data)
}

// npzBytes is NPZBytes with panics from the npy header parser turned into
// errors (npyio slices its header without bounds checks).
func npzBytes(file string, data []byte) (g *graph.Graph, err error) {
	r := &npzFile{file: file}
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, r.errorf("", "not a zip archive: %v", unwrapAll(err))
	}
	r.keys = make(map[string]*zip.File)
	for _, f := range z.File {
		short := strings.TrimSuffix(f.Name, ".npy")
		if _, dup := r.keys[short]; !dup {
			r.keys[short] = f
		}
	}
	g, err = r.graph()
	if err != nil {
		return nil, err
	}
	g.Name = stem(file)
	return g, nil
}

// unwrapAll returns the innermost error of a chain, to drop the "npz: could
// not ..." prefixes that add nothing to our own message.
func unwrapAll(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// npzFile is an open npz archive.
type npzFile struct {
	file string
	keys map[string]*zip.File // member name without ".npy" -> its entry
}

func (r *npzFile) errorf(member, format string, args ...any) *Error {
	if member != "" {
		format = member + ": " + format
	}
	return errorf(r.file, 0, format, args...)
}

func (r *npzFile) has(member string) bool { _, ok := r.keys[member]; return ok }

// graph assembles the graph from the archive's members.
func (r *npzFile) graph() (*graph.Graph, error) {
	for _, m := range []string{"adj_indptr", "adj_indices", "adj_shape"} {
		if !r.has(m) {
			return nil, r.errorf("", "no %s member: not a gnn-benchmark graph (want adj_indptr, adj_indices, adj_shape)", m)
		}
	}
	n, _, adjPtr, adjIdx, adjVal, err := r.csr("adj", true)
	if err != nil {
		return nil, err
	}
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		for k := adjPtr[i]; k < adjPtr[i+1]; k++ {
			if adjVal == nil || adjVal[k] != 0 {
				edges = append(edges, graph.Edge{U: int32(i), V: int32(adjIdx[k])})
			}
		}
	}

	x, err := r.features(n)
	if err != nil {
		return nil, err
	}

	var ids []string
	if r.has("node_names") {
		a, err := r.readNames("node_names", func(a *array) error {
			if len(a.shape) != 1 || a.n != n {
				return r.errorf("node_names", "shape %v, want (%d,)", a.shape, n)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if s, ok := a.strings(); ok {
			ids = s
		}
	}
	g, err := graph.New(n, edges, x, ids)
	if err != nil { // the structure was checked above: a repeated node name
		return nil, r.errorf("node_names", "%v", err)
	}
	if err := r.labels(g); err != nil {
		return nil, err
	}
	return g, nil
}

// csr reads the CSR matrix prefix_{indptr,indices,shape,data}, checking its
// structure: rows and cols from shape (rows == cols when square), indptr
// from 0 to len(indices), non-decreasing, indices in [0, cols). vals is nil
// when there is no data member.
func (r *npzFile) csr(prefix string, square bool) (rows, cols int, indptr, indices []int64, vals []float32, err error) {
	fail := func(e error) (int, int, []int64, []int64, []float32, error) { return 0, 0, nil, nil, nil, e }
	// get reads a one-dimensional integer member of want elements (any
	// number when want < 0; why says where want comes from).
	get := func(member string, want int, why string) ([]int64, *array, error) {
		a, err := r.read(member, func(a *array) error {
			if len(a.shape) != 1 {
				return r.errorf(member, "shape %v, want one dimension", a.shape)
			}
			if want >= 0 && a.n != want {
				return r.errorf(member, "%d entries %s, want %d", a.n, why, want)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		v, err := a.ints()
		if err != nil {
			return nil, nil, r.errorf("", "%v", err)
		}
		return v, a, nil
	}
	shape, _, err := get(prefix+"_shape", -1, "")
	if err != nil {
		return fail(err)
	}
	if len(shape) != 2 || shape[0] < 0 || shape[1] < 0 || shape[0] >= math.MaxInt32 || shape[1] >= math.MaxInt32 {
		return fail(r.errorf(prefix+"_shape", "%v is not a matrix shape", shape))
	}
	rows, cols = int(shape[0]), int(shape[1])
	if square && rows != cols {
		return fail(r.errorf(prefix+"_shape", "adjacency shape (%d, %d) is not square", rows, cols))
	}
	if indptr, _, err = get(prefix+"_indptr", rows+1, fmt.Sprintf("for %d rows", rows)); err != nil {
		return fail(err)
	}
	if indices, _, err = get(prefix+"_indices", -1, ""); err != nil {
		return fail(err)
	}
	if indptr[0] != 0 || indptr[rows] != int64(len(indices)) {
		return fail(r.errorf(prefix+"_indptr", "runs from %d to %d, want 0 to %d (the length of %s_indices)",
			indptr[0], indptr[rows], len(indices), prefix))
	}
	for i := 0; i < rows; i++ {
		if indptr[i+1] < indptr[i] {
			return fail(r.errorf(prefix+"_indptr", "decreases at row %d (%d then %d)", i, indptr[i], indptr[i+1]))
		}
	}
	for k, c := range indices {
		if c < 0 || c >= int64(cols) {
			return fail(r.errorf(prefix+"_indices", "entry %d is %d, outside [0, %d)", k, c, cols))
		}
	}
	if r.has(prefix + "_data") {
		a, err := r.read(prefix+"_data", func(a *array) error {
			if len(a.shape) != 1 || a.n != len(indices) {
				return r.errorf(prefix+"_data", "shape %v, want (%d,) like %s_indices", a.shape, len(indices), prefix)
			}
			return nil
		})
		if err != nil {
			return fail(err)
		}
		if vals, err = a.floats(); err != nil {
			return fail(r.errorf("", "%v", err))
		}
	}
	return rows, cols, indptr, indices, vals, nil
}

// features reads attr_* (CSR) or attr_matrix (dense), or returns nil (no
// features) when there is neither.
func (r *npzFile) features(n int) (*f32.CSR, error) {
	switch {
	case r.has("attr_indptr") || r.has("attr_indices") || r.has("attr_shape"):
		rows, cols, ptr, idx, val, err := r.csr("attr", false)
		if err != nil {
			return nil, err
		}
		if rows != n {
			return nil, r.errorf("attr_shape", "%d rows for %d nodes", rows, n)
		}
		// Rows may be unsorted and repeat a column. Sort each row that needs
		// it by (column, position in the file), packed in one uint64 key,
		// then sum repeats in file order and drop zeros. (A counting sort
		// over columns would be O(nnz) but allocates O(D), and D comes from
		// the file.)
		x := &f32.CSR{Rows: n, Cols: cols, Indptr: make([]int32, n+1),
			Indices: make([]int32, 0, len(idx)), Values: make([]float32, 0, len(idx))}
		value := func(k int64) float32 {
			if val == nil {
				return 1
			}
			return val[k]
		}
		var keys []uint64 // column<<32 | position
		for i := 0; i < n; i++ {
			keys = keys[:0]
			for k := ptr[i]; k < ptr[i+1]; k++ {
				keys = append(keys, uint64(idx[k])<<32|uint64(k))
			}
			if !slices.IsSorted(keys) {
				slices.Sort(keys)
			}
			for a := 0; a < len(keys); {
				c, sum := keys[a]>>32, float32(0)
				for ; a < len(keys) && keys[a]>>32 == c; a++ {
					sum += value(int64(keys[a] & math.MaxUint32))
				}
				if math.IsInf(float64(sum), 0) {
					return nil, r.errorf("attr_data", "row %d column %d sums to %g", i, c, sum)
				}
				if sum != 0 {
					x.Indices = append(x.Indices, int32(c))
					x.Values = append(x.Values, sum)
				}
			}
			x.Indptr[i+1] = int32(len(x.Indices))
		}
		return x, nil
	case r.has("attr_matrix"):
		// Decoded a chunk at a time, keeping only the nonzeros: a dense
		// matrix of zeros deflates a thousandfold.
		var d int
		x := &f32.CSR{Rows: n, Indptr: make([]int32, n+1)}
		var vals []float32
		_, err := r.readEach("attr_matrix", func(a *array) error {
			if len(a.shape) != 2 || a.shape[0] != n {
				return r.errorf("attr_matrix", "shape %v, want (%d, D)", a.shape, n)
			}
			d = a.shape[1]
			return nil
		}, func(c *array) error {
			var err error
			if vals, err = c.floatsInto(vals); err != nil {
				return r.errorf("", "%v", err)
			}
			for k, v := range vals {
				if v != 0 {
					e := c.base + k
					x.Indices = append(x.Indices, int32(e%d))
					x.Values = append(x.Values, v)
					x.Indptr[e/d+1]++
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		x.Cols = d
		for i := range n {
			x.Indptr[i+1] += x.Indptr[i]
		}
		return x, nil
	}
	return nil, nil
}

// labels reads labels and class_names into g.
func (r *npzFile) labels(g *graph.Graph) error {
	if !r.has("labels") {
		return nil
	}
	n := g.NumNodes()
	a, err := r.read("labels", func(a *array) error {
		if len(a.shape) != 1 || a.n != n {
			return r.errorf("labels", "shape %v, want (%d,)", a.shape, n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	lab, err := a.ints()
	if err != nil {
		return r.errorf("", "%v", err)
	}
	var names []string
	if r.has("class_names") {
		c, err := r.readNames("class_names", func(c *array) error {
			if len(c.shape) != 1 {
				return r.errorf("class_names", "shape %v, want one dimension", c.shape)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if s, ok := c.strings(); ok {
			names = s
		}
	}
	limit := int64(math.MaxInt32)
	if names != nil {
		limit = int64(len(names))
	}
	maxLabel := int64(-1)
	for i, l := range lab {
		if l < -1 || l >= limit {
			return r.errorf("labels", "node %d has label %d, outside [-1, %d)", i, l, limit)
		}
		maxLabel = max(maxLabel, l)
	}
	if names == nil {
		if maxLabel >= int64(n) {
			return r.errorf("labels", "label %d with only %d nodes and no class_names", maxLabel, n)
		}
		names = make([]string, maxLabel+1)
		for i := range names {
			names[i] = strconv.Itoa(i)
		}
	}
	g.Labels = make([]int32, n)
	for i, l := range lab {
		g.Labels[i] = int32(l)
	}
	g.ClassNames = names
	return nil
}
