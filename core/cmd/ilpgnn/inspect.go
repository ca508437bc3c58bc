package main

import (
	"fmt"
	"io"

	"ilpgnn/core/graph"
	"ilpgnn/core/printable"
)

// inspectReport is what inspect prints: the graph's statistics under the
// snake_case names that the text output and every --json output use.
type inspectReport struct {
	Name                  string   `json:"name"`
	Nodes                 int      `json:"nodes"`
	Edges                 int      `json:"edges"`
	FeatureDim            int      `json:"feature_dim"`
	FeatureNNZ            int      `json:"feature_nnz"`
	Density               float64  `json:"density"`
	DegreeMin             int      `json:"degree_min"`
	DegreeMax             int      `json:"degree_max"`
	DegreeMean            float64  `json:"degree_mean"`
	DegreeMedian          float64  `json:"degree_median"`
	Isolated              int      `json:"isolated"`
	Components            int      `json:"components"`
	LargestComponent      int      `json:"largest_component"`
	MissingFeatures       int      `json:"missing_features"`
	MissingFeatureIDs     []string `json:"missing_feature_ids,omitempty"` // the first graph.MaxNamedMissing
	SelfLoopsRemoved      int      `json:"self_loops_removed"`
	DuplicateEdgesRemoved int      `json:"duplicate_edges_removed"`
	// FeaturesMadeUp is graph.Graph.MadeUpFeatures: what the features are
	// when the input gave none, and why; absent for the input's own.
	FeaturesMadeUp string `json:"features_made_up,omitempty"`
	// Notes are what the loader did not take from the data as it stands
	// (graph.Graph.InputNotes), as train's --json has them.
	Notes []string `json:"notes,omitempty"`
}

// newInspectReport summarises g.
func newInspectReport(g *graph.Graph) inspectReport {
	st := g.Stats()
	return inspectReport{Name: g.Name, Nodes: st.Nodes, Edges: st.Edges, FeatureDim: st.FeatureDim, FeatureNNZ: st.FeatureNNZ,
		Density: st.Density, DegreeMin: st.MinDegree, DegreeMax: st.MaxDegree, DegreeMean: st.MeanDegree,
		DegreeMedian: st.MedianDegree, Isolated: st.Isolated, Components: st.Components,
		LargestComponent: st.LargestComponent, MissingFeatures: st.MissingFeatures, MissingFeatureIDs: st.MissingFeatureIDs,
		SelfLoopsRemoved: st.SelfLoops, DuplicateEdgesRemoved: st.DuplicateEdges, Notes: st.InputNotes,
		FeaturesMadeUp: g.MadeUpFeatures}
}

func cmdInspect(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("inspect", "--data PATH [--json]", stderr)
	data := fs.String("data", "", dataHelp)
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "data"); err != nil {
		return err
	}
	_, d, err := openData(*data, 0)
	if err != nil {
		return err
	}
	r := newInspectReport(d.Graph)
	if *asJSON {
		return writeJSON(stdout, r)
	}
	printInspect(stdout, r)
	return nil
}

// printInspect writes r as "key: value" lines, one note a line at the end.
func printInspect(w io.Writer, r inspectReport) {
	fmt.Fprintf(w, "name: %s\n", printable.Name(r.Name))
	fmt.Fprintf(w, "nodes: %d\n", r.Nodes)
	fmt.Fprintf(w, "edges: %d\n", r.Edges)
	fmt.Fprintf(w, "feature_dim: %d\n", r.FeatureDim)
	fmt.Fprintf(w, "feature_nnz: %d\n", r.FeatureNNZ)
	if r.FeaturesMadeUp != "" {
		fmt.Fprintf(w, "features_made_up: %s\n", r.FeaturesMadeUp)
	}
	fmt.Fprintf(w, "density: %.6g\n", r.Density)
	fmt.Fprintf(w, "degree_min: %d\n", r.DegreeMin)
	fmt.Fprintf(w, "degree_max: %d\n", r.DegreeMax)
	fmt.Fprintf(w, "degree_mean: %.4f\n", r.DegreeMean)
	fmt.Fprintf(w, "degree_median: %g\n", r.DegreeMedian)
	fmt.Fprintf(w, "isolated: %d\n", r.Isolated)
	fmt.Fprintf(w, "components: %d\n", r.Components)
	fmt.Fprintf(w, "largest_component: %d\n", r.LargestComponent)
	fmt.Fprintf(w, "missing_features: %d\n", r.MissingFeatures)
	fmt.Fprintf(w, "self_loops_removed: %d\n", r.SelfLoopsRemoved)
	fmt.Fprintf(w, "duplicate_edges_removed: %d\n", r.DuplicateEdgesRemoved)
	for _, note := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", note)
	}
}
