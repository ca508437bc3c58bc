package train

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/load"
	"ilpgnn/core/loop"
	"ilpgnn/core/split"
)

// TestMeasureSchedule records, for the data set at ILPGNN_SCHEDULE_DATA,
// every epoch's learning rate, validation AUC and, at each new best
// validation AUC, the test AUC of the same weights, one CSV line each (seed,epoch,lr,val_auc,test_auc,seconds) to
// the file ILPGNN_SCHEDULE_OUT: the trajectories that early stopping and
// the learning-rate schedule were chosen from (docs/defaults.md). Seeds come
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
		// The test AUC of weights no stopping rule keeps (no new best
		// validation AUC) is never read, so it is not computed: NaN.
		testAUC, bestVal := math.NaN(), math.Inf(-1)
		crit := func(p *ilpgnn.Predictor) float64 {
			v := aucOf(p, val, len(sp.ValPos))
			testAUC = math.NaN()
			if v > bestVal {
				bestVal, testAUC = v, aucOf(p, test, len(sp.TestPos))
			}
			return v
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

// epochRecord is one line of TestMeasureSchedule's CSV.
type epochRecord struct {
	epoch         int
	lr, val, test float64
	seconds       float64
}

// readTrajectories reads TestMeasureSchedule's CSV, by seed.
func readTrajectories(t *testing.T, path string) map[uint64][]epochRecord {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	runs := map[uint64][]epochRecord{}
	for k, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.Split(line, ",")
		var v [6]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(f[i], 64); err != nil || len(f) != 6 {
				t.Fatalf("%s:%d: %q: %v", path, k+2, line, err)
			}
		}
		seed := uint64(v[0])
		runs[seed] = append(runs[seed], epochRecord{int(v[1]), v[2], v[3], v[4], v[5]})
	}
	return runs
}

// TestReplayStops replays early stopping without decays (loop.Plateau,
// the code training runs) on the trajectories of constant-rate runs in
// the CSV files ILPGNN_STOPS_CSV (comma-separated) and logs, per rule, the
// mean epoch the runs stop at, the epoch, validation and test AUC of the
// weights they keep, and the epoch from which the kept weights' test AUC
// stays within 0.3 points of the final one. Decays change the trajectory,
// so they are measured by runs. Run it with -v.
func TestReplayStops(t *testing.T) {
	const asRun = math.MaxInt32 // a patience no run reaches: the trajectory as recorded
	paths := os.Getenv("ILPGNN_STOPS_CSV")
	if paths == "" {
		t.Skip("set ILPGNN_STOPS_CSV to replay")
	}
	for _, path := range strings.Split(paths, ",") {
		runs := readTrajectories(t, path)
		t.Logf("%s (%d seeds)", path, len(runs))
		for _, rule := range []struct {
			patience int
			minDelta float64
			window   int
		}{{asRun, 0, 1}, {100, 0, 1}, {50, 0, 1}, {30, 0, 1}, {20, 0, 1}, {20, 0.0005, 1}, {20, 0.001, 1}, {30, 0.001, 1},
			{20, 0, 5}, {20, 0, 10}, {30, 0, 10}, {20, 0.0005, 10}, {20, 0.001, 10}, {30, 0.0005, 10}, {30, 0.001, 10}, {20, 0, 20}, {30, 0, 20}} {
			m := replayMeans(runs, func(traj []epochRecord) (int, int) {
				return replayStop(traj, rule.patience, rule.minDelta, rule.window)
			})
			name := fmt.Sprintf("patience %3d min-delta %.2f pt window %2d", rule.patience, 100*rule.minDelta, rule.window)
			if rule.patience == asRun {
				name = "as the runs ended                      "
			}
			t.Logf("  %s: stop %6.1f (%6.0f s) kept %6.1f val %.2f test %.2f within 0.3 pt from %6.1f (%6.0f s)",
				name, m.stop, m.stopSec, m.kept, 100*m.val, 100*m.test, m.within, m.withinSec)
		}
	}
}

// replayed is what a stopping rule gives over a file's runs: means over
// the seeds of the epoch and seconds it stops at, the kept weights' epoch,
// validation and test AUC, and the epoch and seconds from which their test
// AUC stays within 0.3 points of the final one; and the lowest validation
// AUC kept on any seed.
type replayed struct {
	stop, stopSec, kept, val, test, within, withinSec float64
	worstVal                                          float64
}

// replayMeans replays rule, which returns the indices of the epoch a run
// stops at and of the weights it keeps, on every run.
func replayMeans(runs map[uint64][]epochRecord, rule func([]epochRecord) (stop, kept int)) replayed {
	m := replayed{worstVal: math.Inf(1)}
	for _, traj := range runs {
		s, k := rule(traj)
		w := withinOfFinal(traj, s, 0.003)
		m.stop += float64(traj[s].epoch)
		m.stopSec += traj[s].seconds
		m.kept += float64(traj[k].epoch)
		m.val += traj[k].val
		m.test += traj[k].test
		m.within += float64(traj[w].epoch)
		m.withinSec += traj[w].seconds
		m.worstVal = min(m.worstVal, traj[k].val)
	}
	n := float64(len(runs))
	m.stop, m.stopSec, m.kept, m.val, m.test, m.within, m.withinSec = m.stop/n, m.stopSec/n, m.kept/n, m.val/n, m.test/n, m.within/n, m.withinSec/n
	return m
}

// replayStop returns the index of the epoch at which early stopping with
// patience and minDelta ends traj (its last when it does not), and that of
// the weights the run keeps then: the first best validation AUC.
func replayStop(traj []epochRecord, patience int, minDelta float64, window int) (stop, kept int) {
	p := &loop.Plateau{Patience: patience, MinDelta: minDelta}
	sum := 0.0
	for k, r := range traj {
		if r.val > traj[kept].val {
			kept = k
		}
		sum += r.val
		if k >= window {
			sum -= traj[k-window].val
		}
		if p.Observe(r.epoch, sum/float64(min(k+1, window))) {
			return k, kept
		}
	}
	return len(traj) - 1, kept
}

// withinOfFinal returns the first index from which the test AUC of the
// weights a run would keep, were it stopped there, stays within tol of
// the test AUC of those it keeps at stop.
func withinOfFinal(traj []epochRecord, stop int, tol float64) int {
	kept := make([]float64, stop+1) // test AUC of the kept weights after each epoch
	best := 0
	for k := range kept {
		if traj[k].val > traj[best].val {
			best = k
		}
		kept[k] = traj[best].test
	}
	first := stop
	for k := stop; k >= 0 && math.Abs(kept[k]-kept[stop]) <= tol; k-- {
		first = k
	}
	return first
}

// TestReplayDecline replays a stop on decline: the run ends when the mean
// validation AUC of the last window epochs has fallen drop below its
// highest (the model has begun to overfit), or after patience epochs without a
// better one. Run it with -v and ILPGNN_STOPS_CSV.
func TestReplayDecline(t *testing.T) {
	paths := os.Getenv("ILPGNN_STOPS_CSV")
	if paths == "" {
		t.Skip("set ILPGNN_STOPS_CSV to replay")
	}
	for _, path := range strings.Split(paths, ",") {
		runs := readTrajectories(t, path)
		t.Logf("%s (%d seeds)", path, len(runs))
		for _, rule := range []struct {
			window   int
			drop     float64
			patience int
		}{{10, 0.002, 100}, {10, 0.005, 100}, {20, 0.002, 100}, {10, 0.001, 50}, {10, 0.002, 50}, {20, 0.001, 50}, {20, 0.002, 50},
			// A drop of 1 (100 points) never fires: patience alone.
			{1, 1, 50}, {1, 1, 40}, {1, 1, 30}} {
			m := replayMeans(runs, func(traj []epochRecord) (int, int) {
				return replayDecline(traj, rule.window, rule.drop, rule.patience)
			})
			t.Logf("  window %2d drop %.1f pt patience %3d: stop %6.1f kept %6.1f val %.2f (worst %.2f) test %.2f within 0.3 pt from %6.1f",
				rule.window, 100*rule.drop, rule.patience, m.stop, m.kept, 100*m.val, 100*m.worstVal, 100*m.test, m.within)
		}
	}
}

// replayDecline returns the index of the epoch at which the stop on
// decline (or patience) ends traj, its last when neither does, and that of
// the weights the run keeps then: the first best validation AUC.
func replayDecline(traj []epochRecord, window int, drop float64, patience int) (stop, kept int) {
	sum, peak := 0.0, 0.0
	for k, r := range traj {
		if r.val > traj[kept].val {
			kept = k
		}
		sum += r.val
		if k >= window {
			sum -= traj[k-window].val
		}
		if k+1 >= window {
			mean := sum / float64(window)
			peak = max(peak, mean)
			if peak-mean > drop {
				return k, kept
			}
		}
		if k-kept >= patience {
			return k, kept
		}
	}
	return len(traj) - 1, kept
}
