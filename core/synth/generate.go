package synth

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"ilpgnn/core/detmath"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/split"
)

// PCG streams, one per random stage, so changing one stage's draws never
// shifts another's (ASCII tags).
const (
	streamFeatures uint64 = 0x73_796e_6665_6174 // "synfeat"
	streamBase     uint64 = 0x73_796e_6261_7365 // "synbase"
	streamStage1   uint64 = 0x73_796e_7374_6731 // "synstg1"
	streamStage2   uint64 = 0x73_796e_7374_6732 // "synstg2"
	streamRoles    uint64 = 0x73_796e_726f_6c65 // "synrole"
)

// Role says which labelled set an explained link belongs to.
type Role int8

// The roles of explained links: stage-1 links are training edges; stage-2
// links are split into test and validation.
const (
	Train Role = iota
	Validation
	Test
)

func (r Role) String() string {
	switch r {
	case Train:
		return "train"
	case Validation:
		return "val"
	case Test:
		return "test"
	}
	return fmt.Sprintf("Role(%d)", int8(r))
}

// ParseRole is the inverse of Role.String.
func ParseRole(s string) (Role, error) {
	for _, r := range []Role{Train, Validation, Test} {
		if s == r.String() {
			return r, nil
		}
	}
	return 0, fmt.Errorf("unknown role %q (want train, val or test)", s)
}

// Link is an explained edge: one drawn because of its ends' groundtruth
// neighbours.
type Link struct {
	Edge graph.Edge // U < V
	Role Role
	// WhyU is GT(U|V), the K_gt neighbours of U most similar to V in the
	// graph the link was drawn from, most similar first; WhyV is GT(V|U).
	WhyU, WhyV []int32
}

// Why returns the groundtruth neighbours of end i of the link (i must be
// Edge.U or Edge.V).
func (l *Link) Why(i int32) []int32 {
	if i == l.Edge.U {
		return l.WhyU
	}
	return l.WhyV
}

// Dataset is a generated graph with the groundtruth of every explained link.
type Dataset struct {
	// Graph holds every edge, the features and the group of each node as
	// its class label.
	Graph *graph.Graph
	// Base is the homophilous base graph G1's edges (U < V); they are
	// training edges with no explanation.
	Base []graph.Edge
	// Links are the explained edges: stage 1 (training) first, then stage 2
	// (test and validation).
	Links []Link

	byEdge map[graph.Edge]int // Links index by edge, built on first use
}

// Generate draws a dataset from cfg and seed (docs/model.md §8).
func Generate(cfg Config, seed uint64) (*Dataset, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	_, _, nTest, _ := cfg.counts()
	x, components := features(cfg, rand.New(rand.NewPCG(seed, streamFeatures)))
	var base []graph.Edge
	var stage1, stage2 []Link
	var err error
	if cfg.Method == Sampled {
		base, stage1, stage2, err = generateSampled(cfg, seed, x, components)
	} else {
		base, stage1, stage2, err = generateExact(cfg, seed, x)
	}
	if err != nil {
		return nil, err
	}
	trainEdges := append(slices.Clone(base), edgesOf(stage1)...)
	roles := rand.New(rand.NewPCG(seed, streamRoles))
	roles.Shuffle(len(stage2), func(a, b int) { stage2[a], stage2[b] = stage2[b], stage2[a] })
	for k := range stage2 {
		stage2[k].Role = Validation
		if k < nTest {
			stage2[k].Role = Test
		}
	}

	all := append(trainEdges, edgesOf(stage2)...)
	g, err := graph.New(cfg.Nodes, all, denseCSR(x, cfg.Nodes, cfg.FeatureDim), nil)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err) // cannot happen: edges are in range
	}
	g.Name = "synth"
	if p := PresetName(cfg); p != "" {
		g.Name = fmt.Sprintf("synth:%s:seed=%d", p, seed)
	} else if cfg.Method == Sampled {
		g.Name = fmt.Sprintf("synth:nodes=%d:edges=%d:dim=%d:seed=%d", cfg.Nodes, cfg.Edges, cfg.FeatureDim, seed)
	}
	g.Labels = components
	for m := range cfg.Groups {
		g.ClassNames = append(g.ClassNames, fmt.Sprintf("component %d", m))
	}
	return &Dataset{Graph: g, Base: base, Links: append(stage1, stage2...)}, nil
}

// generateExact draws the base graph and the two stages' links by SPEC
// §8's process over all node pairs.
func generateExact(cfg Config, seed uint64, x []float64) (base []graph.Edge, stage1, stage2 []Link, err error) {
	nBase, nTrain, nTest, nVal := cfg.counts()
	w := newWorld(cfg, x)
	base = w.baseGraph(nBase, rand.New(rand.NewPCG(seed, streamBase)))
	g1 := w.structure(base)
	stage1, err = w.drawLinks(g1, nTrain, rand.New(rand.NewPCG(seed, streamStage1)))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("synth: stage 1: %w", err)
	}
	trainEdges := append(slices.Clone(base), edgesOf(stage1)...)
	gTrain := w.structure(trainEdges)
	stage2, err = w.drawLinks(gTrain, nTest+nVal, rand.New(rand.NewPCG(seed, streamStage2)))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("synth: stage 2: %w", err)
	}
	return base, stage1, stage2, nil
}

func edgesOf(links []Link) []graph.Edge {
	out := make([]graph.Edge, len(links))
	for k, l := range links {
		out[k] = l.Edge
	}
	return out
}

// Explained returns the link of edge (u, v) in either orientation.
func (d *Dataset) Explained(u, v int32) (*Link, bool) {
	if d.byEdge == nil {
		d.byEdge = make(map[graph.Edge]int, len(d.Links))
		for k, l := range d.Links {
			d.byEdge[l.Edge] = k
		}
	}
	k, ok := d.byEdge[graph.Edge{U: min(u, v), V: max(u, v)}]
	if !ok {
		return nil, false
	}
	return &d.Links[k], true
}

// Edges returns the edges of the given role: Train gives the base graph and
// the stage-1 links.
func (d *Dataset) Edges(r Role) []graph.Edge {
	var out []graph.Edge
	if r == Train {
		out = slices.Clone(d.Base)
	}
	for _, l := range d.Links {
		if l.Role == r {
			out = append(out, l.Edge)
		}
	}
	return out
}

// Split returns the link-prediction split the generator defined: training
// positives are the base graph and the stage-1 links, validation and test
// positives the stage-2 links of those roles; negatives are drawn from the
// seed as split.New draws them.
func (d *Dataset) Split(seed uint64) (*split.Split, error) {
	return split.Fixed(d.Graph, seed, d.Edges(Train), d.Edges(Validation), d.Edges(Test))
}

// features draws the Gaussian-mixture features (docs/model.md §8, item 1) as a row-major
// N×d0 matrix, and the mixture component each node's features came from
// (its own group's with probability ~2/3 at the default MixNoise).
func features(cfg Config, rng *rand.Rand) ([]float64, []int32) {
	n, d, m := cfg.Nodes, cfg.FeatureDim, cfg.Groups
	mu := make([]float64, m*d)
	for k := range mu {
		mu[k] = cfg.GroupSpread * normal(rng)
	}
	x := make([]float64, n*d)
	components := make([]int32, n)
	phi := make([]float64, m)
	for i := range n {
		group := i * m / n
		sum := 0.0
		for k := range phi {
			phi[k] = cfg.MixNoise * rng.Float64()
			if k == group {
				phi[k]++
			}
			sum += phi[k]
		}
		// z ~ Categorical(φ / Σφ), by inverting the cumulative sum.
		u, z := rng.Float64()*sum, m-1
		for k, p := range phi {
			if u < p {
				z = k
				break
			}
			u -= p
		}
		components[i] = int32(z)
		row := x[i*d : i*d+d]
		for k := range row {
			row[k] = mu[z*d+k] + normal(rng)
		}
	}
	return x, components
}

// normal returns a standard normal deviate by Marsaglia's polar method,
// which needs only detmath.Log and the exactly rounded math.Sqrt.
func normal(rng *rand.Rand) float64 {
	for {
		u, v := 2*rng.Float64()-1, 2*rng.Float64()-1
		s := float64(u*u) + float64(v*v)
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*detmath.Log(s)/s)
		}
	}
}

// gumbel returns a standard Gumbel deviate, -log(-log U) with U in (0, 1).
func gumbel(rng *rand.Rand) float64 {
	u := (float64(rng.Uint64()>>11) + 0.5) / (1 << 53)
	return -detmath.Log(-detmath.Log(u))
}

// denseCSR stores the n×d matrix x as float32 CSR, dropping exact zeros.
func denseCSR(x []float64, n, d int) *f32.CSR {
	a := &f32.CSR{Rows: n, Cols: d, Indptr: make([]int32, n+1)}
	for i := range n {
		for k, v := range x[i*d : i*d+d] {
			if v := float32(v); v != 0 {
				a.Indices = append(a.Indices, int32(k))
				a.Values = append(a.Values, v)
			}
		}
		a.Indptr[i+1] = int32(len(a.Indices))
	}
	return a
}

// world holds what every stage reads: the configuration and the cosine
// similarity of the raw features.
type world struct {
	cfg Config
	n   int
	cos []float64 // N×N, symmetric
}

func newWorld(cfg Config, x []float64) *world {
	n, d := cfg.Nodes, cfg.FeatureDim
	unit := make([]float64, len(x))
	for i := range n {
		row := x[i*d : i*d+d]
		var ss float64
		for _, v := range row {
			ss += float64(v * v)
		}
		if ss == 0 {
			continue // a zero vector has cosine 0 with everything
		}
		inv := 1 / math.Sqrt(ss)
		for k, v := range row {
			unit[i*d+k] = v * inv
		}
	}
	w := &world{cfg: cfg, n: n, cos: make([]float64, n*n)}
	for i := range n {
		ui := unit[i*d : i*d+d]
		for j := i; j < n; j++ {
			uj := unit[j*d : j*d+d][:len(ui)]
			var s float64
			for k, v := range ui {
				s += float64(v * uj[k])
			}
			w.cos[i*n+j], w.cos[j*n+i] = s, s
		}
	}
	return w
}

// baseGraph draws m pairs without replacement with weight
// ((cos + 1) / 2)^q: the m largest keys q·log(weight) + Gumbel (docs/model.md §8, item 2).
func (w *world) baseGraph(m int, rng *rand.Rand) []graph.Edge {
	n, q := w.n, w.cfg.Homophily
	top := newTopKeys(m)
	for i := range n {
		for j := i + 1; j < n; j++ {
			key := gumbel(rng)
			if q != 0 {
				key += q * detmath.Log((w.cos[i*n+j]+1)/2) // -Inf for opposite vectors
			}
			top.offer(keyed{key, graph.Edge{U: int32(i), V: int32(j)}})
		}
	}
	return top.edges()
}

// keyed is a candidate pair with its sampling key.
type keyed struct {
	key  float64
	edge graph.Edge
}

// before reports whether a comes before b among the drawn edges: the
// larger key first (cmp.Compare's order, so NaN last), ties by edge.
func before(a, b keyed) bool {
	if c := cmp.Compare(b.key, a.key); c != 0 {
		return c < 0
	}
	if a.edge.U != b.edge.U {
		return a.edge.U < b.edge.U
	}
	return a.edge.V < b.edge.V
}

// topKeys keeps the m first candidates in before's order as they stream
// past, in a heap whose root is the last one kept. Drawing m edges from
// the ~N²/2 candidates then needs no list of them all and no full sort:
// most candidates lose one comparison with the root.
type topKeys struct {
	m    int
	heap []keyed
}

func newTopKeys(m int) *topKeys { return &topKeys{m: m, heap: make([]keyed, 0, m)} }

// offer considers one candidate.
func (t *topKeys) offer(x keyed) {
	h := t.heap
	if len(h) < t.m {
		h = append(h, x)
		for c := len(h) - 1; c > 0; {
			p := (c - 1) / 2
			if !before(h[p], h[c]) {
				break
			}
			h[p], h[c] = h[c], h[p]
			c = p
		}
		t.heap = h
		return
	}
	if t.m == 0 || !before(x, h[0]) {
		return
	}
	h[0] = x
	for p := 0; ; {
		worst, l, r := p, 2*p+1, 2*p+2
		if l < len(h) && before(h[worst], h[l]) {
			worst = l
		}
		if r < len(h) && before(h[worst], h[r]) {
			worst = r
		}
		if worst == p {
			return
		}
		h[p], h[worst] = h[worst], h[p]
		p = worst
	}
}

// edges returns the kept candidates' edges in before's order.
func (t *topKeys) edges() []graph.Edge {
	slices.SortFunc(t.heap, func(a, b keyed) int {
		if before(a, b) {
			return -1
		}
		return 1 // edges are distinct, so no two candidates tie
	})
	out := make([]graph.Edge, len(t.heap))
	for k, x := range t.heap {
		out[k] = x.edge
	}
	return out
}

// structure is one stage's graph: adjacency and the relevance r(c, j) of
// every node pair (docs/model.md §8, item 3).
type structure struct {
	adj  [][]int32 // sorted neighbours
	edge []bool    // N×N adjacency
	rel  []float64 // N×N, symmetric: α·S_ST + (1-α)·(cos+1)/2
}

// structure builds the stage graph of edges: S_ST = (A + A²/2 + A³/3)
// divided by its largest off-diagonal entry, mixed with the features.
func (w *world) structure(edges []graph.Edge) *structure {
	n := w.n
	st := &structure{adj: make([][]int32, n), edge: make([]bool, n*n), rel: make([]float64, n*n)}
	for _, e := range edges {
		st.adj[e.U] = append(st.adj[e.U], e.V)
		st.adj[e.V] = append(st.adj[e.V], e.U)
		st.edge[int(e.U)*n+int(e.V)], st.edge[int(e.V)*n+int(e.U)] = true, true
	}
	for _, a := range st.adj {
		slices.Sort(a)
	}
	a2 := make([]float64, n*n) // path counts, exact in float64
	for i, ni := range st.adj {
		for _, c := range ni {
			for _, k := range st.adj[c] {
				a2[i*n+int(k)]++
			}
		}
	}
	a3 := make([]float64, n*n)
	for i, ni := range st.adj {
		row := a3[i*n : i*n+n]
		for _, c := range ni {
			for k, v := range a2[int(c)*n : int(c)*n+n] {
				row[k] += v
			}
		}
	}
	s := st.rel
	top := 0.0
	for i := range n {
		for j := range n {
			v := a2[i*n+j]/2 + a3[i*n+j]/3
			if st.edge[i*n+j] {
				v++
			}
			s[i*n+j] = v
			if i != j {
				top = max(top, v)
			}
		}
	}
	alpha := w.cfg.Alpha
	for k, v := range s {
		if top > 0 {
			v /= top
		}
		s[k] = float64(alpha*v) + float64((1-alpha)*(w.cos[k]+1)/2)
	}
	return st
}

// why fills dst with GT(i|j), the KGT neighbours c of i with the largest
// r(c, j), largest first, ties by node id, and returns it with the sum of
// their r. i must have at least KGT neighbours.
func (w *world) why(st *structure, i, j int, dst []int32) ([]int32, float64) {
	return w.whyStrided(st, i, j*w.n, 1, dst) // r(c, j) = rel[j][c]
}

// whyStrided is why with r(c, j) read as rel[base + c·stride]. rel is
// symmetric bit for bit, so rel[j][c] (base j·n, stride 1) and rel[c][j]
// (base j, stride n) are the same numbers: drawLinks, which calls why for
// every j of a fixed i, reads the second way, one sequential stream per
// neighbour of i instead of a scattered row per j.
func (w *world) whyStrided(st *structure, i, base, stride int, dst []int32) ([]int32, float64) {
	k := w.cfg.KGT
	dst = dst[:0]
	rel := st.rel
	r := func(c int32) float64 { return rel[base+int(c)*stride] }
	for _, c := range st.adj[i] {
		// Insert c into the sorted top list when it beats its last entry;
		// neighbours come in increasing id, so a tie never displaces.
		if len(dst) == k && r(c) <= r(dst[k-1]) {
			continue
		}
		if len(dst) < k {
			dst = append(dst, c)
		} else {
			dst[k-1] = c
		}
		for p := len(dst) - 1; p > 0 && r(dst[p]) > r(dst[p-1]); p-- {
			dst[p], dst[p-1] = dst[p-1], dst[p]
		}
	}
	var sum float64
	for _, c := range dst {
		sum += r(c)
	}
	return dst, sum
}

// weightKey returns log w_ij = r̄_ij / τ for a non-edge whose ends both
// have KGT neighbours (docs/model.md §8, item 3), with the two groundtruth lists.
func (w *world) weightKey(st *structure, i, j int, bufI, bufJ []int32) (key float64, whyI, whyJ []int32) {
	whyI, si := w.whyStrided(st, i, j, w.n, bufI) // r(c, j) = rel[c][j]
	whyJ, sj := w.why(st, j, i, bufJ)
	rbar := (si + sj) / float64(2*w.cfg.KGT)
	return rbar / w.cfg.Tau, whyI, whyJ
}

// drawLinks draws m new edges among the eligible non-edges of st without
// replacement, with weight w_ij = exp(r̄_ij / τ) (keys log w + Gumbel), and
// explains each.
func (w *world) drawLinks(st *structure, m int, rng *rand.Rand) ([]Link, error) {
	n, k := w.n, w.cfg.KGT
	top := newTopKeys(m)
	eligible := 0
	bufI, bufJ := make([]int32, 0, k), make([]int32, 0, k)
	for i := range n {
		if len(st.adj[i]) < k {
			continue
		}
		for j := i + 1; j < n; j++ {
			if len(st.adj[j]) < k || st.edge[i*n+j] {
				continue
			}
			key, _, _ := w.weightKey(st, i, j, bufI, bufJ)
			top.offer(keyed{key + gumbel(rng), graph.Edge{U: int32(i), V: int32(j)}})
			eligible++
		}
	}
	if eligible < m {
		return nil, fmt.Errorf("%d edges to draw but only %d non-edges have both ends with %d neighbours", m, eligible, k)
	}
	links := make([]Link, m)
	for t, e := range top.edges() {
		_, whyU, whyV := w.weightKey(st, int(e.U), int(e.V), nil, nil)
		links[t] = Link{Edge: e, Role: Train, WhyU: whyU, WhyV: whyV}
	}
	return links, nil
}
