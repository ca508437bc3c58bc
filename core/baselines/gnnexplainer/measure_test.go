package gnnexplainer

import (
	"cmp"
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/dataset"
)

// TestMeasure trains a model with gnn's defaults on a dataset and times
// GNNExplainer on its first test pairs. It runs only when EXPLAIN_DATA
// names a dataset (a folder or a synth:PRESET spec), e.g.
//
//	EXPLAIN_DATA=/work/shared/datasets/cora EXPLAIN_KIND=gae EXPLAIN_PAIRS=200 \
//	go test ./core/baselines/gnnexplainer -run Measure -v -timeout 0
//
// Pairs are explained one at a time (serial), then all of them again on a
// fresh explainer with one goroutine per CPU, as explain.PrecisionAt does.
func TestMeasure(t *testing.T) {
	spec := os.Getenv("EXPLAIN_DATA")
	if spec == "" {
		t.Skip("set EXPLAIN_DATA to measure")
	}
	src, err := dataset.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(0)
	if err != nil {
		t.Fatal(err)
	}
	kind, err := gnn.ParseKind(cmp.Or(os.Getenv("EXPLAIN_KIND"), "gae"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(cmp.Or(os.Getenv("EXPLAIN_PAIRS"), "200"))
	cfg := gnn.DefaultConfig(kind)
	sp, err := d.Split(0, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gnn.RunSplit(context.Background(), sp, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs := append(sp.TestPos, sp.TestNeg...)[:min(n, len(sp.TestPos)+len(sp.TestNeg))]
	e, err := New(res.Model, sp.Train, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	var nodes, edges int
	for _, p := range pairs {
		ex, err := e.Explain(int(p.U), int(p.V))
		if err != nil {
			t.Fatal(err)
		}
		nodes, edges = nodes+ex.Nodes, edges+ex.Edges
	}
	serial := time.Since(t0)
	e, _ = New(res.Model, sp.Train, DefaultConfig())
	t0 = time.Now()
	var wg sync.WaitGroup
	workers := 2
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(pairs); k += workers {
				e.Explain(int(pairs[k].U), int(pairs[k].V))
			}
		})
	}
	wg.Wait()
	par := time.Since(t0)
	np := float64(len(pairs))
	t.Logf("%s %s (test AUC %.4f, %.1fs training): %d pairs, subgraph %.0f nodes %.0f masked edges on average; %.2f ms/pair serial, %.2f ms/pair with %d goroutines",
		src, kind, res.TestAUC, res.TrainSeconds, len(pairs), float64(nodes)/np, float64(edges)/np,
		1e3*serial.Seconds()/np, 1e3*par.Seconds()/np, workers)
}
