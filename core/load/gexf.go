package load

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"ilpgnn/core/graph"
)

// GEXFReader reads a graph in GEXF 1.1 to 1.3 (gexf.net, Gephi's format,
// as Gephi and networkx write it) and names it name; file names the input
// in errors.
//
// The file holds one <graph> with <nodes> of <node id="..."> and <edges>
// of <edge source="..." target="...">. Node attributes are declared in
// <attributes class="node"> as <attribute id="..." title="..."
// type="..."> with an optional <default>, and given in each node's
// <attvalues> as <attvalue for="..." value="..."> (id= in GEXF 1.1).
// Attributes typed integer, long, short, byte, float, double, bigdecimal
// or biginteger become feature columns, boolean ones too (true 1, false
// 0); attributes of other types (string, liststring, date, ...), node
// labels that differ from the ids, visualisation elements (viz:position,
// viz:color, viz:size) and edge weights and attributes are ignored and
// said to be in ReadNotes. A node without a value gets the attribute's
// default, else 0 (counted in ReadNotes). See attrGraph for node order,
// ids named only by edges, and self-loops and duplicates; the graph is
// undirected whatever defaultedgetype (or an edge's type="directed")
// says, and a note says what was directed.
//
// Hierarchical graphs (<nodes> inside a <node>), a second <graph>, an
// <attvalue> naming no declared attribute, a numeric value that is not a
// finite float32 number, a node declared twice and malformed XML are
// errors naming file and line. Only UTF-8 files are read; a tag or a text
// longer than 4 MiB, or elements nested more than 256 deep, are refused
// before they cost more memory.
func GEXFReader(name string, r io.Reader, file string) (*graph.Graph, error) {
	x := newXMLReader(file, r)
	root, err := x.root()
	if err != nil {
		return nil, err
	}
	if root.Name.Local != "gexf" {
		return nil, x.errorf("the root element is <%s>, not <gexf>: not a GEXF file%s", root.Name.Local, formatHint(root.Name.Local))
	}
	p := &gexfReader{x: x, b: newAttrGraph(file), attrs: make(map[string]gexfAttr), edgeTitles: make(map[string]string)}
	if err := p.read(); err != nil {
		return nil, err
	}
	if p.relabelled > 0 {
		p.b.notes = append(p.b.notes, fmt.Sprintf("%s: node labels are ignored (%s a label other than its id)",
			file, nouns(p.relabelled, "node has", "nodes have")))
	}
	p.b.size = x.in.n
	return p.b.build(name)
}

// gexfAttr is a declared node attribute.
type gexfAttr struct {
	attr int32 // index in attrGraph
	typ  valueType
}

type gexfReader struct {
	x          *xmlReader
	b          *attrGraph
	attrs      map[string]gexfAttr // node attributes by id
	edgeTitles map[string]string   // edge attribute id -> title
	graph      bool
	relabelled int // nodes whose label is not their id
}

// read reads the children of <gexf>.
func (p *gexfReader) read() error {
	for {
		e, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch e.Name.Local {
		case "graph":
			if p.graph {
				return p.x.errorf("a second <graph>: a file holds one graph here")
			}
			p.graph = true
			err = p.graphElem(e)
		case "meta":
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
		return p.x.errorf("no <graph> element")
	}
	return p.x.end()
}

// graphElem reads the <graph> e and its children.
func (p *gexfReader) graphElem(e xml.StartElement) error {
	if d, _ := attr(e, "defaultedgetype"); strings.EqualFold(d, "directed") {
		p.b.defaultDirected, p.b.directedBy = true, `defaultedgetype="directed"`
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
		case "attributes":
			err = p.attributes(e)
		case "nodes":
			err = p.list("node", p.node)
		case "edges":
			err = p.list("edge", p.edge)
		default:
			p.b.ignored[elementName(e)]++
			err = p.x.skip()
		}
		if err != nil {
			return err
		}
	}
}

// list reads the children of <nodes> or <edges>, giving those named elem
// to read.
func (p *gexfReader) list(elem string, read func(xml.StartElement) error) error {
	for {
		e, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if e.Name.Local == elem {
			err = read(e)
		} else {
			p.b.ignored[elementName(e)]++
			err = p.x.skip()
		}
		if err != nil {
			return err
		}
	}
}

// attributes reads an <attributes> declaration block.
func (p *gexfReader) attributes(e xml.StartElement) error {
	class, _ := attr(e, "class")
	for {
		c, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if c.Name.Local != "attribute" {
			if err := p.x.skip(); err != nil {
				return err
			}
			continue
		}
		if class == "node" {
			err = p.nodeAttribute(c)
		} else {
			id, _ := attr(c, "id")
			title, _ := attr(c, "title")
			p.edgeTitles[id] = cmp.Or(title, id)
			err = p.x.skip()
		}
		if err != nil {
			return err
		}
	}
}

// nodeAttribute reads a node <attribute> declaration.
func (p *gexfReader) nodeAttribute(e xml.StartElement) error {
	id, ok := attr(e, "id")
	if !ok {
		return p.x.errorf("an <attribute> without an id")
	}
	if _, dup := p.attrs[id]; dup {
		return p.x.errorf("node <attribute id=%q> declared twice", clipField([]byte(id)))
	}
	title, _ := attr(e, "title")
	typ, _ := attr(e, "type")
	a := gexfAttr{attr: p.b.key(id, cmp.Or(title, id)), typ: gexfType(typ)}
	switch a.typ {
	case typeOther:
		p.b.setOther(a.attr, fmt.Sprintf("of type %s", clipField([]byte(cmp.Or(typ, "unknown")))))
	case typeString:
		p.b.setCategorical(a.attr)
	}
	for {
		c, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if c.Name.Local != "default" || a.typ == typeOther {
			if err := p.x.skip(); err != nil {
				return err
			}
			continue
		}
		s, err := p.x.text("<default>")
		if err != nil {
			return err
		}
		if a.typ == typeString {
			p.b.setCategoryDefault(a.attr, s)
			continue
		}
		v, err := parseTyped(s, a.typ)
		if err != nil {
			return p.x.errorf("<default> of <attribute id=%q>: %v", clipField([]byte(id)), err)
		}
		p.b.setDefault(a.attr, v)
	}
	p.attrs[id] = a
	return nil
}

// gexfType returns the kind of values of a GEXF attribute type.
func gexfType(t string) valueType {
	switch strings.ToLower(t) {
	case "integer", "long", "short", "byte", "float", "double", "bigdecimal", "biginteger":
		return typeNumber
	case "boolean":
		return typeBool
	case "string":
		return typeString
	}
	return typeOther
}

// node reads a <node>.
func (p *gexfReader) node(e xml.StartElement) error {
	id, ok := attr(e, "id")
	if !ok {
		return p.x.errorf("a <node> without an id")
	}
	if err := p.b.node(id, p.x.line()); err != nil {
		return err
	}
	if label, ok := attr(e, "label"); ok && label != id {
		p.relabelled++
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
		case "attvalues":
			err = p.attvalues(id)
		case "nodes", "edges":
			return p.x.errorf("node %q holds <%s>: hierarchical graphs are not read", clipField([]byte(id)), c.Name.Local)
		default:
			p.b.ignored[elementName(c)]++
			err = p.x.skip()
		}
		if err != nil {
			return err
		}
	}
}

// attvalues reads the <attvalues> of the node id.
func (p *gexfReader) attvalues(id string) error {
	for {
		c, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if c.Name.Local == "attvalue" {
			if err := p.attvalue(c, id); err != nil {
				return err
			}
		} else {
			p.b.ignored[elementName(c)]++
		}
		if err := p.x.skip(); err != nil {
			return err
		}
	}
}

// attvalue reads one <attvalue> of the node id.
func (p *gexfReader) attvalue(e xml.StartElement, id string) error {
	key, ok := attr(e, "for")
	if !ok {
		key, _ = attr(e, "id") // GEXF 1.1
	}
	a, ok := p.attrs[key]
	if !ok {
		return p.x.errorf("<attvalue for=%q> of node %q: no node <attribute> declares it", clipField([]byte(key)), clipField([]byte(id)))
	}
	value, _ := attr(e, "value")
	what := fmt.Sprintf("<attvalue for=%q> of node %q", clipField([]byte(key)), clipField([]byte(id)))
	return p.b.typed(a.attr, a.typ, strings.TrimSpace(value), p.x.line(), what)
}

// edge reads an <edge>: its weight and attribute values are counted as
// ignored.
func (p *gexfReader) edge(e xml.StartElement) error {
	src, ok1 := attr(e, "source")
	dst, ok2 := attr(e, "target")
	if !ok1 || !ok2 || src == "" || dst == "" {
		return p.x.errorf("an <edge> without a source and a target")
	}
	p.b.edge(src, dst)
	if typ, ok := attr(e, "type"); ok {
		// "mutual", an edge both ways, is an undirected link as it is.
		p.b.edgeDirected(strings.EqualFold(typ, "directed"), `type="directed"`)
	}
	if _, ok := attr(e, "weight"); ok {
		p.b.edgeAttrs["weight"]++
	}
	for {
		c, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if c.Name.Local == "attvalues" {
			err = p.edgeValues()
		} else {
			p.b.ignored[elementName(c)]++
			err = p.x.skip()
		}
		if err != nil {
			return err
		}
	}
}

// edgeValues counts the attribute values of an edge as ignored.
func (p *gexfReader) edgeValues() error {
	for {
		c, ok, err := p.x.child()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		key, ok := attr(c, "for")
		if !ok {
			key, _ = attr(c, "id")
		}
		p.b.edgeAttrs[cmp.Or(p.edgeTitles[key], key)]++
		if err := p.x.skip(); err != nil {
			return err
		}
	}
}
