package load

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// headerWords are the column names that mark a first line as a header
// whatever follows it (compared case-insensitively, after a leading '#').
var headerWords = []string{
	"source", "target", "src", "dst", "from", "to", "u", "v", "head", "tail",
	"node", "node1", "node2", "node_1", "node_2", "id1", "id2",
	"source_id", "target_id", "from_id", "to_id", "citing", "cited",
}

func isHeaderWord(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("#"))
	return slices.ContainsFunc(headerWords, func(w string) bool { return bytes.EqualFold(b, []byte(w)) })
}

// nodeIDs interns node ids in order of first appearance, until canonical
// renumbers them.
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
// Both files are delimited text, read as records describes: a leading
// block of '#' or '%' comment lines, then one record per line, separated
// by commas, tabs, semicolons or blanks, with RFC 4180 quoting. In a
// semicolon-separated features file a value may have a decimal comma
// ("0,5"), as Excel writes it where the comma is the decimal mark.
//
// The edge list has one edge per line, "<id> <id> [weight] [...]"; fields
// after the second are ignored (and said to be, in the graph's ReadNotes).
// Node ids are arbitrary non-empty strings. The first line is a header
// when its first two fields are not both numbers and
//   - both are usual column names (source/target, src/dst, from/to, u/v,
//     node1/node2, ..., with or without a leading '#'), or
//   - the ids of the lines after it are numbers, or
//   - neither of them appears on any other line of the file (a header such
//     as "person,friend" names no node);
//
// otherwise it is an edge. A header found by the last two rules is named
// in ReadNotes with the reason, so that the one edge they could take is
// never lost unsaid. A file whose first data line starts with '{', '[' or
// '<' is refused as JSON or XML: those are read by JSONBytes, GraphMLReader
// and GEXFReader, which Path and Bytes choose by the file's extension.
//
// The features file has one line per node, "<id> <v1> ... <vD>": dense
// values, stored sparse (zeros dropped). Every line must have as many values
// as the first; its first line is a header when any of its value fields is
// not a number (named in ReadNotes when its first field is a node of the
// edge list: that may be the node's row, spoilt). Nodes with no features line get an empty feature row and
// are listed in the graph's MissingFeatures; nodes
// that appear only in the features file are kept as isolated nodes.
//
// Nodes are numbered in the order of their ids (CompareIDs), whatever
// order the files give them in, so that the same graph in another order
// or format gets the same numbering. Self-loops and repeated edges are removed by graph.New,
// which counts them. An empty file, a line with fewer than two fields, an
// empty id, a value count different from the first line's, a value that is
// not a finite number, an id repeated in the features file, a comment
// after the data has begun or a malformed quote is an error naming file
// and line.
func EdgeListReaders(name string, edges io.Reader, edgesName string, features io.Reader, featuresName string) (*graph.Graph, error) {
	nodes := &nodeIDs{index: make(map[string]int32)}
	el, notes, err := readEdges(nodes, edges, edgesName)
	if err != nil {
		return nil, err
	}
	var rows *featureRows
	if features != nil {
		var fnotes []string
		if rows, fnotes, err = readFeatures(nodes, features, featuresName); err != nil {
			return nil, err
		}
		notes = append(notes, fnotes...)
	}
	newOf := nodes.canonical()
	renumberEdges(el, newOf)
	var (
		x       *f32.CSR
		missing []string
	)
	if rows != nil {
		renumberNodes(rows.node, newOf)
		x, missing = rows.matrix(nodes.ids)
	}
	g, err := graph.New(len(nodes.ids), el, x, nodes.ids)
	if err != nil {
		return nil, &Error{File: edgesName, Err: err}
	}
	g.Name = name
	g.MissingFeatures = missing
	g.ReadNotes = graph.CapNotes(notes, MaxNotes)
	return g, nil
}

// readEdges reads an edge list into nodes and returns its edges and the
// notes for ReadNotes.
func readEdges(nodes *nodeIDs, r io.Reader, file string) ([]graph.Edge, []string, error) {
	rs := newRecords(file, r)
	var (
		edges      []graph.Edge
		extra      int // data lines with fields after the second
		first      [2]string
		pending    bool // first holds line 1's ids, undecided
		firstLine  int
		firstExtra bool   // line 1 has fields after the second
		idsNumeric = true // every id after a pending first line is a number
	)
	for k := 0; ; k++ {
		fields, ok := rs.next()
		if k == 0 && rs.begun {
			if kind := markup(rs.first); kind != "" {
				return nil, nil, errorf(file, rs.line, "this is %s, not an edge list: name it %s to have it read as such, or give edges as lines of two ids (a header line such as \"source,target\" first, if the first id starts with %q)", kind, markupNames[kind], rs.first[:1])
			}
		}
		if !ok {
			break
		}
		if len(fields) < 2 {
			return nil, nil, rs.errorf("expected <source> <target>, got %d field(s)", len(fields))
		}
		if len(fields[0]) == 0 || len(fields[1]) == 0 {
			return nil, nil, rs.errorf("empty node id")
		}
		if k == 0 && !(isNumber(fields[0]) && isNumber(fields[1])) {
			first, pending, firstLine, firstExtra = [2]string{string(fields[0]), string(fields[1])}, true, rs.line, len(fields) > 2
			continue
		}
		if len(fields) > 2 {
			extra++
		}
		if pending && idsNumeric { // parsed only while a header is in question
			idsNumeric = isNumber(fields[0]) && isNumber(fields[1])
		}
		edges = append(edges, graph.Edge{U: nodes.get(fields[0]), V: nodes.get(fields[1])})
	}
	if rs.err != nil {
		return nil, nil, rs.err
	}
	notes := rs.commentNotes()
	if pending {
		_, seen0 := nodes.index[first[0]]
		_, seen1 := nodes.index[first[1]]
		reason := ""
		switch {
		case isHeaderWord([]byte(first[0])) && isHeaderWord([]byte(first[1])):
			// The usual header: nothing to say.
		case len(edges) > 0 && idsNumeric:
			reason = "the ids on the lines after it are numbers"
		case len(edges) > 0 && !seen0 && !seen1:
			reason = "neither of its ids appears on any other line; if it is an edge, put a header such as \"source,target\" above it"
		default: // an edge, put first so that a repeat of it is the one counted
			edges = slices.Insert(edges, 0, graph.Edge{U: nodes.get([]byte(first[0])), V: nodes.get([]byte(first[1]))})
			if firstExtra {
				extra++
			}
		}
		if reason != "" {
			notes = append(notes, fmt.Sprintf("%s: line %d (%s) read as a header, not an edge: %s", file, firstLine, quoteFields(first), reason))
		}
	}
	if extra > 0 {
		notes = append(notes, fmt.Sprintf("%s: the fields after the second (weights or attributes) are ignored on %s", file, nouns(extra, "line", "lines")))
	}
	if len(edges) == 0 {
		return nil, nil, &Error{File: file, Err: ErrEmpty}
	}
	return edges, notes, nil
}

// featureRows are the data lines of a features file as read, before the
// nodes are numbered: each line's node and its entries.
type featureRows struct {
	dim   int
	node  []int32 // node of each data line
	start []int   // its entries in idx/val
	idx   chunked[int32]
	val   chunked[float32]
}

// readFeatures reads a features file, adding unseen ids to nodes, and
// returns its rows and the notes for ReadNotes.
func readFeatures(nodes *nodeIDs, r io.Reader, file string) (*featureRows, []string, error) {
	rs := newRecords(file, r)
	var (
		dim      = -1
		header   []byte
		rowNode  []int32    // node of each data line
		rowStart = []int{0} // its entries in idx/val
		idx      chunked[int32]
		val      chunked[float32]
		lineOf   = make(map[int32]int) // node -> its features line
	)
	for {
		fields, ok := rs.next()
		if !ok {
			break
		}
		if len(fields) < 2 {
			return nil, nil, rs.errorf("expected <id> <values...>, got %d field(s)", len(fields))
		}
		if dim < 0 {
			dim = len(fields) - 1
			if isFeaturesHeader(rs.sep, fields) {
				// It fixes the width and holds no data; a header whose
				// first field is a node of the edge list may be that
				// node's row, spoilt, and is said to be read as a header.
				if _, known := nodes.index[string(fields[0])]; known {
					header = fmt.Appendf(nil, "line %d (%q, ...) read as a header: a value field is not a number, though %q is a node of the edge list", rs.line, fields[0], fields[0])
				}
				continue
			}
		}
		if len(fields)-1 != dim {
			return nil, nil, rs.errorf("expected %d values, got %d", dim, len(fields)-1)
		}
		if len(fields[0]) == 0 {
			return nil, nil, rs.errorf("empty node id")
		}
		node := nodes.get(fields[0])
		if at, dup := lineOf[node]; dup {
			return nil, nil, rs.errorf("node id %q already on line %d", fields[0], at)
		}
		lineOf[node] = rs.line
		for k, f := range fields[1:] {
			v, err := parseValue(rs.sep.numeral(f))
			if err != nil {
				return nil, nil, rs.errorf("value %d of node %q: %v", k+1, fields[0], err)
			}
			if v != 0 {
				idx.append(int32(k))
				val.append(v)
			}
		}
		rowNode = append(rowNode, node)
		rowStart = append(rowStart, idx.len)
	}
	if rs.err != nil {
		return nil, nil, rs.err
	}
	if len(rowNode) == 0 {
		return nil, nil, &Error{File: file, Err: ErrEmpty}
	}
	notes := rs.commentNotes()
	if header != nil {
		notes = append(notes, fmt.Sprintf("%s: %s", file, header))
	}
	return &featureRows{dim: dim, node: rowNode, start: rowStart, idx: idx, val: val}, notes, nil
}

// matrix returns the feature matrix of the nodes named ids, in that
// order, and the ids of the nodes without a line, in node order.
func (f *featureRows) matrix(ids []string) (*f32.CSR, []string) {
	n := len(ids)
	rowOf := make([]int, n)
	for i := range rowOf {
		rowOf[i] = -1
	}
	for r, node := range f.node {
		rowOf[node] = r
	}
	x := &f32.CSR{Rows: n, Cols: f.dim, Indptr: make([]int32, n+1),
		Indices: make([]int32, 0, f.idx.len), Values: make([]float32, 0, f.val.len)}
	var missing []string
	for i, r := range rowOf {
		if r >= 0 {
			x.Indices = f.idx.appendRange(x.Indices, f.start[r], f.start[r+1])
			x.Values = f.val.appendRange(x.Values, f.start[r], f.start[r+1])
		} else {
			missing = append(missing, ids[i])
		}
		x.Indptr[i+1] = int32(len(x.Indices))
	}
	return x, missing
}

// markupNames says, for each kind markup returns, the file names that
// Path and Bytes read as that kind.
var markupNames = map[string]string{
	"JSON": "*.json (networkx node-link or graphology JSON)",
	"XML":  "*.graphml (GraphML) or *.gexf (GEXF)",
}

// markup returns what a file whose first data line is line is, when it is
// JSON or XML ("JSON", "XML"), or "".
func markup(line []byte) string {
	switch {
	case len(line) == 0:
		return ""
	case line[0] == '{' || line[0] == '[':
		return "JSON"
	}
	for _, p := range []string{"<?xml", "<gexf", "<graphml", "<!doctype", "<graph"} {
		if len(line) >= len(p) && bytes.EqualFold(line[:len(p)], []byte(p)) {
			return "XML"
		}
	}
	return ""
}

// isFeaturesHeader reports whether the first record of a features file
// separated by s is a header: any of its value fields is not a number.
func isFeaturesHeader(s sep, fields [][]byte) bool {
	return slices.ContainsFunc(fields[1:], func(b []byte) bool { return !isNumber(s.numeral(b)) })
}

// FeatureRowIDs returns the ids of a features file's rows in the order of
// its lines, read by the rules of EdgeListReaders (comments, separator,
// quoting, header). It is for callers that need the file's own node order
// after EdgeListReaders has accepted it; errors are *Error.
func FeatureRowIDs(features io.Reader, file string) ([]string, error) {
	rs := newRecords(file, features)
	var ids []string
	for k := 0; ; k++ {
		fields, ok := rs.next()
		if !ok {
			break
		}
		if len(fields) < 2 {
			return nil, rs.errorf("expected <id> <values...>, got %d field(s)", len(fields))
		}
		if k == 0 && isFeaturesHeader(rs.sep, fields) {
			continue
		}
		ids = append(ids, string(fields[0]))
	}
	return ids, rs.err
}

// quoteFields quotes a header's fields for a note: "source", "target".
func quoteFields(f [2]string) string {
	return strconv.Quote(f[0]) + ", " + strconv.Quote(f[1])
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
