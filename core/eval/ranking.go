package eval

import (
	"math"
	"slices"
)

// Ranking is how a scorer ranks each positive pair among negatives of its
// own, the protocol of HeaRT (Li et al., NeurIPS 2023, "Evaluating Graph
// Neural Networks for Link Prediction: Current Pitfalls and New
// Benchmarking"): the mean reciprocal rank and the share of positives
// ranked within the first K, for the K HeaRT reports. It encodes as
// {"mrr": …, "hits@1": …, …}.
type Ranking struct {
	MRR     float64 `json:"mrr"`
	Hits1   float64 `json:"hits@1"`
	Hits3   float64 `json:"hits@3"`
	Hits10  float64 `json:"hits@10"`
	Hits20  float64 `json:"hits@20"`
	Hits50  float64 `json:"hits@50"`
	Hits100 float64 `json:"hits@100"`
}

// RankingCutoffs are the K of Ranking's Hits@K, in its field order.
var RankingCutoffs = [...]int{1, 3, 10, 20, 50, 100}

// RankAmong returns the rank of a positive scored pos among negatives
// scored neg, with ties counted half, as HeaRT's evaluator (eval_mrr)
// computes it: the mean of the optimistic rank (the positive first among
// equal scores) and the pessimistic one (last among them),
//
//	rank = 1 + #{n ∈ neg : n > pos} + ½·#{n ∈ neg : n = pos}.
//
// It returns NaN if pos or any negative is NaN (a NaN has no rank). -0 and
// +0 are equal; ±Inf are ordinary scores.
func RankAmong(pos float32, neg []float32) float64 {
	if pos != pos {
		return math.NaN()
	}
	above, tied := 0, 0
	for _, n := range neg {
		switch {
		case n != n:
			return math.NaN()
		case n > pos:
			above++
		case n == pos:
			tied++
		}
	}
	return 1 + float64(above) + 0.5*float64(tied)
}

// RankingOf returns the Ranking of positives scored pos, each against its
// own len(neg)/len(pos) negatives: row k of neg, neg[k·m : (k+1)·m], holds
// the scores of pos[k]'s negatives. Every field is NaN if pos is empty,
// if len(neg) is not a multiple of len(pos), or if any score is NaN.
// Neither slice is modified.
func RankingOf(pos, neg []float32) Ranking {
	nan := math.NaN()
	bad := Ranking{nan, nan, nan, nan, nan, nan, nan}
	if len(pos) == 0 || len(neg)%len(pos) != 0 {
		return bad
	}
	m := len(neg) / len(pos)
	var r Ranking
	hits := [len(RankingCutoffs)]int{}
	for k, p := range pos {
		rank := RankAmong(p, neg[k*m:(k+1)*m])
		if rank != rank {
			return bad
		}
		r.MRR += 1 / rank
		for c, K := range RankingCutoffs {
			if rank <= float64(K) {
				hits[c]++
			}
		}
	}
	n := float64(len(pos))
	r.MRR /= n
	share := func(c int) float64 { return float64(hits[c]) / n }
	r.Hits1, r.Hits3, r.Hits10, r.Hits20, r.Hits50, r.Hits100 = share(0), share(1), share(2), share(3), share(4), share(5)
	return r
}

// MeanStdRanking applies MeanStd to each field of rs, the runs'
// rankings: the mean and std over seeds. Both are nil unless every run has
// one (rs empty, or one of them nil).
func MeanStdRanking(rs []*Ranking) (mean, std *Ranking) {
	if len(rs) == 0 || slices.Contains(rs, nil) {
		return nil, nil
	}
	mean, std = new(Ranking), new(Ranking)
	col := func(f func(Ranking) float64) []float64 {
		out := make([]float64, len(rs))
		for i, r := range rs {
			out[i] = f(*r)
		}
		return out
	}
	mean.MRR, std.MRR = MeanStd(col(func(r Ranking) float64 { return r.MRR }))
	mean.Hits1, std.Hits1 = MeanStd(col(func(r Ranking) float64 { return r.Hits1 }))
	mean.Hits3, std.Hits3 = MeanStd(col(func(r Ranking) float64 { return r.Hits3 }))
	mean.Hits10, std.Hits10 = MeanStd(col(func(r Ranking) float64 { return r.Hits10 }))
	mean.Hits20, std.Hits20 = MeanStd(col(func(r Ranking) float64 { return r.Hits20 }))
	mean.Hits50, std.Hits50 = MeanStd(col(func(r Ranking) float64 { return r.Hits50 }))
	mean.Hits100, std.Hits100 = MeanStd(col(func(r Ranking) float64 { return r.Hits100 }))
	return mean, std
}

// MeanOfAll is the mean of xs, the runs' values of a measure, or nil
// unless every run has one.
func MeanOfAll(xs []*float64) *float64 {
	if len(xs) == 0 || slices.Contains(xs, nil) {
		return nil
	}
	vs := make([]float64, len(xs))
	for i, x := range xs {
		vs[i] = *x
	}
	m, _ := MeanStd(vs)
	return &m
}
