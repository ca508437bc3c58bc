package load

import (
	"archive/zip"
	"bytes"
	"cmp"
	"errors"
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
//     self-loops (entries on the diagonal) and duplicates (an entry stored
//     again at the same row and column) are dropped and counted in the
//     graph's SelfLoops and DuplicateEdges. An entry whose reverse is
//     stored too is the other half of an undirected edge, not a duplicate.
//   - attr_indptr, attr_indices, attr_shape (N, D) and optional attr_data
//     (all ones when absent): CSR features. Rows may be unsorted and hold
//     repeated columns, as scipy allows; repeats are summed in file order
//     and zeros dropped. Or attr_matrix, a dense N x D array. Or neither:
//     D = 0.
//   - labels (optional): one integer class per node, -1 for unknown.
//   - class_names (optional): one name per class, no more than N; without
//     it classes are named "0", "1", ...
//   - node_names (optional): the node ids; without them ids are "0".."N-1".
//
// A graph with no edges, or whose edges leave more than half of its nodes
// without a neighbour, is refused, before anything is built per node: N
// comes from adj_shape and a run of empty rows in adj_indptr deflates a
// thousandfold, so a small file could otherwise ask for ids, features and
// a model for millions of nodes that nothing links. (Cora, Citeseer, Amazon
// Photo and Computers and Coauthor CS leave at most 2.1% of their nodes
// isolated.) The adjacency's headers are enough to refuse most such files:
// k entries of adj_indices give at most 2k nodes an edge.
//
// The zip container is read with archive/zip and the .npy headers with
// github.com/sbinet/npyio; the array data is decoded here. Each member's
// header is checked against the size its zip entry declares (which must be
// within deflate's 1032:1 of what it stores), and its shape against the
// graph, before its data is inflated. The data is then read a chunk at a
// time, never whole and never widened whole (a |u1 array stays one byte an
// element until it is stored as int32), so that loading costs what the
// graph holds: its distinct edges and feature entries, its labels and
// names, whatever an array declares or repeats. npyio v0.6.0 decodes a
// unicode array (numpy "<U19", UTF-32LE) as if its bytes were UTF-8,
// returning each name interleaved with NUL bytes, and its element reader
// ignores short reads, so a truncated array would come back padded with
// stale values instead of failing. Here string arrays of kind 'U' (UTF-32)
// and 'S' (bytes) are decoded properly; a class_names or node_names array
// of any other kind (say a pickled object array) is skipped, not an error.
//
// Errors name the file and the member: a missing or malformed member, a
// shape that does not match N, a negative or out-of-range index, a
// non-finite feature value, a label out of range, or a graph refused by
// the rule above.
func NPZBytes(name string, data []byte) (*graph.Graph, error) {
	return npzBytes(name, data)
}

// npzBytes is NPZBytes, for Path and Bytes.
func npzBytes(file string, data []byte) (g *graph.Graph, err error) {
	r := &npzFile{file: file, size: int64(len(data))}
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
	size int64                // bytes in the file
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
	adj, err := r.adjacency()
	if err != nil {
		return nil, err
	}
	n := adj.n
	x, err := r.features(n)
	if err != nil {
		return nil, err
	}
	ids, err := r.nodeNames(n)
	if err != nil {
		return nil, err
	}
	g, err := graph.New(n, adj.entries, x, ids)
	if err != nil { // the structure was checked above: a repeated node name
		return nil, r.errorf("node_names", "%v", err)
	}
	// New counts an entry and its reverse as a pair given twice; in a
	// matrix they are how an undirected edge is written.
	g.SelfLoops, g.DuplicateEdges = adj.selfLoops, adj.repeats
	if err := r.labels(g); err != nil {
		return nil, err
	}
	return g, nil
}

// tooManyIsolated is the end of the message refusing a degenerate graph.
const tooManyIsolated = "a graph with more than half of its nodes without an edge is refused"

// adjacency is what adjacency reads.
type adjacency struct {
	n int
	// entries are the distinct entries (row, column) of the stored matrix
	// that are edges: off the diagonal, with data other than 0. graph.New
	// symmetrises them.
	entries []graph.Edge
	// selfLoops counts the entries on the diagonal and repeats the entries
	// that repeat an earlier one (the same row and column), both dropped.
	// An entry whose reverse is stored too is half of a symmetric matrix,
	// not a repeat.
	selfLoops, repeats int
}

// adjacency reads the adjacency's CSR members, refusing a graph with no
// edges or with more than half of its nodes isolated (see NPZBytes) before
// anything is allocated per node.
func (r *npzFile) adjacency() (*adjacency, error) {
	c, err := r.openCSR("adj", func(rows, cols int) error {
		if rows != cols {
			return r.errorf("adj_shape", "adjacency shape (%d, %d) is not square", rows, cols)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer c.close()
	n := c.rows
	// From the headers alone: every entry gives at most two nodes an edge.
	if c.nnz == 0 {
		return nil, r.errorf("adj_indices", "holds no entries: the graph has no edges (adj_shape gives it %d nodes)", n)
	}
	if 4*int64(c.nnz) < int64(n) {
		return nil, r.errorf("adj_indices", "%s can give at most %d of the %d nodes an edge: %s",
			nouns(c.nnz, "entry", "entries"), 2*c.nnz, n, tooManyIsolated)
	}
	a := &adjacency{n: n}
	var set edgeSet
	for i := range n {
		count, err := c.nextRow()
		if err != nil {
			return nil, err
		}
		for count > 0 {
			cols, vals, err := c.entries(count)
			if err != nil {
				return nil, err
			}
			count -= len(cols)
			for t, j := range cols {
				switch {
				case vals != nil && vals[t] == 0: // stored, but not an edge
				case int(j) == i:
					a.selfLoops++
				default:
					set.add(graph.Edge{U: int32(i), V: int32(j)})
				}
			}
		}
	}
	if err := c.finish(); err != nil {
		return nil, err
	}
	a.entries, a.repeats = set.distinct()
	if len(a.entries) == 0 {
		return nil, r.errorf("adj_indices", "none of its %d entries is an edge (each is a self-loop or 0 in adj_data): the graph has no edges",
			c.nnz)
	}
	if len(a.entries) > math.MaxInt32/2 { // graph.New counts two neighbours an entry in int32
		return nil, r.errorf("adj_indices", "%d distinct entries, more than the %d a graph may have", len(a.entries), math.MaxInt32/2)
	}
	// One bit a node: n+1 entries of adj_indptr have been read by now.
	seen := make([]uint64, (n+63)/64)
	touched := 0
	for _, e := range a.entries {
		for _, u := range [2]int32{e.U, e.V} {
			if w, b := u/64, uint64(1)<<(u%64); seen[w]&b == 0 {
				seen[w] |= b
				touched++
			}
		}
	}
	if 2*(n-touched) > n {
		return nil, r.errorf("adj_indices", "its edges touch only %d of the %d nodes: %s", touched, n, tooManyIsolated)
	}
	return a, nil
}

// nouns returns "1 <one>" or "<n> <many>".
func nouns(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// compactAt and rowCompactAt are how many entries of the adjacency, and of
// a feature row, are collected before repeats are first dropped.
const (
	compactAt    = 1 << 20
	rowCompactAt = 1 << 16
)

// edgeSet collects the distinct entries of a stored adjacency. Entries in
// order (rows ascending, columns ascending within a row, as scipy stores a
// canonical matrix) are appended, or dropped when they repeat the last
// one, and need no sorting; entries out of order are appended and the
// whole set sorted and compacted whenever they could make up half of it,
// so that an adjacency repeating one entry a billion times costs what its
// distinct entries cost.
type edgeSet struct {
	e    []graph.Edge
	kept int // e[:kept] is sorted and distinct
	adds int // entries added
}

func edgeLess(a, b graph.Edge) bool { return a.U < b.U || a.U == b.U && a.V < b.V }

// add adds the entry e.
func (s *edgeSet) add(e graph.Edge) {
	s.adds++
	if k := len(s.e); k == s.kept && k > 0 && s.e[k-1] == e {
		return
	}
	if len(s.e) == cap(s.e) { // doubling: append grows large slices by a quarter
		s.e = slices.Grow(s.e, max(len(s.e), 1024))
	}
	s.e = append(s.e, e)
	if k := len(s.e); k-1 == s.kept && (k == 1 || edgeLess(s.e[k-2], e)) {
		s.kept = k
	} else if k >= max(compactAt, 2*s.kept) {
		s.compact()
	}
}

func (s *edgeSet) compact() {
	slices.SortFunc(s.e, func(a, b graph.Edge) int { return cmp.Or(cmp.Compare(a.U, b.U), cmp.Compare(a.V, b.V)) })
	s.e = slices.Compact(s.e)
	s.kept = len(s.e)
}

// distinct returns the distinct entries, sorted, and how many entries
// added repeated one before them.
func (s *edgeSet) distinct() (entries []graph.Edge, repeats int) {
	if s.kept != len(s.e) {
		s.compact()
	}
	return s.e, s.adds - len(s.e)
}

// csrStream reads a CSR matrix prefix_{shape,indptr,indices,data} a row at
// a time, checking its structure as it goes: indptr runs from 0 to the
// length of indices without decreasing, and indices are in [0, cols).
type csrStream struct {
	r                     *npzFile
	prefix                string
	rows, cols, nnz       int
	indptr, indices, data *npyStream
	ptr, idx              *intReader
	val                   *floatReader // nil without a data member
	row                   int          // rows read
	end                   int64        // indptr[row]
	k                     int          // entries read
	started               bool         // indptr[0] has been read
}

// openCSR reads prefix_shape and the headers of the other members, checking
// them against it: indptr must have rows+1 entries, and data (optional) as
// many as indices. check sees the shape once indptr's length agrees with
// it, before any other header is read; its error is returned.
func (r *npzFile) openCSR(prefix string, check func(rows, cols int) error) (_ *csrStream, err error) {
	c := &csrStream{r: r, prefix: prefix}
	defer func() {
		if err != nil {
			c.close()
		}
	}()
	shape, err := r.open(prefix+"_shape", func(a *array) error {
		if len(a.shape) != 1 {
			return r.errorf(a.member, "shape %v, want one dimension", a.shape)
		}
		if a.n > 2 {
			return r.errorf(a.member, "holds %d numbers, want 2 (rows and columns)", a.n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer shape.close()
	sr, err := newIntReader(shape)
	if err != nil {
		return nil, err
	}
	dims := make([]int64, shape.n)
	for i := range dims {
		if dims[i], err = sr.next(); err != nil {
			return nil, err
		}
	}
	if err := shape.finish(); err != nil {
		return nil, err
	}
	if len(dims) != 2 || dims[0] < 0 || dims[1] < 0 || dims[0] >= math.MaxInt32 || dims[1] >= math.MaxInt32 {
		return nil, r.errorf(prefix+"_shape", "%v is not a matrix shape", dims)
	}
	c.rows, c.cols = int(dims[0]), int(dims[1])

	oneDim := func(want int, why string) func(a *array) error {
		return func(a *array) error {
			if len(a.shape) != 1 {
				return r.errorf(a.member, "shape %v, want one dimension", a.shape)
			}
			if want >= 0 && a.n != want {
				return r.errorf(a.member, "%d entries %s, want %d", a.n, why, want)
			}
			return nil
		}
	}
	if c.indptr, err = r.open(prefix+"_indptr", oneDim(c.rows+1, "for "+strconv.Itoa(c.rows)+" rows")); err != nil {
		return nil, err
	}
	if c.ptr, err = newIntReader(c.indptr); err != nil {
		return nil, err
	}
	if err := check(c.rows, c.cols); err != nil {
		return nil, err
	}
	if !r.has(prefix + "_indices") {
		return nil, r.errorf("", "no %s_indices member beside %s_indptr", prefix, prefix)
	}
	if c.indices, err = r.open(prefix+"_indices", oneDim(-1, "")); err != nil {
		return nil, err
	}
	if c.idx, err = newIntReader(c.indices); err != nil {
		return nil, err
	}
	c.nnz = c.indices.n
	if r.has(prefix + "_data") {
		c.data, err = r.open(prefix+"_data", func(a *array) error {
			if len(a.shape) != 1 || a.n != c.nnz {
				return r.errorf(a.member, "shape %v, want (%d,) like %s_indices", a.shape, c.nnz, prefix)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if c.val, err = newFloatReader(c.data); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// start reads the first entry of indptr, which must be 0, unless it has
// been read already.
func (c *csrStream) start() error {
	if c.started {
		return nil
	}
	c.started = true
	first, err := c.ptr.next()
	if err != nil {
		return err
	}
	if first != 0 {
		return c.r.errorf(c.prefix+"_indptr", "starts at %d, want 0", first)
	}
	return nil
}

// nextRow moves to the next row and returns how many entries it holds.
func (c *csrStream) nextRow() (int, error) {
	if err := c.start(); err != nil {
		return 0, err
	}
	v, err := c.ptr.next()
	if err != nil {
		return 0, err
	}
	i := c.row
	switch {
	case v < c.end:
		return 0, c.r.errorf(c.prefix+"_indptr", "decreases at row %d (%d then %d)", i, c.end, v)
	case v > int64(c.nnz) && i+1 == c.rows:
		return 0, c.r.errorf(c.prefix+"_indptr", "runs from 0 to %d, want 0 to %d (the length of %s_indices)", v, c.nnz, c.prefix)
	case v > int64(c.nnz):
		return 0, c.r.errorf(c.prefix+"_indptr", "reaches %d at row %d, past the %d entries of %s_indices", v, i, c.nnz, c.prefix)
	}
	count := int(v - c.end)
	c.row, c.end = c.row+1, v
	return count, nil
}

// entries returns up to k of the current row's next entries, at least one
// when k > 0: their columns, each checked to be in [0, cols), and their
// values, nil without a data member (each 1). The slices are valid until
// the next call.
func (c *csrStream) entries(k int) (cols []int64, vals []float32, err error) {
	if err := c.idx.fill(); err != nil {
		return nil, nil, err
	}
	m := min(k, len(c.idx.vals)-c.idx.pos)
	if c.val != nil {
		if err := c.val.fill(); err != nil {
			return nil, nil, err
		}
		m = min(m, len(c.val.vals)-c.val.pos)
	}
	cols = c.idx.take(m)
	for t, j := range cols {
		if j < 0 || j >= int64(c.cols) {
			return nil, nil, c.r.errorf(c.prefix+"_indices", "entry %d is %d, outside [0, %d)", c.k+t, j, c.cols)
		}
	}
	if c.val != nil {
		vals = c.val.take(m)
	}
	c.k += m
	return cols, vals, nil
}

// finish checks, once every row has been read, that the rows took every
// entry and that each member ends where it declares.
func (c *csrStream) finish() error {
	if err := c.start(); err != nil {
		return err
	}
	if c.end != int64(c.nnz) {
		return c.r.errorf(c.prefix+"_indptr", "runs from 0 to %d, want 0 to %d (the length of %s_indices)", c.end, c.nnz, c.prefix)
	}
	for _, s := range []*npyStream{c.indptr, c.indices, c.data} {
		if s != nil {
			if err := s.finish(); err != nil {
				return err
			}
		}
	}
	return nil
}

// close releases the members' streams.
func (c *csrStream) close() {
	c.indptr.close()
	c.indices.close()
	c.data.close()
}

// features reads attr_* (CSR) or attr_matrix (dense), or returns nil (no
// features) when there is neither. n has been checked against adj_indptr.
func (r *npzFile) features(n int) (*f32.CSR, error) {
	switch {
	case r.has("attr_indptr") || r.has("attr_indices") || r.has("attr_shape"):
		return r.sparseFeatures(n)
	case r.has("attr_matrix"):
		return r.denseFeatures(n)
	}
	return nil, nil
}

// sparseFeatures reads the attr_* members, a CSR matrix of n rows; the
// repeats of a column in a row are summed (rowSum).
func (r *npzFile) sparseFeatures(n int) (*f32.CSR, error) {
	for _, m := range []string{"attr_indptr", "attr_shape"} {
		if !r.has(m) {
			return nil, r.errorf("", "no %s member beside the other attr_ members", m)
		}
	}
	c, err := r.openCSR("attr", func(rows, _ int) error {
		if rows != n {
			return r.errorf("attr_shape", "%d rows for %d nodes", rows, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer c.close()
	// Sized from the entries the archive holds, not from attr_indices'
	// header: a deflated member grows as it is read.
	p := c.indices.present()
	x := &f32.CSR{Rows: n, Cols: c.cols, Indptr: make([]int32, n+1),
		Indices: make([]int32, 0, p), Values: make([]float32, 0, p)}
	var row rowSum
	for i := range n {
		count, err := c.nextRow()
		if err != nil {
			return nil, err
		}
		row.reset()
		for count > 0 {
			cols, vals, err := c.entries(count)
			if err != nil {
				return nil, err
			}
			count -= len(cols)
			for t, j := range cols {
				v := float32(1)
				if vals != nil {
					v = vals[t]
				}
				row.add(int32(j), v)
			}
		}
		row.fold()
		for _, e := range row.e {
			if math.IsInf(float64(e.val), 0) {
				return nil, r.errorf("attr_data", "row %d column %d sums to %g", i, e.col, e.val)
			}
			if e.val != 0 {
				x.Indices = append(x.Indices, e.col)
				x.Values = append(x.Values, e.val)
			}
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	if err := c.finish(); err != nil {
		return nil, err
	}
	return x, nil
}

// denseFeatures reads attr_matrix, n rows, a chunk at a time, keeping
// only the nonzeros: a dense matrix of zeros deflates a thousandfold.
func (r *npzFile) denseFeatures(n int) (*f32.CSR, error) {
	s, err := r.open("attr_matrix", func(a *array) error {
		if len(a.shape) != 2 || a.shape[0] != n {
			return r.errorf("attr_matrix", "shape %v, want (%d, D)", a.shape, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer s.close()
	if _, err := newFloatReader(s); err != nil {
		return nil, err
	}
	d := s.shape[1]
	x := &f32.CSR{Rows: n, Cols: d, Indptr: make([]int32, n+1)}
	var vals []float32
	var scratch []int64
	for {
		c, ok, err := s.chunk()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if vals, err = c.floatsInto(vals, &scratch); err != nil {
			return nil, r.errorf("", "%v", err)
		}
		for k, v := range vals {
			if v != 0 {
				e := c.base + k
				x.Indices = append(x.Indices, int32(e%d))
				x.Values = append(x.Values, v)
				x.Indptr[e/d+1]++
			}
		}
	}
	if err := s.finish(); err != nil {
		return nil, err
	}
	for i := range n {
		x.Indptr[i+1] += x.Indptr[i]
	}
	return x, nil
}

// rowSum sums the entries of one feature row by column. Repeats of a
// column are added in the order the file gives them, as scipy's
// sum_duplicates would: a left fold, from 0, over the column's entries in
// file order. Entries in column order are appended, or added to the last
// one when they repeat its column, which is then the fold so far; entries
// out of order are appended and the row folded (a stable sort by column,
// then each run summed, which continues the same folds) whenever they
// could make up half of it, so that a row repeating one column a billion
// times costs one entry.
type rowSum struct {
	e    []colVal
	kept int // e[:kept] is sorted by column, each column once
}

type colVal struct {
	col int32
	val float32
}

// reset empties the row, keeping its storage.
func (s *rowSum) reset() { s.e, s.kept = s.e[:0], 0 }

func (s *rowSum) add(col int32, v float32) {
	if k := len(s.e); k == s.kept && k > 0 && s.e[k-1].col == col {
		s.e[k-1].val += v
		return
	}
	if len(s.e) == cap(s.e) {
		s.e = slices.Grow(s.e, max(len(s.e), 64))
	}
	s.e = append(s.e, colVal{col, v})
	if k := len(s.e); k-1 == s.kept && (k == 1 || s.e[k-2].col < col) {
		s.kept = k
	} else if k >= max(rowCompactAt, 2*s.kept) {
		s.fold()
	}
}

// fold sorts the row by column and replaces each run of a column by its
// sum, zeros included (a later entry may be added to them).
func (s *rowSum) fold() {
	if s.kept == len(s.e) {
		return
	}
	slices.SortStableFunc(s.e, func(a, b colVal) int { return cmp.Compare(a.col, b.col) })
	w := 0
	for a := 0; a < len(s.e); w++ {
		c, sum := s.e[a].col, float32(0)
		for ; a < len(s.e) && s.e[a].col == c; a++ {
			sum += s.e[a].val
		}
		s.e[w] = colVal{c, sum}
	}
	s.e = s.e[:w]
	s.kept = w
}

// nodeNames reads node_names, or returns nil when there are none (or they
// are of a kind not decoded, see NPZBytes).
func (r *npzFile) nodeNames(n int) ([]string, error) {
	if !r.has("node_names") {
		return nil, nil
	}
	return r.names("node_names", func(a *array) error {
		if len(a.shape) != 1 || a.n != n {
			return r.errorf("node_names", "shape %v, want (%d,)", a.shape, n)
		}
		return nil
	})
}

// names reads a one-dimensional array of names after check accepts its
// header. An array of a kind this package does not decode as names (a
// pickled object array, say) gives nil, nil: it is skipped.
func (r *npzFile) names(member string, check func(a *array) error) ([]string, error) {
	s, err := r.open(member, check)
	var de *dtypeError
	if errors.As(err, &de) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer s.close()
	if !s.isStrings() {
		return nil, nil
	}
	out := make([]string, 0, s.n) // s.n has been checked by check
	for {
		c, ok, err := s.chunk()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		out = c.appendStrings(out)
	}
	if err := s.finish(); err != nil {
		return nil, err
	}
	return out, nil
}

// labels reads labels and class_names into g.
func (r *npzFile) labels(g *graph.Graph) error {
	if !r.has("labels") {
		return nil
	}
	n := g.NumNodes()
	s, err := r.open("labels", func(a *array) error {
		if len(a.shape) != 1 || a.n != n {
			return r.errorf("labels", "shape %v, want (%d,)", a.shape, n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer s.close()
	lr, err := newIntReader(s)
	if err != nil {
		return err
	}
	var names []string
	if r.has("class_names") {
		// No more classes than nodes: an array of a million one-byte
		// names would otherwise cost sixteen times its bytes in strings.
		names, err = r.names("class_names", func(c *array) error {
			if len(c.shape) != 1 {
				return r.errorf("class_names", "shape %v, want one dimension", c.shape)
			}
			if c.n > n {
				return r.errorf("class_names", "%d class names for %d nodes: more classes than nodes", c.n, n)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	limit := int64(math.MaxInt32)
	if names != nil {
		limit = int64(len(names))
	}
	lab := make([]int32, n)
	maxLabel := int64(-1)
	for i := range lab {
		l, err := lr.next()
		if err != nil {
			return err
		}
		if l < -1 || l >= limit {
			return r.errorf("labels", "node %d has label %d, outside [-1, %d)", i, l, limit)
		}
		lab[i] = int32(l)
		maxLabel = max(maxLabel, l)
	}
	if err := s.finish(); err != nil {
		return err
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
	g.Labels = lab
	g.ClassNames = names
	return nil
}
