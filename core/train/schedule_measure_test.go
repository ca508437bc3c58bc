package train

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/load"
	"ilpgnn/core/split"
)

// TestMeasureSchedule records, for the data set at ILPGNN_SCHEDULE_DATA,
// every epoch's learning rate, validation AUC and the test AUC of the same
// weights, one CSV line each (seed,epoch,lr,val_auc,test_auc,seconds) to
// the file ILPGNN_SCHEDULE_OUT: the trajectories that early stopping and
// the learning-rate schedule were chosen from (DEFAULTS.md). Seeds come
// from ILPGNN_SCHEDULE_SEEDS (default 0) and hyperparameters from
// ILPGNN_SCHEDULE_ARGS, flags as ilpgnn train takes them. Test AUC is
// recorded to report the choice, never to make it. It only measures: make
// test skips it.
//
//	ILPGNN_SCHEDULE_DATA=../../../shared/datasets/cora ILPGNN_SCHEDULE_OUT=/tmp/cora.csv \
//	  ILPGNN_SCHEDULE_ARGS="--lr 0.005" go test -count=1 -run TestMeasureSchedule -timeout 3h ./core/train
func TestMeasureSchedule(t *testing.T) {
	path, out := os.Getenv("ILPGNN_SCHEDULE_DATA"), os.Getenv("ILPGNN_SCHEDULE_OUT")
	if path == "" || out == "" {
		t.Skip("set ILPGNN_SCHEDULE_DATA and ILPGNN_SCHEDULE_OUT to measure")
	}
	cfg := DefaultConfig()
	fs := flag.NewFlagSet("schedule", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	if err := fs.Parse(strings.Fields(os.Getenv("ILPGNN_SCHEDULE_ARGS"))); err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{0}
	if s := os.Getenv("ILPGNN_SCHEDULE_SEEDS"); s != "" {
		seeds = seeds[:0]
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			seeds = append(seeds, v)
		}
	}
	g, err := load.Path(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintln(f, "seed,epoch,lr,val_auc,test_auc,seconds")
	for _, seed := range seeds {
		cfg.Seed = seed
		sp, err := split.New(g, seed, cfg.ValFrac, cfg.TestFrac)
		if err != nil {
			t.Fatal(err)
		}
		val := append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...)
		test := append(append([]graph.Edge{}, sp.TestPos...), sp.TestNeg...)
		var testAUC float64
		crit := func(p *ilpgnn.Predictor) float64 {
			testAUC = aucOf(p, test, len(sp.TestPos))
			return aucOf(p, val, len(sp.ValPos))
		}
		res, err := RunSplitSelect(context.Background(), sp, cfg, crit, func(p Progress) {
			fmt.Fprintf(f, "%d,%d,%g,%.6f,%.6f,%.3f\n", seed, p.Epoch, p.LR, p.ValAUC, testAUC, p.Elapsed.Seconds())
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: %d epochs, best %d, val %.2f, test %.2f, %.1f s", seed, res.Epochs, res.BestEpoch,
			100*res.ValAUC, 100*res.TestAUC, res.TrainSeconds)
	}
}
