package main

import (
	"encoding/json"
	"strings"
	"testing"

	"ilpgnn/core/models"
)

// TestSelectedOn: on a graph without groundtruth, train says that ILP-GNN
// kept its weights on validation AUC and what that costs the explanations,
// in its text and as selected_on in its JSON; a model with no explanation
// to select on reports no rule.
func TestSelectedOn(t *testing.T) {
	args := []string{"train", "--data", small, "--seeds", "0", "--epochs", "2", "--hidden", "8"}
	code, out, stderr := cli(t, args...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	if want := "weights kept on validation AUC: " + models.AUCSelectionCaveat; !strings.Contains(out, want) {
		t.Errorf("train on a graph without groundtruth does not say %q:\n%s", want, out)
	}
	for model, want := range map[string]models.Selection{"ilpgnn": models.SelectAUC, "cn": ""} {
		flags := []string{"train", "--data", small, "--seeds", "0", "--json", "--model", model}
		if model == "ilpgnn" {
			flags = append(flags, "--epochs", "2", "--hidden", "8")
		}
		code, out, stderr := cli(t, flags...)
		var res trainJSON
		if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || len(res.Runs) != 1 {
			t.Fatalf("train --model %s --json: exit %d, %v: %s", model, code, err, stderr)
		}
		if got := res.Runs[0].SelectedOn; got != want {
			t.Errorf("train --model %s: selected_on %q, want %q", model, got, want)
		}
	}
}
