package load

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// attrGraph collects a graph read from a format whose nodes carry named
// attributes (GraphML, GEXF, networkx node-link and graphology JSON): the
// declared nodes with their attribute values, the edges between ids, and
// what the reader ignored. build turns it into a *graph.Graph by the rules
// the readers share:
//
//   - Nodes are numbered in the order of their ids (CompareIDs), not in
//     the file's order, so that the same graph in another order or format
//     gets the same numbering. A node named only by edges is added, as
//     networkx adds it; it has no attribute values.
//   - An attribute whose values are all numbers (booleans count as 1 and
//     0) becomes a feature column. An attribute whose values are all
//     strings, with at most MaxCategories distinct ones, becomes one-hot
//     columns, one per value ("club=Officer"), in the values' natural
//     order (CompareIDs); with more it is left out, and a note says so.
//     The attributes' columns are sorted by attribute name. A declared
//     node without a value gets the attribute's default where the format
//     declares one, else 0 (all its one-hot columns 0), and is counted in
//     a note. An empty string is no value.
//   - Any other node attribute (lists, objects, numbers mixed with
//     strings), and every edge attribute, is ignored, and a note names it.
//   - Self-loops and repeated edges (in either direction: every graph is
//     read as undirected) are removed by graph.New, which counts them.
//     Edges the file calls directed are read as undirected links, and a
//     note says so, with the pairs of nodes that had an edge each way.
type attrGraph struct {
	file  string
	size  int64 // bytes of input read, which bounds what defaults may fill
	nodes nodeIDs
	line  []int // per node as read, the line that declares it; 0 for one only on edges

	keys     []attrKey
	keyIndex map[string]int32 // key id -> index in keys

	// The declared nodes' values, one row per declared node in order.
	rowNode  []int32
	rowStart []int
	idx      chunked[int32] // key index
	val      chunked[float32]

	edges     []graph.Edge
	edgeAttrs map[string]int // ignored edge attribute -> edges with it
	ignored   map[string]int // other ignored things ("<viz:position>") -> count
	notes     []string

	// Which edges the file calls directed: all by default when
	// defaultDirected (directedBy names what says so,
	// `edgedefault="directed"`), and edgeDir[i] for edge i where the
	// edge itself says (1 directed, -1 not, 0 the default; shorter than
	// edges where the rest have the default). edgeDirBy names what marks
	// an edge directed (`type="directed"`).
	defaultDirected bool
	directedBy      string
	edgeDir         []int8
	edgeDirBy       string
}

// MaxCategories is the most distinct values a string node attribute may
// have to become features, one one-hot column per value. An attribute
// with more is left out, with a note: its values are then more like
// names than categories, and its columns would swamp the others.
const MaxCategories = 32

// attrKey is a node attribute: its name, whether it is a number or a
// category, and which declared nodes lack it.
type attrKey struct {
	name   string
	other  string  // why it is neither a number nor a category ("of type liststring"), "" while it is
	def    float32 // the value (a category's code) of a node without one, when hasDef
	hasDef bool
	given  int  // declared nodes with a value
	bools  bool // some value was a boolean, read as 1 or 0

	// A category (cat) stores each value as its code: the index in
	// values of its first appearance. tooMany is set, and values
	// dropped, once there are more than MaxCategories; rank is each
	// code's place in the values' natural order, set by columns.
	cat     bool
	numbers int // values given as numbers or booleans
	values  []string
	codes   map[string]int32
	tooMany bool
	rank    []int32

	lastRow    int      // the last row with a value, -1 before the first
	missing    int      // rows before lastRow without a value
	missingIDs []string // the first graph.MaxNamedMissing of them
}

func newAttrGraph(file string) *attrGraph {
	return &attrGraph{file: file, nodes: nodeIDs{index: make(map[string]int32)},
		keyIndex: make(map[string]int32), edgeAttrs: make(map[string]int), ignored: make(map[string]int)}
}

// errorf returns a *Error at line of b's file.
func (b *attrGraph) errorf(line int, format string, args ...any) *Error {
	return errorf(b.file, line, format, args...)
}

// key returns the index of the attribute with key id, declaring it with
// name when new.
func (b *attrGraph) key(id, name string) int32 {
	if k, ok := b.keyIndex[id]; ok {
		return k
	}
	k := int32(len(b.keys))
	b.keys = append(b.keys, attrKey{name: name, lastRow: -1})
	b.keyIndex[id] = k
	return k
}

// setOther marks attribute k as not a number, for the reason why (the
// first reason given is kept).
func (b *attrGraph) setOther(k int32, why string) {
	if b.keys[k].other == "" {
		b.keys[k].other = why
	}
}

// setDefault gives attribute k the value of the nodes without one.
func (b *attrGraph) setDefault(k int32, v float32) {
	b.keys[k].def, b.keys[k].hasDef = v, true
}

// setCategorical declares attribute k's values strings, read as
// categories.
func (b *attrGraph) setCategorical(k int32) { b.keys[k].cat = true }

// setCategoryDefault gives the category attribute k the value s on the
// nodes without one; an empty s is no default.
func (b *attrGraph) setCategoryDefault(k int32, s string) {
	if s = strings.TrimSpace(s); s != "" {
		if c := b.code(k, s); c >= 0 {
			b.setDefault(k, float32(c))
		}
	}
}

// code returns the code of the value s of the category attribute k,
// adding it when new, or -1 once k has too many values to be features.
func (b *attrGraph) code(k int32, s string) int32 {
	key := &b.keys[k]
	if key.tooMany {
		return -1
	}
	if c, ok := key.codes[s]; ok {
		return c
	}
	if len(key.values) == MaxCategories {
		key.tooMany, key.values, key.codes = true, nil, nil
		return -1
	}
	if key.codes == nil {
		key.codes = make(map[string]int32)
	}
	c := int32(len(key.values))
	key.values = append(key.values, s)
	key.codes[s] = c
	return c
}

// mixed is why an attribute with both numbers and strings is ignored.
const mixed = "its values mix numbers and strings"

// category records the string value s of attribute k for the node
// declared last (see value). Surrounding space is not part of it, and an
// empty s is no value.
func (b *attrGraph) category(k int32, s string, line int) error {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	key := &b.keys[k]
	key.cat = true
	if key.numbers > 0 {
		b.setOther(k, mixed)
	}
	code := int32(-1)
	if key.other == "" {
		code = b.code(k, s)
	}
	return b.record(k, float32(code), line)
}

// id returns the node of id, adding it when new.
func (b *attrGraph) id(id string) int32 {
	if i, ok := b.nodes.index[id]; ok {
		return i
	}
	i := int32(len(b.nodes.ids))
	b.nodes.ids = append(b.nodes.ids, id)
	b.nodes.index[id] = i
	b.line = append(b.line, 0)
	return i
}

// node declares the node id at line and starts its row of values. An id
// declared before, or empty, is an error.
func (b *attrGraph) node(id string, line int) error {
	if id == "" {
		return b.errorf(line, "empty node id")
	}
	n := b.id(id)
	if at := b.line[n]; at != 0 {
		return b.errorf(line, "node id %q already declared on line %d", clipField([]byte(id)), at)
	}
	b.line[n] = max(line, 1)
	b.rowNode = append(b.rowNode, n)
	b.rowStart = append(b.rowStart, b.idx.len)
	return nil
}

// value records the number v of attribute k for the node declared last,
// whose id the error for a value given twice names. For an attribute
// that is not a number, v is not stored: the node is only counted.
func (b *attrGraph) value(k int32, v float32, line int) error {
	b.keys[k].numbers++
	if b.keys[k].cat {
		b.setOther(k, mixed)
	}
	return b.record(k, v, line)
}

// record counts a value of attribute k for the node declared last and
// stores v, a number or a category's code, while k may become features.
func (b *attrGraph) record(k int32, v float32, line int) error {
	key := &b.keys[k]
	row := len(b.rowNode) - 1
	if key.lastRow == row {
		return b.errorf(line, "node %q has attribute %q twice", clipField([]byte(b.nodes.ids[b.rowNode[row]])), key.name)
	}
	for r := key.lastRow + 1; r < row && len(key.missingIDs) < graph.MaxNamedMissing; r++ {
		key.missingIDs = append(key.missingIDs, b.nodes.ids[b.rowNode[r]])
	}
	key.missing += row - key.lastRow - 1
	key.lastRow = row
	key.given++
	if key.other == "" && !key.tooMany {
		b.idx.append(k)
		b.val.append(v)
	}
	return nil
}

// boolValue records a boolean value of attribute k as 1 or 0 (see value).
func (b *attrGraph) boolValue(k int32, v bool, line int) error {
	b.keys[k].bools = true
	if v {
		return b.value(k, 1, line)
	}
	return b.value(k, 0, line)
}

// edge adds the edge between the nodes with ids u and v.
func (b *attrGraph) edge(u, v string) {
	b.edges = append(b.edges, graph.Edge{U: b.id(u), V: b.id(v)})
}

// edgeDirected records whether the edge added last is directed, as the
// edge itself says; by names what marks an edge directed, for the note.
func (b *attrGraph) edgeDirected(directed bool, by string) {
	for len(b.edgeDir) < len(b.edges) {
		b.edgeDir = append(b.edgeDir, 0)
	}
	b.edgeDir[len(b.edges)-1] = -1
	if directed {
		b.edgeDir[len(b.edges)-1] = 1
		if b.edgeDirBy == "" {
			b.edgeDirBy = by
		}
	}
}

// directedNote is the note for the edges the file calls directed, read
// as undirected links: how many, and how many pairs of nodes had an edge
// each way (graph.New counts the second as a duplicate); "" when no edge
// is directed.
func (b *attrGraph) directedNote() string {
	var arcs []uint64 // per directed edge that is no self-loop: its pair, then whether it runs from the larger end
	directed := 0
	for i, e := range b.edges {
		d := b.defaultDirected
		if i < len(b.edgeDir) && b.edgeDir[i] != 0 {
			d = b.edgeDir[i] > 0
		}
		if !d {
			continue
		}
		directed++
		if e.U == e.V {
			continue
		}
		u, v, back := uint64(e.U), uint64(e.V), uint64(0)
		if u > v {
			u, v, back = v, u, 1
		}
		arcs = append(arcs, u<<33|v<<1|back)
	}
	if directed == 0 {
		return ""
	}
	slices.Sort(arcs)
	arcs = slices.Compact(arcs)
	pairs := 0
	for i := 1; i < len(arcs); i++ {
		if arcs[i]>>1 == arcs[i-1]>>1 {
			pairs++
		}
	}
	by := b.directedBy
	if !b.defaultDirected {
		by = b.edgeDirBy
	}
	s := fmt.Sprintf("%s: the edges are directed (%s) and are read as undirected links", b.file, by)
	if directed < len(b.edges) {
		are := "are directed (%s) and are"
		if directed == 1 {
			are = "is directed (%s) and is"
		}
		s = fmt.Sprintf("%s: %d of the %d edges "+are+" read as undirected links", b.file, directed, len(b.edges), by)
	}
	switch pairs {
	case 0:
		return s + "; no two nodes have an edge each way"
	case 1:
		return s + "; 1 pair of nodes has an edge each way, read as one link (its second edge is counted among the duplicates removed)"
	}
	return s + fmt.Sprintf("; %d pairs of nodes have an edge each way, each read as one link (their second edges are counted among the duplicates removed)", pairs)
}

// build returns the graph, named name, with the notes of what was
// ignored. A graph without edges is an error.
func (b *attrGraph) build(name string) (*graph.Graph, error) {
	n := len(b.nodes.ids)
	if len(b.edges) == 0 {
		if n == 0 {
			return nil, &Error{File: b.file, Err: fmt.Errorf("%w: no nodes and no edges", ErrEmpty)}
		}
		return nil, b.errorf(0, "the graph has no edges (%s): there are no links to learn from", nouns(n, "node", "nodes"))
	}
	cols, colOf, width := b.columns()
	if err := b.checkDefaults(cols); err != nil {
		return nil, err
	}
	newOf := b.nodes.canonical()
	renumberEdges(b.edges, newOf)
	renumberNodes(b.rowNode, newOf)
	x, undeclared := b.features(cols, colOf, width)
	g, err := graph.New(n, b.edges, x, b.nodes.ids)
	if err != nil {
		return nil, &Error{File: b.file, Err: err}
	}
	g.Name = name
	notes := b.buildNotes(cols)
	if len(cols) > 0 {
		g.MissingFeatures = undeclared
	} else if len(undeclared) > 0 {
		notes = append(notes, fmt.Sprintf("%s: %s on edges but not in the node list (%s); added to the graph",
			b.file, nouns(len(undeclared), "node is", "nodes are"), quoteIDs(undeclared, len(undeclared))))
	}
	g.ReadNotes = graph.CapNotes(notes, MaxNotes)
	return g, nil
}

// columns returns the attributes that become features, sorted by name
// (then by key), each key's first column or -1, and the number of
// columns: one for a number, one per value for a category, whose ranks
// it sets.
func (b *attrGraph) columns() ([]int32, []int32, int) {
	var cols []int32
	for k, key := range b.keys {
		if key.other == "" && !key.tooMany && (key.given > 0 || key.hasDef && (key.cat || key.def != 0)) {
			cols = append(cols, int32(k))
		}
	}
	slices.SortStableFunc(cols, func(p, q int32) int { return cmp.Compare(b.keys[p].name, b.keys[q].name) })
	colOf := make([]int32, len(b.keys))
	for k := range colOf {
		colOf[k] = -1
	}
	width := 0
	for _, k := range cols {
		colOf[k] = int32(width)
		key := &b.keys[k]
		if !key.cat {
			width++
			continue
		}
		order := make([]int32, len(key.values))
		for c := range order {
			order[c] = int32(c)
		}
		slices.SortFunc(order, func(p, q int32) int { return CompareIDs(key.values[p], key.values[q]) })
		key.rank = make([]int32, len(order))
		for r, c := range order {
			key.rank[c] = int32(r)
		}
		width += len(order)
	}
	return cols, colOf, width
}

// column returns the column and value of the stored value v (a number,
// or a category's code) of the feature attribute k.
func (b *attrGraph) column(colOf []int32, k int32, v float32) (int32, float32) {
	if key := &b.keys[k]; key.cat {
		return colOf[k] + key.rank[int32(v)], 1
	}
	return colOf[k], v
}

// checkDefaults refuses a file whose declared defaults would fill more
// values than a few per byte of it: a few hundred bytes of declarations
// could otherwise ask for gigabytes.
func (b *attrGraph) checkDefaults(cols []int32) error {
	fill := int64(0)
	for _, k := range cols {
		if key := b.keys[k]; key.hasDef && (key.cat || key.def != 0) {
			fill += int64(len(b.rowNode) - key.given)
		}
	}
	if most := 8*b.size + 1<<20; fill > most {
		return b.errorf(0, "the declared defaults of the node attributes would fill %d values, more than %d: give the values on the nodes", fill, most)
	}
	return nil
}

// features returns the feature matrix, width columns, in node order and
// the ids of the nodes named only on edges, in node order.
func (b *attrGraph) features(cols, colOf []int32, width int) (*f32.CSR, []string) {
	n := len(b.nodes.ids)
	rowOf := make([]int32, n)
	for i := range rowOf {
		rowOf[i] = -1
	}
	for r, node := range b.rowNode {
		rowOf[node] = int32(r)
	}
	b.rowStart = append(b.rowStart, b.idx.len)
	type entry struct {
		col int32
		v   float32
	}
	type fill struct {
		key int32
		entry
	}
	var defaults []fill // the attributes whose default is not 0
	for _, k := range cols {
		if key := b.keys[k]; key.hasDef && (key.cat || key.def != 0) {
			c, v := b.column(colOf, k, key.def)
			defaults = append(defaults, fill{k, entry{c, v}})
		}
	}
	var (
		row        []entry
		stamp      = make([]int32, len(b.keys)) // node+1 where an attribute has a value
		undeclared []string
		nnz        = 0
	)
	x := &f32.CSR{Rows: n, Cols: width, Indptr: make([]int32, n+1)}
	for i := range n {
		if r := rowOf[i]; r >= 0 {
			row = row[:0]
			for e := b.rowStart[r]; e < b.rowStart[r+1]; e++ {
				if k := b.idx.at(e); colOf[k] >= 0 {
					c, v := b.column(colOf, k, b.val.at(e))
					row = append(row, entry{c, v})
					stamp[k] = int32(i) + 1
				}
			}
			for _, d := range defaults {
				if stamp[d.key] != int32(i)+1 {
					row = append(row, d.entry)
				}
			}
			slices.SortFunc(row, func(p, q entry) int { return cmp.Compare(p.col, q.col) })
			for _, e := range row {
				if e.v != 0 {
					x.Indices = append(x.Indices, e.col)
					x.Values = append(x.Values, e.v)
					nnz++
				}
			}
		} else {
			undeclared = append(undeclared, b.nodes.ids[i])
		}
		x.Indptr[i+1] = int32(nnz)
	}
	return x, undeclared
}

// buildNotes returns the notes for ReadNotes: which attributes are the
// features, which lack values on some nodes, and what was ignored.
func (b *attrGraph) buildNotes(cols []int32) []string {
	var notes []string
	if len(cols) > 0 {
		notes = append(notes, b.file+": "+b.featuresNote(cols))
	}
	rows := len(b.rowNode)
	var lacking [2][]int32 // the feature attributes without a value on some nodes: numbers, categories
	lacks := make([]bool, len(b.keys))
	for _, k := range cols {
		key := &b.keys[k]
		for r := key.lastRow + 1; r < rows && len(key.missingIDs) < graph.MaxNamedMissing; r++ {
			key.missingIDs = append(key.missingIDs, b.nodes.ids[b.rowNode[r]])
		}
		if b.missingOf(k) > 0 && !key.hasDef {
			kind := 0
			if key.cat {
				kind = 1
			}
			lacking[kind] = append(lacking[kind], k)
			lacks[k] = true
		}
	}
	// In column order, a note per attribute, except that a kind with more
	// than maxAttrNotes gets one note, where its first attribute is.
	for _, k := range cols {
		key := &b.keys[k]
		kind := 0
		if key.cat {
			kind = 1
		}
		keys := lacking[kind]
		switch {
		case !lacks[k]:
		case len(keys) > maxAttrNotes:
			if keys[0] == k {
				notes = append(notes, b.lackingNote(keys, key.cat))
			}
		default:
			zero := "read as 0 there"
			if key.cat {
				zero = "its one-hot columns are 0 there"
			}
			missing := b.missingOf(k)
			notes = append(notes, fmt.Sprintf("%s: attribute %q has no value on %d of %d nodes (%s); %s",
				b.file, key.name, missing, rows, quoteIDs(key.missingIDs, missing), zero))
		}
	}
	var many []int32 // the string attributes with too many values
	for k, key := range b.keys {
		if key.tooMany && key.other == "" {
			many = append(many, int32(k))
		}
	}
	if len(many) > maxAttrNotes {
		names := make([]string, len(many))
		for i, k := range many {
			names[i] = b.keys[k].name
		}
		slices.Sort(names)
		notes = append(notes, fmt.Sprintf("%s: %d string attributes have more than %d distinct values: left out, as only a string attribute with at most %d becomes features, one-hot: %s",
			b.file, len(many), MaxCategories, MaxCategories, quoteList(names)))
	} else {
		for _, k := range many {
			key := &b.keys[k]
			notes = append(notes, fmt.Sprintf("%s: string attribute %q has more than %d distinct values (on %s): left out, as only a string attribute with at most %d becomes features, one-hot",
				b.file, key.name, MaxCategories, nouns(key.given, "node", "nodes"), MaxCategories))
		}
	}
	var ignored []string
	for _, key := range b.keys {
		if key.other != "" && key.given > 0 {
			ignored = append(ignored, fmt.Sprintf("%q (%s)", key.name, key.other))
		}
	}
	if len(ignored) > 0 {
		slices.Sort(ignored)
		notes = append(notes, fmt.Sprintf("%s: node attributes that are not numbers or categories are ignored: %s", b.file, clipList(ignored)))
	}
	if s := countList(b.edgeAttrs, func(name string, n int) string { return fmt.Sprintf("%q (on %s)", name, nouns(n, "edge", "edges")) }); s != "" {
		notes = append(notes, fmt.Sprintf("%s: edge attributes are ignored: %s", b.file, s))
	}
	if s := countList(b.ignored, func(what string, n int) string { return fmt.Sprintf("%d %s", n, what) }); s != "" {
		notes = append(notes, fmt.Sprintf("%s: not read: %s", b.file, s))
	}
	notes = append(notes, b.notes...)
	if s := b.directedNote(); s != "" {
		notes = append(notes, s)
	}
	return notes
}

// maxAttrNotes is how many attributes of one kind (lacking values on
// some nodes, with too many distinct values) get a note each; more get
// one note together, so that a file of many sparse attributes gives a
// few lines, not one per attribute.
const maxAttrNotes = 5

// missingOf returns how many declared nodes lack a value of attribute k.
func (b *attrGraph) missingOf(k int32) int {
	key := &b.keys[k]
	return key.missing + len(b.rowNode) - key.lastRow - 1
}

// lackingNote is the one note for the feature attributes keys (in
// column order), all without a value on some nodes: how many, on how
// many nodes each, how many values in all, and the first names.
func (b *attrGraph) lackingNote(keys []int32, cat bool) string {
	least, most, total := len(b.rowNode), 0, 0
	names := make([]string, len(keys))
	for i, k := range keys {
		m := b.missingOf(k)
		least, most, total = min(least, m), max(most, m), total+m
		names[i] = b.keys[k].name
	}
	what, zero := "numeric attributes", "read as 0 there"
	if cat {
		what, zero = "string attributes", "their one-hot columns are 0 there"
	}
	each := fmt.Sprintf("%d to %d", least, most)
	if least == most {
		each = fmt.Sprint(least)
	}
	return fmt.Sprintf("%s: %d %s have no value on some of the %d nodes (on %s nodes each, %d values in all); %s: %s",
		b.file, len(keys), what, len(b.rowNode), each, total, zero, quoteList(names))
}

// featuresNote says which attributes the feature columns are, in order:
// the numeric ones by name, a category with its one-hot columns.
func (b *attrGraph) featuresNote(cols []int32) string {
	names, parts := make([]string, len(cols)), make([]string, len(cols))
	bools, cats := false, false
	for c, k := range cols {
		key := &b.keys[k]
		names[c], bools = key.name, bools || key.bools
		parts[c] = quoteList(names[c : c+1])
		if key.cat {
			cats = true
			onehot := make([]string, len(key.values))
			for code, v := range key.values {
				onehot[key.rank[code]] = key.name + "=" + v
			}
			parts[c] += " (one-hot: " + quoteList(onehot) + ")"
		}
	}
	var s string
	switch {
	case cats:
		s = "the features are the node attribute " + clipList(parts)
		if len(cols) > 1 {
			s = "the features are the node attributes " + clipList(parts) + ", in that order (sorted by name)"
		}
		s += fmt.Sprintf("; a string attribute with at most %d distinct values is one column per value, in natural order, 1 on the nodes with that value", MaxCategories)
	case len(cols) == 1:
		s = "the feature is the numeric node attribute " + quoteList(names)
	default:
		s = "the features are the numeric node attributes " + quoteList(names) + ", in that order (sorted by name)"
	}
	if bools {
		s += "; true and false are read as 1 and 0"
	}
	return s
}

// countList formats a map's entries, sorted by key, with f, as a list.
func countList(m map[string]int, f func(string, int) string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	items := make([]string, len(keys))
	for i, k := range keys {
		items[i] = f(k, m[k])
	}
	return clipList(items)
}

// maxListed is how many items a note lists before "and N more".
const maxListed = 10

// clipList joins items with commas, listing at most maxListed of them.
func clipList(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(items)-maxListed)
}

// quoteList quotes names and joins them as clipList does.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = strconv.Quote(string(clipField([]byte(s))))
	}
	return clipList(q)
}

// quoteIDs names the first of n ids, as graph's notes do: `ids "a", "b",
// ...`.
func quoteIDs(ids []string, n int) string {
	shown := ids[:min(len(ids), graph.MaxNamedMissing)]
	q := make([]string, len(shown))
	for i, s := range shown {
		q[i] = strconv.Quote(string(clipField([]byte(s))))
	}
	s := "id " + strings.Join(q, ", ")
	if n > 1 {
		s = "ids " + s[3:]
	}
	if n > len(shown) {
		s += ", ..."
	}
	return s
}

// at returns entry i.
func (c *chunked[T]) at(i int) T { return c.chunks[i/chunkLen][i%chunkLen] }
