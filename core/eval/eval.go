// Package eval holds the evaluation metrics of docs/model.md §7 as pure functions:
// the area under the ROC curve of link scores, and the mean ± standard
// deviation reported over seeds.
package eval

import (
	"math"
	"slices"
)

// AUC returns the area under the ROC curve of a scorer that gave the scores
// pos to the positive pairs and neg to the negative pairs, with ties counted
// half — the Mann–Whitney statistic normalised by the number of pairs:
//
//	AUC = U / (|pos|·|neg|),  U = Σ_{p∈pos} Σ_{n∈neg} ( [p > n] + ½·[p = n] )
//
// This is the probability that a random positive outscores a random
// negative, and equals the trapezoidal area under the ROC curve (docs/model.md §7).
// A perfect scorer gets 1, a reversed one 0, a constant one 0.5.
//
// AUC sorts copies of the scores and merges them, O(n log n) time and O(n)
// extra space for n = |pos|+|neg|; pos and neg are not modified. U is
// counted exactly in integers, so the result is exact up to the final
// division. -0 and +0 are equal scores; ±Inf are ordinary scores.
//
// AUC returns NaN if pos or neg is empty (the ratio is 0/0) or if any score
// is NaN (a NaN has no rank).
func AUC(pos, neg []float32) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	p := sortedCopy(pos)
	n := sortedCopy(neg)
	if p == nil || n == nil {
		return math.NaN()
	}
	// twoU = 2·U = Σ_p (2·#{n < p} + #{n = p}); both pointers only move forward
	// because p is ascending.
	var twoU uint64
	less, lessEq := 0, 0 // #{n < p}, #{n <= p} for the current p
	for _, s := range p {
		for less < len(n) && n[less] < s {
			less++
		}
		if lessEq < less {
			lessEq = less
		}
		for lessEq < len(n) && n[lessEq] <= s {
			lessEq++
		}
		twoU += uint64(less) + uint64(lessEq)
	}
	return float64(twoU) / (2 * float64(len(p)) * float64(len(n)))
}

// sortedCopy returns xs sorted ascending in a new slice, or nil if xs holds
// a NaN.
func sortedCopy(xs []float32) []float32 {
	c := slices.Clone(xs)
	for _, x := range c {
		if x != x {
			return nil
		}
	}
	slices.Sort(c)
	return c
}

// MeanStd returns the sample mean of xs and its sample standard deviation
// with Bessel's correction,
//
//	mean = Σ x_i / n,  std = sqrt( Σ (x_i - mean)² / (n-1) ),
//
// computed with the corrected two-pass algorithm (Chan, Golub & LeVeque
// 1983, eq 1.7), as gonum's stat.MeanStdDev(xs, nil) does. It is how results
// are reported over seeds (docs/model.md §7: mean ± std over 5 seeds).
//
// For n == 1 the std is 0 (gonum returns NaN there); for an empty xs both
// are NaN. A variance that rounding makes slightly negative is clamped to 0
// (gonum returns NaN there too). xs is not modified.
func MeanStd(xs []float64) (mean, std float64) {
	n := len(xs)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean = sum / float64(n)
	if n == 1 {
		return mean, 0
	}
	var ss, comp float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
		comp += d
	}
	variance := (ss - comp*comp/float64(n)) / float64(n-1)
	if variance < 0 { // rounding when all xs are (nearly) equal
		variance = 0
	}
	return mean, math.Sqrt(variance)
}
