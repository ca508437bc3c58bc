package engine

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"ilpgnn/core/bundle"
	"ilpgnn/core/bundle/site"
	"ilpgnn/core/explain"
	"ilpgnn/core/load"
	"ilpgnn/wasm/card/view"
)

func cardFiles() map[string][]byte {
	files := map[string][]byte{}
	for _, name := range site.CardFiles {
		files[name] = []byte("the card's " + name)
	}
	return files
}

// TestCardExport: the zip holds the folder `ilpgnn export` writes, whose
// bundle explains as the explain operation does (the oracle), and the
// same model gives the same bytes.
func TestCardExport(t *testing.T) {
	nativeOnly(t, "exports a card as a zip")
	p := newPage(t, nil)
	if e := p.callErr("card.export", nil, cardFiles()); e.Code != CodeNoGraph && e.Code != CodeNoModel {
		t.Errorf("without a model: %+v", e)
	}
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	p.call("train", trainArgs(3), nil)
	args := map[string]any{"pairs": []map[string]int{{"i": 0, "j": 1}, {"i": 5, "j": 9}}}
	r := p.wait(p.send("card.export", args, cardFiles()))
	if r.Type != "result" {
		t.Fatalf("card.export: %+v", r.Error)
	}
	var res ExportResult
	roundTrip(t, r.Result, &res)
	if !strings.HasPrefix(res.Filename, "ilpgnn-card-") || !strings.HasSuffix(res.Filename, ".zip") {
		t.Errorf("filename %q", res.Filename)
	}
	zr, err := zip.NewReader(bytes.NewReader(r.Bytes), int64(len(r.Bytes)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var names []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], err = io.ReadAll(rc) // checks each entry's CRC-32
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		names = append(names, f.Name)
	}
	var folder string
	for _, n := range names {
		if strings.HasSuffix(n, "/"+bundle.CardFile) {
			folder = strings.TrimSuffix(n, "/"+bundle.CardFile)
		}
	}
	// Every file and its .gz twin (the page sent no prebuilt ones).
	var want []string
	for _, name := range append(slices.Clone(site.CardFiles), folder+"/"+bundle.CardFile, "index.html") {
		want = append(want, name, name+".gz")
	}
	slices.Sort(want)
	if folder == "" || !slices.Equal(names, want) {
		t.Fatalf("zip holds %v, want %v", names, want)
	}
	for _, name := range want {
		if base, ok := strings.CutSuffix(name, ".gz"); ok {
			zr, err := gzip.NewReader(bytes.NewReader(files[name]))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, files[base]) {
				t.Errorf("%s does not hold %s (%v)", name, base, err)
			}
		}
	}
	for name, data := range cardFiles() {
		if !bytes.Equal(files[name], data) {
			t.Errorf("%s differs", name)
		}
	}
	b, err := bundle.Unmarshal(files[folder+"/"+bundle.CardFile])
	if err != nil {
		t.Fatal(err)
	}
	page := string(files["index.html"])
	for _, pr := range [][2]int{{0, 1}, {5, 9}} {
		var op explain.Explanation
		p.call("explain", map[string]any{"i": pr[0], "j": pr[1]}, &op)
		got, err := b.Explain(pr[0], pr[1])
		if err != nil {
			t.Fatal(err)
		}
		var viaJSON explain.Explanation
		roundTrip(t, got, &viaJSON)
		if !reflect.DeepEqual(viaJSON, op) {
			t.Errorf("pair %v: the bundle explains otherwise than explain", pr)
		}
		g := b.Graph()
		if line := `data-pair="` + g.IDs[pr[0]] + "," + g.IDs[pr[1]] + `"`; !strings.Contains(page, line) {
			t.Errorf("index.html lacks %s", line)
		}
	}
	again := p.wait(p.send("card.export", args, cardFiles()))
	if !bytes.Equal(again.Bytes, r.Bytes) {
		t.Error("a second export of the same model differs")
	}
}

func TestCardExportErrors(t *testing.T) {
	nativeOnly(t, "refuses card exports")
	p := newPage(t, nil)
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	p.call("train", trainArgs(2), nil)
	partial := cardFiles()
	delete(partial, "ilpgnn-card.wasm")
	for _, c := range []struct {
		args  any
		files map[string][]byte
		code  string
		text  string
	}{
		{nil, partial, CodeBadRequest, "the card's ilpgnn-card.wasm is missing"},
		{map[string]any{"pairs": []map[string]int{{"i": 0, "j": 99999}}}, cardFiles(), CodeNotFound, "pairs[0].j 99999 is not a node"},
		{map[string]any{"pairs": []map[string]int{{"i": 3, "j": 3}}}, cardFiles(), CodeBadRequest, "joins node 3 to itself"},
		{map[string]any{"pairs": "0,1"}, cardFiles(), CodeBadRequest, ""},
	} {
		e := p.callErr("card.export", c.args, c.files)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.text) {
			t.Errorf("%v: %+v, want %s with %q", c.args, e, c.code, c.text)
		}
	}
	// Without pairs, the page shows the example pair.
	r := p.wait(p.send("card.export", nil, cardFiles()))
	if r.Type != "result" || len(r.Bytes) == 0 {
		t.Fatalf("default pairs: %+v", r.Error)
	}
}

// TestCardExportHostileIDs: the app's zip, for a graph whose ids are
// markup, event handlers, commas and quotes (an edge list with RFC 4180
// quoting), holds a page that an HTML parser reads with no on* attribute
// and a card naming each pair exactly, read as the card reads it; an id
// that is not UTF-8 is refused, naming the node.
func TestCardExportHostileIDs(t *testing.T) {
	names := []string{"n0", `x" onmouseover="alert(4)`, "</code><img src=x onerror=alert(1)>", "hub,1", `a,b "c"`, "Tom & Jerry's"}
	for i := len(names); i < 30; i++ {
		names = append(names, fmt.Sprintf("n%d", i))
	}
	// edges writes the list and returns the node of each name: the
	// loader numbers nodes in the order of their ids (load.CompareIDs).
	edges := func(names []string) ([]byte, map[string]int) {
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		w.Write([]string{"source", "target"})
		for i := range names {
			for _, rec := range [][]string{{names[i], names[(i+1)%len(names)]}, {names[i], names[(i+5)%len(names)]}} {
				w.Write(rec)
			}
		}
		w.Flush()
		node := map[string]int{}
		for i, id := range slices.SortedFunc(slices.Values(names), load.CompareIDs) {
			node[id] = i
		}
		return b.Bytes(), node
	}
	data, node := edges(names)
	p := newPage(t, nil)
	if r := p.wait(p.send("load", map[string]any{"name": "hostile"}, map[string][]byte{"edges.csv": data})); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	p.call("train", trainArgs(2), nil)
	want := [][2]string{{names[1], names[2]}, {names[3], names[4]}, {names[5], names[1]}}
	var args []map[string]int
	for _, pr := range want {
		args = append(args, map[string]int{"i": node[pr[0]], "j": node[pr[1]]})
	}
	r := p.wait(p.send("card.export", map[string]any{"pairs": args}, cardFiles()))
	if r.Type != "result" {
		t.Fatalf("card.export: %+v", r.Error)
	}
	zr, err := zip.NewReader(bytes.NewReader(r.Bytes), int64(len(r.Bytes)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open("index.html")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(rc)
	if err != nil {
		t.Fatal(err)
	}
	var cards [][2]string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		attr := func(name string) (string, bool) {
			for _, a := range n.Attr {
				if a.Key == name {
					return a.Val, true
				}
			}
			return "", false
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("<%s> has %s=%q", n.Data, a.Key, a.Val)
			}
		}
		if n.Data == "img" || n.Data == "script" && n.FirstChild != nil {
			t.Errorf("the page holds a <%s>", n.Data)
		}
		if class, _ := attr("class"); n.Data == "div" && class == "ilpgnn-card" {
			a, b := view.Pair(attr)
			cards = append(cards, [2]string{a, b})
		}
	}
	if !slices.Equal(cards, want) {
		t.Errorf("the cards name %q, want %q", cards, want)
	}

	latin1 := slices.Clone(names)
	latin1[7] = "caf\xe9"
	data, node = edges(latin1)
	if r := p.wait(p.send("load", map[string]any{"name": "latin1"}, map[string][]byte{"edges.csv": data})); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	p.call("train", trainArgs(2), nil)
	e := p.callErr("card.export", nil, cardFiles())
	if msg := fmt.Sprintf(`card.export: bundle: node %d's id "caf\xe9" is not UTF-8 text, which the card cannot read`, node["caf\xe9"]); e == nil || e.Code != CodeBadRequest || !strings.Contains(e.Message, msg) {
		t.Errorf("an id not UTF-8: %+v", e)
	}
}
