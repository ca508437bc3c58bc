package calibrate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// drawShifted returns n logits z ~ N(0, scale²) with labels drawn with
// P(link) = sigmoid(z/t + b).
func drawShifted(seed uint64, n int, scale, t, b float64) ([]float32, []bool) {
	rng := rand.New(rand.NewPCG(seed, 2))
	logits, labels := make([]float32, n), make([]bool, n)
	for k := range n {
		z := float32(rng.NormFloat64() * scale)
		logits[k] = z
		labels[k] = rng.Float64() < 1/(1+math.Exp(-(float64(z)/t+b)))
	}
	return logits, labels
}

// plattOracle is the mean NLL of sigmoid(logit/t + b), with the standard
// library.
func plattOracle(logits []float32, labels []bool, t, b float64) float64 {
	var sum float64
	for k, l := range logits {
		p := 1 / (1 + math.Exp(-(float64(l)/t + b)))
		if labels[k] {
			sum -= math.Log(p)
		} else {
			sum -= math.Log1p(-p)
		}
	}
	return sum / float64(len(logits))
}

func TestFitPlattRecoversKnownShift(t *testing.T) {
	// Labels from sigmoid(z/2 - 1.5): in large samples T = 2, b = -1.5.
	logits, labels := drawShifted(5, 200000, 5, 2, -1.5)
	T, b, err := FitPlatt(logits, labels)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(T-2) > 0.06 || math.Abs(b+1.5) > 0.04 {
		t.Errorf("FitPlatt = T %v, b %v; want about 2 and -1.5", T, b)
	}
}

func TestFitPlattMatchesGridMinimum(t *testing.T) {
	logits, labels := drawShifted(6, 1500, 3, 0.7, 0.8)
	T, b, err := FitPlatt(logits, labels)
	if err != nil {
		t.Fatal(err)
	}
	best := plattOracle(logits, labels, T, b)
	// No point of a 101 x 101 grid around the answer (T within ±10%, b
	// within ±0.2) has a lower NLL.
	for i := -50; i <= 50; i++ {
		for j := -50; j <= 50; j++ {
			tt, bb := T*(1+0.002*float64(i)), b+0.004*float64(j)
			if v := plattOracle(logits, labels, tt, bb); v < best-1e-12 {
				t.Fatalf("NLL %v at T %v, b %v is below FitPlatt's %v at T %v, b %v", v, tt, bb, best, T, b)
			}
		}
	}
	// Without a shift in the data it agrees with Fit.
	logits, labels = draw(9, 3000, 4, 1.7)
	T0, err := Fit(logits, labels)
	if err != nil {
		t.Fatal(err)
	}
	T1, b1, _ := FitPlatt(logits, labels)
	if v0, v1 := plattOracle(logits, labels, T0, 0), plattOracle(logits, labels, T1, b1); v1 > v0+1e-12 {
		t.Errorf("FitPlatt's NLL %v above temperature scaling's %v", v1, v0)
	}
	if _, _, err := FitPlatt([]float32{1}, []bool{true}); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
}

// draw returns n logits z ~ N(0, scale²) and labels drawn with
// P(link) = sigmoid(z/t): data whose calibrating temperature is t.
func draw(seed uint64, n int, scale, t float64) ([]float32, []bool) {
	rng := rand.New(rand.NewPCG(seed, 1))
	logits, labels := make([]float32, n), make([]bool, n)
	for k := range n {
		z := float32(rng.NormFloat64() * scale)
		logits[k] = z
		labels[k] = rng.Float64() < 1/(1+math.Exp(-float64(z)/t))
	}
	return logits, labels
}

// nllOracle is the NLL with the standard library's functions, written
// independently of NLL.
func nllOracle(logits []float32, labels []bool, t float64) float64 {
	var sum float64
	for k, l := range logits {
		p := 1 / (1 + math.Exp(-float64(l)/t))
		if labels[k] {
			sum -= math.Log(p)
		} else {
			sum -= math.Log1p(-p)
		}
	}
	return sum / float64(len(logits))
}

func TestFitMatchesGridMinimum(t *testing.T) {
	for _, tc := range []struct {
		seed         uint64
		scale, truth float64
	}{{1, 4, 0.5}, {2, 2, 3}, {3, 6, 1.3}} {
		logits, labels := draw(tc.seed, 2000, tc.scale, tc.truth)
		got, err := Fit(logits, labels)
		if err != nil {
			t.Fatal(err)
		}
		// Brute force: the NLL on a grid of 4,001 temperatures spaced
		// by a factor of 1.0005 around the truth.
		best, bestT := math.Inf(1), 0.0
		for k := -2000; k <= 2000; k++ {
			T := tc.truth * math.Pow(1.0005, float64(k))
			if v := nllOracle(logits, labels, T); v < best {
				best, bestT = v, T
			}
		}
		if math.Abs(got/bestT-1) > 0.001 {
			t.Errorf("seed %d: Fit = %v, grid minimum at %v", tc.seed, got, bestT)
		}
		if v := nllOracle(logits, labels, got); v > best+1e-9 {
			t.Errorf("seed %d: NLL at Fit's T %v is %v, above the grid's %v", tc.seed, got, v, best)
		}
		if v, w := NLL(logits, labels, got), nllOracle(logits, labels, got); math.Abs(v-w) > 1e-12 {
			t.Errorf("NLL = %v, oracle %v", v, w)
		}
	}
}

func TestFitRecoversKnownTemperature(t *testing.T) {
	// Labels drawn from sigmoid(z/2): in large samples the fitted T is 2
	// (the standard error at this size is about 0.02).
	logits, labels := draw(7, 200000, 5, 2)
	got, err := Fit(logits, labels)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-2) > 0.06 {
		t.Errorf("Fit = %v, want about 2", got)
	}
	// The already calibrated case.
	logits, labels = draw(8, 200000, 5, 1)
	if got, _ := Fit(logits, labels); math.Abs(got-1) > 0.03 {
		t.Errorf("Fit = %v, want about 1", got)
	}
}

func TestFitDegenerate(t *testing.T) {
	if _, err := Fit(nil, nil); err == nil {
		t.Error("Fit of nothing: no error")
	}
	if _, err := Fit([]float32{1, -2}, []bool{true, true}); !errors.Is(err, ErrOneClass) {
		t.Errorf("all links: %v, want ErrOneClass", err)
	}
	if _, err := Fit([]float32{1, -2}, []bool{false, false}); !errors.Is(err, ErrOneClass) {
		t.Errorf("all non-links: %v, want ErrOneClass", err)
	}
	if _, err := Fit([]float32{1, float32(math.NaN())}, []bool{true, false}); err == nil {
		t.Error("NaN logit: no error")
	}
	// Perfectly separated: the NLL falls as T tends to 0.
	if got, err := Fit([]float32{3, 1, -1, -3}, []bool{true, true, false, false}); err != nil || got != MinTemperature {
		t.Errorf("separated: %v, %v, want %v", got, err, MinTemperature)
	}
	// Anti-correlated: no positive temperature helps; T = max gives 1/2.
	if got, err := Fit([]float32{3, 1, -1, -3}, []bool{false, false, true, true}); err != nil || got != MaxTemperature {
		t.Errorf("anti-correlated: %v, %v, want %v", got, err, MaxTemperature)
	}
	// All logits 0: every T gives the same NLL, and T = 100 is returned.
	if got, err := Fit([]float32{0, 0}, []bool{true, false}); err != nil || got != MaxTemperature {
		t.Errorf("zero logits: %v, %v", got, err)
	}
}

func TestReliabilityAndECEByHand(t *testing.T) {
	probs := []float64{0.05, 0.15, 0.12, 0.95, 0.97, 0, 1}
	labels := []bool{false, true, false, true, true, false, true}
	bins := Reliability(probs, labels, 10)
	// bin 0: 0.05 and 0 (no link): mean 0.025, observed 0.
	// bin 1: 0.15 (link), 0.12: mean 0.135, observed 0.5.
	// bin 9: 0.95, 0.97, 1 (all links): mean 0.94/... = 2.92/3, observed 1.
	want := map[int]ReliabilityBin{
		0: {Lo: 0, Hi: 0.1, Count: 2, MeanPredicted: 0.025, Observed: 0},
		1: {Lo: 0.1, Hi: 0.2, Count: 2, MeanPredicted: 0.135, Observed: 0.5},
		9: {Lo: 0.9, Hi: 1, Count: 3, MeanPredicted: 2.92 / 3, Observed: 1},
	}
	for b, got := range bins {
		w, ok := want[b]
		if !ok {
			w = ReliabilityBin{Lo: float64(b) / 10, Hi: float64(b+1) / 10}
		}
		if got.Count != w.Count || math.Abs(got.MeanPredicted-w.MeanPredicted) > 1e-12 || got.Observed != w.Observed ||
			math.Abs(got.Lo-w.Lo) > 1e-12 || math.Abs(got.Hi-w.Hi) > 1e-12 {
			t.Errorf("bin %d = %+v, want %+v", b, got, w)
		}
	}
	// (2·0.025 + 2·0.365 + 3·(1 - 2.92/3)) / 7 = (0.05 + 0.73 + 0.08) / 7.
	if got, w := ECE(probs, labels, 10), 0.86/7; math.Abs(got-w) > 1e-12 {
		t.Errorf("ECE = %v, want %v", got, w)
	}
	// One bin: |mean of all - share of links| = |3.24/7 - 4/7|.
	if got, w := ECE(probs, labels, 1), 0.76/7; math.Abs(got-w) > 1e-12 {
		t.Errorf("ECE with one bin = %v, want %v", got, w)
	}
	if got := ECE(nil, nil, 10); got != 0 {
		t.Errorf("ECE of nothing = %v, want 0", got)
	}
	for _, b := range Reliability(nil, nil, 10) {
		if b.Count != 0 || b.MeanPredicted != 0 || b.Observed != 0 {
			t.Errorf("empty input: bin %+v", b)
		}
	}
}

func TestReliabilityPanicsOnBugs(t *testing.T) {
	for name, f := range map[string]func(){
		"length":   func() { Reliability([]float64{0.5}, nil, 10) },
		"bins":     func() { Reliability(nil, nil, 0) },
		"range":    func() { Reliability([]float64{1.5}, []bool{true}, 10) },
		"NaN prob": func() { Reliability([]float64{math.NaN()}, []bool{true}, 10) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestMeasureLowersECE: on miscalibrated data (labels from sigmoid(z/3)),
// the fitted temperature leaves a far smaller ECE than T = 1, and the bins
// are those of the calibrated probabilities.
func TestMeasureLowersECE(t *testing.T) {
	logits, labels := draw(11, 40000, 6, 3)
	ordered, nPos := linksFirst(logits, labels)
	T, err := Fit(logits, labels)
	if err != nil {
		t.Fatal(err)
	}
	r := Measure(ordered, nPos, T, 0)
	if r.Temperature != T || r.Bias != 0 || !(r.ECE < r.ECEUncalibrated/3) {
		t.Errorf("Measure: %+v", r)
	}
	probs := make([]float64, len(ordered))
	for k, l := range ordered {
		probs[k] = 1 / (1 + math.Exp(-float64(l)/T))
	}
	if w := ECE(probs, Labels(nPos, len(ordered)-nPos), Bins); math.Abs(r.ECE-w) > 1e-9 {
		t.Errorf("ECE %v, recomputed %v", r.ECE, w)
	}
}

// linksFirst lays out the logits of links first, as Measure expects, and
// returns how many links there are.
func linksFirst(logits []float32, labels []bool) ([]float32, int) {
	var pos, neg []float32
	for k, l := range logits {
		if labels[k] {
			pos = append(pos, l)
		} else {
			neg = append(neg, l)
		}
	}
	return append(pos, neg...), len(pos)
}

// TestChoose: on random validation sets, Choose applies Platt scaling
// exactly when there are MinPairsPerLabel pairs of each label and the fit
// (FitPlatt, computed here on its own) lowers the validation ECE; when
// applied, the ECE it gives is the lower one; otherwise the model's own
// sigmoid stays, and the reason is given. Both outcomes occur.
func TestChoose(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 31))
	applied, refused := 0, 0
	for trial := range 400 {
		nPos, nNeg := 5+rng.IntN(60), 5+rng.IntN(60)
		labels := Labels(nPos, nNeg)
		logits := make([]float32, len(labels))
		// Logits of varied separation, scale and shift: some already
		// calibrated, some far from it.
		sep, scale, shift := rng.Float64()*3, 0.2+rng.Float64()*5, rng.NormFloat64()*2
		for k, y := range labels {
			z := rng.NormFloat64()
			if y {
				z += sep
			}
			logits[k] = float32(scale*z + shift)
		}
		c := Choose(logits, labels)
		enough := nPos >= MinPairsPerLabel && nNeg >= MinPairsPerLabel
		raw := make([]float64, len(logits))
		for k, l := range logits {
			raw[k] = Prob(l, 1, 0)
		}
		before := ECE(raw, labels, Bins)
		lowers := false
		if enough {
			ft, fb, err := FitPlatt(logits, labels)
			if err != nil {
				t.Fatal(err)
			}
			cal := make([]float64, len(logits))
			for k, l := range logits {
				cal[k] = Prob(l, ft, fb)
			}
			lowers = ECE(cal, labels, Bins) < before-1e-9
			if c.Applied && (c.Temperature != ft || c.Bias != fb) {
				t.Fatalf("trial %d: applied T %v b %v, FitPlatt gives %v %v", trial, c.Temperature, c.Bias, ft, fb)
			}
		}
		if c.Applied != (enough && lowers) {
			t.Fatalf("trial %d: %d links, %d non-links, lowers %v: applied %v (%s)", trial, nPos, nNeg, lowers, c.Applied, c.Why)
		}
		// Whatever was chosen never raises the validation ECE.
		chosen := make([]float64, len(logits))
		for k, l := range logits {
			chosen[k] = Prob(l, c.Temperature, c.Bias)
		}
		if after := ECE(chosen, labels, Bins); after > before {
			t.Fatalf("trial %d: validation ECE %v with the choice, %v without", trial, after, before)
		}
		if c.Applied {
			applied++
			continue
		}
		refused++
		if c.Temperature != 1 || c.Bias != 0 || c.Why == "" {
			t.Fatalf("trial %d: not applied, but T %v b %v, why %q", trial, c.Temperature, c.Bias, c.Why)
		}
		if !enough {
			want := fmt.Sprintf("only %d validation links and %d validation non-links; calibration needs %d of each", nPos, nNeg, MinPairsPerLabel)
			if c.Why != want {
				t.Fatalf("trial %d: why %q, want %q", trial, c.Why, want)
			}
		}
	}
	if applied == 0 || refused == 0 {
		t.Errorf("applied %d, refused %d: the trials should see both", applied, refused)
	}
}

// TestChooseWouldNotLower: logits already calibrated: 40 pairs at
// p = 0.75 of which 30 are links, 40 at p = 0.25 of which 10 are. The
// ECE without calibration is 0, and the fit (two numbers for two groups)
// can only find it again: Choose keeps the model's own sigmoid.
func TestChooseWouldNotLower(t *testing.T) {
	var logits []float32
	var labels []bool
	l := float32(math.Log(3)) // sigmoid(l) = 0.75
	for k := range 40 {
		logits, labels = append(logits, l), append(labels, k%4 != 0)
		logits, labels = append(logits, -l), append(labels, k%4 == 0)
	}
	c := Choose(logits, labels)
	if c.Applied || c.Temperature != 1 || c.Bias != 0 || !strings.HasPrefix(c.Why, "fitted, it would not lower the validation pairs' ECE (") {
		t.Errorf("Choose: %+v", c)
	}
}
