package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMissingFeatureRows checks that inspect (text and --json) and train
// tell the user about the nodes a LINQS .cites names without a .content
// row. The fixture has rows for a..f; .cites names z, y, x, w, v, u, t
// besides (first appearances in that order): 7 nodes, by count.
func TestMissingFeatureRows(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	content := "a 1 0 X\nb 0 1 Y\nc 1 1 X\nd 1 0 Y\ne 0 1 X\nf 1 1 Y\n"
	cites := "a z\ny b\nx w\nc v\nu a\nu t\na b\nb c\nc d\nd e\ne f\nf a\na c\nb d\n"
	os.WriteFile(filepath.Join(dir, "m.content"), []byte(content), 0o644)
	os.WriteFile(filepath.Join(dir, "m.cites"), []byte(cites), 0o644)
	const note = `7 nodes have no feature row (ids "z", "y", "x", "w", "v", ...); their features are all zero`

	code, out, stderr := cli(t, "inspect", "--data", dir)
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"nodes: 13\n", "missing_features: 7\n", "note: " + note + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out)
		}
	}

	code, out, stderr = cli(t, "inspect", "--data", dir, "--json")
	if code != 0 {
		t.Fatalf("inspect --json: exit %d: %s", code, stderr)
	}
	var st struct {
		Nodes             int      `json:"nodes"`
		MissingFeatures   int      `json:"missing_features"`
		MissingFeatureIDs []string `json:"missing_feature_ids"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Nodes != 13 || st.MissingFeatures != 7 || !slices.Equal(st.MissingFeatureIDs, []string{"z", "y", "x", "w", "v"}) {
		t.Errorf("inspect --json: %+v", st)
	}

	code, out, stderr = cli(t, "train", "--data", dir, "--model", "cn", "--seeds", "0", "--quiet")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	if want := "\nnote: " + note + "\n"; !strings.Contains(out, want) {
		t.Errorf("train's report lacks %q:\n%s", want, out)
	}

	// The small fixture has every row: no note.
	if code, out, _ := cli(t, "inspect", "--data", small); code != 0 || !strings.Contains(out, "missing_features: 0\n") || strings.Contains(out, "note:") {
		t.Errorf("inspect small: exit %d:\n%s", code, out)
	}
}
