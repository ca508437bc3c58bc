package ilpgnn

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/graph"
	"ilpgnn/core/internal/randgraph"
	"ilpgnn/core/split"
)

var measureScale = flag.Bool("measure.scale", false, "run BenchmarkPrepareScale (minutes): split and Prepare on an ogbn-arxiv-sized graph")

// BenchmarkPrepareScale times the split and each phase of Prepare
// (DefaultConfig) on an ogbn-arxiv-sized preferential-attachment graph
// (169,343 nodes, about 1.18M edges, 128 dense features, seed 1; split
// 60/10/30 as the paper's arxiv runs), and the Go heap after each. It
// skips without -measure.scale; each op is one such report:
//
//	go test ./core/ilpgnn/ -run '^$' -bench PrepareScale -benchtime 1x -measure.scale -timeout 30m
func BenchmarkPrepareScale(b *testing.B) {
	if !*measureScale {
		b.Skip("pass -measure.scale to run")
	}
	for b.Loop() {
		prepareScaleReport(b)
	}
}

// prepareScaleReport is BenchmarkPrepareScale's report.
func prepareScaleReport(t testing.TB) {
	heap := func() string {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return fmt.Sprintf("heap %d MB", ms.HeapAlloc>>20)
	}
	t0 := time.Now()
	g, err := randgraph.PowerLaw(169343, 7, 128, 1)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("graph: %d nodes, %d edges, %d features: %v, %s\n", g.NumNodes(), g.NumEdges(), g.FeatureDim(), time.Since(t0).Round(time.Millisecond), heap())
	t0 = time.Now()
	sp, err := split.New(g, 0, 0.1, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("split: %v, %s\n", time.Since(t0).Round(time.Millisecond), heap())
	t0 = time.Now()
	ctx := WithPrepareProgress(context.Background(), func(p PrepareProgress) {
		if p.Done == p.Total {
			fmt.Printf("%s: %v, %s\n", p.Phase, p.Elapsed.Round(time.Millisecond), heap())
		}
	})
	in, err := PrepareContext(ctx, sp.Train, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("prepare: %v; S̃ nnz %d\n", time.Since(t0).Round(time.Millisecond), in.Sim.NNZ())
}

// TestPrepareProgress checks PrepareContext's reports: the phases in order
// (similarity, features, adjacency), Done non-decreasing within a phase
// and each phase's last report Done == Total (the columns, N, for the
// similarity); the Inputs equal Prepare's; and a cancelled context stops
// it after the similarity with the context's error.
func TestPrepareProgress(t *testing.T) {
	g := testGraph(t, 300, 4, 8, 1)
	cfg := DefaultConfig()
	var got []PrepareProgress
	ctx := WithPrepareProgress(context.Background(), func(p PrepareProgress) { got = append(got, p) })
	in, err := PrepareContext(ctx, g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	phases := []string{PhaseSimilarity, PhaseFeatures, PhaseAdjacency}
	k := 0
	for x, p := range got {
		if k < len(phases) && p.Phase != phases[k] {
			k++ // the previous phase must have ended
			if prev := got[x-1]; prev.Done != prev.Total {
				t.Fatalf("phase %s ended at %d/%d", prev.Phase, prev.Done, prev.Total)
			}
		}
		if k >= len(phases) || p.Phase != phases[k] {
			t.Fatalf("report %d: phase %q out of order: %+v", x, p.Phase, got)
		}
		if x > 0 && got[x-1].Phase == p.Phase && p.Done < got[x-1].Done {
			t.Fatalf("report %d: done went down: %+v", x, got)
		}
		if p.Phase == PhaseSimilarity && p.Total != g.NumNodes() {
			t.Fatalf("report %d: similarity total %d, want %d", x, p.Total, g.NumNodes())
		}
	}
	if last := got[len(got)-1]; k != len(phases)-1 || last.Done != last.Total {
		t.Fatalf("reports end at %+v: %+v", last, got)
	}
	plain, err := Prepare(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Sim.NNZ() != in.Sim.NNZ() || !slices.Equal(plain.Adj.A.Values, in.Adj.A.Values) || !slices.Equal(plain.Features.A.Values, in.Features.A.Values) {
		t.Fatal("PrepareContext's Inputs differ from Prepare's")
	}

	cctx, cancel := context.WithCancel(context.Background())
	cctx = WithPrepareProgress(cctx, func(p PrepareProgress) {
		if p.Phase == PhaseSimilarity && p.Done == p.Total {
			cancel()
		}
	})
	if _, err := PrepareContext(cctx, g, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: err %v, want context.Canceled", err)
	}
}

// TestPrepareWithSimilarity: PrepareContext computes a push S̃ with the
// function ctx carries (WithSimilarity), handing it the configuration's
// options and a progress function that reaches WithPrepareProgress, and
// an exact S̃ without it; the function's error comes back wrapped.
func TestPrepareWithSimilarity(t *testing.T) {
	g := testGraph(t, 200, 4, 8, 2)
	cfg := DefaultConfig()
	want, err := Prepare(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	calls, reports := 0, 0
	f := func(ctx context.Context, h *graph.Graph, opt diffusion.Options, progress func(done, total int)) (*diffusion.Similarity, error) {
		calls++
		if h != g || opt != cfg.Diffusion {
			t.Errorf("called with another graph or options: %+v", opt)
		}
		progress(1, h.NumNodes())
		return diffusion.New(h, opt)
	}
	ctx := WithPrepareProgress(WithSimilarity(context.Background(), f), func(p PrepareProgress) {
		if p.Phase == PhaseSimilarity && p.Done == 1 {
			reports++
		}
	})
	in, err := PrepareContext(ctx, g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || reports != 1 {
		t.Fatalf("%d calls and %d of its reports, want 1 and 1", calls, reports)
	}
	if !slices.Equal(in.Sim.Columns().Values, want.Sim.Columns().Values) {
		t.Fatal("S̃ differs from Prepare's")
	}
	exact := cfg
	exact.Diffusion.Method = diffusion.Exact
	if _, err := PrepareContext(ctx, g, exact); err != nil || calls != 1 {
		t.Fatalf("an exact S̃: err %v, %d calls, want none more", err, calls)
	}
	failing := WithSimilarity(context.Background(), func(context.Context, *graph.Graph, diffusion.Options, func(int, int)) (*diffusion.Similarity, error) {
		return nil, context.Canceled
	})
	if _, err := PrepareContext(failing, g, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled wrapped", err)
	}
}
