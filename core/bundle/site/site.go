// Package site lays out the folder that `ilpgnn export` writes and the
// app's "Export for a web page" zips: the card's files, the bundle in a
// folder named for the graph, and an example page with one card per pair.
// The command line and the engine share it, so that both give the same
// folder.
package site

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"ilpgnn/core/bundle"
)

// CardFiles are the card's files, as the built site holds them under
// card/ and as the folder holds them at its root.
var CardFiles = []string{"ilpgnn-card.js", "ilpgnn-card.css", "ilpgnn-card.wasm", "wasm_exec.js"}

// Folder is the bundle's folder for a dataset name: the name's last path
// element in lower case with anything but letters, digits, '-' and '_'
// replaced by '-', so that it is a safe URL path; "graph" when nothing is
// left.
func Folder(dataset string) string {
	name := strings.ToLower(path.Base(strings.ReplaceAll(dataset, "\\", "/")))
	var sb strings.Builder
	for _, r := range name {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('-')
		}
	}
	if s := strings.Trim(sb.String(), "-"); s != "" && s != "." {
		return s
	}
	return "graph"
}

// ExamplePair is the page's pair when none is given: the explainable node
// with the most neighbours (the first of equals) and its most likely new
// link, among the nodes whose ids a page can name (Nameable).
func ExamplePair(b *bundle.Bundle) ([2]int, error) {
	g := b.Graph()
	best := -1
	for i := range g.NumNodes() {
		if b.CanExplain(i) && Nameable(g.IDs[i]) == nil && (best < 0 || g.Degree(i) > g.Degree(best)) {
			best = i
		}
	}
	if best < 0 {
		return [2]int{}, errors.New("no node to explain")
	}
	// The likeliest link a page can name: the first that is, of a few
	// (each suggestion is explained, so the few only when the first is not).
	s, err := b.Suggest(best, 1)
	if err == nil && len(s) > 0 && Nameable(s[0].ID) != nil {
		s, err = b.Suggest(best, 10)
	}
	if err != nil {
		return [2]int{}, err
	}
	for _, x := range s {
		if Nameable(x.ID) == nil {
			return [2]int{best, x.Node}, nil
		}
	}
	return [2]int{}, fmt.Errorf("%s has no possible new link to show; name a pair", strconv.Quote(g.IDs[best]))
}

// Nameable says whether a page can name the node id for its card: HTML
// carries any text in an attribute but a NUL (a parser reads it as
// U+FFFD), and the card explains no pair with an empty id.
func Nameable(id string) error {
	switch {
	case id == "":
		return errors.New("the id is empty, and a card cannot be given an empty id")
	case strings.IndexByte(id, 0) >= 0:
		return errors.New("the id holds a NUL character, which HTML cannot carry")
	}
	return nil
}

// Encode returns the bundle's bytes, read back as the card reads them, so
// that no folder is written with a bundle its card refuses.
func Encode(b *bundle.Bundle) ([]byte, error) {
	raw, err := b.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if _, err := bundle.Unmarshal(raw); err != nil {
		return nil, fmt.Errorf("the bundle would not load in the card (%w); please report this", err)
	}
	return raw, nil
}

// Files returns the folder's files by path: the card's (card, by name),
// FOLDER/card.bundle and index.html with a card per pair (node indices;
// ExamplePair's when there are none). A pair must be of explainable nodes
// whose ids the page can name (Nameable); an error names the node by its
// index and its quoted id.
func Files(b *bundle.Bundle, pairs [][2]int, card map[string][]byte) (map[string][]byte, error) {
	raw, err := Encode(b)
	if err != nil {
		return nil, err
	}
	if len(pairs) == 0 {
		pr, err := ExamplePair(b)
		if err != nil {
			return nil, err
		}
		pairs = [][2]int{pr}
	}
	g := b.Graph()
	ids := make([][2]string, len(pairs))
	for k, pr := range pairs {
		for _, i := range pr {
			if !b.CanExplain(i) {
				return nil, fmt.Errorf("node %d is not among the nodes the bundle explains", i)
			}
			if err := Nameable(g.IDs[i]); err != nil {
				return nil, fmt.Errorf("node %d, id %s: %w: choose another pair", i, strconv.Quote(g.IDs[i]), err)
			}
		}
		ids[k] = [2]string{g.IDs[pr[0]], g.IDs[pr[1]]}
	}
	folder := Folder(b.Dataset)
	page, err := Page(b.Dataset, folder, ids)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{
		folder + "/" + bundle.CardFile: raw,
		"index.html":                   []byte(page),
	}
	for _, name := range CardFiles {
		data, ok := card[name]
		if !ok {
			return nil, fmt.Errorf("the card's %s is missing", name)
		}
		out[name] = data
	}
	return out, nil
}

// CardElement is the element that puts the card of pair (node ids) of the
// bundle in folder into a page. Ids without a comma or surrounding space
// go into data-pair="A,B", as a person writes it; others into data-a and
// data-b, which the card prefers and reads exactly, where data-pair's cut
// at the first comma and its trimmed ends would change them. Every value
// is escaped for a double-quoted attribute (escape).
func CardElement(folder string, pair [2]string) string {
	var sb strings.Builder
	sb.WriteString(`<div class="ilpgnn-card" data-src="`)
	sb.WriteString(escape(folder + "/"))
	if plain(pair[0]) && plain(pair[1]) {
		sb.WriteString(`" data-pair="`)
		sb.WriteString(escape(pair[0] + "," + pair[1]))
	} else {
		sb.WriteString(`" data-a="`)
		sb.WriteString(escape(pair[0]))
		sb.WriteString(`" data-b="`)
		sb.WriteString(escape(pair[1]))
	}
	sb.WriteString(`"></div>`)
	return sb.String()
}

// plain says whether id reads back unchanged from data-pair, which the
// card cuts at its first comma and trims as strings.TrimSpace does.
func plain(id string) bool {
	return !strings.Contains(id, ",") && strings.TrimSpace(id) == id
}

// escape writes s as HTML text or a double-quoted attribute value that a
// parser reads back as s exactly (but for a NUL, which HTML cannot carry:
// it is written as U+FFFD, as a parser would read it). The markup
// characters become named references; every other C0 control and DEL
// becomes a numeric one, since a raw CR is read as a line feed and raw
// controls do not survive being copied from the page. C1 controls
// (U+0080-U+009F) stay raw: a numeric reference to one of them is read as
// a Windows-1252 character instead.
func escape(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			sb.WriteString("&amp;")
		case r == '<':
			sb.WriteString("&lt;")
		case r == '>':
			sb.WriteString("&gt;")
		case r == '"':
			sb.WriteString("&quot;")
		case r == '\'':
			sb.WriteString("&#39;")
		case r == 0:
			sb.WriteRune(utf8.RuneError)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&sb, "&#%d;", r)
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// Page is the folder's index.html: a card per pair (node ids, each one
// Nameable), and the two lines of the embed, shown and used, under the
// same strict policy as the app, all in a main landmark. Its icon is empty
// (data:,, an image the policy allows, as the app's does), so that the
// browser asks the host for no favicon.ico, which the folder has not. The embed is HTML with its attributes
// escaped, shown escaped once more, so that the text a reader copies is
// that HTML.
func Page(dataset, folder string, pairs [][2]string) (string, error) {
	if len(pairs) == 0 {
		return "", errors.New("a page needs a pair to show")
	}
	var cards strings.Builder
	for _, pr := range pairs {
		for _, id := range pr {
			if err := Nameable(id); err != nil {
				return "", fmt.Errorf("id %s: %w", strconv.Quote(id), err)
			}
		}
		cards.WriteString(CardElement(folder, pr))
		cards.WriteByte('\n')
	}
	embed := CardElement(folder, pairs[0]) + "\n<script src=\"ilpgnn-card.js\"></script>"
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'">
<meta name="color-scheme" content="light dark">
<title>Why these links? ` + escape(dataset) + ` explained by ILP-GNN</title>
<link rel="icon" href="data:,">
</head>
<body>
<main>
<h1>Why these links?</h1>
<p>Each card below explains a link of ` + escape(dataset) + ` predicted by a trained ILP-GNN model: how likely it is, and which neighbours of each node make it so. It runs in this page; nothing leaves your machine. Type two other node ids, or ask a node for its likely new links.</p>
` + cards.String() + `<h2>Put a card in your own page</h2>
<p>Copy this folder to any static host, then add:</p>
<pre><code>` + escape(embed) + `</code></pre>
</main>
<script src="ilpgnn-card.js"></script>
</body>
</html>
`, nil
}

// TwinNames are the names of the card's precompressed twins, NAME.br and
// NAME.gz of each of CardFiles, as a build makes them.
func TwinNames() []string {
	var out []string
	for _, name := range CardFiles {
		out = append(out, name+".br", name+".gz")
	}
	return out
}

// AddTwins adds to a folder's files the precompressed twins a static host
// serves in place of a file to a client that accepts them: the card's
// twins from built (by TwinNames' names, those it has), and NAME.gz of
// every other file (the bundle, the page, and card files built has no .gz
// of). A host that does not negotiate serves the files themselves.
func AddTwins(files map[string][]byte, built map[string][]byte) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if slices.Contains(CardFiles, name) {
			for _, ext := range []string{".br", ".gz"} {
				if twin, ok := built[name+ext]; ok {
					files[name+ext] = twin
				}
			}
		}
		if _, ok := files[name+".gz"]; ok {
			continue
		}
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression) // no name, no time: the same bytes every export
		if err != nil {
			return err
		}
		if _, err := zw.Write(files[name]); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		files[name+".gz"] = buf.Bytes()
	}
	return nil
}
