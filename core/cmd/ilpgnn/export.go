package main

import (
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"ilpgnn/core/bundle"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
)

// cardFiles are the card's files in the built site's card/ folder, copied
// beside every export.
var cardFiles = []string{"ilpgnn-card.js", "ilpgnn-card.css", "ilpgnn-card.wasm", "wasm_exec.js"}

func cmdExport(args []string, stdout, stderr io.Writer) error {
	flags := newFlags("export", "--checkpoint FILE --data PATH --out DIR [--pairs A,B;C,D] [--nodes A,B,...] [--bundle-only]", stderr)
	ckPath := flags.String("checkpoint", "", "checkpoint written by train --save (required)")
	data := flags.String("data", "", "the dataset the checkpoint was trained on (required)")
	out := flags.String("out", "", "folder to write the card, its bundle and an example page into (required)")
	pairsFlag := flags.String("pairs", "", "pairs the example page shows, `A,B;C,D` (default: the best-connected node and its most likely new link)")
	nodesFlag := flags.String("nodes", "", "explain only pairs among these node ids (and those of --pairs): a smaller bundle for a large graph")
	bundleOnly := flags.Bool("bundle-only", false, "write only the bundle (DIR/NAME/card.bundle), not the card's files and page")
	if err := parse(flags, args); err != nil {
		return err
	}
	if err := required(flags, "checkpoint", "data", "out"); err != nil {
		return err
	}
	pairs, err := parsePairs(*pairsFlag)
	if err != nil {
		return err
	}
	var card fs.FS
	if !*bundleOnly {
		if card, err = builtCard(); err != nil {
			return err
		}
	}
	var picked [][2]int
	var nodes []int
	g, p, err := openModel(*data, *ckPath, func(g *graph.Graph) error {
		for _, pr := range pairs {
			i, err := nodeByID(g, pr[0], "--pairs")
			if err != nil {
				return err
			}
			j, err := nodeByID(g, pr[1], "--pairs")
			if err != nil {
				return err
			}
			picked = append(picked, [2]int{i, j})
		}
		if *nodesFlag == "" {
			return nil
		}
		for id := range strings.SplitSeq(*nodesFlag, ",") {
			i, err := nodeByID(g, strings.TrimSpace(id), "--nodes")
			if err != nil {
				return err
			}
			nodes = append(nodes, i)
		}
		for _, pr := range picked {
			nodes = append(nodes, pr[0], pr[1])
		}
		return nil
	})
	if err != nil {
		return err
	}
	b, err := bundle.New(p, g.Name, fingerprint.Of(g), nodes)
	if err != nil {
		return err
	}
	if len(picked) == 0 {
		pr, err := examplePair(b)
		if err != nil {
			return err
		}
		picked = append(picked, pr)
	}
	raw, err := b.MarshalBinary()
	if err != nil {
		return err
	}
	folder := folderName(g.Name)
	if err := writeFileAtomic(filepath.Join(*out, folder, bundle.CardFile), raw); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%.1f MB: %d nodes, %d explainable)\n",
		filepath.Join(*out, folder, bundle.CardFile), float64(len(raw))/1e6, g.NumNodes(), explainable(b))
	if *bundleOnly {
		return nil
	}
	for _, name := range cardFiles {
		data, err := fs.ReadFile(card, "card/"+name)
		if err != nil {
			return fmt.Errorf("export: the card's %s: %w", name, err)
		}
		if err := writeFileAtomic(filepath.Join(*out, name), data); err != nil {
			return err
		}
	}
	ids := make([][2]string, len(picked))
	for k, pr := range picked {
		ids[k] = [2]string{g.IDs[pr[0]], g.IDs[pr[1]]}
	}
	if err := writeFileAtomic(filepath.Join(*out, "index.html"), []byte(examplePage(g.Name, folder, ids))); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s with %d card(s); serve %s from any static host\n", filepath.Join(*out, "index.html"), len(ids), *out)
	return nil
}

// builtCard returns the built site holding card/, or says how to get one.
func builtCard() (fs.FS, error) {
	site := embeddedSite()
	if _, err := fs.Stat(site, "card/ilpgnn-card.wasm"); err != nil {
		return nil, errors.New("export: this ilpgnn was built without the card's files (build it with `make build`), or give --bundle-only")
	}
	return site, nil
}

// parsePairs reads --pairs: pairs of node ids separated by semicolons.
func parsePairs(s string) ([][2]string, error) {
	var out [][2]string
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for part := range strings.SplitSeq(s, ";") {
		a, b, err := parsePair(part)
		if err != nil {
			return nil, fmt.Errorf("--pairs: %q: %w", part, err)
		}
		out = append(out, [2]string{a, b})
	}
	return out, nil
}

// examplePair is the page's pair when none is given: the explainable node
// with the most neighbours (the first of equals) and its most likely new
// link.
func examplePair(b *bundle.Bundle) ([2]int, error) {
	g := b.Graph()
	best := -1
	for i := range g.NumNodes() {
		if b.CanExplain(i) && (best < 0 || g.Degree(i) > g.Degree(best)) {
			best = i
		}
	}
	if best < 0 {
		return [2]int{}, errors.New("export: no node to explain")
	}
	s, err := b.Suggest(best, 1)
	if err != nil {
		return [2]int{}, err
	}
	if len(s) == 0 {
		return [2]int{}, fmt.Errorf("export: %q has no possible new link to show; give --pairs", g.IDs[best])
	}
	return [2]int{best, s[0].Node}, nil
}

func explainable(b *bundle.Bundle) int {
	if b.Explainable == nil {
		return b.Graph().NumNodes()
	}
	return len(b.Explainable)
}

// folderName is the bundle's folder: the dataset's name with anything but
// letters, digits, '-' and '_' replaced, so that it is a safe URL path.
func folderName(name string) string {
	name = strings.ToLower(filepath.Base(name))
	var sb strings.Builder
	for _, r := range name {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('-')
		}
	}
	if s := strings.Trim(sb.String(), "-"); s != "" {
		return s
	}
	return "graph"
}

// writeFileAtomic writes data to path through a temporary file in the same
// folder, so that an interrupted export leaves the old file whole.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-*")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("export: %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("export: %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// examplePage is the exported folder's index.html: the two lines of the
// embed, shown and used, under the same strict policy as the app.
func examplePage(dataset, folder string, pairs [][2]string) string {
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
