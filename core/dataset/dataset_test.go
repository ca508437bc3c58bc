package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ilpgnn/core/fingerprint"
	"ilpgnn/core/synth"
)

func TestParse(t *testing.T) {
	for _, bad := range []string{"", "synth:", "synth:huge", "synth:medium:seed=-1", "synth:medium:3", "synth:medium:seed=x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
	s, err := Parse("synth:sparse:seed=4")
	if err != nil || !s.Synthetic() || !s.seeded || s.seed != 4 || s.name != "sparse" {
		t.Fatalf("Parse(synth:sparse:seed=4) = %+v, %v", s, err)
	}
	if p, err := Parse("some/folder"); err != nil || p.Synthetic() {
		t.Errorf("a path: %+v, %v", p, err)
	}
}

// TestSyntheticSeeds: a synth spec without a seed follows the run's seed; a
// seeded one is the same graph for every run.
func TestSyntheticSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("generates sparse graphs")
	}
	free, _ := Parse("synth:sparse")
	a, err := free.Load(1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := free.Load(2)
	if fingerprint.Of(a.Graph) == fingerprint.Of(b.Graph) || a.Truth == nil {
		t.Error("runs 1 and 2 of synth:sparse got the same graph (or no groundtruth)")
	}
	fixed, _ := Parse("synth:sparse:seed=1")
	c, _ := fixed.Load(7)
	if fingerprint.Of(c.Graph) != fingerprint.Of(a.Graph) {
		t.Error("synth:sparse:seed=1 differs from synth:sparse at run seed 1")
	}
	sp, err := c.Split(7, 0.05, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(c.Truth.Edges(synth.Test)); len(sp.TestPos) != want {
		t.Errorf("%d test positives, the generator made %d", len(sp.TestPos), want)
	}
}

// TestFolders: a folder written by synth.WriteDir comes back with its
// groundtruth; a plain edge list has none and is split by shares.
func TestFolders(t *testing.T) {
	cfg := synth.DefaultConfig()
	cfg.Nodes, cfg.Groups, cfg.FeatureDim, cfg.Edges = 120, 4, 8, 700
	d, err := synth.Generate(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	src, _ := Parse(dir)
	got, err := src.Load(0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Truth == nil || len(got.Truth.Links) != len(d.Links) || got.Graph.NumEdges() != d.Graph.NumEdges() {
		t.Fatalf("read back %d links on %d edges, want %d on %d", len(got.Truth.Links), got.Graph.NumEdges(), len(d.Links), d.Graph.NumEdges())
	}
	if err := os.Remove(filepath.Join(dir, synth.GroundtruthFile)); err != nil {
		t.Fatal(err)
	}
	src, _ = Parse(dir)
	plain, err := src.Load(0)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := plain.Split(0, 0.05, 0.1)
	if err != nil || plain.Truth != nil || len(sp.TestPos) != int(0.1*float64(d.Graph.NumEdges())+0.5) {
		t.Fatalf("plain folder: truth %v, %d test edges, %v", plain.Truth != nil, len(sp.TestPos), err)
	}
	if _, err := Parse(filepath.Join(dir, "missing")); err != nil {
		t.Fatal(err)
	}
	missing, _ := Parse(filepath.Join(dir, "missing"))
	if _, err := missing.Load(0); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing path: %v", err)
	}
}

func TestName(t *testing.T) {
	for spec, want := range map[string]string{
		"synth:medium:seed=3":         "synth:medium:seed=3",
		"../shared/datasets/cora":     "cora",
		"../shared/datasets/cora/":    "cora",
		"data/amazon_photo/photo.npz": "photo",
	} {
		s, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Name(); got != want {
			t.Errorf("Name(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestParseSizes: a synth: spec's parameters override the preset's knobs
// (or the defaults'), pick the method by size unless named, and bad
// parameters are refused naming the key.
func TestParseSizes(t *testing.T) {
	arxiv := synth.DefaultConfig()
	arxiv.Nodes, arxiv.Edges, arxiv.FeatureDim, arxiv.Method = 169343, 1166243, 128, synth.Sampled
	dense, _ := synth.Preset("dense")
	denseSampled := dense
	denseSampled.Method = synth.Sampled
	small := synth.DefaultConfig()
	small.Nodes, small.Edges, small.FeatureDim, small.Groups, small.KGT = 300, 2000, 8, 3, 2
	for spec, want := range map[string]struct {
		cfg  synth.Config
		name string
		seed uint64
	}{
		"synth:nodes=169343:edges=1166243:dim=128:seed=0": {arxiv, "", 0},
		"synth:dense:method=sampled:seed=9":               {denseSampled, "", 9},
		"synth:dense:method=exact":                        {dense, "dense", 0},
		"synth:nodes=1000:edges=19826:kgt=4":              {dense, "dense", 0},
		"synth:nodes=300:edges=2000:dim=8:groups=3:kgt=2": {small, "", 0},
	} {
		s, err := Parse(spec)
		if err != nil {
			t.Fatalf("Parse(%q): %v", spec, err)
		}
		if s.preset != want.cfg || s.name != want.name || s.seed != want.seed || s.String() != spec {
			t.Errorf("Parse(%q) = %+v, want config %+v, name %q, seed %d", spec, s, want.cfg, want.name, want.seed)
		}
	}
	for spec, want := range map[string]string{
		"synth:nodes=0":                             "nodes=0: want a positive integer",
		"synth:dim=x":                               "dim=x: want a positive integer",
		"synth:edges=5:edges=6":                     "edges given twice",
		"synth:size=5":                              `unknown key "size"`,
		"synth:medium:fast":                         `"fast" is not KEY=VALUE`,
		"synth:medium:method=fast":                  `method=fast: unknown method "fast"`,
		"synth:nodes=5":                             "groups (Groups) = 10, need 1..nodes (5)",
		"synth:edges=600000":                        "edges (Edges) = 600000, need 1..499500",
		"synth:nodes=3000:edges=500000":             "edges (Edges) = 500000, the sampled method draws at most 0.1",
		"synth:nodes=9000:edges=99999:method=exact": "nodes (Nodes) = 9000, the exact method takes at most 5000",
		"synth:dim=0":                               "dim=0: want a positive integer",
	} {
		_, err := Parse(spec)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "dataset: \""+spec+"\": ") {
			t.Errorf("Parse(%q): error %v, want one quoting the spec and containing %q", spec, err, want)
		}
	}
}
