package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ilpgnn/core/graphexport"
	"ilpgnn/core/load"
)

// TestSameGraphAnyFile: Zachary's karate club as networkx wrote it in
// GraphML, GEXF and node-link JSON, as graphology's JSON, and as an edge
// list with a features file whose lines are shuffled and whose edges are
// written either way round, gets the same split for a seed (every pair file
// export-graph writes, and its node ids, byte for byte) and the same
// validation and test AUC from train. Before nodes were numbered by id the
// edge list's first-appearance order gave it another split.
func TestSameGraphAnyFile(t *testing.T) {
	dir := t.TempDir()
	inputs := map[string]string{}
	for _, name := range []string{"karate.graphml", "karate.gexf", "karate.nodelink.json", "karate.graphology.json"} {
		inputs[name] = filepath.Join("..", "..", "load", "testdata", name)
	}
	inputs["edge list"] = shuffledEdgeList(t, inputs["karate.graphml"], filepath.Join(dir, "karate"))

	const seed = "4"
	var (
		firstName   string
		firstSplit  map[string][]byte
		firstResult trainJSON
	)
	for name, path := range inputs {
		out := filepath.Join(dir, "export-"+filepath.Base(path))
		if code, _, stderr := cli(t, "export-graph", "--data", path, "--format", "gconstruct", "--seed", seed, "--out", out); code != 0 {
			t.Fatalf("%s: export-graph: exit %d: %s", name, code, stderr)
		}
		files := map[string][]byte{"node_ids.txt": nil}
		for _, f := range graphexport.GConstructSplitFiles {
			files[f] = nil
		}
		for f := range files {
			b, err := os.ReadFile(filepath.Join(out, f))
			if err != nil {
				t.Fatal(err)
			}
			files[f] = b
		}
		code, stdout, stderr := cli(t, "train", "--data", path, "--seeds", seed, "--epochs", "15", "--hidden", "8", "--json")
		if code != 0 {
			t.Fatalf("%s: train: exit %d: %s", name, code, stderr)
		}
		var res trainJSON
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatal(err)
		}
		if firstSplit == nil {
			firstName, firstSplit, firstResult = name, files, res
			continue
		}
		for f, b := range files {
			if !bytes.Equal(b, firstSplit[f]) {
				t.Errorf("%s and %s: %s differs", name, firstName, f)
			}
		}
		if res.TestAUCMean != firstResult.TestAUCMean || res.ValAUCMean != firstResult.ValAUCMean {
			t.Errorf("%s: val AUC %v, test AUC %v; %s: %v, %v", name, res.ValAUCMean, res.TestAUCMean,
				firstName, firstResult.ValAUCMean, firstResult.TestAUCMean)
		}
	}
}

// shuffledEdgeList writes the graph in the file src into the new folder
// dir as an edge list (edges.csv: a header, the edges in a seeded random
// order, each either way round) and a features file (features.csv, its
// rows shuffled too), and returns dir.
func shuffledEdgeList(t *testing.T, src, dir string) string {
	t.Helper()
	g, err := load.Path(src)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(47, 4))
	edges := g.Edges()
	rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	var e bytes.Buffer
	e.WriteString("source,target\n")
	for _, ed := range edges {
		u, v := g.IDs[ed.U], g.IDs[ed.V]
		if rng.IntN(2) == 0 {
			u, v = v, u
		}
		fmt.Fprintf(&e, "%s,%s\n", u, v)
	}
	var f bytes.Buffer
	f.WriteString("node,club\n")
	for _, i := range rng.Perm(g.NumNodes()) {
		fmt.Fprintf(&f, "%s,%g\n", g.IDs[i], g.Features.At(i, 0))
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "edges.csv"), e.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "features.csv"), f.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestStringAttributeAnyFile: karate with its club as networkx has it, a
// string ("Mr. Hi" or "Officer"), in GraphML, GEXF, node-link and
// graphology JSON, becomes the two one-hot columns club=Mr. Hi and
// club=Officer in each, and trains to the same validation and test AUC as
// an edge list whose features file holds those two columns as numbers:
// the same content, whatever the format.
func TestStringAttributeAnyFile(t *testing.T) {
	dir := t.TempDir()
	club := map[string]string{"0": "Mr. Hi", "1": "Officer"}
	rewrite := func(name string, edit func(string) string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "load", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		writeText(t, p, edit(string(b)))
		return p
	}
	replace := func(pattern string) func(string) string {
		return func(s string) string {
			for v, name := range club {
				s = strings.ReplaceAll(s, fmt.Sprintf(pattern, v), fmt.Sprintf(pattern, name))
			}
			return s
		}
	}
	inputs := map[string]string{
		"graphml": rewrite("karate.graphml", func(s string) string {
			s = strings.Replace(s, `attr.name="club" attr.type="long"`, `attr.name="club" attr.type="string"`, 1)
			return replace(`<data key="d1">%s</data>`)(s)
		}),
		"gexf": rewrite("karate.gexf", func(s string) string {
			s = strings.Replace(s, `title="club" type="long"`, `title="club" type="string"`, 1)
			return replace(`<attvalue for="0" value="%s" />`)(s)
		}),
		"node-link": rewrite("karate.nodelink.json", func(s string) string {
			return strings.NewReplacer(`"club": 0`, `"club": "Mr. Hi"`, `"club": 1`, `"club": "Officer"`).Replace(s)
		}),
		"graphology": rewrite("karate.graphology.json", func(s string) string {
			return strings.NewReplacer(`"club": 0`, `"club": "Mr. Hi"`, `"club": 1`, `"club": "Officer"`).Replace(s)
		}),
	}
	// The edge list: karate's edges, and the club's one-hot columns as
	// numbers (17 members of each club: 34 non-zeros).
	g, err := load.Path(filepath.Join("..", "..", "load", "testdata", "karate.graphml"))
	if err != nil {
		t.Fatal(err)
	}
	el := filepath.Join(dir, "karate")
	if err := os.Mkdir(el, 0o755); err != nil {
		t.Fatal(err)
	}
	var e, f strings.Builder
	for _, ed := range g.Edges() {
		fmt.Fprintf(&e, "%s,%s\n", g.IDs[ed.U], g.IDs[ed.V])
	}
	f.WriteString("id,hi,officer\n")
	for i, id := range g.IDs {
		officer := g.Features.At(i, 0)
		fmt.Fprintf(&f, "%s,%g,%g\n", id, 1-officer, officer)
	}
	writeText(t, filepath.Join(el, "edges.csv"), e.String())
	writeText(t, filepath.Join(el, "features.csv"), f.String())
	inputs["edge list"] = el

	var first *trainJSON
	for name, path := range inputs {
		code, out, stderr := cli(t, "inspect", "--data", path)
		if code != 0 || !strings.Contains(out, "feature_dim: 2\nfeature_nnz: 34\n") || strings.Contains(out, "features_made_up") {
			t.Errorf("%s: inspect: exit %d, want 2 columns, 34 non-zeros, none made up:\n%s%s", name, code, out, stderr)
		}
		if name != "edge list" && !strings.Contains(out, `"club" (one-hot: "club=Mr. Hi", "club=Officer")`) {
			t.Errorf("%s: the note does not name the one-hot columns:\n%s", name, out)
		}
		code, out, stderr = cli(t, "train", "--data", path, "--seeds", "4", "--epochs", "15", "--hidden", "8", "--json")
		var res trainJSON
		if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
			t.Fatalf("%s: train: exit %d, %v: %s", name, code, err, stderr)
		}
		if first == nil {
			first = &res
		} else if res.TestAUCMean != first.TestAUCMean || res.ValAUCMean != first.ValAUCMean {
			t.Errorf("%s: val AUC %v, test AUC %v; another format: %v, %v", name, res.ValAUCMean, res.TestAUCMean, first.ValAUCMean, first.TestAUCMean)
		}
	}
}
