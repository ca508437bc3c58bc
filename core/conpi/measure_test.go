package conpi

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
	"ilpgnn/core/synth"
)

// TestMeasure trains CONPI on a real dataset over several seeds and logs
// test AUC mean ± std and time per epoch. It runs only when CONPI_DATA
// names a dataset folder, e.g.
//
//	CONPI_DATA=/work/shared/datasets/cora CONPI_SEEDS=0,1,2,3,4 \
//	CONPI_FLAGS="-lr 0.001 -dim 64" go test ./core/conpi -run Measure -v -timeout 0
//
// CONPI_FLAGS takes the flags of Config.RegisterFlags; the split is
// split.New(g, seed, 0.05, 0.1) as ILP-GNN's.
func TestMeasure(t *testing.T) {
	path := os.Getenv("CONPI_DATA")
	if path == "" {
		t.Skip("set CONPI_DATA to a dataset folder to measure")
	}
	g, err := load.Path(path)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	for _, s := range strings.Split(cmp.Or(os.Getenv("CONPI_SEEDS"), "0"), ",") {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, v)
	}
	flags := os.Getenv("CONPI_FLAGS")
	var tests, vals, ms, secs, epochs []float64
	for _, seed := range seeds {
		cfg := DefaultConfig()
		fs := flag.NewFlagSet("conpi", flag.ContinueOnError)
		cfg.RegisterFlags(fs)
		if err := fs.Parse(strings.Fields(flags)); err != nil {
			t.Fatal(err)
		}
		cfg.Fit.Seed = seed
		sp, err := split.New(g, seed, split.DefaultValFrac, split.DefaultTestFrac)
		if err != nil {
			t.Fatal(err)
		}
		res, err := RunSplit(context.Background(), sp, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s seed %d: test AUC %.4f val AUC %.4f best epoch %d of %d, %.1f ms/epoch, %.1f s",
			g.Name, seed, res.TestAUC, res.ValAUC, res.BestEpoch, res.Epochs, res.EpochMillis, res.TrainSeconds)
		tests, vals = append(tests, 100*res.TestAUC), append(vals, 100*res.ValAUC)
		ms, secs, epochs = append(ms, res.EpochMillis), append(secs, res.TrainSeconds), append(epochs, float64(res.BestEpoch))
	}
	tm, ts := eval.MeanStd(tests)
	vm, vs := eval.MeanStd(vals)
	mm, _ := eval.MeanStd(ms)
	sm, _ := eval.MeanStd(secs)
	em, _ := eval.MeanStd(epochs)
	t.Logf("SUMMARY %s conpi flags %q seeds %v: test AUC %.2f ± %.2f, val AUC %.2f ± %.2f, best epoch %.0f, %.1f ms/epoch, %.1f s/run",
		g.Name, flags, seeds, tm, ts, vm, vs, em, mm, sm)
}

// TestMeasureSynth trains CONPI with the defaults (and CONPI_FLAGS) on
// synthetic presets and logs the ranker's Precision@1/@2 on the test links
// beside the random expectation. It runs only when CONPI_SYNTH names
// presets, e.g. CONPI_SYNTH=sparse,medium,dense (seeds CONPI_SEEDS).
func TestMeasureSynth(t *testing.T) {
	presets := os.Getenv("CONPI_SYNTH")
	if presets == "" {
		t.Skip("set CONPI_SYNTH to synthetic presets to measure precision")
	}
	for _, preset := range strings.Split(presets, ",") {
		for _, s := range strings.Split(cmp.Or(os.Getenv("CONPI_SEEDS"), "0"), ",") {
			seed, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			cfg := DefaultConfig()
			fs := flag.NewFlagSet("conpi", flag.ContinueOnError)
			cfg.RegisterFlags(fs)
			if err := fs.Parse(strings.Fields(os.Getenv("CONPI_FLAGS"))); err != nil {
				t.Fatal(err)
			}
			if _, err := synth.Preset(preset); err != nil {
				t.Fatal(err)
			}
			p, random, auc := synthPrecision(t, preset, seed, cfg)
			t.Logf("SYNTH %s seed %d: P@1 %.4f P@2 %.4f (random %.4f %.4f), test AUC %.4f",
				preset, seed, p[0], p[1], random[0], random[1], auc)
		}
	}
}
