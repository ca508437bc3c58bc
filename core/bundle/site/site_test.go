package site

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"ilpgnn/core/bundle"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/synth"
)

func TestFolder(t *testing.T) {
	for in, want := range map[string]string{
		"cora":                       "cora",
		"Amazon Photo":               "amazon-photo",
		"../shared/datasets/cora":    "cora",
		`C:\data\citeseer`:           "citeseer",
		"synth:medium:seed=0":        "synth-medium-seed-0",
		"é":                          "graph",
		"":                           "graph",
		"a_b-c9":                     "a_b-c9",
		"/":                          "graph",
		"<script>alert(1)</script>/": "script", // the last path element
	} {
		if got := Folder(in); got != want {
			t.Errorf("Folder(%q) = %q, want %q", in, got, want)
		}
	}
}

// HostileIDsFile holds ids a user's file may hold: event handlers,
// markup that closes the snippet's <code>, scripts, the characters HTML and
// data-pair treat specially (quotes, ampersands, commas, entities), line
// breaks, controls and surrounding spaces. The export's tests and the
// card's browser test read the same file.
const hostileIDsFile = "testdata/hostile-ids.json"

// hostileIDs reads hostileIDsFile.
func hostileIDs(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(hostileIDsFile)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	if err := json.Unmarshal(b, &ids); err != nil {
		t.Fatal(err)
	}
	return ids
}

// escape's output, parsed by an HTML parser as an attribute value and as
// text, reads back as the input exactly.
func TestEscapeReadsBack(t *testing.T) {
	for _, s := range hostileIDs(t) {
		doc, err := html.Parse(strings.NewReader(`<p title="` + escape(s) + `">` + escape(s) + `</p>`))
		if err != nil {
			t.Fatal(err)
		}
		p := find(doc, "p")
		if p == nil || len(p.Attr) != 1 || p.Attr[0].Key != "title" {
			t.Fatalf("%q: the element parses as %+v", s, p)
		}
		if p.Attr[0].Val != s {
			t.Errorf("attribute: %q reads back as %q", s, p.Attr[0].Val)
		}
		if got := text(p); got != s {
			t.Errorf("text: %q reads back as %q", s, got)
		}
	}
	if got := escape("a\x00b"); got != "a\uFFFDb" {
		t.Errorf("NUL: %q", got)
	}
}

// A pair goes into data-pair when the card reads it back unchanged from
// there, and into data-a and data-b otherwise.
func TestCardElement(t *testing.T) {
	for _, c := range []struct {
		pair [2]string
		want string
	}{
		{[2]string{"35", "1033"}, `<div class="ilpgnn-card" data-src="cora/" data-pair="35,1033"></div>`},
		{[2]string{`a"b`, "c&d"}, `<div class="ilpgnn-card" data-src="cora/" data-pair="a&quot;b,c&amp;d"></div>`},
		{[2]string{"hub,1", "0"}, `<div class="ilpgnn-card" data-src="cora/" data-a="hub,1" data-b="0"></div>`},
		{[2]string{"0", " x"}, `<div class="ilpgnn-card" data-src="cora/" data-a="0" data-b=" x"></div>`},
		{[2]string{"0", "x\u00a0"}, "<div class=\"ilpgnn-card\" data-src=\"cora/\" data-a=\"0\" data-b=\"x\u00a0\"></div>"},
		{[2]string{"a\rb", "c"}, `<div class="ilpgnn-card" data-src="cora/" data-pair="a&#13;b,c"></div>`},
	} {
		if got := CardElement("cora", c.pair); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.pair, got, c.want)
		}
	}
}

func TestPageRefuses(t *testing.T) {
	for _, c := range []struct {
		pairs [][2]string
		want  string
	}{
		{nil, "a page needs a pair to show"},
		{[][2]string{{"a", "b\x00c"}}, `id "b\x00c": the id holds a NUL character, which HTML cannot carry`},
		{[][2]string{{"", "b"}}, `id "": the id is empty, and a card cannot be given an empty id`},
	} {
		if _, err := Page("d", "d", c.pairs); err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %s", c.pairs, err, c.want)
		}
	}
}

func find(n *html.Node, tag string) *html.Node {
	if n.Type == html.ElementNode && n.Data == tag {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, tag); f != nil {
			return f
		}
	}
	return nil
}

func text(n *html.Node) string {
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return sb.String()
}

// siteBundle is an untrained model on synth:sparse, in a bundle: enough
// for Files, which never asks how good the model is.
func siteBundle(t *testing.T) *bundle.Bundle {
	t.Helper()
	sc, err := synth.Preset("sparse")
	if err != nil {
		t.Fatal(err)
	}
	d, err := synth.Generate(sc, 3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	cfg.Hidden = 8
	m, err := ilpgnn.New(cfg, d.Graph.FeatureDim(), rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ilpgnn.Prepare(d.Graph, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bundle.New(ilpgnn.NewPredictor(m, in), "synth:sparse", fingerprint.Of(d.Graph), nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Files, which the command line and the app's card.export share, refuses
// a pair the page cannot name and a bundle the card cannot read, naming
// the node; the default pair skips the nodes a page cannot name.
func TestFilesRefuses(t *testing.T) {
	b := siteBundle(t)
	g := b.Graph()
	card := map[string][]byte{}
	for _, name := range CardFiles {
		card[name] = []byte(name)
	}
	g.IDs[1] = "a\x00b"
	_, err := Files(b, [][2]int{{0, 1}}, card)
	if want := `node 1, id "a\x00b": the id holds a NUL character, which HTML cannot carry: choose another pair`; err == nil || err.Error() != want {
		t.Errorf("a NUL in an id: %v\nwant %s", err, want)
	}
	g.IDs[1] = "1"

	// The default pair: the best-connected node whose id a page can name,
	// found here by brute force, with the most connected one made unnameable.
	top := 0
	for i := range g.NumNodes() {
		if g.Degree(i) > g.Degree(top) {
			top = i
		}
	}
	g.IDs[top] = "top\x00"
	best := -1
	for i := range g.NumNodes() {
		if i != top && (best < 0 || g.Degree(i) > g.Degree(best)) {
			best = i
		}
	}
	pr, err := ExamplePair(b)
	if err != nil || pr[0] != best || Nameable(g.IDs[pr[1]]) != nil {
		t.Errorf("ExamplePair = %v, %v; want node %d first", pr, err, best)
	}
	// Its likeliest link made unnameable too: the next likeliest.
	s, err := b.Suggest(best, 2)
	if err != nil || len(s) != 2 {
		t.Fatalf("Suggest: %v, %v", s, err)
	}
	g.IDs[s[0].Node] = ""
	if pr, err = ExamplePair(b); err != nil || pr != [2]int{best, s[1].Node} {
		t.Errorf("ExamplePair = %v, %v; want %v", pr, err, [2]int{best, s[1].Node})
	}
	files, err := Files(b, nil, card)
	if err != nil {
		t.Fatal(err)
	}
	if want := CardElement("synth-sparse", [2]string{g.IDs[pr[0]], g.IDs[pr[1]]}); !strings.Contains(string(files["index.html"]), want) {
		t.Errorf("the default page lacks %s", want)
	}

	g.IDs[2] = "caf\xe9"
	_, err = Files(b, [][2]int{{0, 3}}, card)
	if want := `bundle: node 2's id "caf\xe9" is not UTF-8 text, which the card cannot read: convert the data file to UTF-8 (for example with iconv -f latin1 -t utf-8), then train and export again`; err == nil || err.Error() != want {
		t.Errorf("an id not UTF-8: %v\nwant %s", err, want)
	}
}

// AddTwins: the build's twins of a card file are taken as they are; every
// other file gets a .gz that decompresses to it, the same bytes each time.
func TestAddTwins(t *testing.T) {
	files := map[string][]byte{"ilpgnn-card.wasm": []byte("wasm"), "ilpgnn-card.js": []byte("js"), "index.html": []byte("<p>page</p>")}
	built := map[string][]byte{"ilpgnn-card.wasm.br": []byte("br of wasm"), "ilpgnn-card.wasm.gz": []byte("gz of wasm"), "other.br": []byte("not a card file's")}
	if err := AddTwins(files, built); err != nil {
		t.Fatal(err)
	}
	want := []string{"ilpgnn-card.js", "ilpgnn-card.js.gz", "ilpgnn-card.wasm", "ilpgnn-card.wasm.br", "ilpgnn-card.wasm.gz", "index.html", "index.html.gz"}
	if got := slices.Sorted(maps.Keys(files)); !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	if string(files["ilpgnn-card.wasm.br"]) != "br of wasm" || string(files["ilpgnn-card.wasm.gz"]) != "gz of wasm" {
		t.Errorf("the build's twins were not kept")
	}
	for _, name := range []string{"ilpgnn-card.js", "index.html"} {
		r, err := gzip.NewReader(bytes.NewReader(files[name+".gz"]))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, files[name]) {
			t.Errorf("%s.gz holds %q (%v)", name, got, err)
		}
	}
	again := map[string][]byte{"index.html": []byte("<p>page</p>")}
	if err := AddTwins(again, nil); err != nil || !bytes.Equal(again["index.html.gz"], files["index.html.gz"]) {
		t.Errorf("a second export's .gz differs (%v)", err)
	}
}
