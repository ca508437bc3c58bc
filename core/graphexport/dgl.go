// Package graphexport writes a graph, its node features and labels, a
// link-prediction split and, for synthetic graphs, the groundtruth
// explanations in the input formats of other graph-learning tools, for
// graphs beyond what one machine trains on or for other models:
//
//   - FormatDGL, DGL's chunked graph format: what DistDGL's partitioning
//     pipeline (tools/partition_algo, tools/dispatch_data.py) and
//     GraphStorm's GSPartition read. A folder with a metadata.json naming
//     the node and edge types, their counts per type and per chunk, and
//     the files that hold the edges (CSV) and node or edge data (NumPy
//     .npy); DGL's user guide specifies it ("7.1 Data Preprocessing",
//     "Chunked Graph Format"). One chunk of one node type and one edge
//     type.
//   - FormatGConstruct, GraphStorm's gconstruct input: CSV tables with
//     headers and the JSON configuration that construct_graph reads, with
//     the split as a link-prediction task's custom split.
//   - FormatPyG, for PyTorch Geometric: edge_index and the split as .npy
//     arrays in PyG's (2, E) layout, with a loader in README.md.
//
// See Write for every file of each.
package graphexport

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ilpgnn/core/graph"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
)

// Format is an export's file format.
type Format string

// The formats Write writes.
const (
	// FormatDGL is DGL's chunked graph format, for DistDGL's partitioning
	// pipeline and GraphStorm's GSPartition.
	FormatDGL Format = "dgl"
	// FormatGConstruct is GraphStorm's gconstruct input: tables with
	// headers and construct_graph's JSON configuration.
	FormatGConstruct Format = "gconstruct"
	// FormatPyG is NumPy arrays in PyTorch Geometric's layout.
	FormatPyG Format = "pyg"
)

// Formats are the formats, in the order the command line lists them.
var Formats = []Format{FormatDGL, FormatGConstruct, FormatPyG}

// ParseFormat returns the format named s, or an error that lists them.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("format %q: the formats are dgl (DGL's chunked graph format, for DistDGL and GraphStorm's GSPartition), gconstruct (GraphStorm's construct_graph) and pyg (PyTorch Geometric)", s)
}

// The node type, relation and canonical edge type of the exported graph:
// a homogeneous graph in DGL's default names.
const (
	NodeType = "_N"
	Relation = "_E"
	EdgeType = NodeType + ":" + Relation + ":" + NodeType
)

// The files Write writes, relative to its folder.
const (
	MetadataFile    = "metadata.json"
	ManifestFile    = "export.json"
	ReadmeFile      = "README.md"
	EdgesFile       = "edges/_E0.txt"
	FeatFile        = "node_data/feat-0.npy"
	LabelFile       = "node_data/label-0.npy"
	NodeIDsFile     = "node_ids.txt"
	GroundtruthFile = "groundtruth.jsonl"
)

// SplitFiles are the files of the split's labelled pairs, keyed by set:
// train_pos, val_pos, val_neg, test_pos and test_neg.
var SplitFiles = map[string]string{
	"train_pos": "split/train_pos.txt",
	"val_pos":   "split/val_pos.txt",
	"val_neg":   "split/val_neg.txt",
	"test_pos":  "split/test_pos.txt",
	"test_neg":  "split/test_neg.txt",
}

// MaskFiles are the edge masks, keyed by mask name (train_mask, val_mask,
// test_mask, GraphStorm's names for a link-prediction split on edges).
var MaskFiles = map[string]string{
	"train_mask": "edge_data/train_mask-0.npy",
	"val_mask":   "edge_data/val_mask-0.npy",
	"test_mask":  "edge_data/test_mask-0.npy",
}

// MaxFeatureBytes bounds the dense feature file: N·D·4 bytes above it are
// refused rather than written (a sparse bag-of-words graph written dense
// can be hundreds of times its size in memory).
const MaxFeatureBytes int64 = 4 << 30

// ErrTooLarge is wrapped by Write's error when the dense features would
// exceed MaxFeatureBytes.
var ErrTooLarge = errors.New("dense features too large")

// ErrZipTooLarge is wrapped by ZipBytes's error when the zip would exceed
// its limit.
var ErrZipTooLarge = errors.New("zip too large")

// Export is what Write writes.
type Export struct {
	// Graph is the graph (required); its node numbering is the export's.
	Graph *graph.Graph
	// Split is a split of Graph (required): TrainPos, ValPos and TestPos
	// partition its edges, as split.New and split.Fixed make them.
	Split *split.Split
	// Links are the explained links of a synthetic graph (nil for others);
	// written to GroundtruthFile.
	Links []synth.Link
	// Source is the --data value the graph came from, Seed the split's
	// seed, and ValFrac and TestFrac its held-out shares (zero when the
	// split is a synthetic graph's own); all recorded in ManifestFile.
	Source            string
	Seed              uint64
	ValFrac, TestFrac float64
	// Producer names what made the export in README.md and ManifestFile
	// (default DefaultProducer, the command line).
	Producer string
	// Format is the export's format (FormatDGL when empty).
	Format Format
	// OneDirection writes each edge of a DGL or PyG export once, u < v,
	// instead of in both directions. Both is the default: DGL and PyG
	// graphs are directed, a GNN passes messages both ways along an
	// undirected edge, and DGL's dispatch and GraphStorm's GSPartition add
	// no reverse edges to a partitioned graph. A gconstruct export always
	// writes each edge once: construct_graph's --add-reverse-edges adds
	// the other direction.
	OneDirection bool
}

// format is e's format, FormatDGL when unset.
func (e Export) format() Format { return cmp.Or(e.Format, FormatDGL) }

// bothWays reports whether e's edge file holds both directions.
func (e Export) bothWays() bool { return !e.OneDirection && e.format() != FormatGConstruct }

// DefaultProducer is Export.Producer's default: the command that writes
// an export.
const DefaultProducer = "ilpgnn export-graph"

// Write writes e to the folder dir (created if needed; files of an earlier
// export are replaced) in e's format, plus the split, the node ids and
// the groundtruth. Every format writes
//
//   - node_ids.txt: line i is the user's id of node i;
//   - groundtruth.jsonl: for synthetic graphs, one JSON object per
//     explained link (see GroundtruthLine);
//   - export.json: what was exported (see Manifest), and README.md, how to
//     load or partition it with the tool the format is for.
//
// FormatDGL, DGL's chunked graph format, adds
//
//   - metadata.json: DGL's metadata (see Metadata);
//   - edges/_E0.txt: one line "u v" per edge, in Graph.Edges() order with
//     u < v, then (unless OneDirection) the same edges reversed, "v u" in
//     the same order, so that line k+M is line k's reverse;
//   - node_data/feat-0.npy: the features, float32 of shape (N, D), dense
//     whatever their sparsity (refused above MaxFeatureBytes);
//   - node_data/label-0.npy: the class labels, int64 of shape (N,), -1 for
//     unknown, when the graph has labels;
//   - edge_data/{train,val,test}_mask-0.npy: int8, one value per line of
//     edges/_E0.txt, 1 where that edge (in either direction) is in that
//     set of the split; the masks travel with the edges through
//     partitioning;
//   - split/{train_pos,val_pos,val_neg,test_pos,test_neg}.txt: the split's
//     labelled pairs, "u v" a line, in the split's order; there is no
//     train_neg: training negatives are drawn afresh every epoch
//     (split.NegativeSampler), as DGL's negative samplers do.
//
// FormatGConstruct, GraphStorm's construct_graph input, adds
//
//   - nodes.csv: a header "nid,feat" (",label" when the graph has labels),
//     then node i's number, its features as one field of D numbers joined
//     by ';' (construct_graph's feature "separator"), and its label;
//   - edges.csv: a header "src,dst", then each edge once, u < v, in
//     Graph.Edges() order;
//   - split/{train,valid,test}.json: the split's positives, one JSON array
//     [u, v] a line with u < v, as construct_graph's custom_split_filenames
//     read them, and split/{val_neg,test_neg}.json the negatives alike;
//   - gconstruct.json: construct_graph's configuration (see GConstruct).
//
// FormatPyG adds
//
//   - x.npy: the features, float32 (N, D); y.npy: the labels, int64 (N,),
//     -1 for unknown, when the graph has labels;
//   - edge_index.npy: int64 (2, E), sources in row 0 and targets in row 1,
//     every edge of the graph as edges/_E0.txt orders them: both
//     directions unless OneDirection;
//   - split/{train_pos,val_pos,val_neg,test_pos,test_neg}.npy: int64
//     (2, P), the split's labelled pairs in the split's order.
//
// Node numbers everywhere are 0..N-1 as Graph numbers them. Every file is
// written to a temporary file and renamed into place, the format's entry
// file (metadata.json, gconstruct.json, export.json) last. The optional
// files an earlier export left (labels, groundtruth) are removed when this
// one has none. Write returns the manifest it wrote. It returns an error,
// and writes nothing, when the features exceed MaxFeatureBytes (wrapping
// ErrTooLarge), a node id holds a line break, the format is unknown, the
// split does not partition the graph's edges, or dir is a file. It panics
// when Graph or Split is nil.
func Write(dir string, e Export) (*Manifest, error) {
	files, m, err := plan(e)
	if err != nil {
		return nil, err
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		// Refused before anything is removed or written: the export is a folder.
		return nil, fmt.Errorf("graphexport: %s is a file, not a folder", dir)
	}
	if err := removeStale(dir, files); err != nil {
		return nil, fmt.Errorf("graphexport: %w", err)
	}
	if err := writeAll(Dir(dir), files); err != nil {
		return nil, err
	}
	return m, nil
}

// WriteTo writes Write's files to s, metadata.json last, and returns the
// manifest; it refuses what Write refuses, before s receives any file.
// An error of s is returned as it happened: the files s already holds are
// then an incomplete export.
func WriteTo(s Sink, e Export) (*Manifest, error) {
	files, m, err := plan(e)
	if err != nil {
		return nil, err
	}
	if err := writeAll(s, files); err != nil {
		return nil, err
	}
	return m, nil
}

// plan checks e and returns the files of its export, in the order they
// are written, with its manifest.
func plan(e Export) ([]file, *Manifest, error) {
	if e.Graph == nil || e.Split == nil {
		panic("graphexport: Write needs a graph and a split")
	}
	if _, err := ParseFormat(string(e.format())); err != nil {
		return nil, nil, fmt.Errorf("graphexport: %w", err)
	}
	if err := check(e.Graph); err != nil {
		return nil, nil, fmt.Errorf("graphexport: %w", err)
	}
	edges := e.Graph.Edges()
	roles, err := edgeRoles(e.Graph, edges, e.Split)
	if err != nil {
		return nil, nil, fmt.Errorf("graphexport: %w", err)
	}
	lines := edges
	if e.bothWays() {
		lines = bothDirections(edges)
		roles = append(roles, roles...)
	}
	m := newManifest(e, len(lines))
	var files []file
	var entry *file // written last: its presence means the rest is there
	switch e.format() {
	case FormatDGL:
		files = dglFiles(e, lines, roles)
		entry = &file{MetadataFile, jsonWriter(newMetadata(e.Graph, len(lines)))}
	case FormatGConstruct:
		files = gconstructFiles(e, lines)
		entry = &file{GConstructFile, jsonWriter(newGConstruct(e.Graph))}
	case FormatPyG:
		files = pygFiles(e, lines)
	}
	files = append(files, file{NodeIDsFile, idsWriter(e.Graph.IDs)})
	if e.Links != nil {
		files = append(files, file{GroundtruthFile, groundtruthWriter(e.Links)})
	}
	files = append(files, file{ReadmeFile, readmeWriter(m)}, file{ManifestFile, jsonWriter(m)})
	if entry != nil {
		files = append(files, *entry)
	}
	return files, m, nil
}

// dglFiles are the files of a DGL export whose edge file holds lines, an
// edge each, of the given roles in the split.
func dglFiles(e Export, lines []graph.Edge, roles []role) []file {
	files := []file{
		{EdgesFile, pairsWriter(lines)},
		{FeatFile, featuresWriter(e.Graph)},
	}
	if e.Graph.Labels != nil {
		files = append(files, file{LabelFile, labelsWriter(e.Graph.Labels)})
	}
	for r, mask := range maskNames {
		files = append(files, file{MaskFiles[mask], maskWriter(roles, role(r))})
	}
	for _, s := range splitSets(e.Split) {
		files = append(files, file{SplitFiles[s.name], pairsWriter(s.pairs)})
	}
	return files
}

// bothDirections returns edges, then each of them reversed.
func bothDirections(edges []graph.Edge) []graph.Edge {
	out := make([]graph.Edge, 2*len(edges))
	copy(out, edges)
	for k, e := range edges {
		out[len(edges)+k] = graph.Edge{U: e.V, V: e.U}
	}
	return out
}

// writeAll writes files to s in order, each through a buffer.
func writeAll(s Sink, files []file) error {
	for _, f := range files {
		err := s.WriteFile(f.name, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 256<<10)
			if err := f.write(bw); err != nil {
				return err
			}
			return bw.Flush()
		})
		if err != nil {
			return fmt.Errorf("graphexport: %w", err)
		}
	}
	return nil
}

// removeStale removes the optional files of an earlier export in dir
// that files does not write again, so that they cannot pass for this
// export's.
func removeStale(dir string, files []file) error {
	for _, name := range []string{LabelFile, PyGLabelFile, GroundtruthFile} {
		if slices.ContainsFunc(files, func(f file) bool { return f.name == name }) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// DenseFeatureBytes is the size of g's feature file: N·D float32s,
// written dense whatever their sparsity.
func DenseFeatureBytes(g *graph.Graph) int64 {
	return int64(g.NumNodes()) * int64(g.FeatureDim()) * 4
}

// check returns why g cannot be exported, or nil.
func check(g *graph.Graph) error {
	if size := DenseFeatureBytes(g); size > MaxFeatureBytes {
		return fmt.Errorf("%w: %d nodes × %d features as float32 take %s written dense, above the %s limit; reduce the feature dimension first",
			ErrTooLarge, g.NumNodes(), g.FeatureDim(), gib(size), gib(MaxFeatureBytes))
	}
	for i, id := range g.IDs {
		if strings.ContainsAny(id, "\r\n") {
			return fmt.Errorf("node %d's id %q holds a line break, which %s (one id a line) cannot hold", i, id, NodeIDsFile)
		}
	}
	return nil
}

// gib formats a byte count in GiB.
func gib(n int64) string { return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30)) }

// byteSize formats a byte count in GiB, MiB or bytes, whichever reads
// best.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return gib(n)
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// GraphName returns name as DGL's graph_name: letters, digits, '-' and '_'
// kept, every other byte replaced by '_' ("synth:medium:seed=0" becomes
// "synth_medium_seed_0"), "graph" for an empty name. DistGraph and the
// partition files use it as a file name.
func GraphName(name string) string {
	b := []byte(name)
	for k, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[k] = '_'
		}
	}
	if len(b) == 0 {
		return "graph"
	}
	return string(b)
}
