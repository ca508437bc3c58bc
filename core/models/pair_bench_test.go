package models_test

import (
	"context"
	"flag"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
)

// BenchmarkPairEpoch times one training epoch (every training link and its
// negative, then the validation and test passes) of each model with its defaults on
// the browser's demo graph, synth:medium seed 0. Run it natively and under
// WebAssembly side by side:
//
//	go test ./core/models -run - -bench PairEpoch -benchtime 3x
//	GOOS=js GOARCH=wasm go test ./core/models -run - -bench PairEpoch -benchtime 3x \
//	    -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"
func BenchmarkPairEpoch(b *testing.B) {
	src, err := dataset.Parse("synth:medium:seed=0")
	if err != nil {
		b.Fatal(err)
	}
	d, err := src.Load(0)
	if err != nil {
		b.Fatal(err)
	}
	sp, err := d.Split(0, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"seal", "wp", "conpi"} {
		b.Run(name, func(b *testing.B) {
			spec, err := models.Default().Lookup(name)
			if err != nil {
				b.Fatal(err)
			}
			c := spec.New()
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			c.RegisterFlags(fs)
			if err := fs.Set("epochs", "1"); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := c.Train(context.Background(), models.Run{Data: d, Split: sp, Seed: 0}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
