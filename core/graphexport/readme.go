package graphexport

import (
	"bufio"
	"fmt"
	"strings"
)

// readmeWriter writes the export's README.md: its files and the commands
// that take it to the tool its format is for.
func readmeWriter(m *Manifest) writeFunc {
	return func(w *bufio.Writer) error {
		f := formatOf(m)
		fmt.Fprintf(w, "# %s %s\n\n", m.GraphName, readmeTitle[f])
		fmt.Fprintf(w, "Written by %s%s: %d nodes, %d undirected edges, %d features per node.\n\n",
			producerText(m.WrittenBy), sourceText(m.Source), m.Nodes, m.Edges, m.FeatureDim)
		fmt.Fprintf(w, "Nodes are numbered 0..%d; line i of `%s` is node i's id in the input.\n\n", m.Nodes-1, NodeIDsFile)
		w.WriteString("Files:\n\n")
		switch f {
		case FormatDGL:
			w.WriteString(dglFilesText(m))
		case FormatGConstruct:
			w.WriteString(gconstructFilesText)
		case FormatPyG:
			w.WriteString(pygFilesText(m))
		}
		w.WriteString("- `" + ManifestFile + "`: all of the above as JSON, with counts.\n")
		fmt.Fprintf(w, "\nThe split, seed %d: %s", m.Seed, m.SplitOrigin)
		if m.ValFrac > 0 {
			fmt.Fprintf(w, " (validation %g, test %g of the edges)", m.ValFrac, m.TestFrac)
		}
		w.WriteString(".\n\n")
		for _, set := range []string{"train_pos", "val_pos", "val_neg", "test_pos", "test_neg"} {
			fmt.Fprintf(w, "- `%s`: %d pairs\n", m.Split[set].File, m.Split[set].Count)
		}
		if m.Groundtruth != nil {
			fmt.Fprintf(w, "\n`%s` holds the groundtruth explanations of the %d explained links (K_gt = %d), one JSON object a line:\n"+
				"`{\"u\": U, \"v\": V, \"role\": \"train|val|test\", \"why_u\": [...], \"why_v\": [...]}`; why_u are the neighbours of U\n"+
				"most similar to V, most similar first, as node numbers.\n", m.Groundtruth.File, m.Groundtruth.Count, m.KGT)
		}
		switch f {
		case FormatDGL:
			w.WriteString(strings.ReplaceAll(readmeDGL, "GRAPH", m.GraphName))
		case FormatGConstruct:
			w.WriteString(strings.ReplaceAll(readmeGConstruct, "GRAPH", m.GraphName))
		case FormatPyG:
			w.WriteString(readmePyG(m))
		}
		return nil
	}
}

// formatOf is the format of a manifest.
func formatOf(m *Manifest) Format {
	for f, name := range manifestFormat {
		if name == m.Format {
			return f
		}
	}
	return FormatDGL
}

var readmeTitle = map[Format]string{
	FormatDGL:        "in DGL's chunked graph format",
	FormatGConstruct: "for GraphStorm's construct_graph (gconstruct)",
	FormatPyG:        "for PyTorch Geometric",
}

// producerText quotes a command as code; other producers stay prose.
func producerText(by string) string {
	if strings.HasPrefix(by, DefaultProducer) {
		return "`" + by + "`"
	}
	return by
}

func sourceText(src string) string {
	if src == "" {
		return ""
	}
	return fmt.Sprintf(" from `%s`", src)
}

// directionsText says how the edge file holds each edge.
func directionsText(m *Manifest, file string) string {
	if m.Directions == "both" {
		return fmt.Sprintf("%d lines: each undirected edge u < v, then the same edges reversed in the same order\n"+
			"  (line k+%d is line k's reverse), since DGL and PyG graphs are directed and partitioning adds no\n"+
			"  reverse edges", m.EdgeLines, m.Edges)
	}
	return fmt.Sprintf("%d lines: each undirected edge once, u < v (written with one direction: add the\n"+
		"  reverse edges before passing messages both ways)", m.EdgeLines)
}

func dglFilesText(m *Manifest) string {
	return "- `" + MetadataFile + "`: DGL's metadata (one node type `" + NodeType + "`, one edge type `" + EdgeType + "`, one chunk each).\n" +
		"- `" + EdgesFile + "`: `u v` a line, " + directionsText(m, EdgesFile) + ".\n" +
		"- `" + FeatFile + "`: float32 features, shape (N, D), written dense whatever their sparsity.\n" +
		"- `" + LabelFile + "`: int64 class labels, -1 where unknown (only when the graph has labels;\n" +
		"  `export.json` names the classes).\n" +
		"- `edge_data/{train,val,test}_mask-0.npy`: int8, one value per line of `" + EdgesFile + "`, 1 where\n" +
		"  the edge is in that set of the split (both directions of an edge alike). Masks travel with the\n" +
		"  edges through partitioning, which renumbers nodes; the pair files below use this folder's numbers.\n" +
		"- `split/*.txt`: the labelled pairs, `u v` a line. There is no `train_neg`: training negatives are\n" +
		"  drawn afresh every epoch, as DGL's negative samplers do. Validation and test pairs must not\n" +
		"  carry messages: train on the edges of `train_mask` only.\n"
}

const gconstructFilesText = "- `" + GConstructFile + "`: construct_graph's configuration (`gconstruct-v0.1`): node type `" + GConstructNodeType + "`,\n" +
	"  edge type `" + GConstructNodeType + "," + GConstructRelation + "," + GConstructNodeType + "` with a `link_prediction` task whose split is `custom_split_filenames`.\n" +
	"- `" + GConstructNodesFile + "`: `nid,feat` (`,label` when the graph has labels): the node number, its features as one\n" +
	"  field of D numbers joined by `;`, read by the feature's `separator` as float32.\n" +
	"- `" + GConstructEdgesFile + "`: `src,dst`, each undirected edge once, u < v (`--add-reverse-edges` adds the other way).\n" +
	"- `split/{train,valid,test}.json`: the positives of each set, `[u, v]` a line, u < v, as construct_graph\n" +
	"  matches them against `edges.csv`; `split/{val_neg,test_neg}.json` the negatives alike (GraphStorm\n" +
	"  samples its own negatives; these are the ones ilpgnn evaluates on).\n"

func pygFilesText(m *Manifest) string {
	return "- `" + PyGFeatFile + "`: float32 features, shape (N, D); `" + PyGLabelFile + "`: int64 labels, -1 where unknown (only when the\n" +
		"  graph has labels).\n" +
		"- `" + PyGEdgeIndexFile + "`: int64, shape (2, E), sources in row 0 and targets in row 1, " + directionsText(m, PyGEdgeIndexFile) + ".\n" +
		"- `split/*.npy`: int64, shape (2, P), the labelled pairs of each set. There is no `train_neg`: draw\n" +
		"  training negatives afresh every epoch (`torch_geometric.utils.negative_sampling`).\n"
}

const readmeDGL = `
## Partitioning for DistDGL

With a clone of DGL (github.com/dmlc/dgl) at $DGL: random partitioning, then dispatch (DGL's user
guide, "7.1 Data Preprocessing"). The partitioning scripts import from DGL's tools folder, so they
need it on PYTHONPATH (the first line of random_partition.py says so):

    PYTHONPATH=$DGL/tools python3 $DGL/tools/partition_algo/random_partition.py \
        --in_dir THIS_FOLDER --out_dir parts --num_partitions 4
    python3 $DGL/tools/dispatch_data.py --in-dir THIS_FOLDER --partitions-dir parts \
        --out-dir partitioned --ip-config ip_config.txt --save-orig-nids --save-orig-eids

ParMETIS instead of random partitioning (fewer edges cut): preprocess, run ParMETIS, then
post-process its output into the partition files dispatch reads (DGL's
tools/distpartitioning/parmetis_wrapper.py runs the same three steps):

    mpirun -np 4 -hostfile ip_config.txt python3 $DGL/tools/distpartitioning/parmetis_preprocess.py \
        --schema_file metadata.json --input_dir THIS_FOLDER --output_dir pm --num_parts 4
    mpirun -np 4 -hostfile ip_config.txt pm_dglpart3 GRAPH 4 pm/parmetis_nfiles.txt pm/parmetis_efiles.txt
    python3 $DGL/tools/distpartitioning/parmetis_postprocess.py --postproc_input_dir THIS_FOLDER \
        --schema_file metadata.json --parmetis_output_file GRAPH_part.4 --partitions_dir parts

then dispatch_data.py as above. Keep --save-orig-nids: partitioning renumbers nodes, and the
original numbers are this folder's, which node_ids.txt maps to the input's ids.

## GraphStorm

GraphStorm's GSPartition partitions a DGL chunked folder (with DGL's tools at $DGL/tools):

    python3 -m graphstorm.gpartition.dist_partition_graph --input-path THIS_FOLDER \
        --output-path gs-parts --num-parts 4 --dgl-tool-path $DGL/tools \
        --partition-algorithm random --ip-config ip_config.txt

GraphStorm's construct_graph (gconstruct) reads tables with headers, not this folder: for it, export
with ` + "`--format gconstruct`" + `.
`

const readmeGConstruct = `
## Building the graph with GraphStorm

Run construct_graph from this folder (the configuration's paths are relative to it):

    cd THIS_FOLDER
    python3 -m graphstorm.gconstruct.construct_graph --conf-file gconstruct.json \
        --output-dir gs-graph --graph-name GRAPH --num-parts 1 --add-reverse-edges

It writes DistDGL partitions with the split as the edges' train_mask, val_mask and test_mask; train
a link predictor on them with GraphStorm's gs_link_prediction and target edge type node,edge,node.
`

func readmePyG(m *Manifest) string {
	y := ""
	if m.Labels != "" {
		y = ", y=t(\"y.npy\")"
	}
	return fmt.Sprintf(`
## Loading it in PyTorch Geometric

    import numpy as np, torch
    from torch_geometric.data import Data
    from torch_geometric.utils import to_undirected
    t = lambda f: torch.from_numpy(np.load(f))
    data = Data(x=t("x.npy"), edge_index=t("edge_index.npy")%s)  # the whole graph
    split = {s: t(f"split/{s}.npy") for s in ("train_pos", "val_pos", "val_neg", "test_pos", "test_neg")}
    # Messages pass along training links only; validation and test pairs are labelled, as
    # RandomLinkSplit makes them.
    train_data = Data(x=data.x, edge_index=to_undirected(split["train_pos"]), num_nodes=data.num_nodes)
    val_label_index = torch.cat([split["val_pos"], split["val_neg"]], 1)
    val_label = torch.cat([torch.ones(split["val_pos"].size(1)), torch.zeros(split["val_neg"].size(1))])

Run it from this folder.
`, y)
}
