package graphexport

import (
	"cmp"
	"fmt"
	"slices"

	"ilpgnn/core/graph"
	"ilpgnn/core/split"
)

// ChunkFormat is a ChunkFileSpec's format: "csv" with its delimiter, or
// "numpy".
type ChunkFormat struct {
	Name      string `json:"name"`
	Delimiter string `json:"delimiter,omitempty"`
}

// ChunkFileSpec names the chunk files of one edge type or one node or edge
// attribute, paths relative to the folder.
type ChunkFileSpec struct {
	Format ChunkFormat `json:"format"`
	Data   []string    `json:"data"`
}

// Metadata is DGL's metadata.json for a chunked graph, as DGL's user guide
// specifies it ("Chunked Graph Format"): per node type and per edge type
// ("src:relation:dst"), the count of each and the count in each chunk,
// then the files of the edges and of the node and edge data, keyed by type
// and attribute. DGL's tools read the per-type counts, which the guide's
// example leaves out: random partitioning and the pipeline's shuffle
// fail without them (TestDGLToolKeys names the lines).
type Metadata struct {
	GraphName        string                              `json:"graph_name"`
	NodeType         []string                            `json:"node_type"`
	NumNodesPerType  []int64                             `json:"num_nodes_per_type"`
	NumNodesPerChunk [][]int64                           `json:"num_nodes_per_chunk"`
	EdgeType         []string                            `json:"edge_type"`
	NumEdgesPerType  []int64                             `json:"num_edges_per_type"`
	NumEdgesPerChunk [][]int64                           `json:"num_edges_per_chunk"`
	Edges            map[string]ChunkFileSpec            `json:"edges"`
	NodeData         map[string]map[string]ChunkFileSpec `json:"node_data"`
	EdgeData         map[string]map[string]ChunkFileSpec `json:"edge_data"`
}

// newMetadata returns the metadata of g's export with m edge lines: one chunk
// of each, the features (and labels) as node data, the split's masks as
// edge data.
func newMetadata(g *graph.Graph, m int) Metadata {
	numpy := func(file string) ChunkFileSpec {
		return ChunkFileSpec{Format: ChunkFormat{Name: "numpy"}, Data: []string{file}}
	}
	nodeData := map[string]ChunkFileSpec{"feat": numpy(FeatFile)}
	if g.Labels != nil {
		nodeData["label"] = numpy(LabelFile)
	}
	edgeData := map[string]ChunkFileSpec{}
	for mask, file := range MaskFiles {
		edgeData[mask] = numpy(file)
	}
	return Metadata{
		GraphName:        GraphName(g.Name),
		NodeType:         []string{NodeType},
		NumNodesPerType:  []int64{int64(g.NumNodes())},
		NumNodesPerChunk: [][]int64{{int64(g.NumNodes())}},
		EdgeType:         []string{EdgeType},
		NumEdgesPerType:  []int64{int64(m)},
		NumEdgesPerChunk: [][]int64{{int64(m)}},
		Edges: map[string]ChunkFileSpec{EdgeType: {
			Format: ChunkFormat{Name: "csv", Delimiter: " "},
			Data:   []string{EdgesFile},
		}},
		NodeData: map[string]map[string]ChunkFileSpec{NodeType: nodeData},
		EdgeData: map[string]map[string]ChunkFileSpec{EdgeType: edgeData},
	}
}

// FileCount is a file and how many records (lines) it holds.
type FileCount struct {
	File  string `json:"file"`
	Count int    `json:"count"`
}

// Manifest is export.json: what an export holds beyond DGL's metadata,
// for people and scripts.
type Manifest struct {
	// Format is the export's: "dgl-chunked", "graphstorm-gconstruct" or
	// "pyg-npy" (see manifestFormat).
	Format    string `json:"format"`
	GraphName string `json:"graph_name"`
	Source    string `json:"source,omitempty"`
	// WrittenBy is what made the export (Export.Producer).
	WrittenBy string `json:"written_by"`
	// Nodes, Edges (undirected, each once in EdgesFile), FeatureDim and
	// FeatureNNZ (the stored entries of the features, which are written
	// dense) describe the graph.
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
	// Directions is "both" when the edge file holds each edge both ways,
	// "once" when once, u < v; EdgeLines is its number of edges (2·Edges
	// or Edges).
	Directions string `json:"directions"`
	EdgeLines  int    `json:"edge_lines"`
	FeatureDim int    `json:"feature_dim"`
	FeatureNNZ int    `json:"feature_nnz"`
	// Labels is the file of the class labels, when the graph has labels
	// (a gconstruct export holds them in nodes.csv's label column).
	Labels string `json:"labels,omitempty"`
	// ClassNames name the labels' values, when the graph has labels.
	ClassNames []string `json:"class_names,omitempty"`
	// Seed, ValFrac and TestFrac are the split's (the shares are zero
	// when the split is a synthetic graph's own); SplitOrigin says which.
	Seed        uint64  `json:"seed"`
	ValFrac     float64 `json:"val_frac,omitempty"`
	TestFrac    float64 `json:"test_frac,omitempty"`
	SplitOrigin string  `json:"split_origin"`
	// Split maps each set (train_pos, val_pos, val_neg, test_pos,
	// test_neg) to its file and pair count; EdgeMasks each mask to its
	// file.
	Split     map[string]FileCount `json:"split"`
	EdgeMasks map[string]string    `json:"edge_masks,omitempty"`
	NodeIDs   string               `json:"node_ids"`
	// Groundtruth is the file of the explained links of a synthetic graph
	// and their count, and KGT the length of each why list.
	Groundtruth *FileCount `json:"groundtruth,omitempty"`
	KGT         int        `json:"k_gt,omitempty"`
}

// The origins of a split in Manifest.SplitOrigin.
const (
	OriginShares    = "split.New with the held-out shares, as ilpgnn train splits"
	OriginGenerator = "the synthetic generator's roles, negatives drawn with the seed, as ilpgnn train splits"
)

// manifestFormat names each format in Manifest.Format.
var manifestFormat = map[Format]string{
	FormatDGL:        "dgl-chunked",
	FormatGConstruct: "graphstorm-gconstruct",
	FormatPyG:        "pyg-npy",
}

// newManifest returns e's manifest, its edge file holding lines edges.
func newManifest(e Export, lines int) *Manifest {
	g := e.Graph
	f := e.format()
	m := &Manifest{
		Format:     manifestFormat[f],
		GraphName:  GraphName(g.Name),
		Source:     e.Source,
		WrittenBy:  cmp.Or(e.Producer, DefaultProducer+" --format "+string(f)),
		Nodes:      g.NumNodes(),
		Edges:      g.NumEdges(),
		Directions: "once",
		EdgeLines:  lines,
		FeatureDim: g.FeatureDim(),
		FeatureNNZ: g.Features.NNZ(),
		Seed:       e.Seed,
		ValFrac:    e.ValFrac,
		TestFrac:   e.TestFrac,
		Split:      map[string]FileCount{},
		NodeIDs:    NodeIDsFile,
	}
	if e.bothWays() {
		m.Directions = "both"
	}
	if f == FormatDGL {
		m.EdgeMasks = MaskFiles
	}
	if g.Labels != nil {
		m.Labels = map[Format]string{FormatDGL: LabelFile, FormatGConstruct: GConstructNodesFile, FormatPyG: PyGLabelFile}[f]
		m.ClassNames = g.ClassNames
	}
	m.SplitOrigin = OriginShares
	if e.Links != nil {
		m.SplitOrigin, m.ValFrac, m.TestFrac = OriginGenerator, 0, 0
		m.Groundtruth = &FileCount{File: GroundtruthFile, Count: len(e.Links)}
		if len(e.Links) > 0 {
			m.KGT = len(e.Links[0].WhyU)
		}
	}
	files := map[Format]map[string]string{FormatDGL: SplitFiles, FormatGConstruct: GConstructSplitFiles, FormatPyG: PyGSplitFiles}[f]
	for _, s := range splitSets(e.Split) {
		m.Split[s.name] = FileCount{File: files[s.name], Count: len(s.pairs)}
	}
	return m
}

// splitSet is one labelled set of a split.
type splitSet struct {
	name  string
	pairs []graph.Edge
}

// splitSets returns s's labelled sets in a fixed order.
func splitSets(s *split.Split) []splitSet {
	return []splitSet{
		{"train_pos", s.TrainPos},
		{"val_pos", s.ValPos}, {"val_neg", s.ValNeg},
		{"test_pos", s.TestPos}, {"test_neg", s.TestNeg},
	}
}

// role is the set an edge of the graph belongs to in a split.
type role int8

const (
	trainRole role = iota
	valRole
	testRole
	noRole role = -1
)

// maskNames are the masks of the roles, in role order.
var maskNames = [...]string{"train_mask", "val_mask", "test_mask"}

// edgeRoles returns the role of each of edges (g.Edges()) in s, or an
// error when s's positives are not a partition of them. An edge's place
// in g.Edges() follows from the CSR rows: the rows before its smaller end
// contribute their upper neighbours, then its rank among its row's
// (a binary search, so hubs cost no more than other nodes).
func edgeRoles(g *graph.Graph, edges []graph.Edge, s *split.Split) ([]role, error) {
	n := g.NumNodes()
	start := make([]int, n+1) // index in edges of row i's first edge
	for i := 0; i < n; i++ {
		start[i+1] = start[i] + len(upper(g, i))
	}
	roles := make([]role, len(edges))
	for k := range roles {
		roles[k] = noRole
	}
	for r, set := range [][]graph.Edge{s.TrainPos, s.ValPos, s.TestPos} {
		for _, e := range set {
			u, v := min(e.U, e.V), max(e.U, e.V)
			j, found := 0, false
			if u >= 0 && int(v) < n {
				j, found = slices.BinarySearch(upper(g, int(u)), v)
			}
			if !found {
				return nil, fmt.Errorf("the split's %s pair (%d, %d) is not an edge of the graph", maskNames[r], u, v)
			}
			k := start[u] + j
			if roles[k] != noRole {
				return nil, fmt.Errorf("edge (%d, %d) is in two sets of the split", u, v)
			}
			roles[k] = role(r)
		}
	}
	for k, r := range roles {
		if r == noRole {
			return nil, fmt.Errorf("edge (%d, %d) is in no set of the split", edges[k].U, edges[k].V)
		}
	}
	return roles, nil
}

// upper returns the neighbours of i above i (an alias of g's row).
func upper(g *graph.Graph, i int) []int32 {
	row := g.Neighbors(i)
	lo, _ := slices.BinarySearch(row, int32(i)+1)
	return row[lo:]
}
