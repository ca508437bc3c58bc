// Command gnnexplainer trains a model with gnn's defaults on a dataset
// (seed 0) and times GNNExplainer on its first test pairs: explained one at
// a time, then all of them again on a fresh explainer with --workers
// goroutines, as explain.PrecisionAt runs it. It prints one line: the
// model's test AUC and training time, the mean computation subgraph, and
// the milliseconds per pair of each way.
//
//	go run ./scripts/measure/gnnexplainer --data ../shared/datasets/cora --kind gae --pairs 200
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/gnnexplainer"
	"ilpgnn/core/dataset"
)

func main() {
	fs := flag.NewFlagSet("gnnexplainer", flag.ExitOnError)
	data := fs.String("data", "", "a --data value, as ilpgnn train takes it: a dataset folder or synth:PRESET (required)")
	kindFlag := fs.String("kind", "gae", "the model explained: gae, vgae or gat")
	n := fs.Int("pairs", 200, "test pairs explained, links first")
	workers := fs.Int("workers", 2, "goroutines of the parallel pass")
	fs.Parse(os.Args[1:])
	if *data == "" || *n < 1 || *workers < 1 || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gnnexplainer --data SPEC [--kind gae] [--pairs 200] [--workers 2]")
		os.Exit(2)
	}
	if err := run(*data, *kindFlag, *n, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "gnnexplainer:", err)
		os.Exit(1)
	}
}

func run(spec, kindFlag string, n, workers int) error {
	src, err := dataset.Parse(spec)
	if err != nil {
		return err
	}
	d, err := src.Load(0)
	if err != nil {
		return err
	}
	kind, err := gnn.ParseKind(kindFlag)
	if err != nil {
		return err
	}
	cfg := gnn.DefaultConfig(kind)
	sp, err := d.Split(0, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		return err
	}
	res, err := gnn.RunSplit(context.Background(), sp, cfg, nil)
	if err != nil {
		return err
	}
	all := slices.Concat(sp.TestPos, sp.TestNeg)
	pairs := all[:min(n, len(all))]
	e, err := gnnexplainer.New(res.Model, sp.Train, gnnexplainer.DefaultConfig())
	if err != nil {
		return err
	}
	t0 := time.Now()
	var nodes, edges int
	for _, p := range pairs {
		ex, err := e.Explain(int(p.U), int(p.V))
		if err != nil {
			return err
		}
		nodes, edges = nodes+ex.Nodes, edges+ex.Edges
	}
	serial := time.Since(t0)
	if e, err = gnnexplainer.New(res.Model, sp.Train, gnnexplainer.DefaultConfig()); err != nil {
		return err
	}
	t0 = time.Now()
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(pairs); k += workers {
				if _, err := e.Explain(int(pairs[k].U), int(pairs[k].V)); err != nil && errs[w] == nil {
					errs[w] = err
				}
			}
		})
	}
	wg.Wait()
	par := time.Since(t0)
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	np := float64(len(pairs))
	fmt.Printf("%s %s (test AUC %.4f, %.1fs training): %d pairs, subgraph %.0f nodes %.0f masked edges on average; %.2f ms/pair serial, %.2f ms/pair with %d goroutines\n",
		src, kind, res.TestAUC, res.TrainSeconds, len(pairs), float64(nodes)/np, float64(edges)/np,
		1e3*serial.Seconds()/np, 1e3*par.Seconds()/np, workers)
	return nil
}
