package synth

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ilpgnn/core/atomicfile"
	"ilpgnn/core/graph"
)

// The files of a dataset directory (see WriteDir).
const (
	EdgesFile       = "edges.csv"
	FeaturesFile    = "features.csv"
	GroundtruthFile = "groundtruth.csv"
)

// WriteDir writes d to the directory dir, creating it if needed, as three
// comma-separated files that load.Path reads as an edge list with features:
//
//   - edges.csv: the header "source,target", then one line "<u>,<v>" per
//     undirected edge of d.Graph (u < v as nodes, in d.Graph.Edges() order);
//   - features.csv: the header "node,f0,...,f{D-1}", then one line per node
//     in node order: its id and its D feature values, dense (zeros written
//     as 0), each formatted to parse back to the same float32;
//   - groundtruth.csv: the header GroundtruthHeader, then one line per link
//     of d.Links in order: "<u>,<v>,<role>,<why u>,<why v>", where the why
//     lists are node ids separated by single spaces.
//
// Nodes are written by their ids, d.Graph.IDs. The formats have no quoting,
// so WriteDir returns an error, and writes nothing, when an id is empty,
// holds a comma or white space, or starts with '#' or '%' (a comment to the
// loaders). It also refuses what the files cannot hold or load.Path would
// reject: a graph without edges or features, a non-finite feature value, no
// links, and links or groundtruth nodes outside the graph. Labels and class
// names are not written.
//
// Each file is written to a temporary file in dir and renamed into place,
// so a reader never sees half a file.
func (d *Dataset) WriteDir(dir string) error {
	if err := d.checkWritable(); err != nil {
		return fmt.Errorf("synth: writing %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("synth: writing dataset: %w", err)
	}
	for _, f := range []struct {
		name  string
		write func(w *bufio.Writer)
	}{
		{EdgesFile, d.writeEdges},
		{FeaturesFile, d.writeFeatures},
		{GroundtruthFile, d.writeGroundtruth},
	} {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return fmt.Errorf("synth: %w", err)
		}
	}
	return nil
}

// nodeID returns the id of node i as written to disk: g.IDs[i], or the
// decimal index when the graph has no ids (as graph.New names nodes).
func nodeID(g *graph.Graph, i int32) string {
	if len(g.IDs) == g.NumNodes() {
		return g.IDs[i]
	}
	return strconv.Itoa(int(i))
}

// checkFileID reports why id cannot be written to the dataset files, or
// nil. The loaders split on commas, trim white space (Unicode's, through
// bytes.TrimSpace) and skip lines starting with '#' or '%'; the why lists
// are split on white space.
func checkFileID(id string) error {
	switch {
	case id == "":
		return errors.New("empty node id")
	case id[0] == '#' || id[0] == '%':
		return fmt.Errorf("node id %q starts with %q, which marks a comment", id, id[0])
	case strings.ContainsRune(id, ','):
		return fmt.Errorf("node id %q contains a comma", id)
	case strings.ContainsFunc(id, unicode.IsSpace):
		return fmt.Errorf("node id %q contains white space", id)
	case !utf8.ValidString(id):
		// Not a problem for the loaders, but white space could hide in
		// what a reader decodes differently; refuse rather than guess.
		return fmt.Errorf("node id %q is not valid UTF-8", id)
	}
	return nil
}

// checkWritable reports the first reason d cannot be written to, or read
// back from, the dataset files.
func (d *Dataset) checkWritable() error {
	g := d.Graph
	if g == nil {
		return errors.New("dataset has no graph")
	}
	n := g.NumNodes()
	if g.IDs != nil && len(g.IDs) != n {
		return fmt.Errorf("graph has %d ids for %d nodes", len(g.IDs), n)
	}
	for i := range int32(n) {
		if err := checkFileID(nodeID(g, i)); err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	if g.NumEdges() == 0 {
		return errors.New("graph has no edges; an edge list cannot hold it")
	}
	x := g.Features
	if x == nil || x.Cols == 0 {
		return errors.New("graph has no features; features.csv cannot hold it")
	}
	if x.Rows != n {
		return fmt.Errorf("features have %d rows for %d nodes", x.Rows, n)
	}
	if err := x.Validate(); err != nil {
		return err
	}
	for k, v := range x.Values {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("feature value %d is %v; the loaders accept finite values only", k, v)
		}
	}
	if len(d.Links) == 0 {
		return errors.New("dataset has no explained links")
	}
	inRange := func(i int32) bool { return i >= 0 && int(i) < n }
	for k, l := range d.Links {
		if !inRange(l.Edge.U) || !inRange(l.Edge.V) {
			return fmt.Errorf("link %d: (%d, %d) is outside the graph's %d nodes", k, l.Edge.U, l.Edge.V, n)
		}
		if l.Role != Train && l.Role != Validation && l.Role != Test {
			return fmt.Errorf("link %d: invalid role %v", k, l.Role)
		}
		if !slices.ContainsFunc(l.WhyU, func(i int32) bool { return !inRange(i) }) &&
			!slices.ContainsFunc(l.WhyV, func(i int32) bool { return !inRange(i) }) {
			continue
		}
		return fmt.Errorf("link %d: groundtruth %v / %v has a node outside the graph's %d nodes", k, l.WhyU, l.WhyV, n)
	}
	return nil
}

// writeEdges writes edges.csv.
func (d *Dataset) writeEdges(w *bufio.Writer) {
	g := d.Graph
	w.WriteString("source,target\n")
	for _, e := range g.Edges() {
		w.WriteString(nodeID(g, e.U))
		w.WriteByte(',')
		w.WriteString(nodeID(g, e.V))
		w.WriteByte('\n')
	}
}

// writeFeatures writes features.csv, dense.
func (d *Dataset) writeFeatures(w *bufio.Writer) {
	g, x := d.Graph, d.Graph.Features
	w.WriteString("node")
	for c := range x.Cols {
		fmt.Fprintf(w, ",f%d", c)
	}
	w.WriteByte('\n')
	var buf []byte
	for i := range int32(x.Rows) {
		idx, val := x.Row(int(i))
		buf = append(buf[:0], nodeID(g, i)...)
		k := 0
		for c := range int32(x.Cols) {
			buf = append(buf, ',')
			if k < len(idx) && idx[k] == c {
				buf = strconv.AppendFloat(buf, float64(val[k]), 'g', -1, 32)
				k++
			} else {
				buf = append(buf, '0')
			}
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
}

// writeGroundtruth writes groundtruth.csv.
func (d *Dataset) writeGroundtruth(w *bufio.Writer) {
	g := d.Graph
	w.WriteString(GroundtruthHeader + "\n")
	list := func(nodes []int32) {
		for k, c := range nodes {
			if k > 0 {
				w.WriteByte(' ')
			}
			w.WriteString(nodeID(g, c))
		}
	}
	for _, l := range d.Links {
		fmt.Fprintf(w, "%s,%s,%s,", nodeID(g, l.Edge.U), nodeID(g, l.Edge.V), l.Role)
		list(l.WhyU)
		w.WriteByte(',')
		list(l.WhyV)
		w.WriteByte('\n')
	}
}

// writeFileAtomic writes path atomically (atomicfile.Write), buffered.
func writeFileAtomic(path string, write func(*bufio.Writer)) error {
	return atomicfile.Write(path, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 64<<10)
		write(w)
		return w.Flush()
	})
}
