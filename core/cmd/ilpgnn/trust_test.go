package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTrainDiverges: a learning rate that blows the weights up makes
// train fail (exit 1) naming the epoch and --lr on stderr, with --json
// answering one object that carries the same error, for ILP-GNN and a GNN
// baseline alike; a learning rate that is not a positive finite number is
// refused before any data is read.
func TestTrainDiverges(t *testing.T) {
	for _, model := range []string{"ilpgnn", "gae"} {
		args := []string{"train", "--data", small, "--model", model, "--seeds", "0", "--lr", "1e30", "--epochs", "20"}
		if model == "ilpgnn" {
			args = append(args, "--warmup", "0")
		}
		code, stdout, stderr := cli(t, args...)
		msg := regexp.MustCompile(`ilpgnn: error: seed 0: \w+: epoch (\d+): .*training diverged; try a lower learning rate than 1e\+30 \(--lr\)`)
		if code != 1 || !msg.MatchString(stderr) || regexp.MustCompile(`test AUC \d|\d\.\d{4}`).MatchString(stdout) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1, no AUC and the divergence named", model, code, stdout, stderr)
		}
		code, stdout, stderr = cli(t, append(args, "--json")...)
		var got trainJSON
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%s --json: stdout %q: %v", model, stdout, err)
		}
		if code != 1 || !msg.MatchString("ilpgnn: error: "+got.Error) || len(got.Runs) != 0 || !strings.Contains(stderr, got.Error) {
			t.Errorf("%s --json: exit %d, body %+v, stderr %q", model, code, got, stderr)
		}
	}
	for _, lr := range []string{"Inf", "+Inf", "0", "-0.1", "NaN"} {
		code, stdout, stderr := cli(t, "train", "--data", "testdata/missing", "--lr", lr, "--json")
		var got trainJSON
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("--lr %s --json: stdout %q: %v", lr, stdout, err)
		}
		const want = "learning rate must be positive and finite"
		if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(got.Error, want) {
			t.Errorf("--lr %s: exit %d, stderr %q, body %+v; want exit 1 and %q", lr, code, stderr, got, want)
		}
	}
}

// TestTrainFewTestLinks: the 4-cycle's split holds out one test link
// (split.DefaultTestFrac of 4 edges, at least one), so its AUC is 0 or 1
// by chance: train says so in its report and in --json, for every model.
func TestTrainFewTestLinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cycle.txt")
	if err := os.WriteFile(path, []byte("0 1\n1 2\n2 3\n3 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "the test AUC is not meaningful: the split holds out only 1 test link (fewer than 10)"
	for _, model := range []string{"ilpgnn", "cn"} {
		args := []string{"train", "--data", path, "--model", model, "--seeds", "0,1", "--json"}
		if model == "ilpgnn" {
			args = append(args, "--epochs", "3")
		}
		code, stdout, stderr := cli(t, args...)
		var got trainJSON
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%s: stdout %q: %v", model, stdout, err)
		}
		if code != 0 || len(got.Runs) != 2 || got.Runs[0].Warning == "" || !strings.Contains(got.Runs[1].Warning, want) {
			t.Errorf("%s: exit %d, body %+v, stderr %q", model, code, got, stderr)
		}
		// The report in text says it too, on its seed's line, and
		// --quiet does not hide it.
		args = append(slices.DeleteFunc(args, func(a string) bool { return a == "--json" }), "--quiet")
		code, stdout, stderr = cli(t, args...)
		if code != 0 || !strings.Contains(stdout, "\n     1  warning: "+want) || stderr != "" {
			t.Errorf("%s --quiet: exit %d, stdout %q, stderr %q", model, code, stdout, stderr)
		}
	}
	// The small graph's 180 edges give 18 test links: no warning.
	code, stdout, stderr := cli(t, "train", "--data", small, "--model", "cn", "--seeds", "0", "--json")
	if code != 0 || strings.Contains(stdout, "warning") || strings.Contains(stderr, "warning") {
		t.Errorf("small: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestTrainPipedProgress: with stderr not a terminal, train names each
// phase as it starts, without the terminal's carriage returns; --quiet
// silences it.
func TestTrainPipedProgress(t *testing.T) {
	code, _, stderr := cli(t, "train", "--data", small, "--seeds", "3", "--epochs", "2")
	// A machine slow enough to take a heartbeat period would add ticks.
	got := regexp.MustCompile(`(?m)^.*… \d+ s.*\n`).ReplaceAllString(stderr, "")
	want := "reading " + small + "…\nseed 3: splitting and preparing…\nseed 3: prepare: structure similarity…\n" +
		"seed 3: prepare: features…\nseed 3: prepare: adjacency…\nseed 3: training…\n"
	if code != 0 || got != want {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
	}
	if code, _, stderr := cli(t, "train", "--data", small, "--seeds", "3", "--epochs", "2", "--quiet"); code != 0 || stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q", code, stderr)
	}
}

// waitFor polls until buf holds n lines or fails after a minute, far
// beyond any tick of a few milliseconds on a slow machine.
func waitFor(t *testing.T, buf *syncBuffer, n int) []string {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"); buf.String() != "" && len(lines) >= n {
			return lines
		}
	}
	t.Fatalf("no %d lines after a minute: %q", n, buf.String())
	return nil
}

// TestHeartbeat: a slow phase (one that lasts until the heartbeat has
// ticked twice) gets its name at once and then a line per tick with its
// seconds; a status is printed with the next tick; nothing is printed
// after close.
func TestHeartbeat(t *testing.T) {
	var buf syncBuffer
	w := &lockedWriter{w: &buf}
	hb := startHeartbeat(w, 2*time.Millisecond)
	hb.phase("reading big.txt")
	lines := waitFor(t, &buf, 3)
	tick := regexp.MustCompile(`^reading big\.txt… \d+ s$`)
	if lines[0] != "reading big.txt…" || !tick.MatchString(lines[1]) || !tick.MatchString(lines[2]) {
		t.Fatalf("slow phase: %q", lines)
	}
	hb.update("seed 0: training", "epoch 1/9 loss 0.5")
	hb.update("seed 0: training", "epoch 2/9 loss 0.4")
	latest := regexp.MustCompile(`^seed 0: training… \d+ s: epoch 2/9 loss 0\.4$`)
	for n := len(lines) + 1; !slices.ContainsFunc(lines, latest.MatchString); n++ {
		lines = waitFor(t, &buf, n)
	}
	// Every line is a phase's name or a tick of it (a tick may have come
	// between the two updates).
	form := regexp.MustCompile(`^(reading big\.txt|seed 0: training)…( \d+ s(: epoch [12]/9 loss 0\.[45])?)?$`)
	for _, l := range lines {
		if !form.MatchString(l) {
			t.Errorf("unexpected line %q", l)
		}
	}
	if !slices.Contains(lines, "seed 0: training…") {
		t.Errorf("the training phase was not named: %q", lines)
	}
	hb.close()
	done := buf.String()
	time.Sleep(10 * time.Millisecond) // five periods: a tick after close would show
	if buf.String() != done {
		t.Errorf("printed after close: %q", strings.TrimPrefix(buf.String(), done))
	}
	var nilBeat *heartbeat // --quiet and terminals have none
	nilBeat.phase("x")
	nilBeat.close()
}
