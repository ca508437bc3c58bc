// Package calibrate makes a link predictor's probabilities mean what they
// say: temperature scaling (Guo et al., "On Calibration of Modern Neural
// Networks", 2017) and Platt scaling fitted on validation pairs, the
// expected calibration error (ECE) and the reliability diagram's bins.
//
// A model trained with cross-entropy ranks pairs well (its AUC) but its
// sigmoid(logit) is often over- or under-confident, or shifted. Temperature
// scaling divides every logit by one number T > 0 fitted on held-out
// pairs; Platt scaling also adds a bias b. Both keep the order of the
// pairs, hence the AUC. Everything is computed with core/detmath and in a
// fixed order, so T, b and the ECE have the same bits natively and in
// WebAssembly (TestPortable).
package calibrate

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"ilpgnn/core/detmath"
)

// The temperatures Fit returns lie in [MinTemperature, MaxTemperature]: a
// minimum outside it means the logits separate the labels perfectly (T
// tends to 0) or carry nothing about them (T tends to infinity), and a
// clamped value is then as good as any.
const (
	MinTemperature = 0.01
	MaxTemperature = 100
)

// Bins is the number of equal-width bins of the reliability diagram and
// the ECE the project reports.
const Bins = 10

// ErrOneClass is Fit's error when the pairs are all links or all
// non-links: the temperature is then not determined by the data.
var ErrOneClass = errors.New("calibrate: the pairs are all of one label, so no temperature fits them")

// Sigmoid returns 1/(1+e^-x) without overflow, with detmath's exp.
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + detmath.Exp(-x))
	}
	e := detmath.Exp(x)
	return e / (1 + e)
}

// Prob returns sigmoid(logit/t + b), the calibrated probability.
func Prob(logit float32, t, b float64) float64 { return Sigmoid(float64(logit)/t + b) }

// NLL returns the mean binary negative log-likelihood of the labels under
// sigmoid(logit/t): mean of softplus(z) - y·z with z = logit/t. It panics
// when the lengths differ; the mean of nothing is 0.
func NLL(logits []float32, labels []bool, t float64) float64 {
	checkLen(len(logits), len(labels))
	if len(logits) == 0 {
		return 0
	}
	var sum float64
	for k, l := range logits {
		z := float64(l) / t
		sum += softplus(z)
		if labels[k] {
			sum -= z
		}
	}
	return sum / float64(len(logits))
}

// softplus is log(1+e^z) = max(z,0) + log(1+e^-|z|).
func softplus(z float64) float64 {
	return max(z, 0) + detmath.Log(1+detmath.Exp(-math.Abs(z)))
}

// Fit returns the temperature T minimising NLL(logits, labels, T). The NLL
// is convex in a = 1/T (its second derivative is Σ σ(1-σ)·z² ≥ 0), so Fit
// runs Newton's method on a, falling back to bisection (geometric, the
// range spanning four decades) whenever a step leaves the bracket that
// holds the root of the derivative. The answer is clamped to
// [MinTemperature, MaxTemperature]. Empty input is an error, and so are
// labels all of one class (ErrOneClass); logits must be finite. It panics
// when the lengths differ.
func Fit(logits []float32, labels []bool) (float64, error) {
	checkLen(len(logits), len(labels))
	if len(logits) == 0 {
		return 0, errors.New("calibrate: no pairs to fit a temperature on")
	}
	pos := 0
	for k, l := range logits {
		if math.IsNaN(float64(l)) || math.IsInf(float64(l), 0) {
			return 0, fmt.Errorf("calibrate: logit %d is %v, not a finite number", k, l)
		}
		if labels[k] {
			pos++
		}
	}
	if pos == 0 || pos == len(labels) {
		return 0, ErrOneClass
	}
	// grad returns dNLL/da and d²NLL/da² (summed, not averaged: only
	// their signs and ratio matter).
	grad := func(a float64) (g, h float64) {
		for k, l := range logits {
			z := float64(l)
			s := Sigmoid(a * z)
			y := 0.0
			if labels[k] {
				y = 1
			}
			g += (s - y) * z
			h += s * (1 - s) * z * z
		}
		return g, h
	}
	lo, hi := 1.0/MaxTemperature, 1.0/MinTemperature
	if g, _ := grad(lo); g >= 0 {
		return MaxTemperature, nil
	}
	if g, _ := grad(hi); g <= 0 {
		return MinTemperature, nil
	}
	a := 1.0 // T = 1, the uncalibrated model, is the natural start
	for range 200 {
		g, h := grad(a)
		if g == 0 {
			break
		}
		if g < 0 {
			lo = a
		} else {
			hi = a
		}
		next := a - g/h
		if h <= 0 || !(next > lo && next < hi) {
			next = math.Sqrt(lo * hi)
		}
		if math.Abs(next-a) <= 1e-12*a || hi-lo <= 1e-12*lo {
			a = next
			break
		}
		a = next
	}
	return 1 / a, nil
}

// FitPlatt returns the temperature T and bias b minimising the NLL of
// sigmoid(logit/T + b) (Platt scaling, "Probabilistic Outputs for Support
// Vector Machines", 1999): temperature scaling that may also shift every
// logit, for models whose logits are biased (ILP-GNN's h_i·h_j leans to
// the positive side, so T alone cannot move the non-links' p towards 0).
// The NLL is convex in (1/T, b); FitPlatt runs Newton's method with
// backtracking from T = 1, b = 0, and clamps T as Fit does and b to
// [-MaxBias, MaxBias]. Its errors are Fit's.
func FitPlatt(logits []float32, labels []bool) (t, b float64, err error) {
	if _, err := Fit(logits, labels); err != nil {
		return 0, 0, err // the same checks: empty, one class, not finite
	}
	nll := func(a, b float64) float64 {
		var sum float64
		for k, l := range logits {
			z := a*float64(l) + b
			sum += softplus(z)
			if labels[k] {
				sum -= z
			}
		}
		return sum
	}
	a, b := 1.0, 0.0
	f := nll(a, b)
	for range 100 {
		// Gradient and Hessian of the summed NLL in (a, b).
		var ga, gb, haa, hab, hbb float64
		for k, l := range logits {
			z := float64(l)
			s := Sigmoid(a*z + b)
			r := s
			if labels[k] {
				r = s - 1
			}
			w := s * (1 - s)
			ga += r * z
			gb += r
			haa += w * z * z
			hab += w * z
			hbb += w
		}
		det := haa*hbb - hab*hab
		var da, db float64
		if det > 0 {
			da, db = -(hbb*ga-hab*gb)/det, -(haa*gb-hab*ga)/det
		} else { // flat: a gradient step
			da, db = -ga, -gb
		}
		// Backtracking: halve the step until the NLL does not rise.
		step, moved := 1.0, false
		for range 40 {
			na := min(max(a+step*da, 1.0/MaxTemperature), 1.0/MinTemperature)
			nb := min(max(b+step*db, -MaxBias), MaxBias)
			if g := nll(na, nb); g <= f {
				moved = math.Abs(na-a) > 1e-12*math.Abs(a) || math.Abs(nb-b) > 1e-12*max(math.Abs(b), 1)
				a, b, f = na, nb, g
				break
			}
			step /= 2
		}
		if !moved {
			break
		}
	}
	return 1 / a, b, nil
}

// MinPairsPerLabel is the fewest validation links, and the fewest
// non-links, that Choose fits Platt scaling on: ten events for each of its
// two numbers, the usual rule for logistic regression. With fewer, the fit
// follows the few pairs there are (on a 5-node graph it drove every p to
// 0).
const MinPairsPerLabel = 20

// Choice is the calibration Choose settled on for a model: the temperature
// and bias its probabilities use, and whether they were fitted or are the
// model's own sigmoid (1 and 0).
type Choice struct {
	Temperature, Bias float64
	// Applied is whether Temperature and Bias were fitted; Why says, when
	// they were not, why not, as a phrase for users ("only 9 validation
	// links; calibration needs 20 links and 20 non-links").
	Applied bool
	Why     string
}

// Choose fits Platt scaling (FitPlatt) on the validation pairs' logits and
// labels and keeps it only when it is worth having: there are at least
// MinPairsPerLabel pairs of each label, the fit succeeds, and it lowers the
// validation pairs' ECE (by more than rounding, 1e-9). Otherwise the model keeps its own sigmoid (T = 1,
// b = 0) and Why says why. It panics when the lengths differ.
func Choose(logits []float32, labels []bool) Choice {
	checkLen(len(logits), len(labels))
	none := Choice{Temperature: 1}
	pos := 0
	for _, y := range labels {
		if y {
			pos++
		}
	}
	if neg := len(labels) - pos; pos < MinPairsPerLabel || neg < MinPairsPerLabel {
		none.Why = fmt.Sprintf("only %s and %s; calibration needs %d of each",
			count(pos, "validation link"), count(neg, "validation non-link"), MinPairsPerLabel)
		return none
	}
	t, b, err := FitPlatt(logits, labels)
	if err != nil {
		none.Why = strings.TrimPrefix(err.Error(), "calibrate: ")
		return none
	}
	raw, cal := make([]float64, len(logits)), make([]float64, len(logits))
	for k, l := range logits {
		raw[k], cal[k] = Prob(l, 1, 0), Prob(l, t, b)
	}
	before, after := ECE(raw, labels, Bins), ECE(cal, labels, Bins)
	if !(after < before-eceRounding) {
		none.Why = fmt.Sprintf("fitted, it would not lower the validation pairs' ECE (%.4f, against %.4f without)", after, before)
		return none
	}
	return Choice{Temperature: t, Bias: b, Applied: true}
}

// eceRounding is how much lower the ECE must be with calibration for
// Choose to count it as lowered: less is rounding, as when the fit finds
// T = 1 and b = 0 again up to the last bit.
const eceRounding = 1e-9

// count returns "1 thing" or "n things".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// MaxBias bounds the bias of FitPlatt: past it, every p is within e^-50 of
// 0 or 1 whatever the logit.
const MaxBias = 50

// ReliabilityBin is one bin of a reliability diagram: the pairs whose predicted
// probability lies in [Lo, Hi) (the last bin includes 1), how many they
// are, their mean predicted probability and the share of them that are
// links. An empty bin has MeanPredicted and Observed 0.
type ReliabilityBin struct {
	Lo            float64 `json:"lo"`
	Hi            float64 `json:"hi"`
	Count         int     `json:"count"`
	MeanPredicted float64 `json:"mean_predicted"`
	Observed      float64 `json:"observed"`
}

// Reliability sorts the predictions into bins equal-width bins of [0, 1]
// and returns each bin's count, mean predicted probability and observed
// rate of links. It panics when the lengths differ, bins < 1 or a
// probability is outside [0, 1] (NaN included): those are the caller's
// bugs. No predictions give bins that are all empty.
func Reliability(probs []float64, labels []bool, bins int) []ReliabilityBin {
	checkLen(len(probs), len(labels))
	if bins < 1 {
		panic(fmt.Sprintf("calibrate: %d bins, want at least 1", bins))
	}
	out := make([]ReliabilityBin, bins)
	pos := make([]int, bins)
	for b := range out {
		out[b].Lo, out[b].Hi = float64(b)/float64(bins), float64(b+1)/float64(bins)
	}
	for k, p := range probs {
		if !(p >= 0 && p <= 1) {
			panic(fmt.Sprintf("calibrate: probability %d is %v, outside [0, 1]", k, p))
		}
		b := min(int(p*float64(bins)), bins-1)
		out[b].Count++
		out[b].MeanPredicted += p
		if labels[k] {
			pos[b]++
		}
	}
	for b := range out {
		if n := out[b].Count; n > 0 {
			out[b].MeanPredicted /= float64(n)
			out[b].Observed = float64(pos[b]) / float64(n)
		}
	}
	return out
}

// ECE returns the expected calibration error over bins equal-width bins:
// Σ_b n_b/N · |mean predicted_b - observed rate_b|. It is 0 for no
// predictions, and panics as Reliability does.
func ECE(probs []float64, labels []bool, bins int) float64 {
	return ECEOf(Reliability(probs, labels, bins))
}

// ECEOf returns the expected calibration error of a reliability diagram.
func ECEOf(bins []ReliabilityBin) float64 {
	n := 0
	for _, b := range bins {
		n += b.Count
	}
	if n == 0 {
		return 0
	}
	var sum float64
	for _, b := range bins {
		sum += float64(b.Count) * math.Abs(b.MeanPredicted-b.Observed)
	}
	return sum / float64(n)
}

// Calibration is how well a model's probabilities are calibrated on
// held-out pairs (the test pairs), with and without its calibration.
type Calibration struct {
	// Temperature and Bias are T and b of p = sigmoid(logit/T + b), fitted
	// on validation pairs (FitPlatt), or 1 and 0 when the calibration was
	// not applied (Choose).
	Temperature float64 `json:"temperature"`
	Bias        float64 `json:"bias"`
	// Applied is whether the calibration was fitted and kept; NotApplied
	// says why not when it was not.
	Applied    bool   `json:"calibrated"`
	NotApplied string `json:"not_calibrated_because,omitempty"`
	// ECE is the expected calibration error of the calibrated
	// probabilities, ECEUncalibrated that of sigmoid(logit).
	ECE             float64 `json:"ece"`
	ECEUncalibrated float64 `json:"ece_uncalibrated"`
	// Bins is the reliability diagram of the calibrated probabilities
	// (Bins equal-width bins).
	Bins []ReliabilityBin `json:"reliability"`
}

// Measure returns the Calibration of temperature t and bias b on pairs
// whose first nPos logits are links and the rest non-links. A t of 0 means
// 1, as in ilpgnn.Predictor: with b = 0, the uncalibrated model. Applied
// is set when (t, b) is not (1, 0); MeasureChoice also says why a choice
// was not applied.
func Measure(logits []float32, nPos int, t, b float64) Calibration {
	if t == 0 {
		t = 1
	}
	return measure(logits, nPos, t, b, t != 1 || b != 0)
}

// MeasureChoice is Measure for the temperature and bias of c, with c's
// reason when it was not applied.
func MeasureChoice(logits []float32, nPos int, c Choice) Calibration {
	r := measure(logits, nPos, c.Temperature, c.Bias, c.Applied)
	r.NotApplied = c.Why
	return r
}

func measure(logits []float32, nPos int, t, b float64, applied bool) Calibration {
	labels := Labels(nPos, len(logits)-nPos)
	cal, raw := make([]float64, len(logits)), make([]float64, len(logits))
	for k, l := range logits {
		cal[k], raw[k] = Prob(l, t, b), Prob(l, 1, 0)
	}
	r := Calibration{Temperature: t, Bias: b, Applied: applied, Bins: Reliability(cal, labels, Bins), ECEUncalibrated: ECE(raw, labels, Bins)}
	r.ECE = ECEOf(r.Bins)
	return r
}

// Labels returns nPos trues followed by nNeg falses: the labels of pairs
// laid out links first, as the splits lay them out.
func Labels(nPos, nNeg int) []bool {
	out := make([]bool, nPos+nNeg)
	for k := range nPos {
		out[k] = true
	}
	return out
}

func checkLen(a, b int) {
	if a != b {
		panic(fmt.Sprintf("calibrate: %d scores but %d labels", a, b))
	}
}
