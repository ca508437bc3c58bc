package ilpgnn

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"testing"
	"time"

	"ilpgnn/core/internal/randgraph"
	"ilpgnn/core/split"
)

var measureScale = flag.Bool("measure.scale", false, "run TestMeasurePrepareScale (minutes): split and Prepare on an ogbn-arxiv-sized graph")

// TestMeasurePrepareScale times the split and each phase of Prepare
// (DefaultConfig) on an ogbn-arxiv-sized preferential-attachment graph
// (169,343 nodes, about 1.18M edges, 128 dense features, seed 1; split
// 60/10/30 as the paper's arxiv runs), and the Go heap after each:
//
//	go test ./core/ilpgnn/ -run TestMeasurePrepareScale -measure.scale -v -timeout 30m
func TestMeasurePrepareScale(t *testing.T) {
	if !*measureScale {
		t.Skip("pass -measure.scale to run")
	}
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
