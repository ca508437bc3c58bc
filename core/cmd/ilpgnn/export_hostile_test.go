package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"ilpgnn/core/bundle"
	"ilpgnn/core/bundle/site"
	"ilpgnn/core/graph"
	"ilpgnn/wasm/card/view"
)

// hostileIDsFile holds node names a user's file may hold (event handlers,
// markup that closes the snippet's <code>, scripts, quotes, ampersands,
// commas, entities, line breaks, controls, surrounding spaces), shared
// with core/bundle/site's tests and the card's browser test.
const hostileIDsFile = "../../bundle/site/testdata/hostile-ids.json"

// readHostileIDs reads hostileIDsFile.
func readHostileIDs(t *testing.T) []string {
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

// hostileGraph writes an npz of 40 nodes whose names begin with names
// (then "n15".."n39"): a ring with chords, "hub,1" joined to a third of
// the graph so that it is the page's default node, and random features.
// names is written as numpy bytes ('S') when bytesNames, else as UTF-32.
func hostileGraph(t *testing.T, path string, names []string, bytesNames bool) {
	t.Helper()
	const n, d = 40, 6
	names = slices.Clone(names)
	for i := len(names); i < n; i++ {
		names = append(names, fmt.Sprintf("n%d", i))
	}
	hub := slices.Index(names, "hub,1")
	adj := make([][]int64, n)
	link := func(u, v int) {
		if u != v && !slices.Contains(adj[u], int64(v)) {
			adj[u] = append(adj[u], int64(v))
			adj[v] = append(adj[v], int64(u))
		}
	}
	for i := range n {
		link(i, (i+1)%n)
		if i%3 == 0 {
			link(i, (i+7)%n)
		}
		if hub >= 0 && i%3 == 1 {
			link(hub, i)
		}
	}
	var indptr, indices []int64
	indptr = append(indptr, 0)
	for i := range n {
		slices.Sort(adj[i])
		indices = append(indices, adj[i]...)
		indptr = append(indptr, int64(len(indices)))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, n*d)
	for k := range x {
		x[k] = rng.Float32()
	}
	var nameArr []byte
	var descr string
	if bytesNames {
		w := 0
		for _, s := range names {
			w = max(w, len(s))
		}
		nameArr = make([]byte, w*n)
		for i, s := range names {
			copy(nameArr[i*w:], s)
		}
		descr = fmt.Sprintf("|S%d", w)
	} else {
		w := 0
		for _, s := range names {
			w = max(w, len([]rune(s)))
		}
		nameArr = make([]byte, 4*w*n)
		for i, s := range names {
			for k, r := range []rune(s) {
				binary.LittleEndian.PutUint32(nameArr[4*(w*i+k):], uint32(r))
			}
		}
		descr = fmt.Sprintf("<U%d", w)
	}
	le64 := func(v []int64) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
		return b
	}
	var xb []byte
	for _, v := range x {
		xb = binary.LittleEndian.AppendUint32(xb, math.Float32bits(v))
	}
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, m := range []struct {
		name, descr string
		shape       []int
		data        []byte
	}{
		{"adj_indptr", "<i8", []int{n + 1}, le64(indptr)},
		{"adj_indices", "<i8", []int{len(indices)}, le64(indices)},
		{"adj_shape", "<i8", []int{2}, le64([]int64{n, n})},
		{"attr_matrix", "<f4", []int{n, d}, xb},
		{"node_names", descr, []int{n}, nameArr},
	} {
		w, err := z.CreateHeader(&zip.FileHeader{Name: m.name + ".npy", Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(npy(m.descr, m.shape, m.data))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// npy is a version 1.0 .npy file: the magic, the header dict padded with
// spaces to a multiple of 64 bytes, then the data.
func npy(descr string, shape []int, data []byte) []byte {
	dims := ""
	for _, v := range shape {
		dims += fmt.Sprintf("%d, ", v)
	}
	if len(shape) > 1 {
		dims = strings.TrimSuffix(dims, ", ")
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, strings.TrimSuffix(dims, " "))
	for (10+len(header)+1)%64 != 0 {
		header += " "
	}
	header += "\n"
	out := []byte("\x93NUMPY\x01\x00")
	out = binary.LittleEndian.AppendUint16(out, uint16(len(header)))
	out = append(out, header...)
	return append(out, data...)
}

// withCard makes export find fake card files, as TestExport does.
func withCard(t *testing.T) {
	built := fstest.MapFS{}
	for _, name := range site.CardFiles {
		built["card/"+name] = &fstest.MapFile{Data: []byte("the card's " + name)}
	}
	saved := embeddedSite
	embeddedSite = func() fs.FS { return built }
	t.Cleanup(func() { embeddedSite = saved })
}

// TestExportHostileNames: a page exported for a graph whose node names
// are hostile, and its embed snippet pasted into another page, parse (with
// a real HTML parser) into no event-handler attribute, no element or
// script but the page's own, and cards that name exactly the pairs asked
// for, read as the card reads them (view.Pair). The pairs come from
// --pairs (ids with commas among them), from the default pair (the
// best-connected node is "hub,1") and, for the ids --pairs cannot carry
// (';' separates pairs, surrounding spaces are trimmed), from site.Files
// on the exported bundle.
func TestExportHostileNames(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "hostile.npz")
	hostileIDs := readHostileIDs(t)
	hostileGraph(t, data, hostileIDs, false)
	ck := filepath.Join(dir, "model.ckpt")
	if code, _, stderr := cli(t, "train", "--data", data, "--seeds", "0", "--epochs", "3", "--hidden", "8", "--save", ck); code != 0 {
		t.Fatalf("train: %s", stderr)
	}
	withCard(t)

	// --pairs: every pair text as a user types it.
	pairs := [][2]string{
		{hostileIDs[0], hostileIDs[1]},
		{"hub,1", `a,b "c"`},
		{hostileIDs[2], hostileIDs[3]},
		{"line\nbreak", "tab\there \x01\x1f\x7f"},
		{"c1 \u0080\u0085\u009f", "--><!-- <!--"},
		{"javascript:alert(5)", "n20"},
	}
	var typed []string
	for _, pr := range pairs {
		typed = append(typed, pr[0]+","+pr[1])
	}
	out := filepath.Join(dir, "out")
	if code, _, stderr := cli(t, "export", "--checkpoint", ck, "--data", data, "--out", out, "--pairs", strings.Join(typed, ";")); code != 0 {
		t.Fatalf("export --pairs: exit %d: %s", code, stderr)
	}
	checkPage(t, readFile(t, filepath.Join(out, "index.html")), "hostile", pairs)

	// The default pair: "hub,1" and its most likely new link, which
	// `ilpgnn suggest` names independently.
	def := filepath.Join(dir, "default")
	if code, _, stderr := cli(t, "export", "--checkpoint", ck, "--data", data, "--out", def); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	_, sj, stderr := cli(t, "suggest", "--checkpoint", ck, "--data", data, "--node", "hub,1", "--top", "1", "--json")
	var sugg []struct{ ID string }
	if err := json.Unmarshal([]byte(sj), &sugg); err != nil || len(sugg) != 1 {
		t.Fatalf("suggest: %v: %s %s", err, sj, stderr)
	}
	checkPage(t, readFile(t, filepath.Join(def, "index.html")), "hostile", [][2]string{{"hub,1", sugg[0].ID}})

	// Every hostile id, paired with the next, through site.Files on the
	// bundle export wrote, read back as the card reads it.
	b, err := bundle.Unmarshal([]byte(readFile(t, filepath.Join(out, "hostile", bundle.CardFile))))
	if err != nil {
		t.Fatal(err)
	}
	var idx [][2]int
	pairs = nil
	for k := range hostileIDs {
		a, c := hostileIDs[k], hostileIDs[(k+1)%len(hostileIDs)]
		i, errA := b.Node(a)
		j, errB := b.Node(c)
		if errA != nil || errB != nil {
			t.Fatalf("the bundle lacks %q or %q: %v %v", a, c, errA, errB)
		}
		idx = append(idx, [2]int{i, j})
		pairs = append(pairs, [2]string{a, c})
	}
	card := map[string][]byte{}
	for _, name := range site.CardFiles {
		card[name] = []byte{}
	}
	files, err := site.Files(b, idx, card)
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, string(files["index.html"]), "hostile", pairs)
}

// checkPage parses page as a browser would and checks it: no attribute
// named on*, only the page's own elements and its one script (the
// card's), the dataset named in the title, one card per pair naming it
// exactly, and a snippet whose text, parsed as a paste into a page's body,
// is the first card and the script, again without handlers.
func checkPage(t *testing.T, page, dataset string, pairs [][2]string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	allowed := []string{"html", "head", "meta", "title", "link", "body", "main", "h1", "h2", "p", "div", "pre", "code", "script"}
	checkTree(t, "the page", doc, allowed)
	// The one link is the empty icon, which asks the host for nothing.
	if links := elements(doc, "link"); len(links) != 1 || attr(links[0], "rel") != "icon" || attr(links[0], "href") != "data:," || len(links[0].Attr) != 2 {
		t.Errorf("the page's links: %d, want the empty icon alone", len(links))
	}
	if scripts := elements(doc, "script"); len(scripts) != 1 {
		t.Errorf("the page has %d scripts, want the card's alone", len(scripts))
	}
	if got, want := textOf(elements(doc, "title")[0]), "Why these links? "+dataset+" explained by ILP-GNN"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	var cards []*html.Node
	for _, div := range elements(doc, "div") {
		if attr(div, "class") == "ilpgnn-card" {
			cards = append(cards, div)
		}
	}
	if len(cards) != len(pairs) {
		t.Fatalf("%d cards, want %d", len(cards), len(pairs))
	}
	for k, c := range cards {
		checkCard(t, fmt.Sprintf("card %d", k), c, dataset, pairs[k])
	}

	codes := elements(doc, "code")
	if len(codes) != 1 {
		t.Fatalf("%d <code> elements, want the snippet's", len(codes))
	}
	snippet := textOf(codes[0])
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	pasted, err := html.ParseFragment(strings.NewReader(snippet), body)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, n := range pasted {
		checkTree(t, "the pasted snippet", n, []string{"div", "script"})
		switch n.Type {
		case html.ElementNode:
			kinds = append(kinds, n.Data)
		case html.TextNode:
			if strings.TrimSpace(n.Data) != "" {
				kinds = append(kinds, "text "+n.Data)
			}
		}
	}
	if !slices.Equal(kinds, []string{"div", "script"}) || len(pasted) != 3 {
		t.Fatalf("the pasted snippet parses as %q:\n%s", kinds, snippet)
	}
	checkCard(t, "the pasted card", pasted[0], dataset, pairs[0])
	if s := pasted[2]; attr(s, "src") != "ilpgnn-card.js" || s.FirstChild != nil || len(s.Attr) != 1 {
		t.Errorf("the pasted script: %+v", s.Attr)
	}
}

// checkTree fails for an element that is not in allowed or that has an
// attribute named on* (the parser gives names in lower case).
func checkTree(t *testing.T, what string, n *html.Node, allowed []string) {
	t.Helper()
	if n.Type == html.ElementNode {
		if !slices.Contains(allowed, n.Data) {
			t.Errorf("%s holds a <%s> element", what, n.Data)
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("%s: <%s> has the attribute %s=%q", what, n.Data, a.Key, a.Val)
			}
		}
	}
	if n.Type == html.CommentNode {
		t.Errorf("%s holds a comment %q", what, n.Data)
	}
	for c := range n.ChildNodes() {
		checkTree(t, what, c, allowed)
	}
}

// checkCard checks that a card element names the dataset's folder and
// pair exactly, read as the card reads it, with no other attribute.
func checkCard(t *testing.T, what string, div *html.Node, dataset string, pair [2]string) {
	t.Helper()
	a, b := view.Pair(func(name string) (string, bool) {
		for _, x := range div.Attr {
			if x.Key == name {
				return x.Val, true
			}
		}
		return "", false
	})
	if a != pair[0] || b != pair[1] {
		t.Errorf("%s names (%q, %q), want (%q, %q)", what, a, b, pair[0], pair[1])
	}
	if src := attr(div, "data-src"); src != dataset+"/" {
		t.Errorf("%s: data-src %q", what, src)
	}
	for _, x := range div.Attr {
		if !slices.Contains([]string{"class", "data-src", "data-pair", "data-a", "data-b"}, x.Key) {
			t.Errorf("%s has the attribute %s=%q", what, x.Key, x.Val)
		}
	}
	if div.FirstChild != nil {
		t.Errorf("%s has contents", what)
	}
}

func elements(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Data == tag {
			out = append(out, d)
		}
	}
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var sb strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			sb.WriteString(d.Data)
		}
	}
	return sb.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// An id that is not UTF-8 (a Latin-1 file's bytes) is refused by export,
// naming the node, before anything is written; the rest of the graph
// trains as usual.
func TestExportRefusesIDsNotUTF8(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "latin1.npz")
	hostileGraph(t, data, []string{"n0", "n1", "caf\xe9", "hub,1", "na\xefve"}, true)
	ck := filepath.Join(dir, "model.ckpt")
	if code, _, stderr := cli(t, "train", "--data", data, "--seeds", "0", "--epochs", "2", "--hidden", "8", "--save", ck); code != 0 {
		t.Fatalf("train: %s", stderr)
	}
	withCard(t)
	want := `export: bundle: node 2's id "caf\xe9" (and 1 more ids) is not UTF-8 text, which the card cannot read: convert the data file to UTF-8 (for example with iconv -f latin1 -t utf-8), then train and export again`
	for _, extra := range [][]string{nil, {"--bundle-only"}, {"--pairs", "n0,n1"}} {
		out := filepath.Join(dir, "out")
		args := append([]string{"export", "--checkpoint", ck, "--data", data, "--out", out}, extra...)
		code, _, stderr := cli(t, args...)
		if code != 1 || !strings.Contains(stderr, "error: "+want+"\n") {
			t.Errorf("%v: exit %d, %q\nwant %s", extra, code, stderr, want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: a refused export wrote %s (%v)", extra, out, err)
		}
	}
}

// --pairs with ids that hold commas: the one cut that names two nodes,
// and a message when none does, when several do or when both sides are
// the same node.
func TestResolvePair(t *testing.T) {
	g, err := graph.New(6, nil, nil, []string{"a", "a,b", "b", "b,c", "c", "hub,1"})
	if err != nil {
		t.Fatal(err)
	}
	g.Name = "g"
	for _, c := range []struct {
		part string
		want [2]int
		err  string
	}{
		{part: "a,b", want: [2]int{0, 2}},
		{part: " hub,1 , c ", want: [2]int{5, 4}},
		{part: "a,b,hub,1", want: [2]int{1, 5}},
		{part: "a,nope", err: `--pairs: no node with id "nope" in g`},
		{part: "a,b,x", err: `--pairs: "a,b,x": no cut at a comma leaves two node ids of g`},
		{part: "a,b,c", err: `--pairs: "a,b,c" names two nodes in 2 ways ("a" and "b,c"; "a,b" and "c"): leave it out and type the pair into the card`},
		{part: "a,b,a,b", err: `--pairs: "a,b,a,b" names node "a,b" twice: a link joins two different nodes`},
	} {
		got, err := resolvePair(g, c.part)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%q: %v, want %s", c.part, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%q: %v, %v; want %v", c.part, got, err, c.want)
		}
	}
}
