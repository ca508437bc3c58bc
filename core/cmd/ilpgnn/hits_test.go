package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/checkpoint"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
)

// hitsSplit holds out 40% of small's 180 edges for testing, so that the
// 72 test non-links put Hits@20 and @50 below the "fewer than k negatives"
// rule (Hits@100 is 1 by it).
const hitsSplit = "50/10/40"

// hitsOracle computes Hits@20, @50 and @100 one cut-off at a time from the
// scores of the test links and non-links.
func hitsOracle(score func([]graph.Edge) []float32, sp *split.Split) eval.Hits {
	pos, neg := score(sp.TestPos), score(sp.TestNeg)
	return eval.Hits{At20: eval.HitsAtK(pos, neg, 20), At50: eval.HitsAtK(pos, neg, 50), At100: eval.HitsAtK(pos, neg, 100)}
}

// trainOut runs train --json and decodes its answer.
func trainOut(t *testing.T, args ...string) trainJSON {
	t.Helper()
	code, out, stderr := cli(t, append([]string{"train", "--json", "--quiet"}, args...)...)
	if code != 0 {
		t.Fatalf("train %v: exit %d: %s", args, code, stderr)
	}
	var got trainJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("train --json output is not JSON: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"test_hits": {`) || !strings.Contains(out, `"test_hits_mean": {`) {
		t.Errorf("train --json lacks test_hits or test_hits_mean:\n%s", out)
	}
	return got
}

// smallSplit draws small's split for seed with --split 50/10/40's shares.
func smallSplit(t *testing.T, seed uint64) *split.Split {
	t.Helper()
	_, d, err := openData(small, seed)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(seed, 0.1, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.TestNeg) < 50 {
		t.Fatalf("%d test non-links, want at least 50", len(sp.TestNeg))
	}
	return sp
}

// TestTrainHitsILPGNN trains ILP-GNN on small's 50/10/40 split and checks
// each seed's test Hits against Hits@k of the saved checkpoint's scores on
// that split's test pairs, and the summary against the runs.
func TestTrainHitsILPGNN(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "m.ckpt")
	got := trainOut(t, "--data", small, "--seeds", "0,1", "--epochs", "3", "--hidden", "8", "--split", hitsSplit, "--save", ck)
	if len(got.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(got.Runs))
	}
	var hs []eval.Hits
	for _, r := range got.Runs {
		sp := smallSplit(t, r.Seed)
		c, err := checkpoint.ReadFile(fmt.Sprintf("%s.seed%d.ckpt", strings.TrimSuffix(ck, ".ckpt"), r.Seed))
		if err != nil {
			t.Fatal(err)
		}
		_, d, err := openData(small, r.Seed)
		if err != nil {
			t.Fatal(err)
		}
		m, cfg, err := models.OpenILPGNN(c, d.Graph)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.ValFrac != 0.1 || cfg.TestFrac != 0.4 {
			t.Errorf("seed %d: checkpoint's shares %v, %v; want 0.1, 0.4", r.Seed, cfg.ValFrac, cfg.TestFrac)
		}
		in, err := ilpgnn.Prepare(sp.Train, cfg.Model)
		if err != nil {
			t.Fatal(err)
		}
		want := hitsOracle(ilpgnn.NewPredictor(m, in).Logits, sp)
		if r.TestHits != want {
			t.Errorf("seed %d: test_hits %+v, want %+v", r.Seed, r.TestHits, want)
		}
		if want.At20 == 1 && want.At50 == 1 {
			t.Errorf("seed %d: Hits@20 and @50 are both 1: the check cannot tell hits apart", r.Seed)
		}
		hs = append(hs, r.TestHits)
	}
	// Hand: the mean and sample std of two values a, b are (a+b)/2 and |a-b|/√2.
	a, b := hs[0].At50, hs[1].At50
	if m, s := got.TestHitsMean.At50, got.TestHitsStd.At50; math.Abs(m-(a+b)/2) > 1e-15 || math.Abs(s-math.Abs(a-b)/math.Sqrt2) > 1e-15 {
		t.Errorf("test_hits_mean/std @50 = %v ± %v, want %v ± %v", m, s, (a+b)/2, math.Abs(a-b)/math.Sqrt2)
	}
}

// TestTrainHitsGAE checks GAE's test Hits from the command line against the
// same run made directly and scored by the trained model on the test
// pairs; the heuristic's against its scores.
func TestTrainHitsGAE(t *testing.T) {
	got := trainOut(t, "--data", small, "--model", "gae", "--seeds", "2", "--epochs", "5", "--split", "0.5/0.1/0.4")
	sp := smallSplit(t, 2)
	cfg := gnn.DefaultConfig(gnn.GAE)
	cfg.Seed, cfg.Epochs, cfg.ValFrac, cfg.TestFrac = 2, 5, 0.1, 0.4
	res, err := gnn.RunSplit(context.Background(), sp, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := hitsOracle(func(p []graph.Edge) []float32 { return res.Model.Logits(sp.Train, p) }, sp)
	if len(got.Runs) != 1 || got.Runs[0].TestHits != want || got.Runs[0].TestAUC != res.TestAUC || got.TestHitsMean != want {
		t.Errorf("train --model gae: %+v, want test hits %+v (AUC %v)", got, want, res.TestAUC)
	}
}

// TestTrainSplitFlag checks --split's errors, and that the heuristics and
// the autoencoders split with the shares they are given.
func TestTrainSplitFlag(t *testing.T) {
	for n, tc := range []struct {
		args []string
		want string
	}{
		0: {[]string{"--split", "60/10"}, `ilpgnn: error: --split "60/10": want TRAIN/VAL/TEST`},
		1: {[]string{"--split", "60/10/20"}, "the shares sum to 90; want 100 (percentages) or 1 (fractions)"},
		2: {[]string{"--split", "60/10/30", "--val-frac", "0.1"}, "--split and --val-frac both set the held-out shares"},
		3: {[]string{"--model", "gae", "--test-frac", "0.3", "--split", "60/10/30"}, "--split and --test-frac both"},
		4: {[]string{"--model", "cn", "--split", "60/-10/50"}, "the validation share must be positive (got -10)"},
		5: {[]string{"--model", "seal", "--split", "a/b/c"}, `the train share "a" is not a number`},
	} {
		code, out, stderr := cli(t, append([]string{"train", "--data", small}, tc.args...)...)
		if code != 1 || out != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%d: %v: exit %d, stdout %q, stderr %q; want exit 1 and %q", n, tc.args, code, out, stderr, tc.want)
		}
	}
	// cn with --split scores the 50/10/40 split: its AUC and Hits are
	// those of that split, not of the default one.
	got := trainOut(t, "--data", small, "--model", "cn", "--seeds", "4", "--val-frac", "0.1", "--test-frac", "0.4")
	viaSplit := trainOut(t, "--data", small, "--model", "cn", "--seeds", "4", "--split", hitsSplit)
	sp := smallSplit(t, 4)
	want := hitsOracle(func(p []graph.Edge) []float32 { return heuristic.Scores(sp.Train, heuristic.CommonNeighbours, p) }, sp)
	if got.Runs[0].TestHits != want || viaSplit.Runs[0].TestHits != want || viaSplit.Runs[0].TestAUC != got.Runs[0].TestAUC {
		t.Errorf("cn: test hits %+v (--val-frac/--test-frac) and %+v (--split), want %+v", got.Runs[0].TestHits, viaSplit.Runs[0].TestHits, want)
	}
}
