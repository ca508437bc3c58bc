package diffusion

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"ilpgnn/core/graph"
	"ilpgnn/core/internal/datasets"
	"ilpgnn/core/load"
)

var (
	measure      = flag.Bool("measure", false, "run BenchmarkMeasureDefaults (slow): the table behind DefaultOptions")
	measurePhoto = flag.Bool("measure.photo", false, "with -measure: also compare against the exact S on Amazon Photo (3 min and ~2 GB the first time; S is cached in $TMPDIR, 470 MB)")
)

// BenchmarkMeasureDefaults prints the measurement table behind DefaultOptions
// (recorded in docs/diffusion.md):
//
//	go test ./core/diffusion/ -run '^$' -bench 'MeasureDefaults$' -benchtime 1x -measure
func BenchmarkMeasureDefaults(b *testing.B) {
	if !*measure {
		b.Skip("pass -measure to run")
	}
	for b.Loop() {
		defaultsReport(b)
	}
}

// defaultsReport is BenchmarkMeasureDefaults's report.
func defaultsReport(t testing.TB) {
	g, s := coraExactS(t)
	report(t, "cora", g, s, 3, 1, epsGrid)

	rg := randomGraph(t, 7650, 119081, 1)
	logf("random Photo-sized graph: %d nodes, %d edges", rg.NumNodes(), rg.NumEdges())
	buildTimes(t, rg)

	pg := loadPhoto(t)
	logf("Amazon Photo: %d nodes, %d edges", pg.NumNodes(), pg.NumEdges())
	if *measurePhoto {
		ps := cachedExact(t, pg, filepath.Join(os.TempDir(), "ilpgnn-diffusion-photo-S.bin"))
		report(t, "photo", pg, ps, 3, 10, epsGrid)
	} else {
		buildTimes(t, pg)
	}
}

var (
	epsGrid = []float64{3e-4, 1e-4, 5e-5, 3e-5, 1e-5}
	kGrid   = []int{64, 256, 0}
)

// buildTimes logs the time and nnz of New over the grid.
func buildTimes(t testing.TB, g *graph.Graph) {
	logf("%8s %5s %10s %10s", "eps", "k", "build", "nnz")
	for _, eps := range epsGrid {
		ps := NewPusher(g, 0.05, eps)
		for v := 0; v < g.NumNodes(); v++ {
			ps.Push(v)
		}
		logf("%8.0e  push work %.3g (%.0f per source)", eps, float64(ps.work), float64(ps.work)/float64(g.NumNodes()))
		for _, k := range kGrid {
			d, sim := timeNew(t, g, Options{Gamma: 0.05, Epsilon: eps, TopK: k})
			logf("%8.0e %5d %10v %10d", eps, k, d.Round(time.Millisecond), sim.NNZ())
			if d > 20*time.Second {
				logf("too slow: stopping")
				return
			}
		}
	}
}

// logf prints at once (t.Logf output of a long test only shows at its end).
func logf(format string, args ...any) { fmt.Printf(format+"\n", args...) }

// timeNew returns the best of three builds (one if it takes over 2 s).
func timeNew(t testing.TB, g *graph.Graph, opt Options) (time.Duration, *Similarity) {
	best := time.Duration(math.MaxInt64)
	var sim *Similarity
	for x := 0; x < 3 && best < 2*time.Second || x == 0; x++ {
		t0 := time.Now()
		s, err := New(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		best, sim = min(best, time.Since(t0)), s
	}
	return best, sim
}

// nearPairs lists, for each target j, the nodes c within maxHops hops of j
// (3: c ∈ N(i) for some i within 2 hops), with their hop counts.
// Only targets j ≡ 0 mod stride are listed (the others get no pairs).
func nearPairs(g *graph.Graph, maxHops int8, stride int) (near [][]int32, hops [][]int8) {
	n := g.NumNodes()
	near, hops = make([][]int32, n), make([][]int8, n)
	dist := make([]int8, n)
	for i := range dist {
		dist[i] = -1
	}
	for j := 0; j < n; j += stride {
		frontier := []int32{int32(j)}
		dist[j] = 0
		seen := []int32{int32(j)}
		for h := int8(1); h <= maxHops; h++ {
			var next []int32
			for _, u := range frontier {
				for _, w := range g.Neighbors(int(u)) {
					if dist[w] < 0 {
						dist[w] = h
						next = append(next, w)
						seen = append(seen, w)
					}
				}
			}
			frontier = next
		}
		for _, c := range seen {
			near[j] = append(near[j], c)
			hops[j] = append(hops[j], dist[c])
			dist[c] = -1
		}
	}
	return near, hops
}

// pairErrors compares got with ref on the near pairs: the max and mean
// absolute error; and over the pairs (i, j), i within maxHops-1 hops of j,
// the share whose argmax over c ∈ N(i) \ {j} of S̃[c, j] agrees (j masked
// out as in docs/model.md §4; pairs with |N(i) \ {j}| < 2 skipped), and the share
// whose chosen c is within 5% of the best exact value.
func pairErrors(g *graph.Graph, maxHops int8, near [][]int32, hops [][]int8, got, ref *mat.Dense) (eMax, eMean, agree, near5 float64) {
	argmax := func(m *mat.Dense, i, j int) int32 {
		best, bv := int32(-1), -1.0
		for _, c := range g.Neighbors(i) {
			if int(c) == j {
				continue
			}
			if v := m.At(int(c), j); v > bv {
				best, bv = c, v
			}
		}
		return best
	}
	same, close, pairs, count := 0, 0, 0, 0
	for j := range near {
		for x, c := range near[j] {
			a, b := got.At(int(c), j), ref.At(int(c), j)
			eMax = max(eMax, math.Abs(a-b))
			eMean += math.Abs(a - b)
			count++
			spare := g.Degree(int(c))
			if g.HasEdge(int(c), j) {
				spare--
			}
			if h := hops[j][x]; h >= 1 && h < maxHops && spare >= 2 {
				pairs++
				a, b := argmax(got, int(c), j), argmax(ref, int(c), j)
				if a == b {
					same++
				}
				if best := ref.At(int(b), j); best-ref.At(int(a), j) <= 0.05*best {
					close++
				}
			}
		}
	}
	return eMax, eMean / float64(count), 100 * float64(same) / float64(pairs), 100 * float64(close) / float64(pairs)
}

var kMeasure = []int{32, 64, 128, 256, 512, 0}

// cachedExact returns ExactPPR(g, 0.05), kept in the file path between runs
// (raw little-endian float64s; the solve takes minutes on Photo).
func cachedExact(t testing.TB, g *graph.Graph, path string) *mat.Dense {
	n := g.NumNodes()
	if b, err := os.ReadFile(path); err == nil && len(b) == 8*n*n {
		data := make([]float64, n*n)
		for k := range data {
			data[k] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
		}
		return mat.NewDense(n, n, data)
	}
	t0 := time.Now()
	s := ExactPPR(g, 0.05)
	logf("ExactPPR: %v", time.Since(t0))
	b := make([]byte, 0, 8*n*n)
	for _, v := range s.RawMatrix().Data {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Log(err)
	}
	return s
}

// report logs, per ε: the push work and the errors of the un-sparsified
// push S against the exact S; per (ε, k): the time and nnz of New, and the
// errors of S̃ on the near pairs against S̃ of the exact, un-sparsified S,
// for D_S from the sparsified S (SPEC) and from the full S; and the error
// against S̃ of the exact S sparsified with the same k (the push's share).
func report(t testing.TB, name string, g *graph.Graph, s *mat.Dense, maxHops int8, stride int, epsGrid []float64) {
	n := g.NumNodes()
	ref := fromDense(s, 0, FullRowSums, nil).Dense()
	near, hops := nearPairs(g, maxHops, stride)
	var refMean, refMax float64
	var refCount int
	for j := range near {
		for _, c := range near[j] {
			v := ref.At(int(c), j)
			refMean += v
			refMax = max(refMax, v)
			refCount++
		}
	}
	refMean /= float64(refCount)
	logf("%s: %d pairs (c, j), c within %d hops of j; exact S̃ on them: mean %.2e, max %.2e", name, refCount, maxHops, refMean, refMax)
	fullRowSum := make([]float64, n)
	for c := range fullRowSum {
		fullRowSum[c] = mat.Sum(s.RowView(c))
	}
	refK := map[int]*mat.Dense{}
	for _, k := range kMeasure {
		refK[k] = fromDense(s, k, SparsifiedRowSums, nil).Dense()
	}

	logf("%6s %5s %8s %8s | %8s %8s | %8s %6s %7s %7s | %8s %6s %7s %7s | %8s",
		"eps", "k", "build", "nnz", "push max", "resid", "SPEC max", "mean", "argmax", "≤5%", "full max", "mean", "argmax", "≤5%", "vs k-ref")
	for _, eps := range epsGrid {
		ps := NewPusher(g, 0.05, eps)
		var pMax, rMax float64
		full := make([]column, n)
		col := make([]float64, n)
		for v := 0; v < n; v++ {
			clear(col)
			nodes, p, resid := ps.Push(v)
			full[v] = column{rows: slices.Clone(nodes), vals: slices.Clone(p)}
			for k, c := range nodes {
				col[c] = p[k]
			}
			for c := 0; c < n; c++ {
				pMax = max(pMax, math.Abs(s.At(c, v)-col[c]))
			}
			rMax = max(rMax, resid)
		}
		logf("%6.0e  push work %.3g (Σ(deg+1) over pushes, %.0f per source)", eps, float64(ps.work), float64(ps.work)/float64(n))
		for _, k := range kMeasure {
			var sel selector
			cols := make([]column, n)
			for v := range cols {
				cols[v] = sel.topK(full[v].rows, full[v].vals, k)
			}
			spec := normalise(cols, nil).Dense()
			fullNorm := normalise(cols, fullRowSum).Dense()
			sMax, sMean, sAgree, sClose := pairErrors(g, maxHops, near, hops, spec, ref)
			fMax, fMean, fAgree, fClose := pairErrors(g, maxHops, near, hops, fullNorm, ref)
			kMax, _, _, _ := pairErrors(g, maxHops, near, hops, spec, refK[k])
			d, sim := timeNew(t, g, Options{Gamma: 0.05, Epsilon: eps, TopK: k})
			logf("%6.0e %5d %8v %8d | %8.2e %8.2e | %8.2e %6.0e %6.2f%% %6.2f%% | %8.2e %6.0e %6.2f%% %6.2f%% | %8.2e", eps, k,
				d.Round(time.Millisecond), sim.NNZ(), pMax, rMax, sMax, sMean, sAgree, sClose, fMax, fMean, fAgree, fClose, kMax)
		}
	}
}

// loadPhoto loads Amazon Photo with core/load, skipping without it.
func loadPhoto(t testing.TB) *graph.Graph {
	g, err := load.Path(datasets.Path(t, "amazon_photo"))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
