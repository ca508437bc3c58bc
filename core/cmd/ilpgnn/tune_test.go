package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/models"
	"ilpgnn/core/paper/experiment"
	"ilpgnn/core/tune"
)

// tune chooses on validation only and gives the same answer twice; its
// settings file makes train --config the same run as the flags it holds,
// with flags on the command line winning.
func TestTuneAndConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := "synth:sparse:seed=1"
	file := filepath.Join(dir, "gae.json")
	args := []string{"tune", "--data", data, "--model", "gae", "--trials", "4", "--eta", "2", "--min-epochs", "3", "--seeds", "0,1", "--quiet", "--settings", file}
	code, first, stderr := cli(t, args...)
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code, second, _ := cli(t, args...)
	again, _ := os.ReadFile(file)
	if code != 0 || first != second || string(saved) != string(again) {
		t.Errorf("a second tune differs:\n%s\n%s", first, second)
	}
	// A header, 4 candidates, the best 2 and the current settings, the
	// choice and where it was written.
	if lines := strings.Count(first, "\n"); lines != 1+4+3+2 || strings.Count(first, "  current  ") != 1 ||
		!strings.Contains(first, "chosen for gae on tuning seeds [0 1] (validation AUC ") && !strings.Contains(first, "no candidate beat the current settings") {
		t.Errorf("tune's table:\n%s", first)
	}
	var s settingsFile
	if err := json.Unmarshal(saved, &s); err != nil || s.Model != "gae" || len(s.Settings) != 4 || s.ValAUC <= 0.5 || s.Data != data ||
		!slices.Equal(s.Seeds, []uint64{0, 1}) || !slices.Equal(s.Rounds, []tune.Round{{Candidates: 4, Epochs: 3}, {Candidates: 2, Epochs: 6, Current: true}}) || s.Budget != "" {
		t.Fatalf("settings file %s: %v", saved, err)
	}
	// train --config is train with the file's settings as flags.
	flags := []string{"train", "--data", data, "--model", "gae", "--seeds", "2", "--epochs", "5", "--json"}
	for name, v := range s.Settings {
		flags = append(flags, "--"+name+"="+v)
	}
	viaConfig := []string{"train", "--data", data, "--model", "gae", "--seeds", "2", "--epochs", "5", "--json", "--config", file}
	code, a, stderr := cli(t, flags...)
	if code != 0 {
		t.Fatalf("train with flags: %s", stderr)
	}
	code, b, stderr := cli(t, viaConfig...)
	if code != 0 {
		t.Fatalf("train --config: %s", stderr)
	}
	if testAUC(t, a) != testAUC(t, b) {
		t.Errorf("train --config %v, with the flags %v", testAUC(t, b), testAUC(t, a))
	}
	// A flag given beside --config wins over the file.
	other := "0.002"
	code, c, _ := cli(t, append(viaConfig, "--lr", other)...)
	code2, d, _ := cli(t, append(flags, "--lr", other)...)
	if code != 0 || code2 != 0 || testAUC(t, c) != testAUC(t, d) {
		t.Errorf("--lr beside --config: %v, want %v", testAUC(t, c), testAUC(t, d))
	}
	bad := filepath.Join(dir, "bad.json")
	for _, tc := range []struct{ content, model, want string }{
		{`{"model": "gae", "settings": {"lr": "0.01"}}`, "gat", "holds settings of gae, not gat"},
		{`{"model": "gae", "settings": {"alpha": "0.1"}}`, "gae", `gae has no hyperparameter "alpha"`},
		{`{"model": "gae", "settings": {"lr": "fast"}}`, "gae", "lr=fast"},
		{`{"model": "gae", "settings": {"lr": "0.01"}, "extra": 1}`, "gae", "not a settings file"},
		{`{"settings": {}}`, "gae", "names no model"},
	} {
		if err := os.WriteFile(bad, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := cli(t, "train", "--data", data, "--model", tc.model, "--config", bad)
		if code != 1 || !strings.Contains(stderr, bad) && !strings.Contains(stderr, "--config") || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, %q, want %q", tc.content, code, stderr, tc.want)
		}
	}
	if code, _, stderr := cli(t, "tune", "--data", data, "--model", "cn"); code != 1 || !strings.Contains(stderr, "no hyperparameters to search") {
		t.Errorf("tune --model cn: exit %d, %q", code, stderr)
	}
}

// Every model's flags live beside tune's own: tune --model M -h shows
// them all, for every registered model.
func TestTuneFlagsEveryModel(t *testing.T) {
	for _, name := range models.Default().Names() {
		code, _, stderr := cli(t, "tune", "--model", name, "-h")
		if code != 0 || !strings.Contains(stderr, "-trials") || !strings.Contains(stderr, "-val-frac") {
			t.Errorf("tune --model %s -h: exit %d\n%s", name, code, stderr)
		}
	}
}

func testAUC(t *testing.T, out string) float64 {
	t.Helper()
	var r trainJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Runs) != 1 {
		t.Fatalf("train output %q: %v", out, err)
	}
	return r.Runs[0].TestAUC
}

// tune --budget plans the search from the graph's size before the first
// trial, chooses the same settings twice, and explicit flags win over
// the plan; the JSON carries the plan, its estimate and the actual time.
func TestTuneBudget(t *testing.T) {
	t.Parallel()
	data := "synth:sparse:seed=1"
	file := filepath.Join(t.TempDir(), "gae.json")
	args := []string{"tune", "--data", data, "--model", "gae", "--budget", "8s", "--seeds", "0", "--epochs", "4", "--quiet", "--json", "--settings", file}
	var runs []searchJSON
	for range 2 {
		code, out, stderr := cli(t, args...)
		if code != 0 {
			t.Fatalf("tune --budget: exit %d: %s", code, stderr)
		}
		if !strings.HasPrefix(stderr, "plan: gae (budget 8s), ") || !strings.Contains(stderr, "tune: gae took ") {
			t.Errorf("stderr %q: no plan before the trials or no time after", stderr)
		}
		var s searchJSON
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("tune --json %q: %v", out, err)
		}
		runs = append(runs, s)
	}
	a, b := runs[0], runs[1]
	if fmt.Sprint(a.Best) != fmt.Sprint(b.Best) || a.ValAUC != b.ValAUC || !slices.Equal(a.Plan, b.Plan) || a.EstimatedSeconds != b.EstimatedSeconds {
		t.Errorf("twice: %+v\n%+v", a, b)
	}
	// The plan is the one tune.Plan makes for this graph, and the search
	// ran it: its trials are the plan's rounds.
	spec, _ := models.Default().Lookup("gae")
	src, _ := dataset.Parse(data)
	d, err := src.Load(0)
	if err != nil {
		t.Fatal(err)
	}
	opt, est, err := tune.Plan(spec, tune.SizeOf(d.Graph), 8*time.Second, tune.Options{Seeds: []uint64{0}, Fixed: map[string]string{"epochs": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	trials := est.Trials() // the rounds' candidates and the current settings
	if !slices.Equal(a.Plan, est.Rounds) || a.EstimatedSeconds != est.Seconds || est.Seconds > 8 || len(a.Trials) != trials || a.Budget != "8s" || a.Seconds <= 0 || a.Best["epochs"] != "4" {
		t.Errorf("plan %v (%v s, %d trials, %+v), want %v (%v s, %d trials, %+v)", a.Plan, a.EstimatedSeconds, len(a.Trials), a, est.Rounds, est.Seconds, trials, opt)
	}
	// The settings file says which search chose them.
	if f, err := readSettings(file); err != nil || f.Budget != "8s" || !slices.Equal(f.Rounds, est.Rounds) || fmt.Sprint(f.Settings) != fmt.Sprint(a.Best) {
		t.Errorf("settings file %+v (%v), want budget 8s, rounds %v, settings %v", f, err, est.Rounds, a.Best)
	}
	// --trials beside --budget wins over the plan's candidates.
	code, out, stderr := cli(t, append(args, "--trials", "2")...)
	var c searchJSON
	if code != 0 || json.Unmarshal([]byte(out), &c) != nil || c.Plan[0].Candidates != 2 || c.Plan[0].Epochs != est.Rounds[0].Epochs {
		t.Errorf("--trials 2 --budget 8s: exit %d, plan %v: %s", code, c.Plan, stderr)
	}
	// A budget too small names the smallest that works.
	code, _, stderr = cli(t, "tune", "--data", data, "--model", "ilpgnn", "--budget", "1s")
	if code != 1 || !strings.Contains(stderr, "too small for ilpgnn") || !strings.Contains(stderr, "give a budget of at least") {
		t.Errorf("--budget 1s: exit %d, %q", code, stderr)
	}
}

// searchJSON is tune --json's output.
type searchJSON struct {
	Best             map[string]string
	ValAUC           float64
	Trials           []tune.Trial
	Seconds          float64
	Budget           string       `json:"budget"`
	Plan             []tune.Round `json:"plan"`
	EstimatedSeconds float64      `json:"estimated_seconds"`
}

// experiment table1 --tune tunes every learned model with the same budget
// on the tuning seeds and measures the choice on --seeds: its numbers are
// tune's choice trained by train --config, and the report says which
// seeds chose and which measured. Heuristics are measured as they are.
func TestTable1Tune(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"experiment", "table1", "--data", small, "--models", "ilpgnn,cn,gae", "--seeds", "0,1", "--epochs", "5", "--set", "gae.epochs=5", "--tune", "30s", "--quiet"}
	code, out, stderr := cli(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("table1 --tune: exit %d: %s", code, stderr)
	}
	var rep experiment.Table1Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Rows) != 1 || len(rep.Rows[0].Cells) != 3 {
		t.Fatalf("report %s: %v", out, err)
	}
	cells := rep.Rows[0].Cells
	if cells[1].Model != "cn" || cells[1].Tuning != nil {
		t.Errorf("cn was tuned: %+v", cells[1].Tuning)
	}
	for _, c := range []experiment.Table1Cell{cells[0], cells[2]} {
		if c.Tuning == nil || !slices.Equal(c.Tuning.Seeds, []uint64{10, 11}) || c.Tuning.Budget != "30s" || c.Tuning.Settings["epochs"] != "5" ||
			c.Tuning.EstimatedSeconds > 30 || c.Tuning.Plan == "" {
			t.Errorf("%s's tuning: %+v", c.Model, c.Tuning)
		}
	}
	// The same search by tune, its settings trained by train --config.
	file := filepath.Join(dir, "gae.json")
	if code, _, stderr := cli(t, "tune", "--data", small, "--model", "gae", "--seeds", "10,11", "--budget", "30s", "--epochs", "5", "--quiet", "--settings", file); code != 0 {
		t.Fatalf("tune: %s", stderr)
	}
	code, out, stderr = cli(t, "train", "--data", small, "--model", "gae", "--seeds", "0,1", "--config", file, "--json")
	var tr trainJSON
	if code != 0 || json.Unmarshal([]byte(out), &tr) != nil || len(tr.Runs) != 2 {
		t.Fatalf("train --config: exit %d, %s", code, stderr)
	}
	var s settingsFile
	saved, _ := os.ReadFile(file)
	if err := json.Unmarshal(saved, &s); err != nil || fmt.Sprint(s.Settings) != fmt.Sprint(cells[2].Tuning.Settings) || s.ValAUC != cells[2].Tuning.ValAUC {
		t.Errorf("tune chose %v (%v), table1 %v (%v)", s.Settings, s.ValAUC, cells[2].Tuning.Settings, cells[2].Tuning.ValAUC)
	}
	for k, r := range tr.Runs {
		if got := cells[2].Runs[k]; got.TestAUC != r.TestAUC || got.ValAUC != r.ValAUC {
			t.Errorf("seed %d: table1 %v (val %v), tune + train --config %v (val %v)", k, got.TestAUC, got.ValAUC, r.TestAUC, r.ValAUC)
		}
	}
	// The markdown says who chose and who measured, and what.
	code, md, _ := cli(t, args...)
	for _, want := range []string{
		"Test AUC % over seeds [0 1]",
		"the settings of ilpgnn, gae chosen by tune on seeds [10 11] on validation AUC alone, measured on seeds [0 1]",
		"cn with their own settings, not tuned here",
		"| small | gae | [10 11] | ",
		settingsText(cells[2].Tuning.Settings) + " |",
	} {
		if code != 0 || !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// Tuning seeds among the measuring ones are refused before any work.
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--tune-seeds", "1,7"}, "--tune-seeds 1,7 and --seeds share seed 1"},
		{[]string{"--tune", "0s"}, "--tune: want a positive duration"},
		// Refused before any work, for every model that does not fit.
		{[]string{"--tune", "1s"}, "--tune on small: tune: a budget of 1s is too small for ilpgnn"},
		{[]string{"--tune", "1s"}, "--tune on small: tune: a budget of 1s is too small for gae"},
	} {
		a := append(slices.Clone(args), tc.extra...)
		if code, _, stderr := cli(t, a...); code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q, want %q", tc.extra, code, stderr, tc.want)
		}
	}
}

// On a graph with groundtruth, train keeps ILP-GNN's weights on the
// validation links' explanation precision; tune compares candidates so
// too, so that training with its choice is never lower than training
// with the defaults on what train keeps, validation P@1 and validation
// AUC, on the tuning seed, whatever it chose.
func TestTuneNeverWorseThanDefaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, file := "synth:sparse:seed=2", filepath.Join(dir, "ilpgnn.json")
	small := []string{"--hidden", "16", "--epochs", "40"}
	args := append([]string{"tune", "--data", data, "--seeds", "3", "--trials", "4", "--eta", "2", "--min-epochs", "10", "--quiet", "--settings", file}, small...)
	code, out, stderr := cli(t, args...)
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "validation explanation precision") {
		t.Errorf("tune does not say it compared on precision:\n%s", out)
	}
	run := func(extra ...string) runJSON {
		t.Helper()
		code, out, stderr := cli(t, append([]string{"train", "--data", data, "--seeds", "3", "--json"}, extra...)...)
		var r trainJSON
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil || len(r.Runs) != 1 || r.Runs[0].ValP1 == nil {
			t.Fatalf("train %v: exit %d, %q, %s", extra, code, out, stderr)
		}
		return r.Runs[0]
	}
	tuned, defaults := run("--config", file), run(small...)
	if tuned.SelectedOn != models.SelectPrecision || tuned.ValAUC < defaults.ValAUC || *tuned.ValP1 < *defaults.ValP1 {
		t.Errorf("tuned: val AUC %v, P@1 %v (kept on %s); defaults: %v, %v", tuned.ValAUC, *tuned.ValP1, tuned.SelectedOn, defaults.ValAUC, *defaults.ValP1)
	}
	t.Logf("tuned: val AUC %.4f, P@1 %.3f; defaults: %.4f, %.3f\n%s", tuned.ValAUC, *tuned.ValP1, defaults.ValAUC, *defaults.ValP1, out)
}
