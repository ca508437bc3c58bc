package walkpool

import (
	"cmp"
	"context"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/eval"
	"ilpgnn/core/load"
	"ilpgnn/core/pairfit"
	"ilpgnn/core/split"
)

// TestMeasure trains WalkPooling on a real dataset over several seeds and
// logs test and validation AUC, epochs and time. It runs only when
// WALKPOOL_DATA names a dataset folder, e.g.
//
//	WALKPOOL_DATA=/work/shared/datasets/cora WALKPOOL_SEEDS=0,1,2 \
//	WALKPOOL_FLAGS="-walk-len 5" go test ./core/walkpool -run Measure -v -timeout 0
//
// WALKPOOL_FLAGS takes the flags of Config.RegisterFlags; the split is
// split.New(g, seed, 0.05, 0.1) as ILP-GNN's. WALKPOOL_VERBOSE=1 logs
// every epoch.
func TestMeasure(t *testing.T) {
	path := os.Getenv("WALKPOOL_DATA")
	if path == "" {
		t.Skip("set WALKPOOL_DATA to a dataset folder to measure")
	}
	g, err := load.Path(path)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	for _, s := range strings.Split(cmp.Or(os.Getenv("WALKPOOL_SEEDS"), "0"), ",") {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, v)
	}
	verbose := os.Getenv("WALKPOOL_VERBOSE") != ""
	var tests, vals, ms, secs, epochs []float64
	for _, seed := range seeds {
		cfg := DefaultConfig()
		fs := flag.NewFlagSet("walkpool", flag.ContinueOnError)
		cfg.RegisterFlags(fs)
		if err := fs.Parse(strings.Fields(os.Getenv("WALKPOOL_FLAGS"))); err != nil {
			t.Fatal(err)
		}
		cfg.Fit.Seed = seed
		sp, err := split.New(g, seed, split.DefaultValFrac, split.DefaultTestFrac)
		if err != nil {
			t.Fatal(err)
		}
		res, err := RunSplit(context.Background(), sp, cfg, func(p pairfit.Progress) {
			if verbose && p.EpochDone {
				t.Logf("epoch %d loss %.4f val AUC %.4f (best %.4f at %d) %.1fs", p.Epoch, p.Loss, p.ValAUC, p.BestValAUC, p.BestEpoch, p.Elapsed.Seconds())
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s seed %d: test AUC %.4f val AUC %.4f best epoch %d of %d, %.0f ms/epoch, %.1f s (+%.1f s test)",
			g.Name, seed, res.TestAUC, res.ValAUC, res.BestEpoch, res.Epochs, res.EpochMillis, res.TrainSeconds, res.TestSeconds)
		tests, vals = append(tests, 100*res.TestAUC), append(vals, 100*res.ValAUC)
		ms, secs, epochs = append(ms, res.EpochMillis), append(secs, res.TrainSeconds), append(epochs, float64(res.BestEpoch))
	}
	tm, ts := eval.MeanStd(tests)
	vm, vs := eval.MeanStd(vals)
	mm, _ := eval.MeanStd(ms)
	sm, _ := eval.MeanStd(secs)
	em, _ := eval.MeanStd(epochs)
	t.Logf("SUMMARY %s walkpool flags %q seeds %v: test AUC %.2f ± %.2f, val AUC %.2f ± %.2f, best epoch %.0f, %.0f ms/epoch, %.1f s/run",
		g.Name, os.Getenv("WALKPOOL_FLAGS"), seeds, tm, ts, vm, vs, em, mm, sm)
}
