package eval

import (
	"math"
	"slices"
)

// HitsAtK returns Hits@k of a scorer that gave the scores pos to the
// positive pairs and neg to the negative pairs, as the OGB link-prediction
// evaluator computes it (snap-stanford/ogb, ogb/linkproppred/evaluate.py,
// Evaluator._eval_hits): the k-th highest negative score is the threshold,
// and Hits@k is the share of positives scoring strictly above it,
//
//	Hits@k = #{p ∈ pos : p > t} / |pos|,  t = the k-th largest of neg
//
// (ties counted with multiplicity, as np.sort(neg)[-k] does). A positive
// tied with the threshold misses. When neg holds fewer than k scores the
// evaluator returns 1 without looking at the scores, and so does HitsAtK.
//
// As AUC, HitsAtK returns NaN if any score is NaN (a NaN has no rank) or if
// pos is empty (the share is 0/0), and also if k < 1. -0 and +0 are equal;
// ±Inf are ordinary scores. pos and neg are not modified.
func HitsAtK(pos, neg []float32, k int) float64 {
	if k < 1 || len(pos) == 0 || hasNaN(pos) {
		return math.NaN()
	}
	n := sortedCopy(neg)
	if n == nil && len(neg) > 0 {
		return math.NaN()
	}
	return hitsSorted(pos, n, k)
}

// hitsSorted is HitsAtK for a NaN-free pos and neg sorted ascending.
func hitsSorted(pos, neg []float32, k int) float64 {
	if len(neg) < k {
		return 1
	}
	t := neg[len(neg)-k]
	hits := 0
	for _, p := range pos {
		if p > t {
			hits++
		}
	}
	return float64(hits) / float64(len(pos))
}

func hasNaN(xs []float32) bool {
	return slices.ContainsFunc(xs, func(x float32) bool { return x != x })
}

// Hits holds Hits@20, @50 and @100, the cut-offs of OGB's link-prediction
// leaderboards (ogbl-ddi, ogbl-collab, ogbl-ppa), reported beside AUC. It
// encodes as {"20": …, "50": …, "100": …}.
type Hits struct {
	At20  float64 `json:"20"`
	At50  float64 `json:"50"`
	At100 float64 `json:"100"`
}

// HitsOf returns HitsAtK(pos, neg, k) for k = 20, 50 and 100, sorting neg
// once.
func HitsOf(pos, neg []float32) Hits {
	n := sortedCopy(neg)
	if len(pos) == 0 || hasNaN(pos) || (n == nil && len(neg) > 0) {
		nan := math.NaN()
		return Hits{nan, nan, nan}
	}
	return Hits{hitsSorted(pos, n, 20), hitsSorted(pos, n, 50), hitsSorted(pos, n, 100)}
}

// MeanStdHits applies MeanStd to each cut-off of hs: the mean and std over
// seeds.
func MeanStdHits(hs []Hits) (mean, std Hits) {
	col := func(f func(Hits) float64) []float64 {
		out := make([]float64, len(hs))
		for i, h := range hs {
			out[i] = f(h)
		}
		return out
	}
	mean.At20, std.At20 = MeanStd(col(func(h Hits) float64 { return h.At20 }))
	mean.At50, std.At50 = MeanStd(col(func(h Hits) float64 { return h.At50 }))
	mean.At100, std.At100 = MeanStd(col(func(h Hits) float64 { return h.At100 }))
	return mean, std
}
