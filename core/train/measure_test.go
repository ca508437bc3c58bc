package train

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/loop"
	"ilpgnn/core/optim"
	"ilpgnn/core/split"
)

var (
	measureSize    = flag.String("measure.size", "", "BenchmarkBatches: the random graph's nodes,edges (169343,1166243 is ogbn-arxiv's size)")
	measureBatches = flag.String("measure.batches", "0,65536,16384", "BenchmarkBatches: comma-separated batch sizes to time; none stops after the coverage")
	measureEpochs  = flag.Int("measure.epochs", 2, "BenchmarkBatches: epochs timed per batch size")
	measurePlain   = flag.Bool("measure.plain", false, "BenchmarkBatches: record on a plain tape instead of a lean one")
)

// BenchmarkBatches measures, on a random graph of the size -measure.size
// gives ("nodes,edges") with 128 dense features and the 60/10/30 split:
// how much of the graph a batch's receptive field covers; then, for each
// batch size of -measure.batches ("none" stops after the coverage), the
// epoch times over -measure.epochs epochs and the peak resident memory;
// and the whole-graph encoder's forward and backward time
// (docs/scale.md records them). It skips without -measure.size; each op is
// one such report:
//
//	go test ./core/train -run '^$' -bench Batches -benchtime 1x -timeout 1h -measure.size 43500,300000
func BenchmarkBatches(b *testing.B) {
	if *measureSize == "" {
		b.Skip("pass -measure.size nodes,edges to measure")
	}
	var n, m int
	if _, err := fmt.Sscanf(*measureSize, "%d,%d", &n, &m); err != nil {
		b.Fatalf("-measure.size %q: want nodes,edges: %v", *measureSize, err)
	}
	var batches []int
	if s := *measureBatches; s != "none" {
		for f := range strings.SplitSeq(s, ",") {
			bs, err := strconv.Atoi(f)
			if err != nil {
				b.Fatalf("-measure.batches %q: %v", s, err)
			}
			batches = append(batches, bs)
		}
	}
	if *measureEpochs < 1 {
		b.Fatalf("-measure.epochs %d: want a positive count", *measureEpochs)
	}
	for b.Loop() {
		measureBatchSizes(b, n, m, batches, *measureEpochs)
	}
}

// measureBatchSizes is BenchmarkBatches's report on a random graph of n
// nodes and m edges.
func measureBatchSizes(t testing.TB, n, m int, batches []int, epochs int) {
	t0 := time.Now()
	g := randomGraph(t, n, m, 128, 1)
	cfg := DefaultConfig()
	cfg.ValFrac, cfg.TestFrac = 0.1, 0.3
	sp, err := split.New(g, 0, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		t.Fatal(err)
	}
	coverage(t, g, sp, []int{16384, 65536})
	if len(batches) == 0 {
		return
	}
	t1 := time.Now()
	in, err := ilpgnn.Prepare(sp.Train, cfg.Model)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("graph %d nodes, %d edges (%d training), built+split %.1fs, Prepare %.1fs, peak RSS so far %s",
		g.NumNodes(), g.NumEdges(), len(sp.TrainPos), t1.Sub(t0).Seconds(), time.Since(t1).Seconds(), gib(procStatus(t, "VmHWM:")))

	measured := 0 // encoder timings taken
	for _, bs := range batches {
		c := cfg
		c.BatchSize = bs
		base := resetPeakRSS(t)
		model, err := ilpgnn.New(c.Model, g.FeatureDim(), rand.New(rand.NewPCG(0, streamInit)))
		if err != nil {
			t.Fatal(err)
		}
		model.FitIsometricBias(in)
		adam := optim.NewAdam(model.Params(), c.LR)
		sampler := split.NewNegativeSampler(0)
		P := len(sp.TrainPos)
		pairs := append(append([]graph.Edge{}, sp.TrainPos...), make([]graph.Edge, P)...)
		labels := make([]float32, 2*P)
		for k := range P {
			labels[k] = 1
		}
		tape := autograd.NewTape()
		tape.SetLean(!*measurePlain)
		ep, err := newEpochPass(t.Context(), model, in, c, tape, sp.TrainPos, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var times []float64
		var last Phases
		for epoch := 1; epoch <= epochs; epoch++ {
			var ph Phases
			s := time.Now()
			tape.Reset()
			for _, p := range model.Params() {
				p.ZeroGrad()
			}
			hr := model.Encode(tape, in, 0, nil)
			ph.Encoder = time.Since(s)
			sampler.Sample(pairs[P:], sp.Train)
			if _, err := ep.lossAndBackward(t.Context(), hr, pairs, labels, &loop.Epoch{Index: epoch, LR: c.LR}, &ph, nil); err != nil {
				t.Fatal(err)
			}
			adam.Step()
			times = append(times, time.Since(s).Seconds())
			last = ph
		}
		t.Logf("batch %d: epochs %.2fs (median %.2fs; last: encoder %.2fs, selection %.2fs, losses %.2fs, backward %.2fs), peak RSS %s (%s before the model)",
			bs, times, median(times), last.Encoder.Seconds(), last.Selection.Seconds(), last.Losses.Seconds(), last.Backward.Seconds(),
			gib(procStatus(t, "VmHWM:")), gib(base))

		if bs == batches[len(batches)-1] && measured == 0 {
			measured++
			// The whole-graph encoder alone: what recomputing it per batch
			// would cost each batch.
			var fwd, bwd []float64
			for range 3 {
				s := time.Now()
				tape.Reset()
				hr := model.Encode(tape, in, 0, nil)
				u := time.Now()
				hr.Leaf() // allocates hr's gradient on a lean tape
				for k := range hr.Grad {
					hr.Grad[k] = 1e-6
				}
				tape.BackwardFrom(hr)
				fwd, bwd = append(fwd, u.Sub(s).Seconds()), append(bwd, time.Since(u).Seconds())
			}
			t.Logf("whole-graph encoder: forward %.2fs backward %.2fs (medians of 3)", median(fwd), median(bwd))
		}
	}
}

// coverage logs the share of g's nodes a batch of bs training pairs (a
// random sample of an epoch's positives and negatives) touches: its ends,
// the ends and their neighbours (the rows of H^r selection and the losses
// read), and their neighbours in turn (the rows Ã H^r's backward reaches).
func coverage(t testing.TB, g *graph.Graph, sp *split.Split, sizes []int) {
	P := len(sp.TrainPos)
	pairs := append(append([]graph.Edge{}, sp.TrainPos...), make([]graph.Edge, P)...)
	split.NewNegativeSampler(0).Sample(pairs[P:], sp.Train)
	rng := rand.New(rand.NewPCG(5, 5))
	rng.Shuffle(len(pairs), func(a, b int) { pairs[a], pairs[b] = pairs[b], pairs[a] })
	n := g.NumNodes()
	for _, bs := range sizes {
		if bs > len(pairs) {
			continue
		}
		seen := make([]bool, n)
		var frontier []int32
		for _, e := range pairs[:bs] {
			for _, v := range [2]int32{e.U, e.V} {
				if !seen[v] {
					seen[v] = true
					frontier = append(frontier, v)
				}
			}
		}
		share := []float64{float64(len(frontier)) / float64(n)}
		total := len(frontier)
		for range 2 {
			var next []int32
			for _, v := range frontier {
				for _, c := range sp.Train.Neighbors(int(v)) {
					if !seen[c] {
						seen[c] = true
						next = append(next, c)
					}
				}
			}
			total += len(next)
			frontier = next
			share = append(share, float64(total)/float64(n))
		}
		t.Logf("batch of %d pairs touches %.1f%% of nodes as ends, %.1f%% with their neighbours, %.1f%% within 2 hops",
			bs, 100*share[0], 100*share[1], 100*share[2])
	}
}

// randomGraph has n nodes, m uniformly random edges (before removing
// repeats) and d dense uniform features.
func randomGraph(t testing.TB, n, m, d int, seed uint64) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	edges := make([]graph.Edge, m)
	for k := range edges {
		edges[k] = graph.Edge{U: int32(rng.IntN(n)), V: int32(rng.IntN(n))}
	}
	x := &f32.CSR{Rows: n, Cols: d, Indptr: make([]int32, n+1), Indices: make([]int32, n*d), Values: make([]float32, n*d)}
	for i := range n {
		for c := range d {
			x.Indices[i*d+c] = int32(c)
			x.Values[i*d+c] = rng.Float32()
		}
		x.Indptr[i+1] = int32((i + 1) * d)
	}
	g, err := graph.New(n, edges, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.Name = "random"
	return g
}

// resetPeakRSS returns freed memory to the OS and restarts the kernel's
// peak resident set size (VmHWM) from the current one, which it returns.
func resetPeakRSS(t testing.TB) uint64 {
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak RSS: %v", err)
	}
	return procStatus(t, "VmRSS:")
}

// procStatus returns a field of /proc/self/status in bytes.
func procStatus(t testing.TB, field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("cannot read the RSS: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			var kb uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err != nil {
				t.Fatalf("%s %q: %v", field, rest, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

func gib(b uint64) string { return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30)) }

func median(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	return s[len(s)/2]
}
