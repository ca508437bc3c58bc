package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"ilpgnn/core/graph"
)

// jsonShapes says what JSONBytes reads, for its errors.
const jsonShapes = `want networkx node-link data ({"nodes": [{"id": ...}, ...], "links": [{"source": ..., "target": ...}, ...]}, or "edges" for "links") ` +
	`or graphology's ({"nodes": [{"key": ..., "attributes": {...}}, ...], "edges": [{"source": ..., "target": ...}, ...]})`

// JSONBytes reads a graph from the bytes of the JSON file called file, and
// names it after the file's stem. Two layouts are read, told apart by the
// shape of the nodes:
//
//   - networkx's node-link data (json_graph.node_link_data): an object with
//     "nodes", whose elements have an "id" and the node's attributes beside
//     it, and "links" (or "edges", as networkx 3.4 and later write) of
//     objects with "source" and "target";
//   - graphology's serialisation (graph.export()): "nodes" of {"key": ...,
//     "attributes": {...}} and "edges" of {"source": ..., "target": ...,
//     "attributes": {...}}; "options" and "attributes" are ignored.
//
// Ids are strings or numbers (a number's id is its JSON text, "0" for 0).
// Node attributes whose values are all numbers become feature columns;
// true and false count as 1 and 0, null as no value. An attribute with any
// other value (a string, a list, an object) on some node is ignored, and
// so are edge attributes and the graph's own; ReadNotes says which. A node
// without a value gets 0, counted in ReadNotes. See attrGraph for node
// order, ids named only by edges, and self-loops and duplicates; the graph
// is undirected whatever "directed" or "options" say, and a note says
// what was directed.
//
// JSON that is neither layout, malformed JSON, a node without an id, a
// node declared twice, an edge without both ends and a number that is not
// a finite float32 are errors naming file and line. The whole file is in
// memory; each node and edge is decoded on its own.
func JSONBytes(file string, data []byte) (*graph.Graph, error) {
	data = TrimBOM(data)
	r := &jsonReader{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data)),
		lines: lineCounter{data: data, line: 1}, b: newAttrGraph(file)}
	if err := r.read(); err != nil {
		return nil, err
	}
	r.b.size = int64(len(data))
	return r.b.build(stem(file))
}

// jsonStyle is the layout of a JSON graph, as its nodes show it.
type jsonStyle uint8

const (
	styleUnknown    jsonStyle = iota
	styleNodeLink             // nodes have "id"
	styleGraphology           // nodes have "key"
)

type jsonReader struct {
	file  string
	data  []byte
	dec   *json.Decoder
	lines lineCounter
	b     *attrGraph

	style     jsonStyle
	styleNode int    // the node that set style
	nodes     bool   // "nodes" was read
	edgesKey  string // "links" or "edges", whichever was read
}

// lineCounter finds the line of an offset in data, counting forward from
// the offset asked last (the reader asks in increasing order).
type lineCounter struct {
	data []byte
	off  int
	line int // the line of off
}

// at returns the 1-based line of data[off].
func (c *lineCounter) at(off int64) int {
	o := int(min(max(off, 0), int64(len(c.data))))
	if o < c.off {
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:o], []byte{'\n'})
	c.off = o
	return c.line
}

// next returns the line of the value the decoder reads next: past blanks
// and a comma.
func (r *jsonReader) next() int {
	off := int(r.dec.InputOffset())
	for off < len(r.data) && (isBlank(r.data[off]) || r.data[off] == '\n' || r.data[off] == ',' || r.data[off] == ':') {
		off++
	}
	return r.lines.at(int64(off))
}

// errorf returns a *Error at line.
func (r *jsonReader) errorf(line int, format string, args ...any) *Error {
	return errorf(r.file, line, format, args...)
}

// syntax returns the decoder's error err as a *Error at its line; what
// names the value being read ("nodes[3]").
func (r *jsonReader) syntax(err error, line int, what string) *Error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return r.errorf(r.lines.at(se.Offset-1), "JSON syntax: %s", se.Error())
	case errors.As(err, &te):
		return r.errorf(line, "%s is a JSON %s, not an object", what, te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return r.errorf(r.lines.at(int64(len(r.data))), "the file ends inside the JSON value")
	}
	return r.errorf(line, "%s: %v", what, err)
}

// read reads the top-level object.
func (r *jsonReader) read() error {
	line := r.next()
	tok, err := r.dec.Token()
	if err == io.EOF {
		return &Error{File: r.file, Err: ErrEmpty}
	}
	if err != nil {
		return r.syntax(err, line, "the file")
	}
	if tok != json.Delim('{') {
		return r.errorf(line, "the file holds a JSON %s, not an object: %s", jsonKind(tok), jsonShapes)
	}
	var others []string
	for r.dec.More() {
		line := r.next()
		tok, err := r.dec.Token()
		if err != nil {
			return r.syntax(err, line, "the object")
		}
		key, _ := tok.(string)
		switch key {
		case "nodes":
			if r.nodes {
				return r.errorf(line, `"nodes" twice`)
			}
			r.nodes = true
			err = r.array("nodes", r.node)
		case "links", "edges":
			if r.edgesKey != "" {
				return r.errorf(line, "%q after %q: one list of edges is read", key, r.edgesKey)
			}
			r.edgesKey = key
			err = r.array(key, r.edge)
		default:
			others = append(others, strconv.Quote(string(clipField([]byte(key)))))
			var skip json.RawMessage
			if err := r.dec.Decode(&skip); err != nil {
				return r.syntax(err, line, strconv.Quote(key))
			}
			r.graphField(key, skip)
		}
		if err != nil {
			return err
		}
	}
	if _, err := r.dec.Token(); err != nil { // the closing brace
		return r.syntax(err, r.next(), "the object")
	}
	line = r.next()
	if _, err := r.dec.Token(); err != io.EOF {
		return r.errorf(line, "more after the JSON object ends")
	}
	if !r.nodes {
		have := "no keys"
		if len(others) > 0 {
			have = "the keys " + clipList(others)
		}
		return r.errorf(1, "no \"nodes\" array (the object has %s): %s", have, jsonShapes)
	}
	if r.edgesKey == "" {
		return r.errorf(1, `no "links" or "edges" array: %s`, jsonShapes)
	}
	return nil
}

// graphField reads what the top-level field key, with the value raw,
// says of the edges' direction: networkx's "directed": true, or
// graphology's "options" with "type" "directed" or "mixed" (whose edges
// are directed unless "undirected": true, see edge). Anything else there
// is not read.
func (r *jsonReader) graphField(key string, raw json.RawMessage) {
	switch key {
	case "directed":
		if bytes.Equal(raw, []byte("true")) {
			r.b.defaultDirected, r.b.directedBy = true, `"directed": true`
		}
	case "options":
		var o struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &o) == nil && (o.Type == "directed" || o.Type == "mixed") {
			r.b.defaultDirected, r.b.directedBy = true, fmt.Sprintf(`"options": {"type": %q}`, o.Type)
		}
	}
}

// jsonKind names the JSON type of a token.
func jsonKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "array"
		}
		return "object"
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// array reads the array under key, decoding each element as an object
// and giving it, its index and its line to read.
func (r *jsonReader) array(key string, read func(map[string]json.RawMessage, int, int) error) error {
	line := r.next()
	tok, err := r.dec.Token()
	if err != nil {
		return r.syntax(err, line, strconv.Quote(key))
	}
	if tok != json.Delim('[') {
		return r.errorf(line, "%q is a JSON %s, not an array: %s", key, jsonKind(tok), jsonShapes)
	}
	obj := make(map[string]json.RawMessage) // reused: Decode adds to it
	for i := 0; r.dec.More(); i++ {
		line := r.next()
		clear(obj)
		if err := r.dec.Decode(&obj); err != nil {
			return r.syntax(err, line, fmt.Sprintf("%s[%d]", key, i))
		}
		if obj == nil {
			return r.errorf(line, "%s[%d] is null, not an object", key, i)
		}
		if err := read(obj, i, line); err != nil {
			return err
		}
	}
	_, err = r.dec.Token() // the closing bracket
	if err != nil {
		return r.syntax(err, r.next(), strconv.Quote(key))
	}
	return nil
}

// node reads nodes[i], at line.
func (r *jsonReader) node(obj map[string]json.RawMessage, i, line int) error {
	idRaw, style := obj["id"], styleNodeLink
	if idRaw == nil {
		if idRaw, style = obj["key"], styleGraphology; idRaw == nil {
			return r.errorf(line, `nodes[%d] has neither "id" (networkx node-link) nor "key" (graphology): %s`, i, jsonShapes)
		}
	}
	if r.style == styleUnknown {
		r.style, r.styleNode = style, i
	} else if style != r.style {
		return r.errorf(line, "nodes[%d] has %s where nodes[%d] has %s: one layout per file", i, styleField(style), r.styleNode, styleField(r.style))
	}
	id, err := jsonID(idRaw)
	if err != nil {
		return r.errorf(line, "nodes[%d]: %s %v", i, styleField(style), err)
	}
	if err := r.b.node(id, line); err != nil {
		return err
	}
	attrs := obj
	if style == styleGraphology {
		attrs = nil
		if raw := obj["attributes"]; len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
			if err := json.Unmarshal(raw, &attrs); err != nil {
				return r.errorf(line, `nodes[%d]: "attributes" is not an object`, i)
			}
		}
	}
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		if style == styleGraphology || name != "id" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if err := r.attr(id, name, attrs[name], line); err != nil {
			return err
		}
	}
	return nil
}

// styleField is the field that holds a node's id in style.
func styleField(s jsonStyle) string {
	if s == styleGraphology {
		return `"key"`
	}
	return `"id"`
}

// attr records the value raw of the node attribute name of node id.
func (r *jsonReader) attr(id, name string, raw json.RawMessage, line int) error {
	k := r.b.key(name, name)
	switch raw[0] {
	case 'n': // null: no value
		return nil
	case 't', 'f':
		return r.b.boolValue(k, raw[0] == 't', line)
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return r.errorf(line, "node %q, attribute %q: %v", clipField([]byte(id)), clipField([]byte(name)), err)
		}
		return r.b.category(k, s, line)
	case '[', '{':
		r.b.setOther(k, fmt.Sprintf("node %q has %s", clipField([]byte(id)), clipField(raw)))
		return r.b.value(k, 0, line)
	}
	v, err := parseValue(raw)
	if err != nil {
		return r.errorf(line, "node %q, attribute %q: %v", clipField([]byte(id)), clipField([]byte(name)), err)
	}
	return r.b.value(k, v, line)
}

// edgeFields are the fields of an edge object that are not attributes.
var edgeFields = []string{"source", "target", "key", "id", "attributes", "undirected"}

// edge reads links[i] or edges[i], at line.
func (r *jsonReader) edge(obj map[string]json.RawMessage, i, line int) error {
	var ends [2]string
	for k, field := range []string{"source", "target"} {
		raw := obj[field]
		if raw == nil {
			return r.errorf(line, "%s[%d] has no %q", r.edgesKey, i, field)
		}
		id, err := jsonID(raw)
		if err != nil {
			return r.errorf(line, "%s[%d]: %q %v", r.edgesKey, i, field, err)
		}
		if id == "" {
			return r.errorf(line, "%s[%d]: empty node id", r.edgesKey, i)
		}
		ends[k] = id
	}
	r.b.edge(ends[0], ends[1])
	if u := obj["undirected"]; u != nil {
		r.b.edgeDirected(!bytes.Equal(u, []byte("true")), `"undirected": false`)
	}
	for name := range obj {
		if !slices.Contains(edgeFields, name) {
			r.b.edgeAttrs[name]++
		}
	}
	if raw := obj["attributes"]; len(raw) > 0 && raw[0] == '{' {
		var attrs map[string]json.RawMessage
		if json.Unmarshal(raw, &attrs) == nil {
			for name := range attrs {
				r.b.edgeAttrs[name]++
			}
		}
	}
	return nil
}

// jsonID returns the id that raw, a JSON string or number, stands for.
func jsonID(raw json.RawMessage) (string, error) {
	switch c := raw[0]; {
	case c == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	case c == '-' || c >= '0' && c <= '9':
		return string(raw), nil
	}
	return "", fmt.Errorf("is %s: an id is a string or a number", clipField(raw))
}
