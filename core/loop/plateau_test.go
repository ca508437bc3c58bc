package loop

import (
	"flag"
	"math"
	"strings"
	"testing"
)

// run feeds scores from epoch 1 and returns the epoch that stops the run
// (0: none) and the learning-rate scale after each epoch.
func run(p *Plateau, scores []float64) (stop int, scales []float64) {
	for k, s := range scores {
		st := p.Observe(k+1, s)
		scales = append(scales, p.Scale())
		if st {
			return k + 1, scales
		}
	}
	return 0, scales
}

func TestPlateauWithoutDecaysIsPatience(t *testing.T) {
	// The zero MinDelta and Decays stop Patience epochs after the last
	// better score, as early stopping always did: best at epoch 3 (0.7),
	// patience 2, so the run stops after epoch 5.
	p := &Plateau{Patience: 2}
	stop, scales := run(p, []float64{0.5, 0.6, 0.7, 0.7, 0.65, 0.9})
	if stop != 5 {
		t.Errorf("stopped after epoch %d, want 5", stop)
	}
	for _, s := range scales {
		if s != 1 {
			t.Errorf("scale %g without decays", s)
		}
	}
}

func TestPlateauMinDelta(t *testing.T) {
	// Rises of 0.003 are not progress against a MinDelta of 0.01: the
	// last progress is epoch 2 (0.60 > 0.50 + 0.01), and three creeping
	// epochs later the run stops, though each was a new best.
	p := &Plateau{Patience: 3, MinDelta: 0.01}
	stop, _ := run(p, []float64{0.50, 0.60, 0.603, 0.606, 0.609, 0.6095})
	if stop != 5 {
		t.Errorf("stopped after epoch %d, want 5", stop)
	}
	// Creeping by 0.004 passes 0.01 above the reference at epoch 4
	// (0.6101 > 0.61), which is progress and restarts the wait.
	p = &Plateau{Patience: 3, MinDelta: 0.01}
	stop, _ = run(p, []float64{0.60, 0.604, 0.608, 0.6101, 0.611, 0.612, 0.613, 0.61})
	if stop != 7 {
		t.Errorf("stopped after epoch %d, want 7 (progress at 4)", stop)
	}
}

func TestPlateauDecays(t *testing.T) {
	// Patience 2, two decays by 0.5: a flat run decays after epochs 3 and
	// 5 and stops after epoch 7; Left counts down the waits to come.
	p := &Plateau{Patience: 2, Decays: 2, Factor: 0.5}
	wantScale := []float64{1, 1, 0.5, 0.5, 0.25, 0.25, 0.25}
	wantLeft := []int{6, 5, 4, 3, 2, 1, 0}
	for e := 1; e <= 7; e++ {
		stop := p.Observe(e, 0.8)
		if stop != (e == 7) {
			t.Fatalf("epoch %d: stop %v", e, stop)
		}
		if p.Scale() != wantScale[e-1] || p.Left(e) != wantLeft[e-1] {
			t.Errorf("epoch %d: scale %g left %d, want %g %d", e, p.Scale(), p.Left(e), wantScale[e-1], wantLeft[e-1])
		}
	}
	// Progress after a decay restarts the wait but keeps the lower rate.
	p = &Plateau{Patience: 2, Decays: 1, Factor: 0.1}
	stop, scales := run(p, []float64{0.8, 0.8, 0.8, 0.9, 0.9, 0.9})
	if stop != 6 || math.Abs(scales[3]-0.1) > 1e-15 {
		t.Errorf("stop %d, scales %v", stop, scales)
	}
}

func TestPlateauFlags(t *testing.T) {
	md, decays, factor := 0.0, 0, 0.5
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	RegisterPlateau(fs, &md, &decays, &factor, "validation AUC")
	if err := fs.Parse([]string{"-min-delta", "0.001", "-decays", "2", "-decay-factor", "0.3"}); err != nil {
		t.Fatal(err)
	}
	if md != 0.001 || decays != 2 || factor != 0.3 || ValidatePlateau(md, decays, factor) != nil {
		t.Errorf("parsed %g %d %g", md, decays, factor)
	}
	for _, tc := range []struct {
		md     float64
		decays int
		factor float64
		want   string
	}{
		{-1, 0, 0.5, "min-delta must be non-negative and finite (got -1)"},
		{math.NaN(), 0, 0.5, "min-delta must be non-negative and finite (got NaN)"},
		{0, -1, 0.5, "decays must be non-negative (got -1)"},
		{0, 1, 1, "decay factor must be in (0, 1) (got 1)"},
		{0, 1, 0, "decay factor must be in (0, 1) (got 0)"},
	} {
		if err := ValidatePlateau(tc.md, tc.decays, tc.factor); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc, err, tc.want)
		}
	}
	if err := ValidatePlateau(0, 0, 0); err != nil {
		t.Errorf("no decays, no factor: %v", err)
	}
}
