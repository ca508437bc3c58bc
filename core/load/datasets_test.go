package load

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/internal/datasets"
)

// dataset returns the path of a dataset, skipping the test without it.
func dataset(t testing.TB, rel string) string { return datasets.Path(t, rel) }

// counts are the measured numbers of a dataset. Oracle: the SOURCE.md of
// each dataset folder (counted there by scripts that parse the files
// directly) — exact integers, no tolerance.
type counts struct {
	nodes, edges, dim, nnz int
	isolated, components   int
	largest                int
	classes                int
	firstID                string
	classSize0             int // nodes labelled ClassNames[0]
}

func checkCounts(t *testing.T, g *graph.Graph, want counts) {
	t.Helper()
	checkValid(t, g)
	s := g.Stats()
	got := counts{nodes: s.Nodes, edges: s.Edges, dim: s.FeatureDim, nnz: s.FeatureNNZ,
		isolated: s.Isolated, components: s.Components, largest: s.LargestComponent,
		classes: len(g.ClassNames), firstID: g.IDs[0]}
	for _, l := range g.Labels {
		if l == 0 {
			got.classSize0++
		}
	}
	if got != want {
		t.Errorf("%s:\n got %+v\nwant %+v", g.Name, got, want)
	}
}

func TestDatasets(t *testing.T) {
	for _, tc := range []struct {
		path string
		name string
		want counts
	}{
		// 1. Cora LINQS: 2708 / 5278 / 1433 / 49216; Case_Based has 298 papers.
		{"cora", "cora", counts{2708, 5278, 1433, 49216, 0, 78, 2485, 7, "31336", 298}},
		// 2. Citeseer LINQS with its 15 cited-only ids: 3327 / 4552; 48
		//    isolated, 438 components, largest 2120 (the Planetoid column);
		//    AI has 249 papers.
		{"citeseer", "citeseer", counts{3327, 4552, 3703, 105165, 48, 438, 2120, 6, "100157", 249}},
		// 3. Amazon Photo: 7650 / 119081 / 745 / 1979909; 115 isolated,
		//    136 components, largest 7487; label 0 has 369 nodes.
		{"amazon_photo", "amazon_electronics_photo", counts{7650, 119081, 745, 1979909, 115, 136, 7487, 8, "0", 369}},
		// 4. Cora npz: same graph as 1, node_names sorted as strings.
		{"cora/npz", "cora", counts{2708, 5278, 1433, 49216, 0, 78, 2485, 7, "1000012", 298}},
		// 5. Citeseer npz: only the 3312 .content papers, 4536 edges, largest
		//    component 2110.
		{"citeseer/npz", "citeseer", counts{3312, 4536, 3703, 105165, 48, 438, 2110, 6, "100157", 249}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			g, err := Path(dataset(t, tc.path))
			if err != nil {
				t.Fatal(err)
			}
			if g.Name != tc.name {
				t.Errorf("Name = %q, want %q", g.Name, tc.name)
			}
			checkCounts(t, g, tc.want)
		})
	}
}

func TestCiteseerMissingIDs(t *testing.T) {
	g, err := Path(dataset(t, "citeseer"))
	if err != nil {
		t.Fatal(err)
	}
	// The 15 ids of citeseer/SOURCE.md, in order of first appearance in
	// .cites (checked by hand against the file), after the 3312 rows.
	missing := g.IDs[3312:]
	want := []string{"197556", "293457", "38137", "95786", "flach99database", "gabbard97taxonomy",
		"ghani01hypertext", "hahn98ontology", "khardon99relational", "kohrs99using", "nielsen00designing",
		"raisamo99evaluating", "tobies99pspace", "wang01process", "weng95shoslifn"}
	sorted := slices.Sorted(slices.Values(missing))
	if !slices.Equal(sorted, want) {
		t.Fatalf("missing ids %v", missing)
	}
	// The graph says so, in node order, and so do its Stats.
	if !slices.Equal(g.MissingFeatures, missing) {
		t.Errorf("MissingFeatures %v, want %v", g.MissingFeatures, missing)
	}
	if st := g.Stats(); st.MissingFeatures != 15 || !slices.Equal(st.MissingFeatureIDs, missing[:5]) {
		t.Errorf("Stats: %d missing, named %v", st.MissingFeatures, st.MissingFeatureIDs)
	}
	degs := map[int]int{}
	for i := 3312; i < g.NumNodes(); i++ {
		if idx, _ := g.Features.Row(i); len(idx) != 0 || g.Labels[i] != -1 {
			t.Errorf("node %s has features or a label", g.IDs[i])
		}
		degs[g.Degree(i)]++
	}
	// SOURCE.md: fourteen of degree 1, one of degree 2.
	if degs[1] != 14 || degs[2] != 1 {
		t.Errorf("degrees of the cited-only ids: %v", degs)
	}
}

func mustIndex(t *testing.T, g *graph.Graph, id string) int {
	t.Helper()
	i, ok := g.NodeIndex(id)
	if !ok {
		t.Fatalf("no node %q", id)
	}
	return i
}

// TestCoraFormatsAgree checks that the LINQS and npz copies of Cora hold the
// same graph once nodes are matched by paper id.
func TestCoraFormatsAgree(t *testing.T) {
	a, err := Path(dataset(t, "cora"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Path(dataset(t, "cora/npz"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < a.NumNodes(); i++ {
		j := mustIndex(t, b, a.IDs[i])
		if a.ClassNames[a.Labels[i]] != b.ClassNames[b.Labels[j]] {
			t.Fatalf("node %s: label %s vs %s", a.IDs[i], a.ClassNames[a.Labels[i]], b.ClassNames[b.Labels[j]])
		}
		ia, va := a.Features.Row(i)
		ib, vb := b.Features.Row(j)
		if !slices.Equal(ia, ib) || !slices.Equal(va, vb) {
			t.Fatalf("node %s: features differ", a.IDs[i])
		}
		var na, nb []string
		for _, k := range a.Neighbors(i) {
			na = append(na, a.IDs[k])
		}
		for _, k := range b.Neighbors(j) {
			nb = append(nb, b.IDs[k])
		}
		slices.Sort(na)
		slices.Sort(nb)
		if !slices.Equal(na, nb) {
			t.Fatalf("node %s: neighbours differ", a.IDs[i])
		}
	}
}

// TestDatasetsBytesAgree checks that Bytes on the files' contents gives the
// graph Path gives.
func TestDatasetsBytesAgree(t *testing.T) {
	for _, rel := range []string{"cora", "amazon_photo"} {
		t.Run(rel, func(t *testing.T) {
			dir := dataset(t, rel)
			want, err := Path(dir)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if !e.IsDir() {
					b, err := os.ReadFile(filepath.Join(dir, e.Name()))
					if err != nil {
						t.Fatal(err)
					}
					files[e.Name()] = b
				}
			}
			got, err := Bytes(files)
			if err != nil {
				t.Fatal(err)
			}
			sameGraph(t, got, want)
		})
	}
}

func BenchmarkLoad(b *testing.B) {
	for _, rel := range []string{"cora", "citeseer", "amazon_photo", "cora/npz"} {
		b.Run("dataset="+rel, func(b *testing.B) {
			p := dataset(b, rel)
			for b.Loop() {
				if _, err := Path(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
