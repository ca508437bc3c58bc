package load

import (
	"bytes"
	"path/filepath"
	"testing"
)

// addMarkupSeeds seeds f with the karate club file ext names and with the
// inputs of the table tests written in that format.
func addMarkupSeeds(f *testing.F, ext string, more ...string) {
	for _, name := range karateFiles {
		if filepath.Ext(name) == ext {
			f.Add(mustRead(f, filepath.Join("testdata", name)))
		}
	}
	for _, s := range more {
		f.Add([]byte(s))
	}
}

func FuzzGraphML(f *testing.F) {
	addMarkupSeeds(f, ".graphml",
		graphmlHead+`<key id="a" for="node" attr.name="age" attr.type="double"><default>2.5</default></key>
<key id="v" for="all" attr.name="vip" attr.type="boolean"/><key id="g" for="node" yfiles.type="nodegraphics"/>
<graph edgedefault="directed"><node id="x"><data key="a">-1e3</data><data key="v">true</data>
<data key="g"><y:ShapeNode/></data></node><node id="y"/><edge source="x" target="y"><data key="a">1</data></edge>
<edge source="y" target="z"/></graph></graphml>`,
		graphmlHead+"<graph>\n<node id=\"a\"><graph/></node></graph></graphml>",
		"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<graphml/>",
		"<graphml><graph><node id=\"&amp;\"/><edge source=\"&amp;\" target=\"b\"/></graph></graphml>",
		clubGraphML(`<node id="n1"><data key="c">Officer</data></node>`, `<node id="n2"><data key="c">Mr. Hi</data><data key="g">9</data></node>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := GraphMLReader("g", bytes.NewReader(data), "g.graphml")
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}

func FuzzGEXF(f *testing.F) {
	addMarkupSeeds(f, ".gexf",
		gexfHead+`<graph><attributes class="node"><attribute id="0" title="size" type="float"><default>1</default></attribute>
<attribute id="1" title="tags" type="liststring"/><attribute id="2" title="on" type="boolean"/></attributes>
<nodes><node id="a" label="A"><attvalues><attvalue for="0" value="4"/><attvalue for="2" value="true"/></attvalues>
<viz:position x="1" y="2"/></node><node id="b"><attvalues><attvalue id="1" value="x"/></attvalues></node></nodes>
<edges><edge source="a" target="b" weight="2"/><edge source="b" target="c"/></edges></graph></gexf>`,
		gexfHead+"<graph><nodes><node id=\"a\"><nodes/></node></nodes></graph></gexf>",
		gexfHead+`<graph><attributes class="node"><attribute id="0" title="club" type="string"><default>Mr. Hi</default></attribute></attributes>
<nodes><node id="a"><attvalues><attvalue for="0" value="Officer"/></attvalues></node><node id="b"/></nodes>
<edges><edge source="a" target="b"/></edges></graph></gexf>`)
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := GEXFReader("g", bytes.NewReader(data), "g.gexf")
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}

func FuzzJSONGraph(f *testing.F) {
	addMarkupSeeds(f, ".json",
		`{"nodes": [{"id": 0, "w": 1.5, "ok": true, "tag": 7}, {"id": 1, "w": -2, "tag": "seven", "pos": [0, 1]}],
 "edges": [{"source": 0, "target": 1, "weight": 3}, {"source": 1, "target": 2}]}`,
		`{"options": {"type": "directed"}, "nodes": [{"key": "a", "attributes": {"x": 2}}, {"key": "b", "attributes": null}],
 "edges": [{"source": "a", "target": "b", "attributes": {"w": 1}}, {"source": "b", "target": "b"}]}`,
		`{"nodes": [{"id": 1}, {"key": 2}], "links": []}`,
		"\ufeff[1, 2]",
		`{"nodes": [{"id": "a", "x": 1e39}], "links": [{"source": "a"}]}`,
		`{"nodes": [{"id": "a", "club": "Officer", "age": 3}, {"id": "b", "club": "Mr. Hi"}, {"id": "c", "club": "", "age": "x"}],
 "links": [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}]}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := JSONBytes("g.json", data)
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}
