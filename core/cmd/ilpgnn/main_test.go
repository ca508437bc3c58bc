package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
)

const small = "testdata/small"

// cli runs the command line in-process and returns its exit status, stdout
// and stderr.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsage(t *testing.T) {
	t.Parallel()
	for n, tc := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		0:  {nil, 2, "usage: ilpgnn <command>"},
		1:  {[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		2:  {[]string{"train", "--no-such-flag"}, 2, "flag provided but not defined"},
		3:  {[]string{"train"}, 2, "--data is required"},
		4:  {[]string{"train", "--data", small, "--k", "0"}, 1, "k must be at least 1 (got 0)"},
		5:  {[]string{"train", "--data", small, "--seeds", "1,x"}, 1, `"x" is not a non-negative integer`},
		6:  {[]string{"explain", "--data", small, "--checkpoint", "nope.ckpt"}, 2, "--pair is required"},
		7:  {[]string{"inspect", "--data", "testdata/missing"}, 1, "testdata/missing"},
		8:  {[]string{"train", "--data", small, "extra"}, 2, `unexpected argument "extra"`},
		9:  {[]string{"train", "--data", small, "--structure", "wide"}, 2, `structure scale must be "paper" or "max"`},
		10: {[]string{"train", "--data", small, "--model", "gcn2"}, 1, `--model: want one of`},
		11: {[]string{"train", "--data", small, "--model", "cn", "--save", "x.ckpt"}, 1, "cn learns nothing"},
		12: {[]string{"train", "--data", small, "--model=aa", "--lr", "0.1"}, 2, "flag provided but not defined: -lr"},
		13: {[]string{"train", "--data", small, "--model", "seal", "--save", "x.ckpt"}, 1, "checkpoints of seal are not supported"},
		14: {[]string{"train", "--data", small, "--model", "wp", "--batch-size", "0"}, 1, "batch size must be at least 1 (got 0)"},
		15: {[]string{"train", "--data", small, "--model", "conpi", "--alpha", "0.1"}, 2, "flag provided but not defined: -alpha"},
		16: {[]string{"experiment", "table1", "--data", small, "--models", "cn,seal", "--set", "wp.hops=1"}, 1, "wp is not among --models"},
		17: {[]string{"experiment", "table1", "--data", small, "--models", "seal", "--set", "seal.hops"}, 1, "want MODEL.FLAG=VALUE"},
		18: {[]string{"experiment", "table1", "--data", small, "--models", "seal", "--set", "seal.hops=0"}, 1, "hops"},
		// --pair is checked before the checkpoint is read (there is none).
		19: {[]string{"explain", "--data", small, "--checkpoint", "nope.ckpt", "--pair", "n3,n3"}, 1, "ilpgnn: error: --pair: \"n3\" twice: a link joins two different nodes\n"},
		20: {[]string{"explain", "--data", small, "--checkpoint", "nope.ckpt", "--pair", "n3, "}, 1, `--pair: want two node ids separated by a comma, got "n3, "`},
		21: {[]string{"explain", "--data", small, "--checkpoint", "nope.ckpt", "--pair", "n1,n2,n3"}, 1, `got "n1,n2,n3"`},
		22: {[]string{"experiment", "table1", "--data", small, "--models", "cn,nope"}, 1, `ilpgnn: error: --models: want one of ilpgnn, cn, aa,`},
		23: {[]string{"experiment", "table1", "--data", small, "--models", "seal", "--set", "seal.hops=x"}, 1, `ilpgnn: error: --set seal.hops=x: "x" is not a value of seal's --hops`},
		24: {[]string{"experiment", "table1", "--data", small, "--models", "seal", "--set", "seal.nope=1"}, 1, `seal has no hyperparameter "nope" (it has batch-size, `},
		25: {[]string{"train", "--data", "synth:sparse", "--split", "60/10/30"}, 1, `ilpgnn: error: --split: synth:sparse has its own split: a synthetic graph's links get their roles`},
		26: {[]string{"train", "--data", "synth:sparse", "--model", "gae", "--test-frac", "0.3"}, 1, `ilpgnn: error: --test-frac: synth:sparse has its own split`},
	} {
		code, _, stderr := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%d: %v: exit %d, stderr %q; want exit %d and %q", n, tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

// TestTrainHeuristic checks `train --model cn` against the heuristic
// computed directly on the same split.
func TestTrainHeuristic(t *testing.T) {
	code, out, stderr := cli(t, "train", "--data", small, "--model", "cn", "--seeds", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got trainJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	_, d, err := openData(small, 3)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(3, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	want := eval.AUC(heuristic.Scores(sp.Train, heuristic.CommonNeighbours, sp.TestPos), heuristic.Scores(sp.Train, heuristic.CommonNeighbours, sp.TestNeg))
	if got.Model != "cn" || len(got.Runs) != 1 || got.Runs[0].TestAUC != want || got.Runs[0].Epochs != 0 {
		t.Errorf("train --model cn: %+v, want test AUC %v", got, want)
	}
}

// TestTrainPairModels runs `train --model seal|wp|conpi --json` for a
// short while and checks each against the same run made directly; CONPI
// on a graph with groundtruth also reports its explanations' precision.
func TestTrainPairModels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model, data string
		flags       []string
	}{
		{"seal", small, []string{"--epochs", "2", "--pairs-per-epoch", "40"}},
		{"wp", small, []string{"--epochs", "2", "--pairs-per-epoch", "40"}},
		{"conpi", "synth:sparse:seed=1", []string{"--epochs", "3", "--pairs-per-epoch", "200", "--hidden", "16", "--dim", "16"}},
	} {
		args := append([]string{"train", "--data", tc.data, "--model", tc.model, "--seeds", "2", "--json"}, tc.flags...)
		code, out, stderr := cli(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.model, code, stderr)
		}
		var got trainJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		_, d, err := openData(tc.data, 2)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := d.Split(2, split.DefaultValFrac, split.DefaultTestFrac)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := models.Default().Lookup(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		cfg := spec.New()
		fs := flag.NewFlagSet(tc.model, flag.ContinueOnError)
		cfg.RegisterFlags(fs)
		if err := fs.Parse(tc.flags); err != nil {
			t.Fatal(err)
		}
		tr, err := cfg.Train(context.Background(), models.Run{Data: d, Split: sp, Seed: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := tr.Result()
		if got.Model != tc.model || len(got.Runs) != 1 || got.Runs[0].TestAUC != want.TestAUC || got.Runs[0].Epochs != want.Epochs {
			t.Errorf("train --model %s: %+v, want test AUC %v in %d epochs", tc.model, got, want.TestAUC, want.Epochs)
		}
		if hasP := got.Runs[0].P1 != nil; hasP != (tc.model == "conpi") {
			t.Errorf("train --model %s: precision reported %v", tc.model, hasP)
		}
	}
}

func TestInspect(t *testing.T) {
	code, out, stderr := cli(t, "inspect", "--data", small)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Counted from testdata/small/edges.csv: 60 ids, 180 distinct edges.
	for _, want := range []string{"nodes: 60\n", "edges: 180\n", "feature_dim: 6\n", "isolated: 0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out)
		}
	}
}

// TestTrainExplainSuggest runs the whole command line on the small fixture:
// train two seeds with --json and --save, then explain and suggest from a
// saved checkpoint, by the dataset's own ids.
func TestTrainExplainSuggest(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "model.ckpt")
	code, out, stderr := cli(t, "train", "--data", small, "--seeds", "0,1", "--epochs", "30", "--lr", "0.01",
		"--hidden", "16", "--json", "--save", ck)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	var res trainJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("train --json output is not JSON: %v\n%s", err, out)
	}
	if res.Dataset != "small" || len(res.Runs) != 2 || res.Runs[1].Seed != 1 {
		t.Fatalf("unexpected runs: %+v", res)
	}
	for _, r := range res.Runs {
		if !(r.TestAUC > 0.5 && r.TestAUC <= 1) || r.Epochs < 1 || r.Epochs > 30 {
			t.Errorf("run %+v out of range", r)
		}
	}
	mean := (res.Runs[0].TestAUC + res.Runs[1].TestAUC) / 2
	if diff := res.TestAUCMean - mean; diff > 1e-12 || diff < -1e-12 {
		t.Errorf("test_auc_mean %v, want %v", res.TestAUCMean, mean)
	}
	ck0 := filepath.Join(dir, "model.seed0.ckpt")
	if _, err := os.Stat(ck0); err != nil {
		t.Fatalf("checkpoint for seed 0 not written: %v", err)
	}

	code, out, stderr = cli(t, "explain", "--checkpoint", ck0, "--data", small, "--pair", "n0,n1", "--json")
	if code != 0 {
		t.Fatalf("explain: exit %d: %s", code, stderr)
	}
	var e struct {
		Prob    float64 `json:"prob"`
		Linked  bool    `json:"linked"`
		Reading string  `json:"reading"`
		I       struct {
			ID        string `json:"id"`
			Neighbors []struct {
				ID string `json:"id"`
			} `json:"neighbors"`
		} `json:"i"`
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil {
		t.Fatalf("explain --json: %v\n%s", err, out)
	}
	// n0-n1 is the first edge of the fixture.
	if !e.Linked || e.I.ID != "n0" || !(e.Prob > 0 && e.Prob < 1) || !strings.Contains(e.Reading, "n1") {
		t.Errorf("explanation of n0,n1: %+v", e)
	}
	for _, n := range e.I.Neighbors {
		if n.ID == "n1" {
			t.Error("masked pair: n1 listed among n0's neighbours")
		}
	}

	// The text says what the JSON holds: the counterfactual sentence, each
	// selected neighbour's attribution and p without it, and what the
	// numbers mean.
	var full explain.Explanation
	if err := json.Unmarshal([]byte(out), &full); err != nil {
		t.Fatal(err)
	}
	code, text, stderr := cli(t, "explain", "--checkpoint", ck0, "--data", small, "--pair", "n0,n1")
	if code != 0 || !strings.Contains(text, "\n"+full.Counterfactual()+"\n") || full.RandomDraws != ilpgnn.RandomDraws {
		t.Errorf("explain: exit %d, %q; want the counterfactual %q; %s", code, text, full.Counterfactual(), stderr)
	}
	selected := 0
	for _, s := range []explain.Side{full.I, full.J} {
		for _, n := range s.Selected() {
			row := fmt.Sprintf(" %-12s %8.4f %9.4f %8.4f %7.4f %11s %9s  selected", n.ID, n.Score, n.Structure, n.Features, n.Weight,
				fmt.Sprintf("%+.4f", n.Attribution), fmt.Sprintf("%.1f%%", 100*n.ProbWithout))
			if !strings.Contains(text, row) {
				t.Errorf("explain: no row %q in\n%s", row, text)
			}
			selected++
		}
	}
	for _, def := range []string{"p ", "structure ", "features ", "weight ", "attribution "} {
		if !strings.Contains(text, "\n"+def) {
			t.Errorf("explain: no definition of %q in\n%s", def, text)
		}
	}
	if selected == 0 {
		t.Error("explain: no selected neighbour to check")
	}

	code, out, stderr = cli(t, "suggest", "--checkpoint", ck0, "--data", small, "--node", "n5", "--top", "3")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// A note follows the list when its probabilities lie closer together
	// than the calibration error (TestTrainReportsCalibration checks it).
	if last := lines[len(lines)-1]; strings.HasPrefix(last, "note: ") {
		if !strings.Contains(last, "treat them as tied") {
			t.Errorf("suggest note %q", last)
		}
		lines = lines[:len(lines)-1]
	}
	if code != 0 || len(lines) != 4 {
		t.Errorf("suggest: exit %d, out %q, err %q", code, out, stderr)
	}
	for _, l := range lines[1:] {
		// p once, a percentage with one decimal (the reading's own p is
		// not repeated).
		if strings.Count(l, "p = ") != 1 || !regexp.MustCompile(`^ *\d\. \S+ +p = \d{1,2}\.\d% +\S`).MatchString(l) {
			t.Errorf("suggest line %q", l)
		}
	}
	code, _, stderr = cli(t, "explain", "--checkpoint", ck0, "--data", small, "--pair", "n0,zz")
	if code != 1 || !strings.Contains(stderr, `no node with id "zz"`) {
		t.Errorf("unknown id: exit %d, %q", code, stderr)
	}
	// A checkpoint of another graph is refused.
	code, _, stderr = cli(t, "explain", "--checkpoint", ck0, "--data", filepath.Join(small, "edges.csv"), "--pair", "n0,n1")
	if code != 1 || !strings.Contains(stderr, "graph") {
		t.Errorf("foreign graph: exit %d, %q", code, stderr)
	}
	// A corrupt checkpoint is refused with the file's name.
	bad := filepath.Join(dir, "bad.ckpt")
	b, _ := os.ReadFile(ck0)
	b[len(b)/2] ^= 0xff
	os.WriteFile(bad, b, 0o644)
	code, _, stderr = cli(t, "suggest", "--checkpoint", bad, "--data", small, "--node", "n5")
	if code != 1 || !strings.Contains(stderr, "bad.ckpt") {
		t.Errorf("corrupt checkpoint: exit %d, %q", code, stderr)
	}
}

// TestSynthAndExperiment: synth writes a dataset that train and the
// precision experiment read back with its groundtruth, and a synth: spec
// generates the preset in memory.
func TestSynthAndExperiment(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the sparse preset")
	}
	dir := filepath.Join(t.TempDir(), "sparse")
	code, out, stderr := cli(t, "synth", "--preset", "sparse", "--seed", "2", "--out", dir)
	if code != 0 || !strings.Contains(out, "4243 edges") {
		t.Fatalf("synth: exit %d, %q, %q", code, out, stderr)
	}
	code, out, stderr = cli(t, "train", "--data", dir, "--seeds", "0", "--epochs", "2", "--hidden", "8", "--ppr-eps", "1e-3", "--json")
	var tr trainJSON
	if err := json.Unmarshal([]byte(out), &tr); code != 0 || err != nil || len(tr.Runs) != 1 || tr.Runs[0].P1 == nil ||
		!(*tr.Runs[0].P1 >= 0 && *tr.Runs[0].P1 <= 1) {
		t.Fatalf("train on a synthetic folder: exit %d, %v, %q, %s", code, err, out, stderr)
	}
	code, out, stderr = cli(t, "inspect", "--data", "synth:sparse:seed=2")
	if code != 0 || !strings.Contains(out, "nodes: 1000") || !strings.Contains(out, "edges: 4243") {
		t.Fatalf("inspect synth:sparse:seed=2: exit %d, %q, %q", code, out, stderr)
	}
	// A coarser push (--ppr-eps) keeps S̃ cheap; what is checked does not
	// depend on it.
	code, out, stderr = cli(t, "experiment", "precision", "--data", dir, "--seeds", "0", "--epochs", "3",
		"--hidden", "16", "--ppr-eps", "1e-3", "--json", "--quiet", "--out", filepath.Join(dir, "report"))
	if code != 0 {
		t.Fatalf("experiment precision: exit %d: %s", code, stderr)
	}
	var rep struct {
		Preset string  `json:"preset"`
		P1     float64 `json:"p_at_1_mean"`
		Random float64 `json:"random_p_at_1_mean"`
		Runs   []any   `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Preset != "sparse" || len(rep.Runs) != 1 || !(rep.P1 >= 0 && rep.P1 <= 1) {
		t.Fatalf("precision JSON %q: %+v, %v", out, rep, err)
	}
	for _, f := range []string{"precision.md", "precision.json"} {
		if _, err := os.Stat(filepath.Join(dir, "report", f)); err != nil {
			t.Errorf("--out: %v", err)
		}
	}
	// train keeps the weights that explain best on a graph with
	// groundtruth, as the precision experiment does: same run, same P@1.
	code, out, stderr = cli(t, "train", "--data", dir, "--seeds", "0", "--epochs", "3", "--hidden", "16", "--ppr-eps", "1e-3", "--json")
	var sel trainJSON
	if err := json.Unmarshal([]byte(out), &sel); code != 0 || err != nil || len(sel.Runs) != 1 || sel.Runs[0].P1 == nil {
		t.Fatalf("train --select auto: exit %d, %v, %s", code, err, stderr)
	}
	if sel.Runs[0].SelectedOn != models.SelectPrecision {
		t.Errorf("train --select auto on a graph with groundtruth: selected on %q", sel.Runs[0].SelectedOn)
	}
	if *sel.Runs[0].P1 != rep.P1 {
		t.Errorf("train kept weights with P@1 %v, the precision experiment %v", *sel.Runs[0].P1, rep.P1)
	}
	code, _, stderr = cli(t, "train", "--data", small, "--seeds", "0", "--epochs", "2", "--select", "precision", "--quiet")
	if code != 1 || !strings.Contains(stderr, "groundtruth") {
		t.Errorf("train --select precision without groundtruth: exit %d, %q", code, stderr)
	}
	code, _, stderr = cli(t, "train", "--data", dir, "--select", "best")
	if code == 0 || !strings.Contains(stderr, "auto, auc, precision, unsupervised or rank") {
		t.Errorf("train --select best: exit %d, %q", code, stderr)
	}
	code, _, stderr = cli(t, "experiment", "precision", "--data", small, "--seeds", "0", "--epochs", "2", "--quiet")
	if code != 1 || !strings.Contains(stderr, "groundtruth") {
		t.Errorf("precision on a graph without groundtruth: exit %d, %q", code, stderr)
	}
	code, _, _ = cli(t, "experiment", "nonsense")
	if code != 2 {
		t.Errorf("unknown experiment: exit %d, want 2", code)
	}
}

// TestNodeIDsChecked: explain and suggest name unknown or repeated nodes by
// the user's ids, with one "ilpgnn:" prefix, and check them against the
// graph before the checkpoint's weights become a model. A checkpoint of
// another graph is reported before any id, since a missing id then says
// nothing about the id.
func TestNodeIDsChecked(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "model.ckpt")
	if code, _, stderr := cli(t, "train", "--data", small, "--seeds", "0", "--epochs", "2", "--hidden", "8", "--quiet", "--save", ck); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	foreign := filepath.Join(small, "edges.csv") // same ids, no features: another graph
	trainedElsewhere := "ilpgnn: error: --checkpoint " + ck + " was trained on \"small\", not on --data " + foreign + " (graph fingerprints "
	for n, tc := range []struct {
		args []string
		want string // the whole of stderr
	}{
		0: {[]string{"explain", "--checkpoint", ck, "--data", small, "--pair", "n3,zz"}, "ilpgnn: error: --pair: no node with id \"zz\" in small\n"},
		1: {[]string{"explain", "--checkpoint", ck, "--data", small, "--pair", "zz,n3"}, "ilpgnn: error: --pair: no node with id \"zz\" in small\n"},
		2: {[]string{"suggest", "--checkpoint", ck, "--data", small, "--node", "n3,"}, "ilpgnn: error: --node: no node with id \"n3,\" in small\n"},
		3: {[]string{"suggest", "--checkpoint", ck, "--data", small, "--node", "zz"}, "ilpgnn: error: --node: no node with id \"zz\" in small\n"},
		4: {[]string{"explain", "--checkpoint", ck, "--data", small, "--pair", " n3 , n3"}, "ilpgnn: error: --pair: \"n3\" twice: a link joins two different nodes\n"},
	} {
		code, _, stderr := cli(t, tc.args...)
		if code != 1 || stderr != tc.want {
			t.Errorf("%d: %v: exit %d, stderr %q; want exit 1 and %q", n, tc.args, code, stderr, tc.want)
		}
	}
	// Another graph is named first, whether the ids are in it or not.
	for _, args := range [][]string{
		{"explain", "--checkpoint", ck, "--data", foreign, "--pair", "zz,n3"},
		{"explain", "--checkpoint", ck, "--data", foreign, "--pair", "n0,n1"},
		{"suggest", "--checkpoint", ck, "--data", foreign, "--node", "zz"},
	} {
		code, _, stderr := cli(t, args...)
		if code != 1 || !strings.HasPrefix(stderr, trainedElsewhere) || !strings.HasSuffix(stderr, "differ): train on "+foreign+" to explain its links\n") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and %q…", args, code, stderr, trainedElsewhere)
		}
	}
	// Spaces around --node are ignored, as around --pair's ids.
	code, out, stderr := cli(t, "suggest", "--checkpoint", ck, "--data", small, "--node", " n5 ", "--top", "1")
	if code != 0 || !strings.HasPrefix(out, "new links suggested for n5:\n") {
		t.Errorf("suggest --node ' n5 ': exit %d, %q, %q", code, out, stderr)
	}
}

// TestErrorText: an error of package core/ilpgnn keeps one "ilpgnn:".
func TestErrorText(t *testing.T) {
	for in, want := range map[string]string{
		"ilpgnn: negative feature dimension -1": "negative feature dimension -1",
		"--pair: no node with id \"x\" in g":    "--pair: no node with id \"x\" in g",
		"checkpoint: ilpgnn: x":                 "checkpoint: ilpgnn: x",
	} {
		if got := errorText(errors.New(in)); got != want {
			t.Errorf("errorText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTrainCPUProfile checks that --cpuprofile writes a profile (pprof's
// gzip-compressed protocol buffer) and that an unwritable path is an error
// naming the flag.
func TestTrainCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	code, _, stderr := cli(t, "train", "--data", small, "--seeds", "0", "--epochs", "2", "--quiet", "--cpuprofile", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("profile of %d bytes does not start as gzip: % x", len(b), b[:min(len(b), 4)])
	}
	bad := filepath.Join(t.TempDir(), "missing", "cpu.pprof")
	code, _, stderr = cli(t, "train", "--data", small, "--seeds", "0", "--epochs", "1", "--quiet", "--cpuprofile", bad)
	if code != 1 || !strings.Contains(stderr, "--cpuprofile") {
		t.Errorf("unwritable profile: exit %d, stderr %q", code, stderr)
	}
}
