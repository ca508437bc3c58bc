package engine

import (
	"archive/zip"
	"bytes"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/bundle"
	"ilpgnn/core/bundle/site"
	"ilpgnn/core/explain"
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
	want := append(slices.Clone(site.CardFiles), folder+"/"+bundle.CardFile, "index.html")
	slices.Sort(want)
	if folder == "" || !slices.Equal(names, want) {
		t.Fatalf("zip holds %v, want %v", names, want)
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
