package diffusion

import (
	"ilpgnn/core/internal/randgraph"
	"math/rand/v2"
	"testing"

	"ilpgnn/core/graph"
)

var (
	simSink    *Similarity
	gatherSink float32
)

// BenchmarkNew builds S̃ with DefaultOptions on Cora, on a random graph of
// Amazon Photo's size (seed 1) and on Amazon Photo itself.
func BenchmarkNew(b *testing.B) {
	for _, bc := range []struct {
		name string
		load func(testing.TB) *graph.Graph
	}{
		{"graph=cora", func(tb testing.TB) *graph.Graph { return loadCora(tb) }},
		{"graph=random,n=7650,m=119081", func(tb testing.TB) *graph.Graph { return randomGraph(tb, 7650, 119081, 1) }},
		{"graph=photo", loadPhoto},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g := bc.load(b)
			opt := DefaultOptions()
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if simSink, err = New(g, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPush runs forward push from every source on one goroutine
// (DefaultOptions' γ and ε) and reports the cost per unit of push work,
// Σ (deg(u)+1) over pushes.
func BenchmarkPush(b *testing.B) {
	for _, bc := range []struct {
		name   string
		load   func(testing.TB) *graph.Graph
		stride int // push from every stride-th source
	}{
		{"graph=cora", func(tb testing.TB) *graph.Graph { return loadCora(tb) }, 1},
		{"graph=photo", loadPhoto, 1},
		// An ogbn-arxiv-sized graph, whose push state outgrows the caches.
		{"graph=powerlaw-169k", func(tb testing.TB) *graph.Graph {
			g, err := randgraph.PowerLaw(169343, 7, 1, 1)
			if err != nil {
				tb.Fatal(err)
			}
			return g
		}, 40},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g := bc.load(b)
			opt := DefaultOptions()
			ps := NewPusher(g, opt.Gamma, opt.Epsilon)
			b.ReportAllocs()
			for b.Loop() {
				ps.work = 0
				for v := 0; v < g.NumNodes(); v += bc.stride {
					ps.Push(v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ps.work), "ns/unit")
		})
	}
}

// BenchmarkRowSums times the fixed-point row sums of the full S.
func BenchmarkRowSums(b *testing.B) {
	g := loadCora(b)
	b.ReportAllocs()
	for b.Loop() {
		rowSumSink = RowSums(g, 0.05)
	}
}

var rowSumSink []float64

// BenchmarkGather reads s_ST(i, c, j) for c ∈ N(i) on Cora (DefaultOptions)
// for 4096 random pairs (i, j), seed 1: one op is one Gather.
func BenchmarkGather(b *testing.B) {
	g := loadCora(b)
	sim, err := New(g, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	type pair struct{ i, j int }
	pairs := make([]pair, 4096)
	for k := range pairs {
		pairs[k] = pair{rng.IntN(g.NumNodes()), rng.IntN(g.NumNodes())}
	}
	dst := make([]float32, 200)
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		p := pairs[k&4095]
		cands := g.Neighbors(p.i)
		sim.Gather(dst[:len(cands)], p.j, cands)
		gatherSink += dst[0]
		k++
	}
}
