package main

import (
	"runtime"
	"strings"
	"testing"
)

// A mistyped flag is one error line, prefixed like every other, naming
// the flag meant when one is close, and where the flags are: not the
// whole usage. -h still prints every flag.
func TestFlagMistakes(t *testing.T) {
	for n, tc := range []struct {
		args []string
		want string
	}{
		0: {[]string{"train", "--data", small, "--pateince", "3"}, "ilpgnn: error: train: flag provided but not defined: -pateince (did you mean --patience?)\nRun \"ilpgnn train -h\" for its flags.\n"},
		1: {[]string{"train", "--data", small, "--LR", "0.1"}, "ilpgnn: error: train: flag provided but not defined: -LR (did you mean --lr?)\nRun \"ilpgnn train -h\" for its flags.\n"},
		2: {[]string{"train", "--data", small, "--xyzzy"}, "ilpgnn: error: train: flag provided but not defined: -xyzzy\nRun \"ilpgnn train -h\" for its flags.\n"},
		3: {[]string{"inspect"}, "ilpgnn: error: inspect: --data is required\nRun \"ilpgnn inspect -h\" for its flags.\n"},
		4: {[]string{"train", "--data", small, "--lr"}, "ilpgnn: error: train: flag needs an argument: -lr\nRun \"ilpgnn train -h\" for its flags.\n"},
	} {
		code, stdout, stderr := cli(t, tc.args...)
		if code != 2 || stdout != "" || stderr != tc.want {
			t.Errorf("%d: %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", n, tc.args, code, stdout, stderr, tc.want)
		}
	}
	code, _, stderr := cli(t, "train", "-h")
	if code != 0 || !strings.HasPrefix(stderr, "usage: ilpgnn train --data PATH") || !strings.Contains(stderr, "  -patience int\n") {
		t.Errorf("train -h: exit %d, %q", code, stderr)
	}
}

// A mistyped command names the one meant when one is close, then the
// usage; one far from every command names none.
func TestCommandMistakes(t *testing.T) {
	for _, tc := range []struct{ typed, want string }{
		{"trian", `unknown command "trian" (did you mean train?)`},
		{"explian", `unknown command "explian" (did you mean explain?)`},
		{"export-grpah", `unknown command "export-grpah" (did you mean export-graph?)`},
		{"--tune", `unknown command "--tune" (did you mean tune?)`},
		{"xyzzy", `unknown command "xyzzy"` + "\n"},
	} {
		code, _, stderr := cli(t, tc.typed)
		if code != 2 || !strings.Contains(stderr, "ilpgnn: error: "+tc.want) || !strings.Contains(stderr, "commands:") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2, %q and the usage", tc.typed, code, stderr, tc.want)
		}
	}
}

// The edit distance by hand, and didYouMean's reach: one edit for short
// names, two for longer ones.
func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"lr", "", 2}, {"pateince", "patience", 2}, {"kitten", "sitting", 3}, {"lr", "lr", 0}, {"seeds", "seed", 1}} {
		if got := editDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

// --version names the program, the commit the Makefile passes and the Go
// that built it.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "-version", "version"} {
		code, stdout, _ := cli(t, arg)
		if code != 0 || !strings.HasPrefix(stdout, "ilpgnn ") || !strings.Contains(stdout, runtime.Version()) {
			t.Errorf("%s: exit %d, %q", arg, code, stdout)
		}
	}
	old := buildCommit
	defer func() { buildCommit = old }()
	buildCommit = "0123456789abcdef+dirty"
	if got := versionLine(); !strings.Contains(got, "(commit 0123456789ab+dirty)") {
		t.Errorf("with a commit: %q", got)
	}
}

// The command tune suggests is one a shell runs as written.
func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"../shared/datasets/cora": "../shared/datasets/cora",
		"synth:medium:seed=0":     "synth:medium:seed=0",
		"my graph.csv":            "'my graph.csv'",
		"it's":                    `'it'\''s'`,
		"":                        "''",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// A node id that is not in the graph names the one meant where one is
// unmistakably close: the same but for case, or one edit away.
func TestClosestID(t *testing.T) {
	ids := []string{"n1", "n2", "N3x", "alpha", "Beta"}
	for typed, want := range map[string]string{
		"N1":    ` (did you mean "n1"? ids are case-sensitive)`,
		"beta":  ` (did you mean "Beta"? ids are case-sensitive)`,
		"alpah": "", // two edits
		"alph":  ` (did you mean "alpha"?)`,
		"n3":    "", // n1 and n2 are both one edit away, and N3x two
		"zzz":   "",
	} {
		if got := closestID(ids, typed); got != want {
			t.Errorf("closestID(%q) = %q, want %q", typed, got, want)
		}
	}
}
