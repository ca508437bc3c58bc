package heart

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// world is a small graph in three parts: a random graph with a few hubs,
// a separate clique, and isolated nodes, with sparse random features
// (some nodes without any), split into training links and held-out ones.
type world struct {
	train, known *graph.Graph
	held         []graph.Edge
}

func newWorld(t *testing.T, seed uint64) world {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	const n, dim = 90, 12
	var edges []graph.Edge
	seen := map[graph.Edge]bool{}
	link := func(u, v int) {
		if u == v {
			return
		}
		e := graph.Edge{U: int32(min(u, v)), V: int32(max(u, v))}
		if !seen[e] {
			seen[e] = true
			edges = append(edges, e)
		}
	}
	for range 220 {
		u := rng.IntN(70)
		v := rng.IntN(70)
		if rng.IntN(3) == 0 {
			v = rng.IntN(4) // hubs
		}
		link(u, v)
	}
	for u := 70; u < 80; u++ { // a clique of its own
		for v := u + 1; v < 80; v++ {
			link(u, v)
		}
	}
	// 80..89 stay isolated.
	rows := make([][]float32, n)
	for r := range rows {
		rows[r] = make([]float32, dim)
		if rng.IntN(8) == 0 {
			continue // no features
		}
		for c := range dim {
			if rng.IntN(3) == 0 {
				rows[r][c] = float32(1 + rng.IntN(3))
			}
		}
	}
	x := csrOf(rows, dim)
	rng.Shuffle(len(edges), func(a, b int) { edges[a], edges[b] = edges[b], edges[a] })
	held, kept := edges[:40], edges[40:]
	train, err := graph.New(n, kept, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	known, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A held-out link in either orientation: each end is ranked as given.
	for k := range held {
		if k%2 == 1 {
			held[k] = graph.Edge{U: held[k].V, V: held[k].U}
		}
	}
	return world{train, known, held}
}

func csrOf(rows [][]float32, dim int) *f32.CSR {
	m := &f32.CSR{Rows: len(rows), Cols: dim, Indptr: make([]int32, 1, len(rows)+1)}
	for _, row := range rows {
		for c, v := range row {
			if v != 0 {
				m.Indices = append(m.Indices, int32(c))
				m.Values = append(m.Values, v)
			}
		}
		m.Indptr = append(m.Indptr, int32(len(m.Indices)))
	}
	return m
}

// brutePPR is forward push written plainly: a map of residuals, a FIFO
// queue, the rule of push's comment.
func brutePPR(g *graph.Graph, v int, alpha, eps float64) map[int]float64 {
	p, r := map[int]float64{}, map[int]float64{v: 1}
	queue, queued := []int{v}, map[int]bool{v: true}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		queued[u] = false
		ru := r[u]
		r[u] = 0
		p[u] += alpha * ru
		nb := g.Neighbors(u)
		for _, w := range nb {
			r[int(w)] += (1 - alpha) * ru / float64(len(nb))
			if !queued[int(w)] && r[int(w)] >= eps*float64(g.Degree(int(w))) {
				queued[int(w)] = true
				queue = append(queue, int(w))
			}
		}
	}
	return p
}

// bruteEnd is the negatives of end v of a link whose other end is other,
// written from docs/heart.md's rules with nothing shared with Sample but
// the graph: every candidate scored by definition, ranked per heuristic by
// counting, ordered by its best rank, the rest filled from the link end's
// stream.
func bruteEnd(train, known *graph.Graph, v, other int, o Options, seed uint64, link, end int) []int32 {
	n := train.NumNodes()
	var cand []int
	for x := range n {
		if x != v && x != other && !known.HasEdge(v, x) {
			cand = append(cand, x)
		}
	}
	overlap := func(x int) float64 {
		var s float64
		for _, w := range train.Neighbors(v) { // ascending
			if train.HasEdge(int(w), x) {
				if o.Overlap == ResourceAllocation {
					s += 1 / float64(train.Degree(int(w)))
				} else {
					s++
				}
			}
		}
		return s
	}
	ppr := brutePPR(train, v, o.Alpha, o.Epsilon)
	norm := func(x int) float64 {
		var ss float64
		for c := range train.FeatureDim() {
			a := float64(train.Features.At(x, c))
			ss += a * a
		}
		return math.Sqrt(ss)
	}
	cosine := func(x int) float64 {
		if !o.Features || norm(v) == 0 || norm(x) == 0 {
			return 0
		}
		var d float64
		for c := range train.FeatureDim() {
			d += float64(train.Features.At(v, c)) * float64(train.Features.At(x, c))
		}
		return d / (norm(v) * norm(x))
	}
	score := [3]map[int]float64{{}, {}, {}}
	for _, x := range cand {
		score[0][x], score[1][x], score[2][x] = overlap(x), ppr[x], cosine(x)
	}
	best := map[int]int{}
	for h := range score {
		top := 0.0
		for _, x := range cand {
			top = max(top, score[h][x])
		}
		for _, x := range cand {
			y := score[h][x]
			if y <= 0 {
				continue
			}
			r := 1
			for _, u := range cand {
				if z := score[h][u]; z > 0 && y <= z && z < top {
					r++
				}
			}
			if b, ok := best[x]; !ok || r < b {
				best[x] = r
			}
		}
	}
	var scored, unscored []int
	for _, x := range cand {
		if _, ok := best[x]; ok {
			scored = append(scored, x)
		} else {
			unscored = append(unscored, x)
		}
	}
	slices.SortFunc(scored, func(a, b int) int {
		if c := cmp.Compare(best[a], best[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	half := o.PerLink / 2
	var row []int32
	for _, x := range scored[:min(half, len(scored))] {
		row = append(row, int32(x))
	}
	if len(row) == half {
		return row
	}
	rng := rand.New(rand.NewPCG(seed, uint64(link)<<1|uint64(end)))
	need := half - len(row)
	var pool []int
	if len(unscored) > 0 {
		pool = unscored
	} else {
		for _, x := range row {
			pool = append(pool, int(x))
		}
	}
	if need <= len(pool) {
		for m := range need {
			r := m + rng.IntN(len(pool)-m)
			pool[m], pool[r] = pool[r], pool[m]
			row = append(row, int32(pool[m]))
		}
		return row
	}
	for range need {
		row = append(row, int32(pool[rng.IntN(len(pool))]))
	}
	return row
}

func TestSampleMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed uint64
		o    Options
		// trainOnly filters only the training links, as HeaRT's code
		// does (the held-out ones are not known): the other end of a
		// link is then a candidate that its ranking must leave out.
		trainOnly bool
	}{
		{"ra, 24 a link", 1, Options{PerLink: 24, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 1e-4, Features: true}, false},
		{"cn, 60 a link, no features", 2, Options{PerLink: 60, Overlap: CommonNeighbours, Alpha: 0.15, Epsilon: 1e-3, Features: false}, false},
		{"ra, 120 a link (fills with replacement)", 3, Options{PerLink: 120, Overlap: ResourceAllocation, Alpha: 0.3, Epsilon: 5e-5, Features: true}, false},
		{"ra, 6 a link", 4, Options{PerLink: 6, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 5e-5, Features: true}, false},
		{"ra, 24 a link, training links filtered", 7, Options{PerLink: 24, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 1e-4, Features: true}, true},
		{"cn, 4 a link, training links filtered", 8, Options{PerLink: 4, Overlap: CommonNeighbours, Alpha: 0.15, Epsilon: 1e-4, Features: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.seed)
			if tc.trainOnly {
				w.known = w.train
			}
			got, err := Sample(w.train, w.known, w.held, 99, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			half := tc.o.PerLink / 2
			for k, l := range w.held {
				for end, pair := range [2][2]int32{{l.U, l.V}, {l.V, l.U}} {
					want := bruteEnd(w.train, w.known, int(pair[0]), int(pair[1]), tc.o, 99, k, end)
					row := got.Nodes[k*tc.o.PerLink+end*half : k*tc.o.PerLink+(end+1)*half]
					if !slices.Equal(row, want) {
						t.Fatalf("link %d (%d, %d), end %d: Sample gives %v, brute force %v", k, l.U, l.V, end, row, want)
					}
				}
			}
			for _, p := range got.Pairs() {
				if w.known.HasEdge(int(p.U), int(p.V)) || p.U == p.V {
					t.Fatalf("negative %v is a known link or a loop", p)
				}
			}
		})
	}
}

func TestSampleSameOnAnyThreads(t *testing.T) {
	w := newWorld(t, 5)
	o := Options{PerLink: 30, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 1e-5, Features: true}
	prev := runtime.GOMAXPROCS(1)
	one, err := Sample(w.train, w.known, w.held, 3, o)
	runtime.GOMAXPROCS(4)
	four, err4 := Sample(w.train, w.known, w.held, 3, o)
	runtime.GOMAXPROCS(prev)
	if err != nil || err4 != nil {
		t.Fatal(err, err4)
	}
	if !slices.Equal(one.Nodes, four.Nodes) {
		t.Fatal("one thread and four give different negatives")
	}
	other, _ := Sample(w.train, w.known, w.held, 4, Options{PerLink: 200, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 1e-5, Features: true})
	again, _ := Sample(w.train, w.known, w.held, 4, Options{PerLink: 200, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 1e-5, Features: true})
	if !slices.Equal(other.Nodes, again.Nodes) {
		t.Fatal("the same seed gives different fills")
	}
}

// TestPushWithinItsBound checks the push against PPR solved exactly:
// π = α (I − (1−α) A D⁻¹)⁻¹ e_v, which the push undershoots by at most
// ε·deg(x) at every node x.
func TestPushWithinItsBound(t *testing.T) {
	w := newWorld(t, 6)
	g := w.train
	n := g.NumNodes()
	const alpha, eps = 0.15, 1e-4
	m := mat.NewDense(n, n, nil)
	for x := range n {
		m.Set(x, x, 1)
		for _, y := range g.Neighbors(x) {
			// column x of A D⁻¹ spreads x's mass over its neighbours
			m.Set(int(y), x, m.At(int(y), x)-(1-alpha)/float64(g.Degree(x)))
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(m); err != nil {
		t.Fatal(err)
	}
	sc := newScorer(g, Options{PerLink: 2, Alpha: alpha, Epsilon: eps})
	s := sc.scratch()
	for _, v := range []int{0, 1, 5, 33, 72, 85} {
		sc.push(s, v)
		for x := range n {
			exact := alpha * inv.At(x, v)
			got := s.heur[1][x]
			if d := exact - got; d < -1e-12 || d > eps*float64(g.Degree(x))+1e-12 {
				t.Fatalf("PPR from %d at %d: push %v, exact %v (bound %v)", v, x, got, exact, eps*float64(g.Degree(x)))
			}
		}
		s.clear(v, w.known)
		for x := range n {
			if s.heur[1][x] != 0 || s.resid[x] != 0 {
				t.Fatalf("clear left PPR at %d after %d", x, v)
			}
		}
	}
}

func TestSampleRefusesTooSmall(t *testing.T) {
	// A triangle and one more node: an end has at most 1 non-neighbour.
	g, err := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 2}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	negs, err := Sample(g, g, []graph.Edge{{U: 0, V: 1}}, 1, Options{PerLink: 4, Alpha: 0.15, Epsilon: 1e-4})
	if err != nil {
		t.Fatalf("two negatives an end from one non-neighbour: %v", err)
	}
	if !slices.Equal(negs.Nodes, []int32{3, 3, 3, 3}) {
		t.Fatalf("negatives %v, want node 3 each time (the only non-neighbour of either end)", negs.Nodes)
	}
	if _, err := Sample(g, g, []graph.Edge{{U: 0, V: 3}}, 1, DefaultOptions()); !errors.Is(err, ErrTooFewCandidates) {
		t.Fatalf("node 0's only non-neighbour is the link's other end: err = %v", err)
	}
	full, _ := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 2}}, nil, nil)
	if _, err := Sample(full, full, []graph.Edge{{U: 0, V: 1}}, 1, DefaultOptions()); !errors.Is(err, ErrTooFewCandidates) {
		t.Fatalf("a triangle has no non-link: err = %v", err)
	}
	if _, err := Sample(g, g, []graph.Edge{{U: 0, V: 9}}, 1, DefaultOptions()); err == nil {
		t.Fatal("a link to node 9 of a 4-node graph was taken")
	}
	if err := (Options{PerLink: 3, Alpha: 0.15, Epsilon: 1e-4}).Validate(); err == nil {
		t.Fatal("an odd number of negatives was taken")
	}
}

// On a path every node is within PageRank's reach, so an end has fewer
// candidates than negatives and all of them scored: the rest repeat them.
func TestSampleRepeatsScoredCandidates(t *testing.T) {
	var edges []graph.Edge
	for v := range int32(7) {
		edges = append(edges, graph.Edge{U: v, V: v + 1})
	}
	g, err := graph.New(8, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{PerLink: 20, Overlap: ResourceAllocation, Alpha: 0.15, Epsilon: 1e-6}
	links := []graph.Edge{{U: 2, V: 3}, {U: 6, V: 7}}
	got, err := Sample(g, g, links, 8, o)
	if err != nil {
		t.Fatal(err)
	}
	for k, l := range links {
		for end, pair := range [2][2]int32{{l.U, l.V}, {l.V, l.U}} {
			want := bruteEnd(g, g, int(pair[0]), int(pair[1]), o, 8, k, end)
			row := got.Nodes[k*20+end*10 : k*20+(end+1)*10]
			if !slices.Equal(row, want) {
				t.Fatalf("link %v end %d: %v, brute force %v", l, end, row, want)
			}
		}
	}
}

// SuggestionHits against sorting each link's candidates as suggestions
// are sorted, with scores that tie often.
func TestSuggestionHitsBySorting(t *testing.T) {
	w := newWorld(t, 13)
	score := func(e graph.Edge) float32 { return float32((int(e.U)*7 + int(e.V)*13) % 5) }
	pairs, starts, own := SuggestionPairs(w.train, w.known, w.held)
	scores := make([]float32, len(pairs))
	for k, p := range pairs {
		scores[k] = score(p)
	}
	for _, k := range []int{1, 3, 10} {
		hits := 0
		for _, l := range w.held {
			var cands []int
			for x := range w.train.NumNodes() {
				if x != int(l.U) && !w.train.HasEdge(int(l.U), x) && (x == int(l.V) || !w.known.HasEdge(int(l.U), x)) {
					cands = append(cands, x)
				}
			}
			slices.SortFunc(cands, func(a, b int) int {
				if c := cmp.Compare(score(graph.Edge{U: l.U, V: int32(b)}), score(graph.Edge{U: l.U, V: int32(a)})); c != 0 {
					return c
				}
				return cmp.Compare(a, b)
			})
			if slices.Index(cands, int(l.V)) < k {
				hits++
			}
		}
		want := float64(hits) / float64(len(w.held))
		if got := SuggestionHits(pairs, starts, own, scores, k); math.Abs(got-want) > 1e-12 {
			t.Fatalf("Hits@%d = %v, sorting gives %v", k, got, want)
		}
	}
}
