// Package graph holds the undirected graph every other package works on:
// adjacency in CSR form (sorted neighbour lists, no self-loops, no duplicate
// edges), sparse float32 node features, and the mapping back to the user's
// own node ids and labels.
package graph

import (
	"fmt"
	"slices"

	"ilpgnn/core/f32"
)

// Edge is an undirected edge or a node pair. Normalised edges have U < V.
type Edge struct{ U, V int32 }

// Graph is an undirected simple graph on nodes 0..N-1.
//
// Neighbours of node i are Indices[Indptr[i]:Indptr[i+1]], sorted ascending.
// Every edge appears in both directions. Features is N x D (D may be 0); IDs
// are the user's node ids (len N); Labels is nil or holds a class index per
// node, -1 when unknown, naming ClassNames.
type Graph struct {
	Name       string
	Indptr     []int32
	Indices    []int32
	Features   *f32.CSR
	IDs        []string
	Labels     []int32
	ClassNames []string

	// MissingFeatures are the ids, in node order, of the nodes the input
	// named without giving them a feature row (a LINQS .cites id with no
	// .content line, an edge-list node absent from its features file). Their
	// rows are empty. The loaders set it so that users can be told; nothing
	// else reads it.
	MissingFeatures []string

	// MadeUpFeatures says, for features the input did not give, what
	// WithFallbackFeatures made up and why ("one-hot node ids (the input
	// has ...)"), so that every report can tell a user the features are
	// not theirs; it is "" when the features are the input's.
	MadeUpFeatures string

	// SelfLoops and DuplicateEdges count what New dropped from the edges
	// it was given: edges from a node to itself, and edges given again, in
	// either direction, after their first appearance. InputNotes states
	// them.
	SelfLoops, DuplicateEdges int

	// ReadNotes are the loader's sentences about lines of the input it
	// read as something other than data (a header, a block of comments)
	// or columns it ignored. InputNotes lists them first.
	ReadNotes []string

	index map[string]int32 // IDs -> node, built by New
}

// New builds a graph on n nodes from edges, normalising them: self-loops and
// duplicates are dropped, and counted in SelfLoops and DuplicateEdges, and
// each edge is stored in both directions. ids may
// be nil (nodes are then named "0".."n-1"); features may be nil (then an
// n x 0 matrix). It returns an error for an endpoint outside [0, n), for ids
// of the wrong length or with duplicates, or for features with n rows
// missing.
func New(n int, edges []Edge, features *f32.CSR, ids []string) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("graph: negative node count %d", n)
	}
	if ids == nil {
		ids = make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprint(i)
		}
	}
	if len(ids) != n {
		return nil, fmt.Errorf("graph: %d ids for %d nodes", len(ids), n)
	}
	if features == nil {
		features = &f32.CSR{Rows: n, Indptr: make([]int32, n+1)}
	}
	if features.Rows != n {
		return nil, fmt.Errorf("graph: features have %d rows for %d nodes", features.Rows, n)
	}
	index := make(map[string]int32, n)
	for i, id := range ids {
		if _, dup := index[id]; dup {
			return nil, fmt.Errorf("graph: node id %q appears twice", id)
		}
		index[id] = int32(i)
	}
	deg := make([]int32, n+1)
	selfLoops := 0
	for _, e := range edges {
		if e.U < 0 || int(e.U) >= n || e.V < 0 || int(e.V) >= n {
			return nil, fmt.Errorf("graph: edge (%d, %d) outside [0, %d)", e.U, e.V, n)
		}
		if e.U != e.V {
			deg[e.U+1]++
			deg[e.V+1]++
		} else {
			selfLoops++
		}
	}
	for i := 0; i < n; i++ {
		deg[i+1] += deg[i]
	}
	adj := make([]int32, deg[n])
	next := slices.Clone(deg[:n])
	for _, e := range edges {
		if e.U != e.V {
			adj[next[e.U]] = e.V
			next[e.U]++
			adj[next[e.V]] = e.U
			next[e.V]++
		}
	}
	// Sort and deduplicate each row in place, compacting as we go.
	indptr := make([]int32, n+1)
	w := int32(0)
	for i := 0; i < n; i++ {
		row := adj[deg[i]:deg[i+1]]
		slices.Sort(row)
		row = slices.Compact(row)
		w += int32(copy(adj[w:], row))
		indptr[i+1] = w
	}
	return &Graph{Indptr: indptr, Indices: slices.Clip(adj[:w]), Features: features, IDs: ids, index: index,
		SelfLoops: selfLoops, DuplicateEdges: len(edges) - selfLoops - int(w)/2}, nil
}

// NumNodes returns N.
func (g *Graph) NumNodes() int { return len(g.Indptr) - 1 }

// NumEdges returns the number of undirected edges.
func (g *Graph) NumEdges() int { return len(g.Indices) / 2 }

// FeatureDim returns the feature dimension D.
func (g *Graph) FeatureDim() int { return g.Features.Cols }

// FeatureSummary says how many features the nodes have and, when they were
// made up (MadeUpFeatures), what they are: "1433 features", "1 feature",
// "34 features: one-hot node ids (...)".
func (g *Graph) FeatureSummary() string {
	s := fmt.Sprintf("%d features", g.FeatureDim())
	if g.FeatureDim() == 1 {
		s = "1 feature"
	}
	if g.MadeUpFeatures != "" {
		s += ": " + g.MadeUpFeatures
	}
	return s
}

// Neighbors returns the sorted neighbours of node i. The slice aliases g.
func (g *Graph) Neighbors(i int) []int32 { return g.Indices[g.Indptr[i]:g.Indptr[i+1]] }

// Degree returns the number of neighbours of node i.
func (g *Graph) Degree(i int) int { return int(g.Indptr[i+1] - g.Indptr[i]) }

// HasEdge reports whether i and j are adjacent (binary search).
func (g *Graph) HasEdge(i, j int) bool {
	_, found := slices.BinarySearch(g.Neighbors(i), int32(j))
	return found
}

// Edges returns every undirected edge once, with U < V, sorted by (U, V).
func (g *Graph) Edges() []Edge {
	out := make([]Edge, 0, g.NumEdges())
	for i := 0; i < g.NumNodes(); i++ {
		for _, j := range g.Neighbors(i) {
			if int32(i) < j {
				out = append(out, Edge{int32(i), j})
			}
		}
	}
	return out
}

// WithEdges returns a graph with g's nodes, ids, features and labels but the
// given edges (for example the training edges of a split). Shared fields
// alias g's.
func (g *Graph) WithEdges(edges []Edge) (*Graph, error) {
	h, err := New(g.NumNodes(), edges, g.Features, g.IDs)
	if err != nil {
		return nil, err
	}
	h.Name, h.Labels, h.ClassNames = g.Name, g.Labels, g.ClassNames
	return h, nil
}

// NodeIndex returns the node whose user id is id.
func (g *Graph) NodeIndex(id string) (int, bool) {
	if g.index == nil { // a Graph built without New: no index to use
		i := slices.Index(g.IDs, id)
		return i, i >= 0
	}
	i, ok := g.index[id]
	return int(i), ok
}
