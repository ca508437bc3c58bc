package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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
