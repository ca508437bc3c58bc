// Command stops replays stopping rules on the trajectories that
// scripts/measure/schedule records (CSV files, gzipped or not; those behind
// the defaults are in core/train/testdata/schedule) and prints, per rule,
// the mean over the seeds of the epoch the runs stop at, the epoch,
// validation and test AUC of the weights they keep, and the epoch from
// which the kept weights' test AUC stays within 0.3 points of the final
// one (docs/defaults.md records the results).
//
//	go run ./scripts/measure/stops core/train/testdata/schedule/cora_lr0.001.csv.gz core/train/testdata/schedule/cora_lr0.005.csv.gz
//
// --rules plateau replays early stopping without decays (loop.Plateau, the
// code training runs) on constant-rate runs; decays change the trajectory,
// so they are measured by runs. --rules decline replays a stop on decline:
// the run ends when the mean validation AUC of the last window epochs has
// fallen drop below its highest, or after patience epochs without a better
// one. The default replays both.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"ilpgnn/core/loop"
)

func main() {
	fs := flag.NewFlagSet("stops", flag.ExitOnError)
	rules := fs.String("rules", "plateau,decline", "the rules to replay: plateau, decline or both, comma-separated")
	fs.Parse(os.Args[1:])
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: stops [--rules plateau,decline] FILE.csv[.gz]...")
		os.Exit(2)
	}
	for _, path := range fs.Args() {
		runs, err := readTrajectories(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "stops:", err)
			os.Exit(1)
		}
		fmt.Printf("%s (%d seeds)\n", path, len(runs))
		for r := range strings.SplitSeq(*rules, ",") {
			switch r {
			case "plateau":
				replayPlateau(runs)
			case "decline":
				replayDeclines(runs)
			default:
				fmt.Fprintf(os.Stderr, "stops: --rules %q: want plateau or decline\n", r)
				os.Exit(2)
			}
		}
	}
}

// epochRecord is one line of schedule's CSV.
type epochRecord struct {
	epoch         int
	lr, val, test float64
	seconds       float64
}

// readTrajectories reads schedule's CSV, by seed.
func readTrajectories(path string) (map[uint64][]epochRecord, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	runs := map[uint64][]epochRecord{}
	for k, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.Split(line, ",")
		if len(f) != 6 {
			return nil, fmt.Errorf("%s:%d: %q: want 6 fields", path, k+2, line)
		}
		var v [6]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(f[i], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %q: %v", path, k+2, line, err)
			}
		}
		seed := uint64(v[0])
		runs[seed] = append(runs[seed], epochRecord{int(v[1]), v[2], v[3], v[4], v[5]})
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no epochs", path)
	}
	return runs, nil
}

// replayPlateau prints what early stopping without decays (loop.Plateau)
// gives under each rule.
func replayPlateau(runs map[uint64][]epochRecord) {
	const asRun = math.MaxInt32 // a patience no run reaches: the trajectory as recorded
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
		fmt.Printf("  %s: stop %6.1f (%6.0f s) kept %6.1f val %.2f test %.2f within 0.3 pt from %6.1f (%6.0f s)\n",
			name, m.stop, m.stopSec, m.kept, 100*m.val, 100*m.test, m.within, m.withinSec)
	}
}

// replayDeclines prints what the stop on decline gives under each rule.
func replayDeclines(runs map[uint64][]epochRecord) {
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
		fmt.Printf("  window %2d drop %.1f pt patience %3d: stop %6.1f kept %6.1f val %.2f (worst %.2f) test %.2f within 0.3 pt from %6.1f\n",
			rule.window, 100*rule.drop, rule.patience, m.stop, m.kept, 100*m.val, 100*m.worstVal, 100*m.test, m.within)
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
// patience and minDelta, on the mean validation AUC of the last window
// epochs, ends traj (its last when it does not), and that of the weights
// the run keeps then: the first best validation AUC.
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
