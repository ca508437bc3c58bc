// Package dglexport writes a graph, its node features and labels, a
// link-prediction split and, for synthetic graphs, the groundtruth
// explanations in DGL's chunked graph format: the input that DistDGL's
// partitioning pipeline (tools/partition_algo, tools/dispatch_data.py) and
// GraphStorm read, for graphs beyond what one machine trains on.
//
// The chunked format is a folder with a metadata.json naming the node and
// edge types, the number of nodes and edges per chunk, and the files that
// hold the edges (CSV) and node or edge data (NumPy .npy); DGL's user guide
// specifies it ("7.1 Data Preprocessing", "Chunked Graph Format"). Write
// produces one chunk of one node type and one edge type; see Write for
// every file.
package dglexport

import (
	"bufio"
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
}

// DefaultProducer is Export.Producer's default: the command that writes
// an export.
const DefaultProducer = "ilpgnn export-graph --format dgl"

// Write writes e to the folder dir (created if needed; files of an earlier
// export are replaced) in DGL's chunked graph format, plus the split, the
// node ids and the groundtruth:
//
//   - metadata.json: DGL's metadata (see Metadata);
//   - edges/_E0.txt: one line "u v" per undirected edge of the graph, once,
//     u < v, in Graph.Edges() order (DGL graphs are directed: add the
//     reverse edges when building the DGLGraph, e.g. dgl.to_bidirected,
//     or GraphStorm's add_reverse_edges);
//   - node_data/feat-0.npy: the features, float32 of shape (N, D), dense
//     whatever their sparsity (refused above MaxFeatureBytes);
//   - node_data/label-0.npy: the class labels, int64 of shape (N,), -1 for
//     unknown, when the graph has labels;
//   - edge_data/{train,val,test}_mask-0.npy: int8 of shape (M,), 1 where
//     the edge of that line of edges/_E0.txt is in that set of the split;
//     the masks travel with the edges through partitioning;
//   - split/{train_pos,val_pos,val_neg,test_pos,test_neg}.txt: the split's
//     labelled pairs, "u v" a line, in the split's order; there is no
//     train_neg: training negatives are drawn afresh every epoch
//     (split.NegativeSampler), as DGL's negative samplers do;
//   - node_ids.txt: line i is the user's id of node i;
//   - groundtruth.jsonl: for synthetic graphs, one JSON object per
//     explained link (see GroundtruthLine);
//   - export.json: what was exported (see Manifest), and README.md, how to
//     partition it.
//
// Node numbers everywhere are 0..N-1 as Graph numbers them. Every file is
// written to a temporary file and renamed into place, metadata.json last.
// The optional files an earlier export left (labels, groundtruth) are
// removed when this one has none. Write returns the manifest it wrote. It
// returns an error, and writes nothing, when the features exceed
// MaxFeatureBytes (wrapping ErrTooLarge), a node id holds a line break, or
// the split does not partition the graph's edges. It panics when Graph or
// Split is nil.
func Write(dir string, e Export) (*Manifest, error) {
	files, m, err := plan(e)
	if err != nil {
		return nil, err
	}
	if err := removeStale(dir, files); err != nil {
		return nil, fmt.Errorf("dglexport: %w", err)
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
		panic("dglexport: Write needs a graph and a split")
	}
	if err := check(e.Graph); err != nil {
		return nil, nil, fmt.Errorf("dglexport: %w", err)
	}
	edges := e.Graph.Edges()
	roles, err := edgeRoles(e.Graph, edges, e.Split)
	if err != nil {
		return nil, nil, fmt.Errorf("dglexport: %w", err)
	}
	m := newManifest(e)
	files := []file{
		{EdgesFile, pairsWriter(edges)},
		{FeatFile, featuresWriter(e.Graph)},
		{NodeIDsFile, idsWriter(e.Graph.IDs)},
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
	if e.Links != nil {
		files = append(files, file{GroundtruthFile, groundtruthWriter(e.Links)})
	}
	files = append(files,
		file{ManifestFile, jsonWriter(m)},
		file{ReadmeFile, readmeWriter(m)},
		file{MetadataFile, jsonWriter(newMetadata(e.Graph, len(edges)))}, // last: its presence means the rest is there
	)
	return files, m, nil
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
			return fmt.Errorf("dglexport: %w", err)
		}
	}
	return nil
}

// removeStale removes the optional files of an earlier export in dir
// that files does not write again, so that they cannot pass for this
// export's.
func removeStale(dir string, files []file) error {
	for _, name := range []string{LabelFile, GroundtruthFile} {
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
