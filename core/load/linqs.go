package load

import (
	"io"
	"slices"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// LINQSReaders reads a graph in the LINQS text format of Cora and Citeseer
// (Sen et al. 2008) and names it name. contentName and citesName name the
// inputs in errors.
//
// content holds one node per line, fields separated by blanks (tabs in the
// released files): "<id> <v1> ... <vD> <label>". Every line must have the
// same number of values D as the first; values are 0/1 or other finite
// numbers, and zeros are not stored. Ids are arbitrary strings without
// blanks and must be distinct. Class names are the distinct labels sorted
// by byte order; Labels holds each node's index into them.
//
// cites holds one citation per line, "<cited id> <citing id>"; the edge is
// undirected. An id that has no .content line (Citeseer's .cites names 15
// such papers) becomes a node of its own with an empty feature row and label
// -1, so that counts agree with the Planetoid release (Citeseer: 3327 nodes,
// 4552 edges); their ids are listed in MissingFeatures. Node order is .content order, then such ids in order of first
// appearance in .cites. Self-citations and repeated citations are dropped by
// graph.New.
//
// Blank lines are skipped in both files. An empty file, a line with too few
// fields, a value count different from the first line's, a value that is not
// a number, or a repeated id is an error naming file and line.
func LINQSReaders(name string, content io.Reader, contentName string, cites io.Reader, citesName string) (*graph.Graph, error) {
	c, err := readLINQSContent(content, contentName)
	if err != nil {
		return nil, err
	}
	// .cites: edges, and nodes for cited ids missing from .content.
	withRows := len(c.ids)
	edges, err := c.readCites(cites, citesName)
	if err != nil {
		return nil, err
	}
	ids, x := c.ids, c.x
	n := len(ids)
	x.Rows, x.Cols = n, c.dim
	for len(x.Indptr) < n+1 { // featureless cited-only nodes
		x.Indptr = append(x.Indptr, int32(len(x.Indices)))
	}
	g, err := graph.New(n, edges, x, ids)
	if err != nil {
		return nil, &Error{File: citesName, Err: err}
	}
	g.Name = name
	if n > withRows {
		g.MissingFeatures = slices.Clone(ids[withRows:])
	}
	c.setLabels(g)
	return g, nil
}

// linqsContent is what a .content file holds: the nodes in order, their
// features and their labels.
type linqsContent struct {
	ids      []string
	index    map[string]int32
	x        *f32.CSR
	rawLabel []int32  // index into labels, per .content row
	labels   []string // distinct labels in order of first appearance
	dim      int
}

// readLINQSContent reads a .content file (LINQSReaders says how).
func readLINQSContent(content io.Reader, contentName string) (*linqsContent, error) {
	lc := newLines(contentName, content)
	c := &linqsContent{index: make(map[string]int32), x: &f32.CSR{Indptr: []int32{0}}, dim: -1}
	var (
		firstAt []int // line of each node's .content row
		labelOf = make(map[string]int32)
		fields  [][]byte
	)
	for {
		line, ok := lc.next()
		if !ok {
			break
		}
		fields = sepBlanks.split(fields, line)
		if len(fields) < 2 {
			return nil, lc.errorf("expected <id> <features...> <label>, got %d field(s)", len(fields))
		}
		if c.dim < 0 {
			c.dim = len(fields) - 2
		} else if len(fields)-2 != c.dim {
			return nil, lc.errorf("expected %d feature values, got %d", c.dim, len(fields)-2)
		}
		id := fields[0]
		if at, dup := c.index[string(id)]; dup {
			return nil, lc.errorf("node id %q already on line %d", id, firstAt[at])
		}
		x := c.x
		for k, f := range fields[1 : len(fields)-1] {
			v, err := parseValue(f)
			if err != nil {
				return nil, lc.errorf("feature %d of node %q: %v", k+1, id, err)
			}
			if v != 0 {
				x.Indices = append(x.Indices, int32(k))
				x.Values = append(x.Values, v)
			}
		}
		x.Indptr = append(x.Indptr, int32(len(x.Indices)))
		lab := fields[len(fields)-1]
		li, ok := labelOf[string(lab)]
		if !ok {
			li = int32(len(c.labels))
			c.labels = append(c.labels, string(lab))
			labelOf[c.labels[li]] = li
		}
		c.rawLabel = append(c.rawLabel, li)
		c.index[string(id)] = int32(len(c.ids))
		c.ids = append(c.ids, string(id))
		firstAt = append(firstAt, lc.n)
	}
	if err := lc.err(); err != nil {
		return nil, err
	}
	if len(c.ids) == 0 {
		return nil, &Error{File: contentName, Err: ErrEmpty}
	}
	return c, nil
}

// readCites reads a .cites file's edges, adding a node for each cited id
// that c does not have.
func (c *linqsContent) readCites(cites io.Reader, citesName string) ([]graph.Edge, error) {
	ls := newLines(citesName, cites)
	var edges []graph.Edge
	var fields [][]byte
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		fields = sepBlanks.split(fields, line)
		if len(fields) != 2 {
			return nil, ls.errorf("expected <cited id> <citing id>, got %d field(s)", len(fields))
		}
		var e [2]int32
		for k, f := range fields {
			i, ok := c.index[string(f)]
			if !ok {
				i = int32(len(c.ids))
				c.ids = append(c.ids, string(f))
				c.index[c.ids[i]] = i
			}
			e[k] = i
		}
		edges = append(edges, graph.Edge{U: e[0], V: e[1]})
	}
	if err := ls.err(); err != nil {
		return nil, err
	}
	if ls.n == 0 || len(edges) == 0 {
		return nil, &Error{File: citesName, Err: ErrEmpty}
	}
	return edges, nil
}

// setLabels gives g its class names in byte order, so that label indices
// do not depend on row order, and each node its label (-1 for the nodes
// without a .content row).
func (c *linqsContent) setLabels(g *graph.Graph) {
	g.ClassNames = slices.Clone(c.labels)
	slices.Sort(g.ClassNames)
	remap := make([]int32, len(c.labels))
	for i, l := range c.labels {
		j, _ := slices.BinarySearch(g.ClassNames, l)
		remap[i] = int32(j)
	}
	g.Labels = make([]int32, g.NumNodes())
	for i := range g.Labels {
		g.Labels[i] = -1
	}
	for i, l := range c.rawLabel {
		g.Labels[i] = remap[l]
	}
}
