package dglexport

import (
	"bufio"
	"fmt"
)

// readmeWriter writes the export's README.md: its files and the commands
// that take it to DistDGL or GraphStorm.
func readmeWriter(m *Manifest) writeFunc {
	return func(w *bufio.Writer) error {
		fmt.Fprintf(w, "# %s in DGL's chunked graph format\n\n", m.GraphName)
		fmt.Fprintf(w, "Written by %s%s: %d nodes, %d undirected edges, %d features per node.\n\n",
			producerText(m.WrittenBy), sourceText(m.Source), m.Nodes, m.Edges, m.FeatureDim)
		fmt.Fprintf(w, "Nodes are numbered 0..%d; line i of `%s` is node i's id in the input.\n\n", m.Nodes-1, NodeIDsFile)
		w.WriteString(readmeFiles)
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
		w.WriteString(readmePartition)
		return nil
	}
}

// producerText quotes a command as code; other producers stay prose.
func producerText(by string) string {
	if by == DefaultProducer {
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

const readmeFiles = "Files:\n\n" +
	"- `" + MetadataFile + "`: DGL's metadata (one node type `" + NodeType + "`, one edge type `" + EdgeType + "`, one chunk each).\n" +
	"- `" + EdgesFile + "`: one line `u v` per undirected edge, once, u < v. DGL graphs are directed:\n" +
	"  add the reverse edges (`dgl.to_bidirected`, or `add_reverse_edges` in GraphStorm).\n" +
	"- `" + FeatFile + "`: float32 features, shape (N, D), written dense whatever their sparsity.\n" +
	"- `" + LabelFile + "`: int64 class labels, -1 where unknown (only when the graph has labels;\n" +
	"  `export.json` names the classes).\n" +
	"- `edge_data/{train,val,test}_mask-0.npy`: int8, one value per line of `" + EdgesFile + "`, 1 where\n" +
	"  the edge is in that set of the split. Masks travel with the edges through partitioning,\n" +
	"  which renumbers nodes; the pair files below use the numbers of this folder.\n" +
	"- `split/*.txt`: the labelled pairs, `u v` a line. There is no `train_neg`: training negatives are\n" +
	"  drawn afresh every epoch, as DGL's negative samplers do. Validation and test pairs must not\n" +
	"  carry messages: train on the edges of `train_mask` only.\n" +
	"- `" + ManifestFile + "`: all of the above as JSON, with counts.\n"

const readmePartition = `
## Partitioning

For DistDGL, random partitioning then dispatch (DGL's tools folder; see DGL's user guide,
"7.1 Data Preprocessing"):

    python dgl/tools/partition_algo/random_partition.py --in_dir THIS_FOLDER --out_dir parts --num_partitions 4
    python dgl/tools/dispatch_data.py --in-dir THIS_FOLDER --partitions-dir parts --out-dir partitioned \
        --ip-config ip_config.txt --save-orig-nids --save-orig-eids

ParMETIS instead of random partitioning (fewer edges cut): DGL's tools/distpartitioning pipeline
(parmetis_preprocess.py, pm_dglpart, then dispatch_data.py), described in DGL's user guide,
chapter 7. Keep --save-orig-nids: partitioning renumbers nodes, and the original numbers are this
folder's, which node_ids.txt maps to the input's ids.

For GraphStorm: it trains on DistDGL partitions, so the dispatched folder above serves; or let
GraphStorm build and partition the graph itself from these files, described in its JSON
configuration (python3 -m graphstorm.gconstruct.construct_graph --conf-file CONF --output-dir OUT
--num-parts 4 --graph-name NAME --add-reverse-edges; its input formats are in GraphStorm's
documentation), with the split as edge masks.

This exporter was checked by reading its files back in Go; DGL itself was not run on them.
`
