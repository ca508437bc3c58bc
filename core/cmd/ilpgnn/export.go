package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"ilpgnn/core/bundle"
	"ilpgnn/core/bundle/site"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
)

func cmdExport(args []string, stdout, stderr io.Writer) error {
	flags := newFlags("export", "--checkpoint FILE --data PATH --out DIR [--pairs A,B;C,D] [--nodes A,B,...] [--bundle-only]", stderr)
	ckPath := flags.String("checkpoint", "", "checkpoint written by train --save (required)")
	data := flags.String("data", "", "the dataset the checkpoint was trained on (required)")
	out := flags.String("out", "", "folder to write the card, its bundle and an example page into (required)")
	pairsFlag := flags.String("pairs", "", "the `PAIRS` the example page shows, as A,B;C,D (an id may hold commas where one cut alone names two nodes); default: the best-connected node and its most likely new link")
	nodesFlag := flags.String("nodes", "", "explain only pairs among these node ids (and those of --pairs): a smaller bundle for a large graph")
	bundleOnly := flags.Bool("bundle-only", false, "write only the bundle (DIR/NAME/card.bundle and its .gz twin), not the card's files and page")
	if err := parse(flags, args); err != nil {
		return err
	}
	if err := required(flags, "checkpoint", "data", "out"); err != nil {
		return err
	}
	if err := checkOutFolder("export", *out); err != nil {
		return err
	}
	pairs, err := parsePairs(*pairsFlag)
	if err != nil {
		return err
	}
	var built fs.FS
	if !*bundleOnly {
		if built, err = builtCard(); err != nil {
			return err
		}
	}
	var picked [][2]int
	var nodes []int
	g, p, err := openModel(*data, *ckPath, func(g *graph.Graph) error {
		for _, part := range pairs {
			pr, err := resolvePair(g, part)
			if err != nil {
				return err
			}
			picked = append(picked, pr)
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
	card := map[string][]byte{}
	if !*bundleOnly {
		for _, name := range site.CardFiles {
			if card[name], err = fs.ReadFile(built, "card/"+name); err != nil {
				return fmt.Errorf("export: the card's %s: %w", name, err)
			}
		}
	}
	bundleAt := site.Folder(b.Dataset) + "/" + bundle.CardFile
	var files map[string][]byte
	if *bundleOnly {
		raw, err := site.Encode(b)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		// With its .gz twin: the card reads the twin from hosts that do not
		// compress, so an old one beside the new bundle would be shown.
		files = map[string][]byte{bundleAt: raw}
		if err = site.AddTwins(files, nil); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	} else if files, err = site.Files(b, picked, card); err != nil {
		return fmt.Errorf("export: %w", err)
	} else if err = site.AddTwins(files, builtTwins(built)); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		if err := writeFileAtomic(filepath.Join(*out, filepath.FromSlash(name)), files[name]); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %s (%.1f MB: %d nodes, %d explainable)\n",
		filepath.Join(*out, filepath.FromSlash(bundleAt)), float64(len(files[bundleAt]))/1e6, g.NumNodes(), explainable(b))
	if !*bundleOnly {
		fmt.Fprintf(stdout, "wrote the card and %s; serve %s from any static host\n", filepath.Join(*out, "index.html"), *out)
	}
	return nil
}

// builtTwins are the .br and .gz twins of the card's files the build
// made (under card/ in built).
func builtTwins(built fs.FS) map[string][]byte {
	twins := map[string][]byte{}
	for _, name := range site.TwinNames() {
		if data, err := fs.ReadFile(built, "card/"+name); err == nil {
			twins[name] = data
		}
	}
	return twins
}

// builtCard returns the built site holding card/, or says how to get one.
func builtCard() (fs.FS, error) {
	fsys := embeddedSite()
	if _, err := fs.Stat(fsys, "card/ilpgnn-card.wasm"); err != nil {
		return nil, errors.New("export: this ilpgnn was built without the card's files (build it with `make build`), or give --bundle-only")
	}
	return fsys, nil
}

// parsePairs reads --pairs: pairs of node ids separated by semicolons,
// each as typed (resolvePair finds its nodes once the graph is read).
func parsePairs(s string) ([]string, error) {
	var out []string
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for part := range strings.SplitSeq(s, ";") {
		if strings.Count(part, ",") <= 1 {
			if _, _, err := parsePair(part); err != nil {
				return nil, fmt.Errorf("--pairs: %q: %w", part, err)
			}
		}
		out = append(out, part)
	}
	return out, nil
}

// resolvePair finds the nodes of one pair of --pairs. Ids may themselves
// hold commas ("hub,1,0" is hub,1 and 0): the text is cut at the one comma
// that leaves two node ids of g, and refused when no cut or several do.
func resolvePair(g *graph.Graph, part string) ([2]int, error) {
	if strings.Count(part, ",") == 1 {
		a, b, err := parsePair(part)
		if err != nil {
			return [2]int{}, fmt.Errorf("--pairs: %q: %w", part, err)
		}
		i, err := nodeByID(g, a, "--pairs")
		if err != nil {
			return [2]int{}, err
		}
		j, err := nodeByID(g, b, "--pairs")
		if err != nil {
			return [2]int{}, err
		}
		return [2]int{i, j}, nil
	}
	var found [][2]int
	var cuts []string
	for k, r := range part {
		if r != ',' {
			continue
		}
		a, b := strings.TrimSpace(part[:k]), strings.TrimSpace(part[k+1:])
		i, okA := g.NodeIndex(a)
		j, okB := g.NodeIndex(b)
		if okA && okB {
			found = append(found, [2]int{i, j})
			cuts = append(cuts, strconv.Quote(a)+" and "+strconv.Quote(b))
		}
	}
	switch {
	case len(found) == 0:
		return [2]int{}, fmt.Errorf("--pairs: %q: no cut at a comma leaves two node ids of %s", part, g.Name)
	case len(found) > 1:
		return [2]int{}, fmt.Errorf("--pairs: %q names two nodes in %d ways (%s): leave it out and type the pair into the card", part, len(found), strings.Join(cuts, "; "))
	case found[0][0] == found[0][1]:
		return [2]int{}, fmt.Errorf("--pairs: %q names node %s twice: a link joins two different nodes", part, strconv.Quote(g.IDs[found[0][0]]))
	}
	return found[0], nil
}

func explainable(b *bundle.Bundle) int {
	if b.Explainable == nil {
		return b.Graph().NumNodes()
	}
	return len(b.Explainable)
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
