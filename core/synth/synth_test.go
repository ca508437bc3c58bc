package synth

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
)

// small is a configuration that generates in milliseconds.
func small() Config {
	c := DefaultConfig()
	c.Nodes, c.Groups, c.FeatureDim, c.Edges = 200, 5, 16, 1200
	return c
}

// TestPresetCounts: every preset has the paper's edge count exactly, and the
// shares of base, training, validation and test edges docs/model.md §8 gives.
func TestPresetCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the three presets")
	}
	want := map[string][2]int{"sparse": {4243, 2}, "medium": {9576, 3}, "dense": {19826, 4}}
	for _, name := range Presets() {
		cfg, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Generate(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		edges, kgt := want[name][0], want[name][1]
		if got := d.Graph.NumEdges(); got != edges {
			t.Errorf("%s: %d edges, want %d", name, got, edges)
		}
		if cfg.KGT != kgt {
			t.Errorf("%s: K_gt %d, want %d", name, cfg.KGT, kgt)
		}
		added := edges - len(d.Base)
		roles := map[Role]int{}
		for _, l := range d.Links {
			roles[l.Role]++
			if len(l.WhyU) != kgt || len(l.WhyV) != kgt {
				t.Fatalf("%s: link %v has groundtruth %v / %v, want %d each", name, l.Edge, l.WhyU, l.WhyV, kgt)
			}
		}
		if len(d.Base) != int(0.6*float64(edges)+0.5) || len(d.Links) != added ||
			roles[Train] != int(0.5*float64(added)+0.5) || roles[Test] != int(0.4*float64(added)+0.5) ||
			roles[Train]+roles[Test]+roles[Validation] != added {
			t.Errorf("%s: base %d, links %d by role %v", name, len(d.Base), len(d.Links), roles)
		}
		if d.Graph.NumNodes() != 1000 || d.Graph.FeatureDim() != 128 {
			t.Errorf("%s: %d nodes, %d features", name, d.Graph.NumNodes(), d.Graph.FeatureDim())
		}
	}
}

// TestDeterministic: the same seed gives the same dataset, another seed
// another one.
func TestDeterministic(t *testing.T) {
	a, err := Generate(small(), 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(small(), 3)
	c, _ := Generate(small(), 4)
	if fingerprint.Of(a.Graph) != fingerprint.Of(b.Graph) || !slices.EqualFunc(a.Links, b.Links, sameLink) {
		t.Error("seed 3 twice gave different datasets")
	}
	if fingerprint.Of(a.Graph) == fingerprint.Of(c.Graph) {
		t.Error("seeds 3 and 4 gave the same graph")
	}
}

func sameLink(a, b Link) bool {
	return a.Edge == b.Edge && a.Role == b.Role && slices.Equal(a.WhyU, b.WhyU) && slices.Equal(a.WhyV, b.WhyV)
}

// rebuild regenerates the generator's internal state for cfg and seed: the
// raw features, the base graph and the stage structures, as Generate builds
// them.
func rebuild(t *testing.T, cfg Config, seed uint64, d *Dataset) (x []float64, g1, gTrain []graph.Edge) {
	t.Helper()
	x, _ = features(cfg, rand.New(rand.NewPCG(seed, streamFeatures)))
	g1 = d.Base
	gTrain = d.Edges(Train)
	return x, g1, gTrain
}

// TestGroundtruthBruteForce: every link's groundtruth is the top-K_gt of
// its end's neighbours by r(c, other end), recomputed by sorting all of
// them, in the graph of the link's stage; and the link is not an edge of
// that graph.
func TestGroundtruthBruteForce(t *testing.T) {
	cfg := small()
	d, err := Generate(cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	x, g1, gTrain := rebuild(t, cfg, 5, d)
	w := newWorld(cfg, x)
	stages := map[Role]*structure{Train: w.structure(g1), Validation: w.structure(gTrain)}
	stages[Test] = stages[Validation]
	for _, l := range d.Links {
		st := stages[l.Role]
		u, v := int(l.Edge.U), int(l.Edge.V)
		if st.edge[u*w.n+v] {
			t.Fatalf("link %v is already an edge of its stage graph", l.Edge)
		}
		for _, side := range [][3]int{{u, v, 0}, {v, u, 1}} {
			i, j := side[0], side[1]
			nb := slices.Clone(st.adj[i])
			r := func(c int32) float64 { return st.rel[int(c)*w.n+j] }
			slices.SortFunc(nb, func(a, b int32) int {
				if c := cmp.Compare(r(b), r(a)); c != 0 {
					return c
				}
				return cmp.Compare(a, b)
			})
			got := l.WhyU
			if side[2] == 1 {
				got = l.WhyV
			}
			if !slices.Equal(got, nb[:cfg.KGT]) {
				t.Fatalf("link %v side %d: groundtruth %v, brute force %v", l.Edge, i, got, nb[:cfg.KGT])
			}
		}
	}
}

// TestCausality (docs/model.md §8, item 3): perturbing the features of a neighbour of i
// outside GT(i|j), so that it stays outside, leaves w_ij exactly unchanged;
// perturbing a groundtruth neighbour changes it.
func TestCausality(t *testing.T) {
	cfg := small()
	d, err := Generate(cfg, 7)
	if err != nil {
		t.Fatal(err)
	}
	x, _, gTrain := rebuild(t, cfg, 7, d)
	w := newWorld(cfg, x)
	st := w.structure(gTrain)
	dim := cfg.FeatureDim
	// Features pointing away from j give c the lowest cosine to j, so a
	// non-groundtruth neighbour stays out of GT(i|j) and a groundtruth one
	// loses relevance.
	away := func(c, j int) []float64 {
		y := slices.Clone(x)
		for k := range dim {
			y[c*dim+k] = -x[j*dim+k]
		}
		return y
	}
	checked, changed := 0, 0
	for _, l := range d.Links {
		if l.Role != Test {
			continue
		}
		i, j := int(l.Edge.U), int(l.Edge.V)
		before, _, _ := w.weightKey(st, i, j, nil, nil)
		for _, c := range st.adj[i] {
			if c == int32(j) {
				continue
			}
			w2 := newWorld(cfg, away(int(c), j))
			st2 := w2.structure(gTrain)
			after, whyI, whyJ := w2.weightKey(st2, i, j, nil, nil)
			inGT := slices.Contains(l.WhyU, c)
			if !inGT && (slices.Contains(l.WhyV, c) || slices.Contains(whyJ, c)) {
				continue // a common neighbour that explains j's side
			}
			switch {
			case !inGT && !slices.Contains(whyI, c) && after != before:
				t.Fatalf("link %v: perturbing non-groundtruth neighbour %d changed log w from %v to %v", l.Edge, c, before, after)
			case inGT && after == before:
				t.Fatalf("link %v: perturbing groundtruth neighbour %d left log w at %v", l.Edge, c, before)
			case inGT:
				changed++
			default:
				checked++
			}
		}
		if checked > 40 && changed > 10 {
			break
		}
	}
	if checked == 0 || changed == 0 {
		t.Fatalf("checked %d non-groundtruth and %d groundtruth neighbours", checked, changed)
	}
}

// TestSplit: the dataset's split holds the generator's roles, and the base
// graph is homophilous (docs/model.md §8, item 2: ~81% of base edges within a component).
func TestSplit(t *testing.T) {
	d, err := Generate(small(), 2)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.TrainPos) != len(d.Edges(Train)) || len(sp.TestPos) != len(d.Edges(Test)) ||
		len(sp.ValPos) != len(d.Edges(Validation)) || len(sp.TestNeg) != len(sp.TestPos) {
		t.Fatalf("split sizes %d/%d/%d", len(sp.TrainPos), len(sp.ValPos), len(sp.TestPos))
	}
	for _, e := range sp.TestPos {
		l, ok := d.Explained(e.U, e.V)
		if !ok || l.Role != Test || sp.Train.HasEdge(int(e.U), int(e.V)) {
			t.Fatalf("test edge %v: link %v, in training graph %v", e, l, sp.Train.HasEdge(int(e.U), int(e.V)))
		}
		// Everything that caused a test link is visible in the training graph.
		for _, c := range l.WhyU {
			if !sp.Train.HasEdge(int(e.U), int(c)) {
				t.Fatalf("test link %v: groundtruth neighbour %d of %d is not a training neighbour", e, c, e.U)
			}
		}
	}
	same := 0
	for _, e := range d.Base {
		if d.Graph.Labels[e.U] == d.Graph.Labels[e.V] {
			same++
		}
	}
	if share := float64(same) / float64(len(d.Base)); share < 0.6 {
		t.Errorf("%.2f of base edges join nodes of one component, want most", share)
	}
}

func TestValidate(t *testing.T) {
	for name, mutate := range map[string]func(*Config){
		"nodes":  func(c *Config) { c.Nodes = 1 },
		"edges":  func(c *Config) { c.Edges = c.Nodes * c.Nodes },
		"share":  func(c *Config) { c.BaseShare = 1 },
		"kgt":    func(c *Config) { c.KGT = 0 },
		"tau":    func(c *Config) { c.Tau = 0 },
		"alpha":  func(c *Config) { c.Alpha = 1.5 },
		"shares": func(c *Config) { c.TrainShare, c.TestShare = 0.7, 0.5 },
	} {
		c := small()
		mutate(&c)
		if _, err := Generate(c, 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A graph too sparse for its K_gt cannot place its links.
	c := small()
	c.Edges, c.KGT = 150, 6
	if _, err := Generate(c, 0); err == nil {
		t.Error("K_gt 6 on 90 base edges: no error")
	}
	if _, err := Preset("huge"); err == nil {
		t.Error("unknown preset: no error")
	}
}

func BenchmarkGenerateMedium(b *testing.B) {
	cfg, _ := Preset("medium")
	for b.Loop() {
		if _, err := Generate(cfg, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEstimateMemory: the estimate by hand for a sampled and an exact
// configuration.
func TestEstimateMemory(t *testing.T) {
	c := Config{Nodes: 200000, Edges: 1000000, FeatureDim: 64, Method: Sampled}
	if got, want := EstimateMemory(c), int64(10e6+80*200000+100*1000000+28*200000*64); got != want {
		t.Errorf("sampled: %d, want %d", got, want)
	}
	c = Config{Nodes: 2000, Edges: 9576, FeatureDim: 128, Method: Exact}
	if got, want := EstimateMemory(c), int64(10e6+80*2000+100*9576+28*2000*128+33*2000*2000); got != want {
		t.Errorf("exact: %d, want %d", got, want)
	}
}
