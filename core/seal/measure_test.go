package seal

import (
	"cmp"
	"context"
	"flag"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ilpgnn/core/eval"
	"ilpgnn/core/load"
	"ilpgnn/core/pairfit"
	"ilpgnn/core/split"
)

// TestMeasure trains SEAL on a real dataset over several seeds and logs
// test and validation AUC, epochs, time per epoch and per run, and a
// SUMMARY line. It runs only when SEAL_DATA names a dataset folder, e.g.
//
//	SEAL_DATA=/work/shared/datasets/cora SEAL_SEEDS=0,1,2 \
//	SEAL_FLAGS="-lr 0.001 -epochs 20" go test ./core/seal -run Measure -v -timeout 0
//
// SEAL_FLAGS takes the flags of Config.RegisterFlags; the split is
// split.New(g, seed, split.DefaultValFrac, split.DefaultTestFrac) as
// ILP-GNN's. SEAL_SIZES=1 also logs the distribution of enclosing subgraph
// sizes of the model's k sample; SEAL_EPOCHS_ONLY=n stops every run after
// n epochs (to time epochs on large graphs).
func TestMeasure(t *testing.T) {
	path := os.Getenv("SEAL_DATA")
	if path == "" {
		t.Skip("set SEAL_DATA to a dataset folder to measure")
	}
	g, err := load.Path(path)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	for _, s := range strings.Split(cmp.Or(os.Getenv("SEAL_SEEDS"), "0"), ",") {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, v)
	}
	var tests, vals, ms, secs, epochs []float64
	for _, seed := range seeds {
		cfg := DefaultConfig()
		fs := flag.NewFlagSet("seal", flag.ContinueOnError)
		cfg.RegisterFlags(fs)
		if err := fs.Parse(strings.Fields(os.Getenv("SEAL_FLAGS"))); err != nil {
			t.Fatal(err)
		}
		cfg.Fit.Seed = seed
		sp, err := split.New(g, seed, split.DefaultValFrac, split.DefaultTestFrac)
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("SEAL_SIZES") != "" {
			logSizes(t, sp, cfg)
		}
		ctx, stop := context.Background(), func() {}
		if n, _ := strconv.Atoi(os.Getenv("SEAL_EPOCHS_ONLY")); n > 0 {
			cfg.Fit.Epochs = n
		}
		start := time.Now()
		res, err := RunSplit(ctx, sp, cfg, func(p pairfit.Progress) {
			if p.EpochDone {
				t.Logf("  epoch %d loss %.4f val AUC %.4f (best %.4f at %d) %.1fs", p.Epoch, p.Loss, p.ValAUC, p.BestValAUC, p.BestEpoch, p.Elapsed.Seconds())
			}
		})
		stop()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s seed %d k %d: test AUC %.4f val AUC %.4f best epoch %d of %d, %.1f ms/epoch, %.1f s train, %.1f s total",
			g.Name, seed, res.Model.K, res.TestAUC, res.ValAUC, res.BestEpoch, res.Epochs, res.EpochMillis, res.TrainSeconds, time.Since(start).Seconds())
		tests, vals = append(tests, 100*res.TestAUC), append(vals, 100*res.ValAUC)
		ms, secs, epochs = append(ms, res.EpochMillis), append(secs, time.Since(start).Seconds()), append(epochs, float64(res.BestEpoch))
	}
	tm, ts := eval.MeanStd(tests)
	vm, vs := eval.MeanStd(vals)
	mm, _ := eval.MeanStd(ms)
	sm, _ := eval.MeanStd(secs)
	em, _ := eval.MeanStd(epochs)
	t.Logf("SUMMARY %s seal flags %q seeds %v: test AUC %.2f ± %.2f, val AUC %.2f ± %.2f, best epoch %.0f, %.1f ms/epoch, %.1f s/run",
		g.Name, os.Getenv("SEAL_FLAGS"), seeds, tm, ts, vm, vs, em, mm, sm)
}

// logSizes logs percentiles of the enclosing subgraph sizes and label
// counts of the k sample of a model configured as cfg on sp.Train.
func logSizes(t *testing.T, sp *split.Split, cfg Config) {
	m, err := New(sp.Train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	sizes, err := m.sampleSizes(newRand(cfg.Fit.Seed, streamK))
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	slices.Sort(sizes)
	pct := func(p float64) int { return sizes[min(len(sizes)-1, int(p*float64(len(sizes))))] }
	t.Logf("subgraph sizes (%d pairs, %v): p10 %d p50 %d p60 %d p90 %d p99 %d max %d; k %d",
		len(sizes), el, pct(0.1), pct(0.5), pct(0.6), pct(0.9), pct(0.99), sizes[len(sizes)-1], m.K)
	b, err := m.extract(sp.TrainPos[:min(500, len(sp.TrainPos))])
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int32]int{}
	for _, l := range b.Labels {
		counts[l]++
	}
	t.Logf("DRNL label counts over %d nodes of 500 links: %v", len(b.Labels), counts)
}
