package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/models"
	"ilpgnn/core/models/modeltest"
	"ilpgnn/core/split"
)

// A model added to the registry (modeltest.Tiny, one file) appears in the
// command line without a line of it changing: in train's help and flags,
// in train itself, and in table 1. Tiny's AUCs are the cn heuristic's,
// computed here directly.
func TestRegisteredModel(t *testing.T) {
	t.Parallel()
	reg := append(models.Default(), modeltest.Tiny)
	cmd := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := runWith(context.Background(), reg, args, &out, &errb)
		return code, out.String(), errb.String()
	}
	data := "synth:sparse:seed=1"
	code, _, stderr := cmd("train", "--model", "tiny", "-h")
	if code != 0 || !strings.Contains(stderr, "tiny (common neighbours, weighted)") || !strings.Contains(stderr, "-weight") {
		t.Errorf("train --model tiny -h: exit %d, %q", code, stderr)
	}
	code, out, stderr := cmd("train", "--model", "tiny", "--weight", "3", "--data", data, "--seeds", "1", "--json")
	if code != 0 {
		t.Fatalf("train --model tiny: exit %d: %s", code, stderr)
	}
	var got trainJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	_, d, err := openData(data, 1)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(1, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	val, test := heuristic.SplitAUC(sp, heuristic.CommonNeighbours)
	if got.Model != "tiny" || len(got.Runs) != 1 || got.Runs[0].TestAUC != test || got.Runs[0].ValAUC != val || got.Runs[0].P1 == nil {
		t.Errorf("train --model tiny: %+v, want test AUC %v, validation %v, with precision", got, test, val)
	}
	if code, _, stderr := cmd("train", "--model", "tiny", "--weight", "0", "--data", data); code != 1 || !strings.Contains(stderr, "weight must be positive") {
		t.Errorf("train --model tiny --weight 0: exit %d, %q", code, stderr)
	}
	if code, _, stderr := cmd("train", "--model", "tiny", "--save", "x.ckpt", "--data", data); code != 1 || !strings.Contains(stderr, "checkpoints of tiny are not supported") {
		t.Errorf("train --model tiny --save: exit %d, %q", code, stderr)
	}
	code, out, stderr = cmd("experiment", "table1", "--data", data, "--models", "cn,tiny", "--seeds", "1", "--set", "tiny.weight=2", "--json")
	if code != 0 {
		t.Fatalf("table1 with tiny: exit %d: %s", code, stderr)
	}
	var rep struct {
		Rows []struct {
			Cells []struct {
				Model   string  `json:"model"`
				TestAUC float64 `json:"test_auc_mean"`
			} `json:"cells"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 || len(rep.Rows[0].Cells) != 2 || rep.Rows[0].Cells[1].Model != "tiny" || rep.Rows[0].Cells[1].TestAUC != rep.Rows[0].Cells[0].TestAUC {
		t.Errorf("table1: %+v, want tiny's AUC to be cn's", rep)
	}
}
