package graph

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Stats summarises a graph: its size, degree distribution and connectivity.
type Stats struct {
	Nodes      int // N
	Edges      int // M, undirected edges
	FeatureDim int // D
	FeatureNNZ int // stored feature entries

	// Density is 2M / (N(N-1)), the fraction of node pairs that are edges;
	// 0 when N < 2.
	Density float64

	MinDegree    int
	MaxDegree    int
	MeanDegree   float64 // 2M / N
	MedianDegree float64 // mean of the two middle degrees when N is even

	Isolated         int // nodes of degree 0
	Components       int // connected components, isolated nodes included
	LargestComponent int // nodes in the largest connected component

	// MissingFeatures counts the nodes the input gave no feature row
	// (Graph.MissingFeatures); MissingFeatureIDs names the first
	// MaxNamedMissing of them.
	MissingFeatures   int
	MissingFeatureIDs []string

	// SelfLoops and DuplicateEdges count the edges of the input removed
	// as self-loops and duplicates (Graph.SelfLoops, DuplicateEdges).
	SelfLoops, DuplicateEdges int

	// InputNotes are Graph.InputNotes: what the loader did not take from
	// the input as it stands, in sentences.
	InputNotes []string
}

// MaxNamedMissing is how many ids of nodes without a feature row Stats
// names.
const MaxNamedMissing = 5

// MaxNotes is the most sentences InputNotes returns; past it the last
// says how many more were left out, so that an input that gives a loader
// much to say cannot flood a terminal or the app's page.
const MaxNotes = 20

// InputNotes are sentences for users about everything the loader did not
// take from the input as it stands: lines read as a header or comments,
// ignored columns (ReadNotes), self-loops and duplicate edges removed, and
// nodes without a feature row. At most MaxNotes: the last ones, on
// removed edges and missing rows, are always there, and ReadNotes are
// cut by CapNotes to leave room for them. Nil when there is nothing to
// say.
func (g *Graph) InputNotes() []string {
	var own []string
	if s := DroppedEdgesNote(g.SelfLoops, g.DuplicateEdges); s != "" {
		own = append(own, s)
	}
	if s := g.MissingFeaturesNote(); s != "" {
		own = append(own, s)
	}
	notes := CapNotes(g.ReadNotes, MaxNotes-len(own))
	if len(notes) == 0 && len(own) == 0 {
		return nil
	}
	return append(slices.Clone(notes), own...)
}

// CapNotes returns notes when it holds at most most sentences (most is
// at least 1), else its first most-1 and a last saying how many more
// were left out.
func CapNotes(notes []string, most int) []string {
	if len(notes) <= most {
		return notes
	}
	out := slices.Clone(notes[:most-1])
	return append(out, fmt.Sprintf("%d more notes left out, to keep this list short", len(notes)-most+1))
}

// DroppedEdgesNote is the sentence for self-loops and duplicate edges
// removed, such as "3 duplicate edges (the same pair again, in either
// order) and 2 self-loops removed", or "" when both are 0.
func DroppedEdgesNote(selfLoops, duplicates int) string {
	var parts []string
	if duplicates > 0 {
		parts = append(parts, plural(duplicates, "duplicate edge")+" (the same pair again, in either order)")
	}
	if selfLoops > 0 {
		parts = append(parts, plural(selfLoops, "self-loop")+" (an edge from a node to itself)")
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " and ") + " removed"
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// MissingFeaturesNote is Stats().MissingFeaturesNote() without computing
// the rest of the statistics.
func (g *Graph) MissingFeaturesNote() string {
	n := len(g.MissingFeatures)
	return Stats{MissingFeatures: n, MissingFeatureIDs: g.MissingFeatures[:min(n, MaxNamedMissing)]}.MissingFeaturesNote()
}

// MissingFeaturesNote is a sentence for users about the nodes st counts in
// MissingFeatures, such as `15 nodes have no feature row (ids "a", "b", ...);
// their features are all zero`, or "" when there are none.
func (st Stats) MissingFeaturesNote() string {
	if st.MissingFeatures == 0 {
		return ""
	}
	quoted := make([]string, len(st.MissingFeatureIDs))
	for i, id := range st.MissingFeatureIDs {
		quoted[i] = strconv.Quote(id)
	}
	list := "id " + strings.Join(quoted, ", ")
	if len(quoted) > 1 {
		list = "ids " + list[3:]
	}
	if st.MissingFeatures > len(st.MissingFeatureIDs) {
		list += ", ..."
	}
	nodes, have := "nodes have", "their features are"
	if st.MissingFeatures == 1 {
		nodes, have = "node has", "its features are"
	}
	return fmt.Sprintf("%d %s no feature row (%s); %s all zero", st.MissingFeatures, nodes, list, have)
}

// Stats computes g's summary statistics in O(N log N + M). Components are
// found by breadth-first search with an explicit queue, so deep graphs cannot
// overflow the stack. The empty graph has all-zero Stats.
func (g *Graph) Stats() Stats {
	n := g.NumNodes()
	s := Stats{Nodes: n, Edges: g.NumEdges(), FeatureDim: g.FeatureDim(), FeatureNNZ: g.Features.NNZ(),
		MissingFeatures: len(g.MissingFeatures), SelfLoops: g.SelfLoops, DuplicateEdges: g.DuplicateEdges,
		InputNotes: g.InputNotes()}
	if s.MissingFeatures > 0 {
		s.MissingFeatureIDs = slices.Clone(g.MissingFeatures[:min(s.MissingFeatures, MaxNamedMissing)])
	}
	if n == 0 {
		return s
	}
	if n >= 2 {
		s.Density = 2 * float64(s.Edges) / (float64(n) * float64(n-1))
	}
	s.MeanDegree = 2 * float64(s.Edges) / float64(n)

	deg := make([]int32, n)
	for i := range deg {
		deg[i] = int32(g.Degree(i))
		if deg[i] == 0 {
			s.Isolated++
		}
	}
	slices.Sort(deg)
	s.MinDegree, s.MaxDegree = int(deg[0]), int(deg[n-1])
	if n%2 == 1 {
		s.MedianDegree = float64(deg[n/2])
	} else {
		s.MedianDegree = (float64(deg[n/2-1]) + float64(deg[n/2])) / 2
	}

	comp, k := g.components()
	sizes := make([]int, k)
	for _, c := range comp {
		sizes[c]++
	}
	s.Components = k
	s.LargestComponent = slices.Max(sizes)
	return s
}

// components labels each node with its connected component, numbered
// 0..k-1 in order of each component's smallest node, and returns k.
func (g *Graph) components() ([]int32, int) {
	n := g.NumNodes()
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	queue := make([]int32, 0, n)
	next := int32(0)
	for start := 0; start < n; start++ {
		if comp[start] >= 0 {
			continue
		}
		comp[start] = next
		queue = append(queue[:0], int32(start))
		for head := 0; head < len(queue); head++ {
			for _, j := range g.Neighbors(int(queue[head])) {
				if comp[j] < 0 {
					comp[j] = next
					queue = append(queue, j)
				}
			}
		}
		next++
	}
	return comp, int(next)
}

// String formats s on one line, for logs and the command line.
func (s Stats) String() string {
	return fmt.Sprintf("%d nodes, %d edges, %d features (%d non-zeros), density %.3g, "+
		"degree min %d / median %g / mean %.2f / max %d, %d isolated, %d components (largest %d)",
		s.Nodes, s.Edges, s.FeatureDim, s.FeatureNNZ, s.Density,
		s.MinDegree, s.MedianDegree, s.MeanDegree, s.MaxDegree,
		s.Isolated, s.Components, s.LargestComponent)
}
