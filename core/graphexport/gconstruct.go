package graphexport

import (
	"bufio"
	"encoding/json"
	"strconv"

	"ilpgnn/core/graph"
)

// The files of a gconstruct export, besides the common ones.
const (
	GConstructFile       = "gconstruct.json"
	GConstructNodesFile  = "nodes.csv"
	GConstructEdgesFile  = "edges.csv"
	GConstructNodeType   = "node"
	GConstructRelation   = "edge"
	gconstructFeatureSep = ";"
)

// GConstructSplitFiles are a gconstruct export's pair files, keyed by set
// as SplitFiles: the positives under construct_graph's names train, valid
// and test, the negatives beside them.
var GConstructSplitFiles = map[string]string{
	"train_pos": "split/train.json",
	"val_pos":   "split/valid.json",
	"val_neg":   "split/val_neg.json",
	"test_pos":  "split/test.json",
	"test_neg":  "split/test_neg.json",
}

// GConstruct is the configuration GraphStorm's construct_graph reads
// (--conf-file), in its version gconstruct-v0.1: one node type whose table
// holds the node numbers and the features, one edge type whose table holds
// the edges, and a link-prediction task on it whose split is the export's
// (custom_split_filenames). File names are relative to the export's
// folder, which construct_graph must run in.
type GConstruct struct {
	Version string           `json:"version"`
	Nodes   []GConstructNode `json:"nodes"`
	Edges   []GConstructEdge `json:"edges"`
}

// GConstructFormat is a table's format: "csv" and its column separator.
type GConstructFormat struct {
	Name      string `json:"name"`
	Separator string `json:"separator"`
}

// GConstructNode is a node type's entry of GConstruct.
type GConstructNode struct {
	NodeType  string              `json:"node_type"`
	Format    GConstructFormat    `json:"format"`
	Files     []string            `json:"files"`
	NodeIDCol string              `json:"node_id_col"`
	Features  []GConstructFeature `json:"features"`
}

// GConstructFeature is a feature of a node type: the column that holds
// it, split by Separator into a vector of OutDType (construct_graph's
// "no-op" transform).
type GConstructFeature struct {
	FeatureCol  string `json:"feature_col"`
	FeatureName string `json:"feature_name"`
	Separator   string `json:"separator"`
	OutDType    string `json:"out_dtype"`
}

// GConstructEdge is an edge type's entry of GConstruct.
type GConstructEdge struct {
	Relation    [3]string         `json:"relation"`
	Format      GConstructFormat  `json:"format"`
	Files       []string          `json:"files"`
	SourceIDCol string            `json:"source_id_col"`
	DestIDCol   string            `json:"dest_id_col"`
	Labels      []GConstructLabel `json:"labels"`
}

// GConstructLabel is a task on an edge type: link prediction on the
// split's pair files.
type GConstructLabel struct {
	TaskType             string            `json:"task_type"`
	CustomSplitFilenames map[string]string `json:"custom_split_filenames"`
}

// newGConstruct returns the configuration of g's gconstruct export.
func newGConstruct(g *graph.Graph) GConstruct {
	csv := GConstructFormat{Name: "csv", Separator: ","}
	return GConstruct{
		Version: "gconstruct-v0.1",
		Nodes: []GConstructNode{{
			NodeType:  GConstructNodeType,
			Format:    csv,
			Files:     []string{GConstructNodesFile},
			NodeIDCol: "nid",
			Features: []GConstructFeature{{
				FeatureCol: "feat", FeatureName: "feat",
				Separator: gconstructFeatureSep, OutDType: "float32",
			}},
		}},
		Edges: []GConstructEdge{{
			Relation:    [3]string{GConstructNodeType, GConstructRelation, GConstructNodeType},
			Format:      csv,
			Files:       []string{GConstructEdgesFile},
			SourceIDCol: "src",
			DestIDCol:   "dst",
			Labels: []GConstructLabel{{
				TaskType: "link_prediction",
				CustomSplitFilenames: map[string]string{
					"train": GConstructSplitFiles["train_pos"],
					"valid": GConstructSplitFiles["val_pos"],
					"test":  GConstructSplitFiles["test_pos"],
				},
			}},
		}},
	}
}

// gconstructFiles are the files of a gconstruct export whose edge table
// holds edges.
func gconstructFiles(e Export, edges []graph.Edge) []file {
	files := []file{
		{GConstructNodesFile, nodeTableWriter(e.Graph)},
		{GConstructEdgesFile, edgeTableWriter(edges)},
	}
	for _, s := range splitSets(e.Split) {
		files = append(files, file{GConstructSplitFiles[s.name], pairsJSONWriter(s.pairs)})
	}
	return files
}

// nodeTableWriter writes nodes.csv: "nid,feat[,label]", then a row per
// node, its features as one field joined by ';' (the shortest decimal that
// reads back as the same float32). No field needs quoting: numbers only.
func nodeTableWriter(g *graph.Graph) writeFunc {
	return func(w *bufio.Writer) error {
		labels := g.Labels != nil
		w.WriteString("nid,feat")
		if labels {
			w.WriteString(",label")
		}
		w.WriteByte('\n')
		d := g.FeatureDim()
		row := make([]float32, d)
		var b []byte
		for i := range g.NumNodes() {
			clear(row)
			cols, vals := g.Features.Row(i)
			for k, c := range cols {
				row[c] = vals[k]
			}
			b = strconv.AppendInt(b[:0], int64(i), 10)
			b = append(b, ',')
			for k, v := range row {
				if k > 0 {
					b = append(b, gconstructFeatureSep...)
				}
				b = strconv.AppendFloat(b, float64(v), 'g', -1, 32)
			}
			if labels {
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(g.Labels[i]), 10)
			}
			b = append(b, '\n')
			w.Write(b)
		}
		return nil
	}
}

// edgeTableWriter writes edges.csv: "src,dst", then a row per edge.
func edgeTableWriter(edges []graph.Edge) writeFunc {
	return func(w *bufio.Writer) error {
		w.WriteString("src,dst\n")
		var b []byte
		for _, e := range edges {
			b = strconv.AppendInt(b[:0], int64(e.U), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(e.V), 10)
			b = append(b, '\n')
			w.Write(b)
		}
		return nil
	}
}

// pairsJSONWriter writes one JSON array [u, v] a line, u < v: construct_graph
// matches each against an edge table's (src, dst) as written.
func pairsJSONWriter(pairs []graph.Edge) writeFunc {
	return func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		for _, e := range pairs {
			if err := enc.Encode([2]int32{min(e.U, e.V), max(e.U, e.V)}); err != nil {
				return err
			}
		}
		return nil
	}
}
