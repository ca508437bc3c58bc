// Command schedule records, for one dataset, every epoch's learning rate
// and validation AUC and, at each new best validation AUC, the test AUC of
// the same weights: one CSV line per epoch (seed,epoch,lr,val_auc,test_auc,seconds),
// the trajectories that early stopping and the learning-rate schedule were
// chosen from (docs/defaults.md; core/train/testdata/schedule holds those
// runs, and scripts/measure/stops replays them). Test AUC is recorded to
// report the choice, never to make it.
//
//	go run ./scripts/measure/schedule --data ../shared/datasets/cora --out /tmp/cora_lr0.005.csv \
//	  --seeds 10,11,12,13,14 --lr 0.005 --epochs 600 --patience 1000
//
// Every hyperparameter flag of `ilpgnn train` (ILP-GNN's) is taken too.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/load"
	"ilpgnn/core/split"
	"ilpgnn/core/train"
)

func main() {
	fs := flag.NewFlagSet("schedule", flag.ExitOnError)
	data := fs.String("data", "", "dataset folder or file, as ilpgnn train --data reads it (required)")
	out := fs.String("out", "", "CSV file to write (required)")
	seedsFlag := fs.String("seeds", "0", "comma-separated seeds")
	cfg := train.DefaultConfig()
	cfg.RegisterFlags(fs)
	fs.Parse(os.Args[1:])
	if *data == "" || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: schedule --data PATH --out FILE.csv [--seeds 0,1] [ilpgnn train's hyperparameter flags]")
		os.Exit(2)
	}
	if err := run(*data, *out, *seedsFlag, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "schedule:", err)
		os.Exit(1)
	}
}

func run(path, out, seedsFlag string, cfg train.Config) error {
	var seeds []uint64
	for f := range strings.SplitSeq(seedsFlag, ",") {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return fmt.Errorf("--seeds %q: %v", seedsFlag, err)
		}
		seeds = append(seeds, v)
	}
	g, err := load.Path(path)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	fmt.Fprintln(f, "seed,epoch,lr,val_auc,test_auc,seconds")
	for _, seed := range seeds {
		cfg.Seed = seed
		sp, err := split.New(g, seed, cfg.ValFrac, cfg.TestFrac)
		if err != nil {
			return err
		}
		val := append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...)
		test := append(append([]graph.Edge{}, sp.TestPos...), sp.TestNeg...)
		auc := func(p *ilpgnn.Predictor, pairs []graph.Edge, nPos int) float64 {
			l := p.Logits(pairs)
			return eval.AUC(l[:nPos], l[nPos:])
		}
		// The test AUC of weights no stopping rule keeps (no new best
		// validation AUC) is never read, so it is not computed: NaN.
		testAUC, bestVal := math.NaN(), math.Inf(-1)
		crit := func(p *ilpgnn.Predictor) float64 {
			v := auc(p, val, len(sp.ValPos))
			testAUC = math.NaN()
			if v > bestVal {
				bestVal, testAUC = v, auc(p, test, len(sp.TestPos))
			}
			return v
		}
		res, err := train.RunSplitSelect(context.Background(), sp, cfg, crit, func(p train.Progress) {
			if !p.EpochDone {
				return // a report from within a sharded epoch
			}
			fmt.Fprintf(f, "%d,%d,%g,%.6f,%.6f,%.3f\n", seed, p.Epoch, p.LR, p.ValAUC, testAUC, p.Elapsed.Seconds())
		})
		if err != nil {
			f.Close()
			return err
		}
		fmt.Printf("seed %d: %d epochs, best %d, val %.2f, test %.2f, %.1f s\n", seed, res.Epochs, res.BestEpoch,
			100*res.ValAUC, 100*res.TestAUC, res.TrainSeconds)
	}
	return f.Close()
}
