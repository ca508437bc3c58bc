package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ilpgnn/core/models"
)

// tune chooses on validation only and gives the same answer twice; its
// settings file makes train --config the same run as the flags it holds,
// with flags on the command line winning.
func TestTuneAndConfig(t *testing.T) {
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
	if lines := strings.Count(first, "\n"); lines != 1+4+2+2 || !strings.Contains(first, "chosen for gae") {
		t.Errorf("tune's table:\n%s", first)
	}
	var s settingsFile
	if err := json.Unmarshal(saved, &s); err != nil || s.Model != "gae" || len(s.Settings) != 4 || s.ValAUC <= 0.5 || s.Data != data {
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
