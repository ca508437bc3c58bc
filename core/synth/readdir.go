package synth

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/load"
)

// ReadDir reads a dataset written by WriteDir from dir: the graph from
// edges.csv and features.csv with the edge-list loader (as load.Path reads
// the directory, but from these two files only, so that another graph file
// beside them, an .npz say, is not picked instead), and the explained links
// from groundtruth.csv (see ReadGroundtruth). Base is every edge of
// the graph that is not a link, in d.Graph.Edges() order; Links keep the
// file's order.
//
// Nodes are numbered in features.csv order, which is the written graph's
// node order, so a dataset read back has the same node indices, and the
// same splits and negatives, as the one written. (The edge-list loader
// numbers nodes in the order of their ids, load.CompareIDs, which is the
// written order for the ids "0".."N-1" of a generated graph but not in
// general: ReadDir renumbers them.) Nodes missing from
// features.csv, which WriteDir never leaves out, follow in loader order.
//
// The graph is named after dir; labels and class names are not stored, so
// they are nil. Every problem with the data is a *load.Error naming the
// file and, for text, the line.
func ReadDir(dir string) (*Dataset, error) {
	files := map[string][]byte{}
	paths := map[string]string{}
	for _, name := range []string{EdgesFile, FeaturesFile, GroundtruthFile} {
		path := filepath.Join(dir, name)
		b, err := load.ReadFile(path) // refuses pipes and devices
		if err != nil {
			return nil, fmt.Errorf("synth: reading dataset: %w", err)
		}
		files[name], paths[name] = b, path
	}
	return read(filepath.Base(filepath.Clean(dir)), files, paths)
}

// ReadFiles is ReadDir for a dataset already in memory (in the browser,
// the files the user dropped), keyed by file name: edges.csv, features.csv
// and groundtruth.csv. Errors name the files by those keys.
func ReadFiles(name string, files map[string][]byte) (*Dataset, error) {
	paths := map[string]string{}
	for _, f := range []string{EdgesFile, FeaturesFile, GroundtruthFile} {
		if _, ok := files[f]; !ok {
			return nil, fmt.Errorf("synth: reading dataset: %w", &load.Error{File: f, Err: errors.New("missing: a synthetic dataset has edges.csv, features.csv and groundtruth.csv")})
		}
		paths[f] = f
	}
	return read(name, files, paths)
}

// read parses a dataset's three files, naming them by paths in errors.
func read(name string, files map[string][]byte, paths map[string]string) (*Dataset, error) {
	feats := files[FeaturesFile]
	g, err := load.EdgeListReaders(name, bytes.NewReader(files[EdgesFile]), paths[EdgesFile], bytes.NewReader(feats), paths[FeaturesFile])
	if err != nil {
		return nil, fmt.Errorf("synth: reading dataset: %w", err)
	}
	if g, err = inFeatureOrder(g, feats); err != nil {
		return nil, fmt.Errorf("synth: reading dataset: %w", &load.Error{File: paths[FeaturesFile], Err: err})
	}

	links, err := ReadGroundtruth(bytes.NewReader(files[GroundtruthFile]), paths[GroundtruthFile], g)
	if err != nil {
		return nil, fmt.Errorf("synth: reading dataset: %w", err)
	}
	linked := make(map[graph.Edge]bool, len(links))
	for _, l := range links {
		linked[l.Edge] = true
	}
	all := g.Edges()
	base := make([]graph.Edge, 0, len(all)-len(links))
	for _, e := range all {
		if !linked[e] {
			base = append(base, e)
		}
	}
	return &Dataset{Graph: g, Base: base, Links: links}, nil
}

// inFeatureOrder returns g renumbered so that its nodes come in the order
// of the data lines of feats, the features file g was loaded with (nodes
// without a line last, in g's order); g itself when that is its order.
// feats has passed the edge-list loader; load.FeatureRowIDs reads its id
// column by the loader's rules.
func inFeatureOrder(g *graph.Graph, feats []byte) (*graph.Graph, error) {
	n := g.NumNodes()
	order := make([]int32, 0, n) // new node -> node of g
	placed := make([]bool, n)
	ids, err := load.FeatureRowIDs(bytes.NewReader(feats), "features")
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		i, ok := g.NodeIndex(id)
		if !ok || placed[i] {
			// The loader has just accepted this file, so it changed
			// under us.
			return nil, fmt.Errorf("node %q: the file changed while it was read", id)
		}
		placed[i] = true
		order = append(order, int32(i))
	}
	for i := range int32(n) {
		if !placed[i] {
			order = append(order, i)
		}
	}
	identity := true
	for k, i := range order {
		identity = identity && int32(k) == i
	}
	if identity {
		return g, nil
	}
	return renumber(g, order)
}

// renumber returns g with node k of the result being node order[k] of g (a
// permutation): edges, feature rows and ids follow; labels and
// MissingFeatures (in the new node order) too when set.
func renumber(g *graph.Graph, order []int32) (*graph.Graph, error) {
	n := g.NumNodes()
	newOf := make([]int32, n)
	for k, i := range order {
		newOf[i] = int32(k)
	}
	edges := g.Edges()
	for k, e := range edges {
		edges[k] = graph.Edge{U: newOf[e.U], V: newOf[e.V]}
	}
	x := g.Features
	y := &f32.CSR{Rows: n, Cols: x.Cols, Indptr: make([]int32, n+1),
		Indices: make([]int32, 0, x.NNZ()), Values: make([]float32, 0, x.NNZ())}
	ids := make([]string, n)
	for k, i := range order {
		idx, val := x.Row(int(i))
		y.Indices = append(y.Indices, idx...)
		y.Values = append(y.Values, val...)
		y.Indptr[k+1] = int32(len(y.Indices))
		ids[k] = g.IDs[i]
	}
	h, err := graph.New(n, edges, y, ids)
	if err != nil {
		return nil, err // cannot happen: a permutation of a valid graph
	}
	h.Name, h.ClassNames = g.Name, g.ClassNames
	if len(g.MissingFeatures) > 0 {
		missing := make(map[string]bool, len(g.MissingFeatures))
		for _, id := range g.MissingFeatures {
			missing[id] = true
		}
		for _, id := range ids {
			if missing[id] {
				h.MissingFeatures = append(h.MissingFeatures, id)
			}
		}
	}
	if g.Labels != nil {
		h.Labels = make([]int32, n)
		for k, i := range order {
			h.Labels[k] = g.Labels[i]
		}
	}
	return h, nil
}
