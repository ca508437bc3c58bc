package main

import (
	"path/filepath"
	"strings"
	"testing"

	"ilpgnn/core/synth"
)

// TestSynthSizes: --nodes, --edges and --dim generate a graph of that size
// by the sampled process, written as files that read back with every edge
// and link; the same sizes work as a --data spec.
func TestSynthSizes(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "big")
	code, out, stderr := cli(t, "synth", "--nodes", "3000", "--edges", "20000", "--dim", "16", "--seed", "4", "--out", dir)
	if code != 0 || !strings.Contains(out, "3000 nodes, 20000 edges (12000 base, 8000 explained: 4000 train, 800 validation, 3200 test)") ||
		!strings.Contains(out, "sampled method") {
		t.Fatalf("synth: exit %d, %q, %q", code, out, stderr)
	}
	d, err := synth.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Graph.NumNodes() != 3000 || d.Graph.NumEdges() != 20000 || d.Graph.FeatureDim() != 16 || len(d.Links) != 8000 {
		t.Fatalf("read back %d nodes, %d edges, %d features, %d links", d.Graph.NumNodes(), d.Graph.NumEdges(), d.Graph.FeatureDim(), len(d.Links))
	}
	code, out, stderr = cli(t, "inspect", "--data", "synth:nodes=3000:edges=20000:dim=16:seed=4")
	if code != 0 || !strings.Contains(out, "nodes: 3000") || !strings.Contains(out, "edges: 20000") {
		t.Fatalf("inspect: exit %d, %q, %q", code, out, stderr)
	}
}

// TestSynthBadSizes: impossible sizes exit with an error naming the flag.
func TestSynthBadSizes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x")
	for want, args := range map[string][]string{
		"--edges 0: need a positive integer":         {"--edges", "0"},
		"--dim -3: need a positive integer":          {"--dim", "-3"},
		"edges (Edges) = 900000, need 1..499500":     {"--edges", "900000"},
		"groups (Groups) = 10, need 1..nodes (5)":    {"--nodes", "5"},
		"--method: unknown method \"fast\"":          {"--method", "fast"},
		"nodes (Nodes) = 10000, the exact method":    {"--nodes", "10000", "--method", "exact"},
		"edges (Edges) = 400000, the sampled method": {"--nodes", "2500", "--edges", "400000"},
		"--preset: synth: unknown preset \"huge\"":   {"--preset", "huge"},
	} {
		code, _, stderr := cli(t, append([]string{"synth", "--out", out}, args...)...)
		if code == 0 || !strings.Contains(stderr, want) {
			t.Errorf("synth %v: exit %d, stderr %q, want it to contain %q", args, code, stderr, want)
		}
	}
}
