package load

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"ilpgnn/core/graph"
)

// GraphMLReader reads a graph in GraphML (graphml.graphdrawing.org, as
// networkx, igraph, Gephi, Cytoscape and yEd write it) and names it name;
// file names the input in errors.
//
// The file holds one <graph> of <node id="..."> and <edge source="..."
// target="..."> elements; attributes are <data key="..."> children whose
// <key> elements, declared before the graph, give a name (attr.name, else
// the key's id), a type (attr.type, string when absent) and optionally a
// <default>. Node attributes typed int, long, float or double become
// feature columns, boolean ones too (true 1, false 0); node attributes of
// other types (string, yFiles graphics) and edge data are ignored and said
// to be in ReadNotes, and the graph's own <data> is not read. A node
// without a value gets the key's default, else 0 (counted in ReadNotes).
// See attrGraph for node order, ids named only by edges, and self-loops
// and duplicates; the graph is undirected whatever edgedefault (or an
// edge's directed="true") says, and a note says what was directed.
//
// Hyperedges, nested graphs, a second <graph>, <data> naming no <key>, a
// numeric value that is not a finite float32 number, a node declared
// twice and malformed XML are errors naming file and line. Only UTF-8
// files are read. A tag or a text longer than 4 MiB, or elements nested
// more than 256 deep, are refused before they cost more memory.
func GraphMLReader(name string, r io.Reader, file string) (*graph.Graph, error) {
	x := newXMLReader(file, r)
	root, err := x.root()
	if err != nil {
		return nil, err
	}
	if root.Name.Local != "graphml" {
		return nil, x.errorf("the root element is <%s>, not <graphml>: not a GraphML file%s", root.Name.Local, formatHint(root.Name.Local))
	}
	p := &graphmlReader{x: x, b: newAttrGraph(file), keys: make(map[string]graphmlKey)}
	if err := p.read(); err != nil {
		return nil, err
	}
	p.b.size = x.in.n
	return p.b.build(name)
}

// formatHint suggests the reader for a file whose root element is root.
func formatHint(root string) string {
	switch root {
	case "gexf":
		return " (it is GEXF: name it *.gexf)"
	case "graphml":
		return " (it is GraphML: name it *.graphml)"
	}
	return ""
}

// graphmlKey is a declared <key>.
type graphmlKey struct {
	name  string
	typ   valueType
	what  string // its type, as a note names it ("of type string")
	attr  int32  // its node attribute, -1 until a node uses it
	def   float32
	isDef bool
	// defText is a string key's default, a category, when isDef.
	defText string
}

type graphmlReader struct {
	x     *xmlReader
	b     *attrGraph
	keys  map[string]graphmlKey
	graph bool // a <graph> was read
}

// read reads the children of <graphml>.
func (p *graphmlReader) read() error {
	for {
		e, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch e.Name.Local {
		case "key":
			err = p.key(e)
		case "graph":
			if p.graph {
				return p.x.errorf("a second <graph>: a file holds one graph here")
			}
			p.graph = true
			err = p.graphElem(e)
		case "desc":
			err = p.x.skip()
		default:
			p.b.ignored[elementName(e)]++
			err = p.x.skip()
		}
		if err != nil {
			return err
		}
	}
	if !p.graph {
		return p.b.errorf(p.x.line(), "no <graph> element")
	}
	return p.x.end()
}

// key reads a <key> declaration.
func (p *graphmlReader) key(e xml.StartElement) error {
	id, ok := attr(e, "id")
	if !ok {
		return p.x.errorf("a <key> without an id")
	}
	if _, dup := p.keys[id]; dup {
		return p.x.errorf("<key id=%q> declared twice", clipField([]byte(id)))
	}
	typ, what := graphmlType(e)
	k := graphmlKey{name: id, typ: typ, what: what, attr: -1}
	if name, ok := attr(e, "attr.name"); ok && name != "" {
		k.name = name
	}
	var defText string
	hasDef := false
	for {
		c, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if c.Name.Local != "default" {
			if err := p.x.skip(); err != nil {
				return err
			}
			continue
		}
		if defText, err = p.x.text("<default>"); err != nil {
			return err
		}
		hasDef = true
	}
	if hasDef && k.typ == typeString {
		k.defText, k.isDef = defText, true
	} else if hasDef && k.typ != typeOther {
		v, err := parseTyped(defText, k.typ)
		if err != nil {
			return p.x.errorf("<default> of <key id=%q>: %v", clipField([]byte(id)), err)
		}
		k.def, k.isDef = v, true
	}
	if f, _ := attr(e, "for"); f == "" || f == "node" || f == "all" {
		p.nodeAttr(id, &k)
	}
	p.keys[id] = k
	return nil
}

// graphmlType returns the type of a <key>'s values, and its name for
// notes.
func graphmlType(e xml.StartElement) (valueType, string) {
	if _, yfiles := attr(e, "yfiles.type"); yfiles {
		return typeOther, "yFiles graphics"
	}
	t, ok := attr(e, "attr.type")
	if !ok {
		t = "string" // GraphML's default
	}
	what := "of type " + string(clipField([]byte(t)))
	switch strings.ToLower(t) {
	case "int", "long", "float", "double":
		return typeNumber, what
	case "boolean":
		return typeBool, what
	case "string":
		return typeString, what
	}
	return typeOther, what
}

// nodeAttr makes k, the key with id, a node attribute.
func (p *graphmlReader) nodeAttr(id string, k *graphmlKey) {
	k.attr = p.b.key(id, k.name)
	switch {
	case k.typ == typeOther:
		p.b.setOther(k.attr, k.what)
	case k.typ == typeString:
		p.b.setCategorical(k.attr)
		if k.isDef {
			p.b.setCategoryDefault(k.attr, k.defText)
		}
	case k.isDef:
		p.b.setDefault(k.attr, k.def)
	}
}

// graphElem reads the <graph> e and its children.
func (p *graphmlReader) graphElem(e xml.StartElement) error {
	if d, _ := attr(e, "edgedefault"); strings.EqualFold(d, "directed") {
		p.b.defaultDirected, p.b.directedBy = true, `edgedefault="directed"`
	}
	for {
		e, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		switch e.Name.Local {
		case "node":
			err = p.node(e)
		case "edge":
			err = p.edge(e)
		case "hyperedge":
			return p.x.errorf("a <hyperedge>: hyperedges are not read")
		case "desc", "data": // the graph's own attributes are not read
			err = p.x.skip()
		default:
			p.b.ignored[elementName(e)]++
			err = p.x.skip()
		}
		if err != nil {
			return err
		}
	}
}

// node reads a <node> and its <data>.
func (p *graphmlReader) node(e xml.StartElement) error {
	id, ok := attr(e, "id")
	if !ok {
		return p.x.errorf("a <node> without an id")
	}
	if err := p.b.node(id, p.x.line()); err != nil {
		return err
	}
	for {
		c, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		switch c.Name.Local {
		case "data":
			err = p.nodeData(c, id)
		case "graph":
			return p.x.errorf("node %q holds a <graph>: nested graphs are not read", clipField([]byte(id)))
		case "desc":
			err = p.x.skip()
		default:
			p.b.ignored[elementName(c)]++
			err = p.x.skip()
		}
		if err != nil {
			return err
		}
	}
}

// nodeData reads a <data> element of the node id.
func (p *graphmlReader) nodeData(e xml.StartElement, id string) error {
	keyID, _ := attr(e, "key")
	k, ok := p.keys[keyID]
	if !ok {
		return p.x.errorf("<data key=%q> of node %q: no <key> declares it (keys come before the graph)", clipField([]byte(keyID)), clipField([]byte(id)))
	}
	if k.attr < 0 {
		p.nodeAttr(keyID, &k) // a key declared for edges, used on a node
		p.keys[keyID] = k
	}
	line := p.x.line()
	if k.typ == typeOther {
		if err := p.x.skip(); err != nil {
			return err
		}
		return p.b.value(k.attr, 0, line)
	}
	what := fmt.Sprintf("<data key=%q> of node %q", clipField([]byte(keyID)), clipField([]byte(id)))
	s, err := p.x.text(what)
	if err != nil {
		return err
	}
	return p.b.typed(k.attr, k.typ, s, line, what)
}

// edge reads an <edge>; its data are counted as ignored.
func (p *graphmlReader) edge(e xml.StartElement) error {
	src, ok1 := attr(e, "source")
	dst, ok2 := attr(e, "target")
	if !ok1 || !ok2 || src == "" || dst == "" {
		return p.x.errorf("an <edge> without a source and a target")
	}
	p.b.edge(src, dst)
	if d, ok := attr(e, "directed"); ok {
		p.b.edgeDirected(strings.EqualFold(d, "true"), `directed="true"`)
	}
	for {
		c, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if c.Name.Local == "data" {
			keyID, _ := attr(c, "key")
			name := keyID
			if k, ok := p.keys[keyID]; ok {
				name = k.name
			}
			p.b.edgeAttrs[name]++
		} else {
			p.b.ignored[elementName(c)]++
		}
		if err := p.x.skip(); err != nil {
			return err
		}
	}
	return nil
}
