package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/load"
)

// inspectKeys are inspect's keys, in the order the text prints them; its
// --json has the same keys, with missing_feature_ids and notes when there
// are any.
var inspectKeys = []string{"name", "nodes", "edges", "feature_dim", "feature_nnz", "density", "degree_min", "degree_max",
	"degree_mean", "degree_median", "isolated", "components", "largest_component", "missing_features",
	"self_loops_removed", "duplicate_edges_removed"}

// TestInspectJSON: inspect --json has the text output's snake_case keys
// and the same values, on the small fixture (no notes) and on Zachary's
// karate club as GraphML (two notes) and as an edge list without features
// (features_made_up).
func TestInspectJSON(t *testing.T) {
	karate := filepath.Join("..", "..", "load", "testdata", "karate.graphml")
	for _, data := range []string{small, karate, karateEdges(t)} {
		code, text, stderr := cli(t, "inspect", "--data", data)
		if code != 0 {
			t.Fatalf("inspect %s: exit %d: %s", data, code, stderr)
		}
		code, out, stderr := cli(t, "inspect", "--data", data, "--json")
		if code != 0 {
			t.Fatalf("inspect %s --json: exit %d: %s", data, code, stderr)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		var notes []string
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			key, value, _ := strings.Cut(line, ": ")
			if key == "note" {
				notes = append(notes, value)
				continue
			}
			switch v := got[key].(type) {
			case string:
				if v != value {
					t.Errorf("%s: %s is %q in --json, %q in the text", data, key, v, value)
				}
			case float64:
				if want, err := strconv.ParseFloat(value, 64); err != nil || abs(v-want) > 1e-4*max(1, abs(want)) {
					t.Errorf("%s: %s is %v in --json, %q in the text", data, key, v, value)
				}
			default:
				t.Errorf("%s: %s is %v (%T) in --json", data, key, got[key], got[key])
			}
		}
		want := slices.Clone(inspectKeys)
		if _, ok := got["features_made_up"]; ok {
			want = append(want, "features_made_up")
		}
		if notes != nil {
			want = append(want, "notes")
			if got, _ := json.Marshal(got["notes"]); string(got) != string(must(json.Marshal(notes))) {
				t.Errorf("%s: notes %s in --json, %q in the text", data, got, notes)
			}
		}
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, slices.Sorted(slices.Values(want))) {
			t.Errorf("%s: --json keys %q, want %q", data, keys, want)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// karateEdges writes the edges of Zachary's karate club, without features,
// to edges.csv in a new folder and returns the folder.
func karateEdges(t *testing.T) string {
	t.Helper()
	g, err := load.Path(filepath.Join("..", "..", "load", "testdata", "karate.graphml"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range g.Edges() {
		b.WriteString(g.IDs[e.U] + "," + g.IDs[e.V] + "\n")
	}
	dir := filepath.Join(t.TempDir(), "karate")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeText(t, filepath.Join(dir, "edges.csv"), b.String())
	return dir
}

// TestMadeUpFeaturesSaid: inspect and train say that a graph without node
// attributes (karate's edges alone) has features made up, one-hot ids,
// and say nothing of the kind for karate with its numeric attribute club.
func TestMadeUpFeaturesSaid(t *testing.T) {
	const madeUp = "one-hot node ids (the input has no numeric or categorical node attributes)"
	karate := filepath.Join("..", "..", "load", "testdata", "karate.graphml")
	for _, c := range []struct {
		data, inspect, train string
	}{
		{karateEdges(t), "feature_dim: 34\nfeature_nnz: 34\nfeatures_made_up: " + madeUp + "\n",
			"dataset karate: 34 nodes, 78 edges, 34 features: " + madeUp + "\n"},
		{karate, "feature_dim: 1\nfeature_nnz: 17\ndensity:", "dataset karate: 34 nodes, 78 edges, 1 feature\n"},
	} {
		code, out, stderr := cli(t, "inspect", "--data", c.data)
		if code != 0 || !strings.Contains(out, c.inspect) {
			t.Errorf("inspect %s: exit %d, lacks %q:\n%s%s", c.data, code, c.inspect, out, stderr)
		}
		code, out, stderr = cli(t, "train", "--data", c.data, "--seeds", "0", "--epochs", "2", "--hidden", "8")
		if code != 0 || !strings.HasPrefix(out, c.train) {
			t.Errorf("train %s: exit %d, does not start %q:\n%s%s", c.data, code, c.train, out, stderr)
		}
		code, out, stderr = cli(t, "train", "--data", c.data, "--seeds", "0", "--epochs", "2", "--hidden", "8", "--json")
		var res struct {
			FeaturesMadeUp *string `json:"features_made_up"`
		}
		if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
			t.Fatalf("train --json %s: exit %d, %v: %s", c.data, code, err, stderr)
		}
		if want := strings.Contains(c.inspect, madeUp); (res.FeaturesMadeUp != nil) != want || want && *res.FeaturesMadeUp != madeUp {
			t.Errorf("train --json %s: features_made_up %v, want it %v", c.data, res.FeaturesMadeUp, want)
		}
	}
}

// writeText writes s to p.
func writeText(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestInspectFormats: --data reads Zachary's karate club as GraphML, GEXF,
// networkx node-link JSON and graphology JSON (34 nodes, 78 edges, the
// numeric attribute "club" as the one feature), and a semicolon-separated
// edge list.
func TestInspectFormats(t *testing.T) {
	for _, name := range []string{"karate.graphml", "karate.gexf", "karate.nodelink.json", "karate.graphology.json"} {
		p := filepath.Join("..", "..", "load", "testdata", name)
		code, out, stderr := cli(t, "inspect", "--data", p)
		if code != 0 {
			t.Fatalf("inspect %s: exit %d: %s", name, code, stderr)
		}
		for _, want := range []string{"nodes: 34\n", "edges: 78\n", "feature_dim: 1\n", "feature_nnz: 17\n", "degree_max: 17\n",
			"note: " + p + `: the feature is the numeric node attribute "club"` + "\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("inspect %s lacks %q:\n%s", name, want, out)
			}
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "semi.csv")
	writeText(t, p, "source;target\nAnn;Bob\nBob;Cy\n")
	code, out, stderr := cli(t, "inspect", "--data", p)
	if code != 0 || !strings.Contains(out, "nodes: 3\nedges: 2\n") {
		t.Errorf("inspect semi.csv: exit %d: %s%s", code, out, stderr)
	}
	// A JSON file that is no graph is refused as such, not read as an
	// edge list of two nodes.
	p = filepath.Join(dir, "config.json")
	writeText(t, p, "{\"lr\": 0.01,\n \"epochs\": 3}\n")
	code, _, stderr = cli(t, "inspect", "--data", p)
	if want := p + `:1: no "nodes" array (the object has the keys "lr", "epochs")`; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("inspect config.json: exit %d: %s, want %q", code, stderr, want)
	}
}
