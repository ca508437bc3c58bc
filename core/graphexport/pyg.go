package graphexport

import (
	"bufio"
	"encoding/binary"

	"ilpgnn/core/graph"
)

// The files of a PyG export, besides the common ones.
const (
	PyGFeatFile      = "x.npy"
	PyGLabelFile     = "y.npy"
	PyGEdgeIndexFile = "edge_index.npy"
)

// PyGSplitFiles are a PyG export's pair arrays, keyed by set as
// SplitFiles.
var PyGSplitFiles = map[string]string{
	"train_pos": "split/train_pos.npy",
	"val_pos":   "split/val_pos.npy",
	"val_neg":   "split/val_neg.npy",
	"test_pos":  "split/test_pos.npy",
	"test_neg":  "split/test_neg.npy",
}

// pygFiles are the files of a PyG export whose edge_index holds edges.
func pygFiles(e Export, edges []graph.Edge) []file {
	files := []file{
		{PyGFeatFile, featuresWriter(e.Graph)},
		{PyGEdgeIndexFile, edgeIndexWriter(edges)},
	}
	if e.Graph.Labels != nil {
		files = append(files, file{PyGLabelFile, labelsWriter(e.Graph.Labels)})
	}
	for _, s := range splitSets(e.Split) {
		files = append(files, file{PyGSplitFiles[s.name], edgeIndexWriter(s.pairs)})
	}
	return files
}

// edgeIndexWriter writes pairs as an int64 (2, P) array in PyG's
// edge_index layout: row 0 the first ends, row 1 the second.
func edgeIndexWriter(pairs []graph.Edge) writeFunc {
	return func(w *bufio.Writer) error {
		w.Write(NPYHeader("<i8", 2, len(pairs)))
		var b [8]byte
		for _, e := range pairs {
			binary.LittleEndian.PutUint64(b[:], uint64(int64(e.U)))
			w.Write(b[:])
		}
		for _, e := range pairs {
			binary.LittleEndian.PutUint64(b[:], uint64(int64(e.V)))
			w.Write(b[:])
		}
		return nil
	}
}
