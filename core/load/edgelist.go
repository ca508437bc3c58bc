package load

import (
	"bytes"
	"io"
	"slices"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// headerWords are the column names that mark a first line as a header
// whatever follows it (compared case-insensitively).
var headerWords = []string{
	"source", "target", "src", "dst", "from", "to", "u", "v", "head", "tail",
	"node", "node1", "node2", "node_1", "node_2", "id1", "id2",
	"source_id", "target_id", "from_id", "to_id", "citing", "cited",
}

func isHeaderWord(b []byte) bool {
	return slices.ContainsFunc(headerWords, func(w string) bool { return bytes.EqualFold(b, []byte(w)) })
}

// nodeIDs interns node ids in order of first appearance.
type nodeIDs struct {
	ids   []string
	index map[string]int32
}

// get returns the node of id, adding it when new.
func (n *nodeIDs) get(id []byte) int32 {
	if i, ok := n.index[string(id)]; ok {
		return i
	}
	i := int32(len(n.ids))
	n.ids = append(n.ids, string(id))
	n.index[n.ids[i]] = i
	return i
}

// EdgeListReaders reads a graph from a plain edge list and, when features is
// not nil, a features file keyed by node id, and names it name. edgesName
// and featuresName name the inputs in errors.
//
// Both files are delimited text: the separator is a comma if the first data
// line has one, else a tab if it has one, else runs of blanks. With a comma
// or tab, fields are trimmed of surrounding blanks (quoting is not
// supported, so ids cannot contain the separator). Blank lines and lines
// starting with '#' or '%' are skipped.
//
// The edge list has one edge per line, "<id> <id> [weight] [...]"; fields
// after the second are ignored. Node ids are arbitrary non-empty strings.
// The first line is a header, and skipped, when its first two fields are
// both not numbers and either both are usual column names (source/target,
// src/dst, from/to, u/v, node1/node2, ...) or the next line's first two
// fields are both numbers. (So a graph whose ids are words keeps its first
// edge unless that edge is spelt like a header.)
//
// The features file has one line per node, "<id> <v1> ... <vD>": dense
// values, stored sparse (zeros dropped). Every line must have as many values
// as the first; its first line is a header when any of its value fields is
// not a number. Nodes with no features line get an empty feature row and
// are listed in the graph's MissingFeatures; nodes
// that appear only in the features file are kept as isolated nodes.
//
// Node order is order of first appearance in the edge list, then in the
// features file. An empty file, a line with fewer than two fields, an empty
// id, a value count different from the first line's, a value that is not a
// finite number or an id repeated in the features file is an error naming
// file and line.
func EdgeListReaders(name string, edges io.Reader, edgesName string, features io.Reader, featuresName string) (*graph.Graph, error) {
	nodes := &nodeIDs{index: make(map[string]int32)}
	el, err := readEdges(nodes, edges, edgesName)
	if err != nil {
		return nil, err
	}
	var (
		x       *f32.CSR
		missing []string
	)
	if features != nil {
		if x, missing, err = readFeatures(nodes, features, featuresName); err != nil {
			return nil, err
		}
	}
	g, err := graph.New(len(nodes.ids), el, x, nodes.ids)
	if err != nil {
		return nil, &Error{File: edgesName, Err: err}
	}
	g.Name = name
	g.MissingFeatures = missing
	return g, nil
}

// readEdges reads an edge list into nodes and returns its edges.
func readEdges(nodes *nodeIDs, r io.Reader, file string) ([]graph.Edge, error) {
	l := newLines(file, r, true)
	var edges []graph.Edge
	add := func(fields [][]byte, line int) error {
		if len(fields) < 2 {
			return errorf(file, line, "expected <source> <target>, got %d field(s)", len(fields))
		}
		if len(fields[0]) == 0 || len(fields[1]) == 0 {
			return errorf(file, line, "empty node id")
		}
		edges = append(edges, graph.Edge{U: nodes.get(fields[0]), V: nodes.get(fields[1])})
		return nil
	}

	first, ok := l.next()
	if !ok {
		if err := l.err(); err != nil {
			return nil, err
		}
		return nil, &Error{File: file, Err: ErrEmpty}
	}
	s := detectSep(first)
	firstLine := l.n
	firstFields := s.split(nil, bytes.Clone(first))
	var pending [][]byte // the line read ahead to decide on a header
	pendingLine := 0
	header := false
	if len(firstFields) >= 2 && !isNumber(firstFields[0]) && !isNumber(firstFields[1]) {
		if isHeaderWord(firstFields[0]) && isHeaderWord(firstFields[1]) {
			header = true
		} else if second, ok := l.next(); ok {
			pending, pendingLine = s.split(nil, bytes.Clone(second)), l.n
			header = len(pending) >= 2 && isNumber(pending[0]) && isNumber(pending[1])
		}
	}
	if !header {
		if err := add(firstFields, firstLine); err != nil {
			return nil, err
		}
	}
	if pending != nil {
		if err := add(pending, pendingLine); err != nil {
			return nil, err
		}
	}
	var fields [][]byte
	for {
		line, ok := l.next()
		if !ok {
			break
		}
		fields = s.split(fields, line)
		if err := add(fields, l.n); err != nil {
			return nil, err
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	if len(edges) == 0 {
		return nil, &Error{File: file, Err: ErrEmpty}
	}
	return edges, nil
}

// readFeatures reads a features file, adding unseen ids to nodes, and
// returns the feature matrix in node order and the ids of the nodes without
// a line, in node order.
func readFeatures(nodes *nodeIDs, r io.Reader, file string) (*f32.CSR, []string, error) {
	l := newLines(file, r, true)
	var (
		s        sep
		fields   [][]byte
		dim      = -1
		rowNode  []int32    // node of each data line
		rowStart = []int{0} // its entries in idx/val
		idx      chunked[int32]
		val      chunked[float32]
		lineOf   = make(map[int32]int) // node -> its features line
	)
	for {
		line, ok := l.next()
		if !ok {
			break
		}
		if dim < 0 {
			s = detectSep(line)
		}
		fields = s.split(fields, line)
		if len(fields) < 2 {
			return nil, nil, l.errorf("expected <id> <values...>, got %d field(s)", len(fields))
		}
		if dim < 0 {
			if slices.ContainsFunc(fields[1:], func(b []byte) bool { return !isNumber(b) }) {
				dim = len(fields) - 1 // a header: fixes the width, holds no data
				continue
			}
			dim = len(fields) - 1
		}
		if len(fields)-1 != dim {
			return nil, nil, l.errorf("expected %d values, got %d", dim, len(fields)-1)
		}
		if len(fields[0]) == 0 {
			return nil, nil, l.errorf("empty node id")
		}
		node := nodes.get(fields[0])
		if at, dup := lineOf[node]; dup {
			return nil, nil, l.errorf("node id %q already on line %d", fields[0], at)
		}
		lineOf[node] = l.n
		for k, f := range fields[1:] {
			v, err := parseValue(f)
			if err != nil {
				return nil, nil, l.errorf("value %d of node %q: %v", k+1, fields[0], err)
			}
			if v != 0 {
				idx.append(int32(k))
				val.append(v)
			}
		}
		rowNode = append(rowNode, node)
		rowStart = append(rowStart, idx.len)
	}
	if err := l.err(); err != nil {
		return nil, nil, err
	}
	if len(rowNode) == 0 {
		return nil, nil, &Error{File: file, Err: ErrEmpty}
	}

	// Reorder the rows into node order.
	n := len(nodes.ids)
	rowOf := make([]int, n)
	for i := range rowOf {
		rowOf[i] = -1
	}
	for r, node := range rowNode {
		rowOf[node] = r
	}
	x := &f32.CSR{Rows: n, Cols: dim, Indptr: make([]int32, n+1),
		Indices: make([]int32, 0, idx.len), Values: make([]float32, 0, val.len)}
	var missing []string
	for i, r := range rowOf {
		if r >= 0 {
			x.Indices = idx.appendRange(x.Indices, rowStart[r], rowStart[r+1])
			x.Values = val.appendRange(x.Values, rowStart[r], rowStart[r+1])
		} else {
			missing = append(missing, nodes.ids[i])
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	return x, missing, nil
}

// chunkLen is the length of a chunked's chunks: 1M entries, so that a
// graph's worth of features grows without copying and wastes at most one
// partly filled chunk.
const chunkLen = 1 << 20

// chunked is an append-only sequence stored in fixed-size chunks. Reading
// a large features file into it and then copying the rows into node order
// holds the entries twice at most, where a growing slice holds up to three
// times as many while it doubles and then gets copied.
type chunked[T any] struct {
	chunks [][]T
	len    int
}

func (c *chunked[T]) append(v T) {
	if c.len%chunkLen == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, v)
	c.len++
}

// appendRange appends entries [lo, hi) to dst.
func (c *chunked[T]) appendRange(dst []T, lo, hi int) []T {
	for lo < hi {
		chunk := c.chunks[lo/chunkLen]
		end := min(hi-lo/chunkLen*chunkLen, len(chunk))
		dst = append(dst, chunk[lo%chunkLen:end]...)
		lo += end - lo%chunkLen
	}
	return dst
}
