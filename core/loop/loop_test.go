package loop

import (
	"flag"
	"math"
	"strings"
	"testing"
)

func TestSettings(t *testing.T) {
	epochs, patience, lr, wd := 100, 10, 0.01, 0.0
	s := Settings{Epochs: &epochs, Patience: &patience, LR: &lr, WeightDecay: &wd}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	s.Register(fs, "validation AUC")
	if err := fs.Parse([]string{"-epochs", "7", "-patience", "3", "-lr", "0.5", "-weight-decay", "1e-4"}); err != nil {
		t.Fatal(err)
	}
	if epochs != 7 || patience != 3 || lr != 0.5 || wd != 1e-4 || s.Validate() != nil {
		t.Errorf("parsed %d %d %g %g (%v)", epochs, patience, lr, wd, s.Validate())
	}
	if u := fs.Lookup("patience").Usage; !strings.HasSuffix(u, "a better validation AUC") {
		t.Errorf("patience help %q", u)
	}
	for _, tc := range []struct {
		set  func()
		want string
	}{
		{func() { lr = 0 }, "learning rate must be positive and finite (got 0)"},
		{func() { lr = math.Inf(1) }, "learning rate must be positive and finite (got +Inf)"},
		{func() { lr = math.NaN() }, "learning rate must be positive and finite (got NaN)"},
		{func() { wd = -1 }, "weight decay must be non-negative (got -1)"},
		{func() { epochs = 0 }, "epochs must be at least 1 (got 0)"},
		{func() { patience = 0 }, "patience must be at least 1 (got 0)"},
	} {
		epochs, patience, lr, wd = 1, 1, 0.1, 0
		tc.set()
		if err := s.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

func TestShares(t *testing.T) {
	v, te := 0.05, 0.1
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	RegisterShares(fs, &v, &te)
	if err := fs.Parse([]string{"-val-frac", "0.1", "-test-frac", "0.3"}); err != nil || v != 0.1 || te != 0.3 {
		t.Fatalf("parsed %g %g (%v)", v, te, err)
	}
	for _, c := range [][2]float64{{0.1, 0.3}, {0.5, 0.49}} {
		if err := ValidateShares(c[0], c[1]); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
	for _, c := range [][2]float64{{0, 0.1}, {0.1, 0}, {0.5, 0.5}, {math.NaN(), 0.1}, {-0.1, 0.5}} {
		if err := ValidateShares(c[0], c[1]); err == nil || !strings.Contains(err.Error(), "must be positive and sum below 1") {
			t.Errorf("%v: %v", c, err)
		}
	}
}
