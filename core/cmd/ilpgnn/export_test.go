package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"ilpgnn/core/bundle"
	"ilpgnn/core/bundle/site"
	"ilpgnn/core/explain"
)

// TestExport: the exported bundle explains and suggests as `explain --json`
// and `suggest --json` print, byte for byte; the folder holds the card's
// files and a page with one card per pair; --nodes keeps those nodes only.
func TestExport(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "model.ckpt")
	if code, _, stderr := cli(t, "train", "--data", small, "--seeds", "0", "--epochs", "20", "--hidden", "16", "--save", ck); code != 0 {
		t.Fatalf("train: %s", stderr)
	}
	// A mistyped id names the one meant.
	if code, _, stderr := cli(t, "explain", "--checkpoint", ck, "--data", small, "--pair", "N0,n1"); code != 1 ||
		!strings.Contains(stderr, `no node with id "N0" in small (did you mean "n0"? ids are case-sensitive)`) {
		t.Errorf("explain --pair N0,n1: exit %d, %q", code, stderr)
	}
	built := fstest.MapFS{}
	for _, name := range site.CardFiles {
		built["card/"+name] = &fstest.MapFile{Data: []byte("the card's " + name)}
	}
	// The build's twins of the WebAssembly; the others' the export makes.
	built["card/ilpgnn-card.wasm.br"] = &fstest.MapFile{Data: []byte("brotli of the card's wasm")}
	built["card/ilpgnn-card.wasm.gz"] = &fstest.MapFile{Data: []byte("gzip of the card's wasm")}
	saved := embeddedSite
	embeddedSite = func() fs.FS { return built }
	defer func() { embeddedSite = saved }()

	out := filepath.Join(dir, "out")
	code, stdout, stderr := cli(t, "export", "--checkpoint", ck, "--data", small, "--out", out, "--pairs", "n0,n1; n2,n5")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, filepath.Join(out, "small", "card.bundle")) {
		t.Errorf("stdout %q", stdout)
	}
	raw, err := os.ReadFile(filepath.Join(out, "small", bundle.CardFile))
	if err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Unmarshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range [][2]string{{"n0", "n1"}, {"n2", "n5"}, {"n3", "n7"}} {
		_, want, _ := cli(t, "explain", "--checkpoint", ck, "--data", small, "--pair", pr[0]+","+pr[1], "--json")
		i, _ := b.Node(pr[0])
		j, _ := b.Node(pr[1])
		e, err := b.Explain(i, j)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := writeJSON(&got, e); err != nil {
			t.Fatal(err)
		}
		if got.String() != want {
			t.Errorf("%v: the bundle's explanation differs from explain --json:\n%s\nwant\n%s", pr, got.String(), want)
		}
	}
	// --steps prints the steps the JSON holds, numbered.
	_, js, _ := cli(t, "explain", "--checkpoint", ck, "--data", small, "--pair", "n0,n1", "--json")
	var e struct {
		Prob  float64
		Steps []struct{ Title, Text string }
	}
	if err := json.Unmarshal([]byte(js), &e); err != nil || len(e.Steps) != 7 {
		t.Fatalf("explain --json: %d steps, %v", len(e.Steps), err)
	}
	text := fmt.Sprintf("How the model decided p(n0, n1) %s\n", explain.ProbIs(e.Prob, explain.ProbDigits))
	for k, s := range e.Steps {
		text += fmt.Sprintf("\n%d. %s\n%s\n", k+1, s.Title, s.Text)
	}
	if code, got, stderr := cli(t, "explain", "--checkpoint", ck, "--data", small, "--pair", "n0,n1", "--steps"); code != 0 || got != text {
		t.Errorf("explain --steps: exit %d %s\n%s\nwant\n%s", code, stderr, got, text)
	}
	_, want, _ := cli(t, "suggest", "--checkpoint", ck, "--data", small, "--node", "n4", "--top", "3", "--json")
	i, _ := b.Node("n4")
	sugg, err := b.Suggest(i, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	writeJSON(&got, sugg)
	if got.String() != want {
		t.Errorf("suggestions differ from suggest --json")
	}
	for _, name := range site.CardFiles {
		if data, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(data) != "the card's "+name {
			t.Errorf("%s: %q, %v", name, data, err)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	// Every file has a .gz twin holding it; the WebAssembly's twins are
	// the build's, .br included.
	for _, name := range []string{"ilpgnn-card.wasm.br", "ilpgnn-card.wasm.gz"} {
		if data, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(data) != string(built["card/"+name].Data) {
			t.Errorf("%s: %q, %v; want the build's", name, data, err)
		}
	}
	for name, want := range map[string][]byte{"index.html": page, "small/" + bundle.CardFile: raw, "ilpgnn-card.js": []byte("the card's ilpgnn-card.js")} {
		zr, err := os.Open(filepath.Join(out, filepath.FromSlash(name)+".gz"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := gzip.NewReader(zr)
		if err != nil {
			t.Fatalf("%s.gz: %v", name, err)
		}
		got, err := io.ReadAll(r)
		zr.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s.gz holds %d bytes (%v), want the file's %d", name, len(got), err, len(want))
		}
	}
	for _, want := range []string{`data-src="small/" data-pair="n0,n1"`, `data-src="small/" data-pair="n2,n5"`, `<script src="ilpgnn-card.js"></script>`, "'wasm-unsafe-eval'"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}

	// --nodes: only pairs among n0..n3 (and the pairs' own nodes).
	code, _, stderr = cli(t, "export", "--checkpoint", ck, "--data", small, "--out", filepath.Join(dir, "some"), "--bundle-only", "--nodes", "n0, n1,n2", "--pairs", "n0,n3")
	if code != 0 {
		t.Fatalf("export --nodes: %s", stderr)
	}
	raw, _ = os.ReadFile(filepath.Join(dir, "some", "small", bundle.CardFile))
	some, err := bundle.Unmarshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(some.Explainable) != 4 {
		t.Errorf("explainable %v, want n0..n3", some.Explainable)
	}
	if _, err := os.Stat(filepath.Join(dir, "some", "index.html")); !os.IsNotExist(err) {
		t.Errorf("--bundle-only wrote index.html (%v)", err)
	}
	// The bundle's .gz twin is written beside it, so that a folder updated
	// this way never keeps the twin of an older bundle.
	zf, err := os.Open(filepath.Join(dir, "some", "small", bundle.CardFile+".gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer zf.Close()
	zr, err := gzip.NewReader(zf)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, raw) {
		t.Errorf("--bundle-only's twin holds %d bytes (%v), want the bundle's %d", len(got), err, len(raw))
	}
}

func TestExportErrors(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "model.ckpt")
	if code, _, stderr := cli(t, "train", "--data", small, "--seeds", "0", "--epochs", "2", "--hidden", "8", "--save", ck); code != 0 {
		t.Fatalf("train: %s", stderr)
	}
	saved := embeddedSite
	embeddedSite = func() fs.FS { return fstest.MapFS{} }
	defer func() { embeddedSite = saved }()
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--pairs", "n0,n1"}, "this ilpgnn was built without the card's files (build it with `make build`), or give --bundle-only"},
		{[]string{"--bundle-only", "--pairs", "n0,nope"}, `--pairs: no node with id "nope" in small`},
		{[]string{"--bundle-only", "--pairs", "n0,n1;n2"}, `--pairs: "n2": --pair: want two node ids`},
		{[]string{"--bundle-only", "--nodes", "n0,zz"}, `--nodes: no node with id "zz" in small`},
	} {
		args := append([]string{"export", "--checkpoint", ck, "--data", small, "--out", out}, c.args...)
		code, _, stderr := cli(t, args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed export wrote %s", out)
	}
}
