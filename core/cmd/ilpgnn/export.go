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
	var built fs.FS
	if !*bundleOnly {
		if built, err = builtCard(); err != nil {
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
		raw, err := b.MarshalBinary()
		if err != nil {
			return err
		}
		files = map[string][]byte{bundleAt: raw}
	} else if files, err = site.Files(b, picked, card); err != nil {
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

// builtCard returns the built site holding card/, or says how to get one.
func builtCard() (fs.FS, error) {
	fsys := embeddedSite()
	if _, err := fs.Stat(fsys, "card/ilpgnn-card.wasm"); err != nil {
		return nil, errors.New("export: this ilpgnn was built without the card's files (build it with `make build`), or give --bundle-only")
	}
	return fsys, nil
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
