package pairmodel

import (
	"context"
	"flag"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/split"
)

// Every name builds a trainer of that name whose flags include the
// training loop's; an unknown name is an error.
func TestNew(t *testing.T) {
	for _, name := range Names {
		tr, err := New(name)
		if err != nil || tr.Name() != name || !Is(name) {
			t.Fatalf("New(%q) = %v, %v", name, tr, err)
		}
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		tr.RegisterFlags(fs)
		for _, f := range []string{"lr", "epochs", "patience", "batch-size", "pairs-per-epoch"} {
			if fs.Lookup(f) == nil {
				t.Errorf("%s lacks --%s", name, f)
			}
		}
		if err := fs.Set("batch-size", "0"); err != nil || tr.Validate() == nil {
			t.Errorf("%s: batch size 0 passed validation", name)
		}
	}
	if _, err := New("gae"); err == nil || Is("gae") {
		t.Error("gae is not a pair model")
	}
}

// Run trains with the seed it is given, not the configuration's, and only
// CONPI comes with a ranker.
func TestRun(t *testing.T) {
	src, err := dataset.Parse("synth:sparse:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(1)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(4, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names {
		tr, _ := New(name)
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		tr.RegisterFlags(fs)
		if err := fs.Parse([]string{"-epochs", "1", "-pairs-per-epoch", "32"}); err != nil {
			t.Fatal(err)
		}
		a, err := tr.Run(context.Background(), sp, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := tr.Run(context.Background(), sp, 5, nil)
		if a.Result.Epochs != 1 || !(a.Result.TestAUC > 0) || a.Result.TestAUC == b.Result.TestAUC {
			t.Errorf("%s: seeds 4 and 5 gave %+v and %+v", name, a.Result, b.Result)
		}
		if (a.Ranker() != nil) != (name == "conpi") {
			t.Errorf("%s: ranker present = %v", name, a.Ranker() != nil)
		}
	}
}
