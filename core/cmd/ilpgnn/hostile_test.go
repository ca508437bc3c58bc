package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"ilpgnn/core/checkpoint"
)

// TestHostileCheckpoint: checkpoints edited to lie and re-summed, so that
// they pass every checksum, make explain and suggest exit 1 with the file
// and the problem named — no panic, no out-of-memory crash (either would
// kill this in-process test), no p = NaN — and the good checkpoint beside
// them still explains.
func TestHostileCheckpoint(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.ckpt")
	if code, _, stderr := cli(t, "train", "--data", small, "--seeds", "0", "--epochs", "2", "--hidden", "8", "--save", good); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	// edit rewrites the good checkpoint into name.
	edit := func(name string, change func(c *checkpoint.Checkpoint, cfg map[string]any)) string {
		c, err := checkpoint.ReadFile(good)
		if err != nil {
			t.Fatal(err)
		}
		var cfg map[string]any
		if err := json.Unmarshal(c.Config, &cfg); err != nil {
			t.Fatal(err)
		}
		change(c, cfg)
		if c.Config, err = json.Marshal(cfg); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := c.WriteFile(path); err != nil { // recomputes the checksums
			t.Fatal(err)
		}
		return path
	}
	tensor := func(c *checkpoint.Checkpoint, name string) *checkpoint.Tensor {
		x, err := c.Tensor(name)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	model := func(cfg map[string]any) map[string]any {
		return cfg["config"].(map[string]any)["Model"].(map[string]any)
	}
	for _, tc := range []struct {
		file   string
		change func(c *checkpoint.Checkpoint, cfg map[string]any)
		want   string
	}{
		{"features.ckpt", func(c *checkpoint.Checkpoint, cfg map[string]any) {
			// The fixture has 6 features; cut the tensors to 4 to match the lie.
			cfg["feature_dim"] = 4
			for _, n := range []string{"W1", "Wx"} {
				x := tensor(c, n)
				x.Rows, x.Data = 4, x.Data[:4*x.Cols]
			}
		}, `feature_dim is 4, but graph "small" has 6 features per node`},
		{"hidden.ckpt", func(_ *checkpoint.Checkpoint, cfg map[string]any) { model(cfg)["Hidden"] = 200_000_000 },
			"tensor W1 is 6x8, but its config (hidden 200000000, feature_dim 6) needs 6x200000000"},
		{"nan.ckpt", func(c *checkpoint.Checkpoint, _ map[string]any) {
			for i := range c.Tensors {
				for j := range c.Tensors[i].Data {
					c.Tensors[i].Data[j] = float32(math.NaN())
				}
			}
		}, "tensor W1 has a non-finite weight, NaN, at index 0 (row 0, col 0)"},
		{"inf.ckpt", func(c *checkpoint.Checkpoint, _ map[string]any) { tensor(c, "Wh").Data[10] = float32(math.Inf(1)) },
			"tensor Wh has a non-finite weight, +Inf, at index 10 (row 1, col 2)"},
	} {
		path := edit(tc.file, tc.change)
		for _, args := range [][]string{
			{"explain", "--checkpoint", path, "--data", small, "--pair", "n0,n1"},
			{"suggest", "--checkpoint", path, "--data", small, "--node", "n5"},
			{"export", "--checkpoint", path, "--data", small, "--out", t.TempDir(), "--bundle-only"},
		} {
			code, out, stderr := cli(t, args...)
			if code != 1 || !strings.Contains(stderr, tc.file+": ") || !strings.Contains(stderr, tc.want) || out != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", args[0], tc.file, code, out, stderr, tc.want)
			}
		}
	}
	code, out, stderr := cli(t, "explain", "--checkpoint", good, "--data", small, "--pair", "n0,n1")
	if code != 0 || !strings.Contains(out, "p = ") || strings.Contains(out, "NaN") {
		t.Errorf("the good checkpoint after the hostile ones: exit %d, %q, %q", code, out, stderr)
	}
}
