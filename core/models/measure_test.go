package models_test

import (
	"cmp"
	"context"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/load"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
)

// TestMeasure trains one pair model on a real dataset over several seeds
// and logs test and validation AUC, epochs, time per epoch and per run,
// and a SUMMARY line: how the models' defaults were chosen. It runs only
// when PAIR_DATA names a dataset folder, e.g.
//
//	PAIR_MODEL=seal PAIR_DATA=/work/shared/datasets/cora PAIR_SEEDS=0,1,2 \
//	PAIR_FLAGS="-lr 0.001 -epochs 20" go test ./core/models -run Measure -v -timeout 0
//
// PAIR_FLAGS takes the model's flags (`ilpgnn train --model M -h`); the
// split is split.New(g, seed, 0.05, 0.1) as ILP-GNN's. PAIR_VERBOSE=1 logs
// every epoch.
func TestMeasure(t *testing.T) {
	path := os.Getenv("PAIR_DATA")
	if path == "" {
		t.Skip("set PAIR_DATA to a dataset folder to measure")
	}
	g, err := load.Path(path)
	if err != nil {
		t.Fatal(err)
	}
	name := cmp.Or(os.Getenv("PAIR_MODEL"), "seal")
	var seeds []uint64
	for _, s := range strings.Split(cmp.Or(os.Getenv("PAIR_SEEDS"), "0"), ",") {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, v)
	}
	verbose := os.Getenv("PAIR_VERBOSE") != ""
	var tests, vals, ms, secs, epochs []float64
	for _, seed := range seeds {
		spec, err := models.Default().Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		tr := spec.New()
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		tr.RegisterFlags(fs)
		if err := fs.Parse(strings.Fields(os.Getenv("PAIR_FLAGS"))); err != nil {
			t.Fatal(err)
		}
		sp, err := split.New(g, seed, split.DefaultValFrac, split.DefaultTestFrac)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Train(context.Background(), models.Run{Data: &dataset.Dataset{Graph: g}, Split: sp, Seed: seed}, func(p models.Progress) {
			if verbose && p.EpochDone {
				t.Logf("  epoch %d loss %.4f val AUC %.4f (best %.4f at %d) %.1fs", p.Epoch, p.Loss, p.ValAUC, p.BestValAUC, p.BestEpoch, p.Elapsed.Seconds())
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		r := res.(*models.Pair).Run
		t.Logf("%s %s seed %d: test AUC %.4f val AUC %.4f best epoch %d of %d, %.0f ms/epoch, %.1f s (+%.1f s test)",
			g.Name, name, seed, r.TestAUC, r.ValAUC, r.BestEpoch, r.Epochs, r.EpochMillis, r.TrainSeconds, r.TestSeconds)
		tests, vals = append(tests, 100*r.TestAUC), append(vals, 100*r.ValAUC)
		ms, secs, epochs = append(ms, r.EpochMillis), append(secs, r.TrainSeconds), append(epochs, float64(r.BestEpoch))
	}
	tm, ts := eval.MeanStd(tests)
	vm, vs := eval.MeanStd(vals)
	mm, _ := eval.MeanStd(ms)
	sm, _ := eval.MeanStd(secs)
	em, _ := eval.MeanStd(epochs)
	t.Logf("SUMMARY %s %s flags %q seeds %v: test AUC %.2f ± %.2f, val AUC %.2f ± %.2f, best epoch %.0f, %.0f ms/epoch, %.1f s/run",
		g.Name, name, os.Getenv("PAIR_FLAGS"), seeds, tm, ts, vm, vs, em, mm, sm)
}
