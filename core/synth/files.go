package synth

import (
	"bufio"
	"bytes"
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

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/load"
)

// The files of a dataset directory (see WriteDir).
const (
	EdgesFile       = "edges.csv"
	FeaturesFile    = "features.csv"
	GroundtruthFile = "groundtruth.csv"
)

// GroundtruthHeader is the required first line of a groundtruth file.
const GroundtruthHeader = "source,target,role,why_source,why_target"

// maxGroundtruthLine is the longest groundtruth line ReadGroundtruth
// accepts: room for ~100k node ids, far more than any K_gt.
const maxGroundtruthLine = 1 << 20

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

// writeFileAtomic writes path through a temporary file in the same
// directory, renamed into place once complete. The temporary name ends in
// neither .csv, .tsv nor .txt, so a loader listing the directory ignores a
// leftover one.
func writeFileAtomic(path string, write func(*bufio.Writer)) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(f, 64<<10)
	write(w)
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes it 0600
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

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
// numbers nodes by first appearance in edges.csv, which cannot follow the
// node order in general: ReadDir renumbers them.) Nodes missing from
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
// feats has passed the edge-list loader, so only its id column is read: the
// separator and header rules are the loader's (load.EdgeListReaders).
func inFeatureOrder(g *graph.Graph, feats []byte) (*graph.Graph, error) {
	n := g.NumNodes()
	order := make([]int32, 0, n) // new node -> node of g
	placed := make([]bool, n)
	var sep byte // ',', '\t' or 0 for runs of blanks, from the first line
	first := true
	sc := bufio.NewScanner(bytes.NewReader(feats))
	sc.Buffer(nil, max(len(feats), 4096)+1) // the whole file fits
	for sc.Scan() {
		line := sc.Bytes()
		if first {
			line = load.TrimBOM(line) // as the loader does
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' || line[0] == '%' {
			continue
		}
		var fields [][]byte
		switch {
		case first && bytes.IndexByte(line, ',') >= 0:
			sep = ','
		case first && bytes.IndexByte(line, '\t') >= 0:
			sep = '\t'
		}
		if sep == 0 {
			fields = bytes.FieldsFunc(line, isASCIIBlank)
		} else {
			fields = bytes.Split(line, []byte{sep})
		}
		if first {
			first = false
			if slices.ContainsFunc(fields[1:], func(b []byte) bool {
				_, err := strconv.ParseFloat(string(bytes.TrimSpace(b)), 64)
				return err != nil
			}) {
				continue // the header
			}
		}
		id := string(bytes.TrimSpace(fields[0]))
		i, ok := g.NodeIndex(id)
		if !ok || placed[i] {
			// The loader has just accepted this file, so it changed
			// under us.
			return nil, fmt.Errorf("node %q: the file changed while it was read", id)
		}
		placed[i] = true
		order = append(order, int32(i))
	}
	if err := sc.Err(); err != nil {
		return nil, err
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

// ReadGroundtruth reads a groundtruth file (the format WriteDir writes)
// whose node ids name nodes of g (not nil), and returns its links in file
// order. file names the input in errors.
//
// The first line that is neither blank nor a comment (starting with '#')
// must be GroundtruthHeader; blank and comment lines are skipped anywhere.
// Every other line is "<source>,<target>,<role>,<why source>,<why target>":
// fields are trimmed of surrounding blanks, role is train, val or test, and
// the why lists are node ids separated by blanks. Links are stored with
// Edge.U < Edge.V as nodes of g; WhyU is the list of the smaller node,
// whichever column it was in.
//
// It is an error, returned as a *load.Error naming file and line, when the
// header is missing or wrong, a line has other than 5 fields or is longer
// than 1 MiB, an id is not a node of g, a role is unknown, a link is not an
// edge of g or repeats an earlier link (in either orientation), a why list
// is empty, repeats a node, holds the link's other end, or holds a node that
// is not a neighbour of its end in g, or a why list's length differs from
// that of the first link's lists (K_gt is the same for all links of a
// file). A file with no link is an error wrapping load.ErrEmpty.
//
// A groundtruth node should be a neighbour of its end in the graph the link
// was drawn from, a subgraph of g; only adjacency in g can be checked here.
func ReadGroundtruth(r io.Reader, file string, g *graph.Graph) ([]Link, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxGroundtruthLine)
	n := g.NumNodes()
	var (
		line    int // number of the line being read
		header  bool
		links   []Link
		lineOf  = make(map[graph.Edge]int) // link -> its line
		kgt     = -1                       // length of every why list
		kgtLine int                        // the line that set kgt
	)
	fail := func(format string, args ...any) error {
		return &load.Error{File: file, Line: line, Err: fmt.Errorf(format, args...)}
	}
	node := func(id, what string) (int32, error) {
		i, ok := g.NodeIndex(id)
		if !ok || i < 0 || i >= n {
			return 0, fail("%s: unknown node id %q", what, clip(id))
		}
		return int32(i), nil
	}
	// why parses the groundtruth list of end (of the link with other end
	// other), named by its column.
	why := func(field string, end, other int32, column string) ([]int32, error) {
		ids := strings.Fields(field)
		if len(ids) == 0 {
			return nil, fail("%s: empty groundtruth list", column)
		}
		out := make([]int32, len(ids))
		for k, id := range ids {
			c, err := node(id, column)
			if err != nil {
				return nil, err
			}
			switch {
			case c == other:
				return nil, fail("%s: groundtruth node %q is the link's other end", column, clip(id))
			case !g.HasEdge(int(end), int(c)):
				return nil, fail("%s: groundtruth node %q is not a neighbour of %q", column, clip(id), clip(nodeID(g, end)))
			case slices.Contains(out[:k], c):
				return nil, fail("%s: groundtruth node %q appears twice", column, clip(id))
			}
			out[k] = c
		}
		if kgt < 0 {
			kgt, kgtLine = len(out), line
		} else if len(out) != kgt {
			return nil, fail("%s: %d groundtruth nodes, but the lists of line %d have %d (K_gt is the same for every link)",
				column, len(out), kgtLine, kgt)
		}
		return out, nil
	}

	for sc.Scan() {
		line++
		raw := sc.Bytes()
		if line == 1 {
			raw = load.TrimBOM(raw)
		}
		text := strings.TrimSpace(string(raw))
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Split(text, ",")
		for k := range fields {
			fields[k] = strings.TrimSpace(fields[k])
		}
		if !header {
			if strings.Join(fields, ",") != GroundtruthHeader {
				return nil, fail("expected the header %q, got %q", GroundtruthHeader, clip(text))
			}
			header = true
			continue
		}
		if len(fields) != 5 {
			return nil, fail("expected 5 fields (%s), got %d", GroundtruthHeader, len(fields))
		}
		u, err := node(fields[0], "source")
		if err != nil {
			return nil, err
		}
		v, err := node(fields[1], "target")
		if err != nil {
			return nil, err
		}
		switch {
		case u == v:
			return nil, fail("link %q-%q is a self-loop", clip(fields[0]), clip(fields[1]))
		case !g.HasEdge(int(u), int(v)):
			return nil, fail("link %q-%q is not an edge of the graph", clip(fields[0]), clip(fields[1]))
		}
		role, err := ParseRole(fields[2])
		if err != nil {
			return nil, fail("%v", err)
		}
		e := graph.Edge{U: min(u, v), V: max(u, v)}
		if at, dup := lineOf[e]; dup {
			return nil, fail("link %q-%q already on line %d", clip(fields[0]), clip(fields[1]), at)
		}
		lineOf[e] = line
		whyU, err := why(fields[3], u, v, "why_source")
		if err != nil {
			return nil, err
		}
		whyV, err := why(fields[4], v, u, "why_target")
		if err != nil {
			return nil, err
		}
		if u > v {
			whyU, whyV = whyV, whyU
		}
		links = append(links, Link{Edge: e, Role: role, WhyU: whyU, WhyV: whyV})
	}
	if err := sc.Err(); err != nil {
		line++ // the line that could not be read
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fail("line is longer than %d MiB", maxGroundtruthLine>>20)
		}
		return nil, &load.Error{File: file, Line: line, Err: err}
	}
	if !header {
		return nil, &load.Error{File: file, Err: fmt.Errorf("%w: no header %q", load.ErrEmpty, GroundtruthHeader)}
	}
	if len(links) == 0 {
		return nil, &load.Error{File: file, Err: fmt.Errorf("%w: no links after the header", load.ErrEmpty)}
	}
	return links, nil
}

// isASCIIBlank reports whether r is a blank that separates the fields of a
// whitespace-separated file to the loaders: space, tab, CR, VT or FF.
func isASCIIBlank(r rune) bool {
	return r == ' ' || r == '\t' || r == '\r' || r == '\v' || r == '\f'
}

// clip shortens s for an error message.
func clip(s string) string {
	const most = 64
	if len(s) <= most {
		return s
	}
	return s[:most] + "..."
}
