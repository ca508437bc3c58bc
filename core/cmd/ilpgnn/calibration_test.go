package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"ilpgnn/core/calibrate"
	"ilpgnn/core/checkpoint"
)

// TestTrainReportsCalibration: train --json reports each run's ECE with and
// without calibration, its temperature and bias, and the reliability bins,
// and the bins' own ECE is the one reported; the checkpoint carries the
// same calibration; suggest prints each p once, to four places, and the
// same p as suggest --json.
func TestTrainReportsCalibration(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "model.ckpt")
	// A quarter of the edges for validation: 45 links, enough to calibrate
	// on (calibrate.MinPairsPerLabel).
	code, out, stderr := cli(t, "train", "--data", small, "--seeds", "0", "--epochs", "30", "--lr", "0.01",
		"--hidden", "16", "--val-frac", "0.25", "--json", "--save", ck)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	var res trainJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	r := res.Runs[0]
	if r.Calibration == nil || len(r.Bins) != calibrate.Bins || !(r.Temperature > 0) || !r.Applied || r.NotApplied != "" {
		t.Fatalf("train --json without calibration: %s", out)
	}
	n := 0
	for _, b := range r.Bins {
		n += b.Count
	}
	// The small fixture's split: its test links and as many non-links.
	var raw map[string]any
	json.Unmarshal([]byte(out), &raw)
	run := raw["runs"].([]any)[0].(map[string]any)
	for _, key := range []string{"ece", "ece_uncalibrated", "temperature", "bias", "reliability"} {
		if _, ok := run[key]; !ok {
			t.Errorf("train --json: no %q in %v", key, run)
		}
	}
	if got := calibrate.ECEOf(r.Bins); math.Abs(got-r.ECE) > 1e-12 || n == 0 || n%2 != 0 {
		t.Errorf("ece %v, the bins' (%d pairs) %v", r.ECE, n, got)
	}
	if res.ECEMean == nil || *res.ECEMean != r.ECE || *res.ECEUncalibratedMean != r.ECEUncalibrated {
		t.Errorf("ece_mean %v, want %v", res.ECEMean, r.ECE)
	}
	c, err := checkpoint.ReadFile(ck)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"ece": r.ECE, "temperature": r.Temperature, "bias": r.Bias} {
		if v, ok := c.Metric(name); !ok || v != want {
			t.Errorf("checkpoint metric %s = %v (%v), want %v", name, v, ok, want)
		}
	}

	code, text, stderr := cli(t, "suggest", "--checkpoint", ck, "--data", small, "--node", "n5", "--top", "5")
	if code != 0 {
		t.Fatalf("suggest: exit %d: %s", code, stderr)
	}
	code, js, _ := cli(t, "suggest", "--checkpoint", ck, "--data", small, "--node", "n5", "--top", "5", "--json")
	var sugg []struct {
		ID      string  `json:"id"`
		Prob    float64 `json:"prob"`
		TieNote string  `json:"tie_note"`
	}
	if err := json.Unmarshal([]byte(js), &sugg); code != 0 || err != nil || len(sugg) != 5 {
		t.Fatalf("suggest --json: %d, %v: %s", code, err, js)
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for k, s := range sugg {
		line := lines[1+k]
		if strings.Count(line, "p = ") != 1 || !strings.Contains(line, fmt.Sprintf("%-12s p = %.1f%%", s.ID, 100*s.Prob)) {
			t.Errorf("suggestion %d: %q, want %s's p = %.1f%% once", k+1, line, s.ID, 100*s.Prob)
		}
	}
	// The five lie within 1.6 points, the model's calibration error is 16:
	// they are tied, and both outputs say so.
	want := fmt.Sprintf("the 5 suggestions' probabilities lie within %.1f points, less than the model's calibration error (%.1f points): treat them as tied",
		100*(sugg[0].Prob-sugg[4].Prob), 100*r.ECE)
	if note := sugg[0].TieNote; note != want || !strings.Contains(text, "note: "+want+".") {
		t.Errorf("suggest: tie note %q, want %q, printed:\n%s", note, want, text)
	}
}
