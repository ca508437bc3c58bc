package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/graph"
	"ilpgnn/core/heart"
	"ilpgnn/core/internal/datasets"
)

// TestTrainHeartOnCora runs train --eval heart on Cora with three models
// sharing one --negatives folder: the first writes the seed's negatives,
// the others read them (the same digest), and Adamic-Adar's MRR and Hits
// equal a ranking computed here from the file and the heuristic's scores.
func TestTrainHeartOnCora(t *testing.T) {
	cora := datasets.Path(t, "cora")
	dir := t.TempDir()
	const seed = 3
	args := []string{"--data", cora, "--seeds", "3", "--eval", "heart", "--negatives", dir}
	cn := trainOut(t, slices.Concat(args, []string{"--model", "cn"})...)
	aa := trainOut(t, slices.Concat(args, []string{"--model", "aa"})...)
	il := trainOut(t, slices.Concat(args, []string{"--epochs", "2"})...)
	first, second, third := cn.Runs[0].HeartNegatives, aa.Runs[0].HeartNegatives, il.Runs[0].HeartNegatives
	if first == nil || !first.Written || second.Written || third.Written {
		t.Fatalf("negatives: cn %+v, aa %+v, ilpgnn %+v; want the first to write, the others to read", first, second, third)
	}
	if first.Digest != second.Digest || first.Digest != third.Digest || first.PerLink != 500 {
		t.Fatalf("digests %s %s %s, %d a link: every model must rank against the same 500", first.Digest, second.Digest, third.Digest, first.PerLink)
	}
	for _, out := range []trainJSON{cn, aa, il} {
		h := out.Runs[0].TestHeart
		if h == nil || !(h.MRR > 0 && h.MRR <= 1) || h.Hits1 > h.Hits10 || h.Hits10 > h.Hits100 || out.TestHeartMean == nil || out.TestHeartMean.MRR != h.MRR {
			t.Fatalf("%s: test_heart %+v, mean %+v", out.Model, h, out.TestHeartMean)
		}
	}

	// The oracle: the file's negatives, the split's test links, the
	// heuristic's scores and each link's rank counted by hand.
	f, err := os.Open(first.File)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	_, d, err := openData(cora, seed)
	if err != nil {
		t.Fatal(err)
	}
	negs, _, err := heart.Read(f, info.Size(), d.Graph.NumNodes())
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(seed, 0.05, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if len(negs.Links) != len(sp.TestPos) || filepath.Dir(first.File) != dir {
		t.Fatalf("%d links in %s, the split has %d test links", len(negs.Links), first.File, len(sp.TestPos))
	}
	pos := heuristic.Scores(sp.Train, heuristic.AdamicAdar, sp.TestPos)
	neg := heuristic.Scores(sp.Train, heuristic.AdamicAdar, negs.Pairs())
	var mrr, hits10 float64
	for k, p := range pos {
		above, tied := 0, 0
		for _, n := range neg[k*500 : (k+1)*500] {
			if n > p {
				above++
			} else if n == p {
				tied++
			}
		}
		rank := 1 + float64(above) + float64(tied)/2
		mrr += 1 / rank / float64(len(pos))
		if rank <= 10 {
			hits10 += 1 / float64(len(pos))
		}
	}
	got := aa.Runs[0].TestHeart
	if math.Abs(got.MRR-mrr) > 1e-12 || math.Abs(got.Hits10-hits10) > 1e-12 {
		t.Fatalf("Adamic-Adar: MRR %v, Hits@10 %v; counted here %v, %v", got.MRR, got.Hits10, mrr, hits10)
	}

	// Suggestions: each test link's other end ranked among every node not
	// yet a neighbour of its first end (other true links left out), by
	// Adamic-Adar, ties to the smaller node.
	hits := 0
	for _, l := range sp.TestPos {
		i := int(l.U)
		var cands []graph.Edge
		for x := range d.Graph.NumNodes() {
			if x != i && !sp.Train.HasEdge(i, x) && (x == int(l.V) || !d.Graph.HasEdge(i, x)) {
				cands = append(cands, graph.Edge{U: l.U, V: int32(x)})
			}
		}
		sc := heuristic.Scores(sp.Train, heuristic.AdamicAdar, cands)
		mine := sc[slices.Index(cands, l)]
		above := 0
		for k, c := range cands {
			if sc[k] > mine || sc[k] == mine && c.V < l.V {
				above++
			}
		}
		if above < 10 {
			hits++
		}
	}
	if s := aa.Runs[0].SuggestHits10; s == nil || math.Abs(*s-float64(hits)/float64(len(sp.TestPos))) > 1e-12 {
		t.Fatalf("suggestions' Hits@10 %v, counted here %d of %d", s, hits, len(sp.TestPos))
	}

	// Without --json the report says it too.
	code, out, stderr := cli(t, slices.Concat([]string{"train", "--quiet"}, args, []string{"--model", "cn"})...)
	if code != 0 || !strings.Contains(out, "HeaRT: MRR ") || !strings.Contains(out, "read from "+first.File) {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
}

func TestEvalFlagsRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--eval", "mrr"}, `--eval "mrr": want auc or heart`},
		{[]string{"--negatives", "."}, "--negatives: hard negatives are drawn with --eval heart only"},
		{[]string{"--eval", "heart", "--negatives", "no/such/folder"}, "--negatives no/such/folder: not a folder"},
	} {
		code, _, stderr := cli(t, append([]string{"train", "--data", small, "--quiet"}, tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, code, stderr, tc.want)
		}
	}
}

// tune --eval heart compares candidates on the validation links' MRR
// among their own hard negatives: every trial carries one.
func TestTuneRanksOnHardNegatives(t *testing.T) {
	code, out, stderr := cli(t, "tune", "--data", small, "--eval", "heart", "--trials", "2", "--eta", "2", "--min-epochs", "2", "--epochs", "4", "--hidden", "8", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Trials []struct{ ValMRR *float64 }
		Chosen struct{ ValMRR *float64 }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Trials) < 3 || got.Chosen.ValMRR == nil {
		t.Fatalf("%d trials, chosen MRR %v:\n%s", len(got.Trials), got.Chosen.ValMRR, out)
	}
	for k, tr := range got.Trials {
		if tr.ValMRR == nil || !(*tr.ValMRR > 0 && *tr.ValMRR <= 1) {
			t.Fatalf("trial %d: MRR %v", k, tr.ValMRR)
		}
	}
}

// train --select rank keeps the epoch whose validation links rank best
// among their own hard negatives, and needs --eval heart for them.
func TestTrainSelectsOnRank(t *testing.T) {
	got := trainOut(t, "--data", small, "--seeds", "0", "--epochs", "6", "--hidden", "8", "--eval", "heart", "--select", "rank")
	r := got.Runs[0]
	if r.SelectedOn != "rank" || r.TestHeart == nil || r.BestEpoch < 1 || r.BestEpoch > 6 {
		t.Fatalf("selected on %q, best epoch %d, test_heart %+v", r.SelectedOn, r.BestEpoch, r.TestHeart)
	}
	code, _, stderr := cli(t, "train", "--data", small, "--quiet", "--select", "rank")
	if code == 0 || !strings.Contains(stderr, "--select rank: the validation links' hard negatives are drawn with --eval heart") {
		t.Fatalf("rank without --eval heart: exit %d, %s", code, stderr)
	}
}
