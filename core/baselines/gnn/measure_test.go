package gnn

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
	"ilpgnn/core/split"
)

// TestMeasure trains baselines on a real dataset over several seeds and
// logs test AUC mean ± std and time per epoch. It runs only when
// GNN_DATA names a dataset folder, e.g.
//
//	GNN_DATA=/work/shared/datasets/cora GNN_KIND=gae GNN_SEEDS=0,1,2,3,4 \
//	GNN_FLAGS="-lr 0.01 -out 128" go test ./core/baselines/gnn -run Measure -v -timeout 0
//
// GNN_FLAGS takes the flags of Config.RegisterFlags; the split is
// split.New(g, seed, 0.05, 0.1) as ILP-GNN's.
func TestMeasure(t *testing.T) {
	path := os.Getenv("GNN_DATA")
	if path == "" {
		t.Skip("set GNN_DATA to a dataset folder to measure")
	}
	g, err := load.Path(path)
	if err != nil {
		t.Fatal(err)
	}
	kind, err := ParseKind(cmp.Or(os.Getenv("GNN_KIND"), "gae"))
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	for _, s := range strings.Split(cmp.Or(os.Getenv("GNN_SEEDS"), "0"), ",") {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, v)
	}
	var tests, vals, ms, secs, epochs []float64
	for _, seed := range seeds {
		cfg := DefaultConfig(kind)
		fs := flag.NewFlagSet("gnn", flag.ContinueOnError)
		cfg.RegisterFlags(fs)
		if err := fs.Parse(strings.Fields(os.Getenv("GNN_FLAGS"))); err != nil {
			t.Fatal(err)
		}
		cfg.Seed = seed
		sp, err := split.New(g, seed, cfg.ValFrac, cfg.TestFrac)
		if err != nil {
			t.Fatal(err)
		}
		res, err := RunSplit(context.Background(), sp, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s seed %d: test AUC %.4f val AUC %.4f best epoch %d of %d, %.1f ms/epoch, %.1f s",
			g.Name, kind, seed, res.TestAUC, res.ValAUC, res.BestEpoch, res.Epochs, res.EpochMillis, res.TrainSeconds)
		tests, vals = append(tests, 100*res.TestAUC), append(vals, 100*res.ValAUC)
		ms, secs, epochs = append(ms, res.EpochMillis), append(secs, res.TrainSeconds), append(epochs, float64(res.BestEpoch))
	}
	tm, ts := eval.MeanStd(tests)
	vm, vs := eval.MeanStd(vals)
	mm, _ := eval.MeanStd(ms)
	sm, _ := eval.MeanStd(secs)
	em, _ := eval.MeanStd(epochs)
	t.Logf("SUMMARY %s %s flags %q seeds %v: test AUC %.2f ± %.2f, val AUC %.2f ± %.2f, best epoch %.0f, %.1f ms/epoch, %.1f s/run",
		g.Name, kind, os.Getenv("GNN_FLAGS"), seeds, tm, ts, vm, vs, em, mm, sm)
}
