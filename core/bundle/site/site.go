// Package site lays out the folder that `ilpgnn export` writes and the
// app's "Export for a web page" zips: the card's files, the bundle in a
// folder named for the graph, and an example page with one card per pair.
// The command line and the engine share it, so that both give the same
// folder.
package site

import (
	"errors"
	"fmt"
	"html"
	"path"
	"strings"

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
// link.
func ExamplePair(b *bundle.Bundle) ([2]int, error) {
	g := b.Graph()
	best := -1
	for i := range g.NumNodes() {
		if b.CanExplain(i) && (best < 0 || g.Degree(i) > g.Degree(best)) {
			best = i
		}
	}
	if best < 0 {
		return [2]int{}, errors.New("no node to explain")
	}
	s, err := b.Suggest(best, 1)
	if err != nil {
		return [2]int{}, err
	}
	if len(s) == 0 {
		return [2]int{}, fmt.Errorf("%q has no possible new link to show; name a pair", g.IDs[best])
	}
	return [2]int{best, s[0].Node}, nil
}

// Files returns the folder's files by path: the card's (card, by name),
// FOLDER/card.bundle and index.html with a card per pair (node indices;
// ExamplePair's when there are none).
func Files(b *bundle.Bundle, pairs [][2]int, card map[string][]byte) (map[string][]byte, error) {
	raw, err := b.MarshalBinary()
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
		}
		ids[k] = [2]string{g.IDs[pr[0]], g.IDs[pr[1]]}
	}
	folder := Folder(b.Dataset)
	out := map[string][]byte{
		folder + "/" + bundle.CardFile: raw,
		"index.html":                   []byte(Page(b.Dataset, folder, ids)),
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

// Page is the folder's index.html: the cards of pairs (node ids), and the
// two lines of the embed, shown and used, under the same strict policy as
// the app.
func Page(dataset, folder string, pairs [][2]string) string {
	var cards strings.Builder
	for _, pr := range pairs {
		fmt.Fprintf(&cards, "<div class=\"ilpgnn-card\" data-src=\"%s/\" data-pair=\"%s,%s\"></div>\n",
			html.EscapeString(folder), html.EscapeString(pr[0]), html.EscapeString(pr[1]))
	}
	embed := fmt.Sprintf("<div class=\"ilpgnn-card\" data-src=\"%s/\" data-pair=\"%s,%s\"></div>\n<script src=\"ilpgnn-card.js\"></script>",
		folder, pairs[0][0], pairs[0][1])
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'">
<meta name="color-scheme" content="light dark">
<title>Why these links? ` + html.EscapeString(dataset) + ` explained by ILP-GNN</title>
</head>
<body>
<h1>Why these links?</h1>
<p>Each card below explains a link of ` + html.EscapeString(dataset) + ` predicted by a trained ILP-GNN model: how likely it is, and which neighbours of each node make it so. It runs in this page; nothing leaves your machine. Type two other node ids, or ask a node for its likely new links.</p>
` + cards.String() + `<h2>Put a card in your own page</h2>
<p>Copy this folder to any static host, then add:</p>
<pre><code>` + html.EscapeString(embed) + `</code></pre>
<script src="ilpgnn-card.js"></script>
</body>
</html>
`
}
