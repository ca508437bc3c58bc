package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// certainP matches a probability printed as exactly 0 or 1: "p = 100.0%",
// "p(a, b) = 0.0%", "(p = 100.0%)", "from 100.0% to", "at 0.0%".
var certainP = regexp.MustCompile(`(p|p\([^)]*\)|from|to|at) = ?(0|100)\.0+%|(from|to|at) (0|100)\.0+%`)

// checkNoCertainP fails when text prints a probability as exactly 0 or 1,
// in a sentence or in explain's "p without" column.
func checkNoCertainP(t *testing.T, what, text string) {
	t.Helper()
	if m := certainP.FindString(text); m != "" {
		t.Errorf("%s prints %q:\n%s", what, m, text)
	}
	for _, line := range strings.Split(text, "\n") {
		// A selected neighbour's row: rank id score structure features
		// weight attribution "p without" selected [common], p without a
		// percentage.
		if strings.HasSuffix(strings.TrimSuffix(strings.TrimSpace(line), " common"), " selected") &&
			(strings.Contains(line, " 0.0% ") || strings.Contains(line, " 100.0% ")) {
			t.Errorf("%s: p without printed as 0%% or 100%%:\n%s", what, line)
		}
	}
}

// writeEdges writes edges "a b" lines into a file of dir and returns it.
func writeEdges(t *testing.T, dir, name string, edges [][2]int) string {
	t.Helper()
	var b strings.Builder
	for _, e := range edges {
		fmt.Fprintf(&b, "%d %d\n", e[0], e[1])
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSmallGraphCalibration: on a 5-node and a 30-node graph the
// validation split is far too small to fit calibration on, so train
// leaves the model's own sigmoid and says why; suggest and explain never
// print p as exactly 0 or 1 (the 5-node graph's suggestions were all
// "p = 0.0000" with calibration fitted on two pairs).
func TestSmallGraphCalibration(t *testing.T) {
	dir := t.TempDir()
	five := writeEdges(t, dir, "five.txt", [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 2}})
	rng := rand.New(rand.NewPCG(30, 30))
	var thirty [][2]int
	for i := range 30 {
		thirty = append(thirty, [2]int{i, (i + 1) % 30})
		for range 2 {
			if j := rng.IntN(30); j != i {
				thirty = append(thirty, [2]int{i, j})
			}
		}
	}
	for _, tc := range []struct {
		name, path, a, b string
	}{{"5 nodes", five, "1", "3"}, {"30 nodes", writeEdges(t, dir, "thirty.txt", thirty), "0", "15"}} {
		ck := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "")+".ckpt")
		code, out, stderr := cli(t, "train", "--data", tc.path, "--seeds", "0", "--epochs", "20", "--hidden", "8", "--json", "--save", ck)
		if code != 0 {
			t.Fatalf("%s: train: exit %d: %s", tc.name, code, stderr)
		}
		var res trainJSON
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		r := res.Runs[0]
		if r.Calibration == nil || r.Applied || r.Temperature != 1 || r.Bias != 0 ||
			!strings.Contains(r.NotApplied, "calibration needs 20 of each") || r.ECE != r.ECEUncalibrated {
			t.Errorf("%s: calibration %+v, want none, with the reason", tc.name, r.Calibration)
		}
		code, text, stderr := cli(t, "train", "--data", tc.path, "--seeds", "0", "--epochs", "20", "--hidden", "8", "--quiet")
		if code != 0 || !strings.Contains(text, "        not calibrated: only ") {
			t.Errorf("%s: train's report (exit %d, %s) does not say it is not calibrated:\n%s", tc.name, code, stderr, text)
		}
		code, text, stderr = cli(t, "suggest", "--checkpoint", ck, "--data", tc.path, "--node", tc.a, "--top", "3")
		if code != 0 {
			t.Fatalf("%s: suggest: exit %d: %s", tc.name, code, stderr)
		}
		checkNoCertainP(t, tc.name+": suggest", text)
		code, text, stderr = cli(t, "explain", "--checkpoint", ck, "--data", tc.path, "--pair", tc.a+","+tc.b)
		if code != 0 {
			t.Fatalf("%s: explain: exit %d: %s", tc.name, code, stderr)
		}
		checkNoCertainP(t, tc.name+": explain", text)
		if !strings.Contains(text, definitionUncalibrated) {
			t.Errorf("%s: explain's legend does not say p is not calibrated:\n%s", tc.name, text)
		}
	}
}

// TestHostileNamesInText: node ids that carry terminal escapes, a line
// break and a bidirectional override reach explain's, suggest's, inspect's
// and train's text output and the error line only escaped: no control or
// format character of a name is printed raw, and no line is forged.
func TestHostileNamesInText(t *testing.T) {
	dir := t.TempDir()
	evil := []string{"\x1b]0;PWNED\a\x1b[31mRED", "forged\nseed 0 test AUC 1.0000", "evil\u202eexe.txt", "plain"}
	var b strings.Builder
	b.WriteString("source,target\n")
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	for i := range evil {
		for j := i + 1; j < len(evil); j++ {
			fmt.Fprintf(&b, "%s,%s\n", quote(evil[i]), quote(evil[j]))
		}
		for k := range 6 {
			fmt.Fprintf(&b, "%s,n%d\n", quote(evil[i]), (i*6+k)%10)
		}
	}
	for k := range 10 {
		fmt.Fprintf(&b, "n%d,n%d\n", k, (k+1)%10)
	}
	data := filepath.Join(dir, "evil\x1b[2J.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(dir, "m.ckpt")
	runs := map[string][]string{
		"train":   {"train", "--data", data, "--seeds", "0", "--epochs", "3", "--hidden", "8", "--quiet", "--save", ck},
		"inspect": {"inspect", "--data", data},
		"suggest": {"suggest", "--checkpoint", ck, "--data", data, "--node", evil[0], "--top", "5"},
		"explain": {"explain", "--checkpoint", ck, "--data", data, "--pair", "plain," + evil[1]},
		"error":   {"explain", "--checkpoint", ck, "--data", data, "--pair", "plain,\x1b[31mnobody"},
	}
	for _, name := range []string{"train", "inspect", "suggest", "explain", "error"} {
		code, out, stderr := cli(t, runs[name]...)
		if (code != 0) != (name == "error") {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		for _, text := range []string{out, stderr} {
			for _, r := range text {
				if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
					t.Errorf("%s prints %U raw:\n%q", name, r, text)
					break
				}
			}
			if strings.Contains(text, "\nseed 0 test AUC 1.0000") {
				t.Errorf("%s: a name forged a line:\n%s", name, text)
			}
		}
		if name == "suggest" && !strings.Contains(out, `new links suggested for \x1b]0;PWNED\a\x1b[31mRED:`) {
			t.Errorf("suggest does not name the node escaped:\n%s", out)
		}
	}
}
