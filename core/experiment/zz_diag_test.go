package experiment

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

func TestDiagTrajectory(t *testing.T) {
	src, _ := dataset.Parse("synth:medium:seed=0")
	d, _ := src.Load(0)
	sp, _ := d.Split(0, 0, 0)
	cfg := train.DefaultConfig()
	cfg.Epochs, cfg.Patience = 150, 1000
	if v := os.Getenv("ALPHA"); v != "" {
		cfg.Model.Alpha, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("LAMBDA"); v != "" {
		cfg.Objective.Lambda, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("LR"); v != "" {
		cfg.LR, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("BETA"); v != "" {
		cfg.Model.Beta, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("TAU"); v != "" {
		cfg.Model.Tau, _ = strconv.ParseFloat(v, 64)
	}
	if os.Getenv("MAX") != "" {
		cfg.Model.Structure = ilpgnn.ScaleMax
	}
	if os.Getenv("RAW") != "" {
		cfg.Model.NormalizeFeatures = false
	}
	test := explainedLinks(d.Truth, synth.Test)
	epoch := 0
	crit := func(p *ilpgnn.Predictor) float64 {
		epoch++
		if epoch%10 == 1 {
			v := eval.PrecisionAt(modelRanker(p), test, 1, 2)
			fmt.Printf("epoch %d test P@1 %.1f P@2 %.1f\n", epoch, 100*v[0], 100*v[1])
		}
		return 0
	}
	if _, err := train.RunSplitSelect(context.Background(), sp, cfg, crit, nil); err != nil {
		t.Fatal(err)
	}
}
