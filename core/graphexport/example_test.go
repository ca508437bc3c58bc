package graphexport_test

import (
	"fmt"
	"os"
	"path/filepath"

	"ilpgnn/core/graph"
	"ilpgnn/core/graphexport"
	"ilpgnn/core/split"
)

// ExampleWrite exports a 5-cycle with one validation and one test edge
// and prints DGL's metadata and the edge file.
func ExampleWrite() {
	g, err := graph.New(5, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}, {U: 0, V: 4}}, nil, []string{"a", "b", "c", "d", "e"})
	if err != nil {
		panic(err)
	}
	g.Name = "ring"
	sp, err := split.Fixed(g, 0, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}}, []graph.Edge{{U: 3, V: 4}}, []graph.Edge{{U: 0, V: 4}})
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "graphexport")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if _, err := graphexport.Write(dir, graphexport.Export{Graph: g, Split: sp}); err != nil {
		panic(err)
	}
	for _, name := range []string{graphexport.MetadataFile, graphexport.EdgesFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s:\n%s", name, b)
	}
	// Output:
	// metadata.json:
	// {
	//   "graph_name": "ring",
	//   "node_type": [
	//     "_N"
	//   ],
	//   "num_nodes_per_type": [
	//     5
	//   ],
	//   "num_nodes_per_chunk": [
	//     [
	//       5
	//     ]
	//   ],
	//   "edge_type": [
	//     "_N:_E:_N"
	//   ],
	//   "num_edges_per_type": [
	//     10
	//   ],
	//   "num_edges_per_chunk": [
	//     [
	//       10
	//     ]
	//   ],
	//   "edges": {
	//     "_N:_E:_N": {
	//       "format": {
	//         "name": "csv",
	//         "delimiter": " "
	//       },
	//       "data": [
	//         "edges/_E0.txt"
	//       ]
	//     }
	//   },
	//   "node_data": {
	//     "_N": {
	//       "feat": {
	//         "format": {
	//           "name": "numpy"
	//         },
	//         "data": [
	//           "node_data/feat-0.npy"
	//         ]
	//       }
	//     }
	//   },
	//   "edge_data": {
	//     "_N:_E:_N": {
	//       "test_mask": {
	//         "format": {
	//           "name": "numpy"
	//         },
	//         "data": [
	//           "edge_data/test_mask-0.npy"
	//         ]
	//       },
	//       "train_mask": {
	//         "format": {
	//           "name": "numpy"
	//         },
	//         "data": [
	//           "edge_data/train_mask-0.npy"
	//         ]
	//       },
	//       "val_mask": {
	//         "format": {
	//           "name": "numpy"
	//         },
	//         "data": [
	//           "edge_data/val_mask-0.npy"
	//         ]
	//       }
	//     }
	//   }
	// }
	// edges/_E0.txt:
	// 0 1
	// 0 4
	// 1 2
	// 2 3
	// 3 4
	// 1 0
	// 4 0
	// 2 1
	// 3 2
	// 4 3
}
