// The objective on the tape (docs/model.md §5, eq 9-13).

package ilpgnn

import (
	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
)

// Objective holds the settings of the explanation-enhancement losses (SPEC
// §5, eq 9-13).
type Objective struct {
	Lambda float64 // weight of L^p_dis + L^n_dis
	Delta  float64 // margin δ of L^p_dis
	// Relaxed draws min(K, spare) random neighbours for L^p_dis and skips a
	// positive only when a side has none; otherwise (the paper) a positive
	// is skipped when a side has fewer than K spare neighbours.
	Relaxed bool
	// NegMean takes L^n_dis per negative pair as the mean of s² over its
	// selected neighbours instead of the sum (eq 12 sums up to 2K terms).
	NegMean bool
}

// Norms are the epoch-wide counts that normalise the loss terms when an
// epoch's pairs are split into several batches (Model.LossOver): each
// batch's terms are sums divided by the epoch's counts, so the batches'
// losses and gradients add up to those of one batch holding every pair.
type Norms struct {
	Pairs        int // labelled pairs (L_cls is their mean)
	Negatives    int // pairs labelled 0 (L^n_dis is their mean)
	Contributing int // positives feeding L^p_dis (its mean)
}

// EpochNorms counts pairs, negatives and contributing positives over all
// of an epoch's pairs, as Build would for one batch of them.
func (m *Model) EpochNorms(in *Inputs, pairs []graph.Edge, labels []float32, obj Objective) Norms {
	n := Norms{Pairs: len(pairs)}
	for p, e := range pairs {
		if labels[p] == 0 {
			n.Negatives++
		}
		if labels[p] == 1 && m.count(in, e, 1, obj).rndI > 0 {
			n.Contributing++
		}
	}
	return n
}

// Losses are the parts of the objective for one batch (docs/model.md §5).
type Losses struct {
	Total, Cls, Pos, Neg *autograd.Var
	Logits               *autograd.Var // h_i · h_j per pair (P x 1)
}

// aggregate records eq 5-8 for a set of entries on the tape and returns the
// logits (segments/2 x 1) and the scores s (entries x 1).
func (m *Model) aggregate(t *autograd.Tape, hr *autograd.Var, e *entries) (logits, s *autograd.Var) {
	cfg := m.Config
	no := autograd.Sigmoid(t, autograd.GatherDot(t, hr, hr, e.node, e.target))
	s = newEq5(cfg).record(t, no, e.st)
	if cfg.Beta != 0 {
		b := autograd.SegmentSoftmax(t, autograd.Scale(t, s, float32(1/cfg.Tau)), e.offsets)
		return autograd.GatherSegmentDot(t, hr, e.centre, b, e.node, e.offsets, float32(cfg.Beta)), s
	}
	h := autograd.GatherRows(t, hr, e.centre)
	return autograd.GatherDot(t, h, h, e.halves[0], e.halves[1]), s
}

// Loss records L = L_cls + λ (L^p_dis + L^n_dis) (eq 13) for a built batch:
//
//	L_cls    = mean BCE(sigmoid(h_i·h_j), y)                              (eq 11)
//	L^p_dis  = mean over contributing positives of max(0, p^rand + δ - p) (eq 10)
//	L^n_dis  = mean over negatives of Σ_{c∈N^r(i|j)} s² + Σ_{c∈N^r(j|i)} s² (eq 12)
//	           (with NegMean, the mean of those s² instead of their sum)
//
// Means are over pairs, so λ does not depend on the graph's size.
func (m *Model) Loss(t *autograd.Tape, hr *autograd.Var, b *Batch, obj Objective) Losses {
	return m.loss(t, hr, b, obj, nil)
}

// LossOver is Loss for one batch of an epoch split into batches, with every
// mean taken over the epoch's counts n (EpochNorms) instead of the batch's:
// the batches' Total values, and their gradients, sum to those of Loss on
// all the epoch's pairs at once, up to float rounding. Training computes
// the same without a tape (LossGrad); this is its reference.
func (m *Model) LossOver(t *autograd.Tape, hr *autograd.Var, b *Batch, obj Objective, n Norms) Losses {
	return m.loss(t, hr, b, obj, &n)
}

// loss records the objective with the batch's own means (n nil, Loss's
// operations exactly) or the epoch's (LossOver).
func (m *Model) loss(t *autograd.Tape, hr *autograd.Var, b *Batch, obj Objective, n *Norms) Losses {
	logits, s := m.aggregate(t, hr, &b.sel)
	cls := autograd.BCEWithLogits(t, logits, b.Labels)
	nNeg := 0
	for _, y := range b.Labels {
		if y == 0 {
			nNeg++
		}
	}
	if n != nil {
		// BCEWithLogits is the batch's mean; rescale it to a share of the epoch's.
		cls = autograd.Scale(t, cls, float32(float64(len(b.Labels))/float64(max(n.Pairs, 1))))
		nNeg = n.Negatives
	}
	sq := autograd.Square(t, autograd.GatherRows(t, s, b.negEntries))
	if obj.NegMean {
		sq = autograd.Mul(t, sq, autograd.Const(len(b.negWeights), 1, b.negWeights))
	}
	neg := autograd.Sum(t, sq)
	if nNeg > 0 {
		neg = autograd.Scale(t, neg, 1/float32(nNeg))
	}
	var pos *autograd.Var
	if len(b.contrib) > 0 {
		rl, _ := m.aggregate(t, hr, &b.rnd)
		prand := autograd.Sigmoid(t, rl)
		p := autograd.Sigmoid(t, autograd.GatherRows(t, logits, b.contrib))
		margin := autograd.ReLU(t, autograd.AddScalar(t, autograd.Sub(t, prand, p), float32(obj.Delta)))
		if n != nil {
			pos = autograd.Scale(t, autograd.Sum(t, margin), 1/float32(max(n.Contributing, 1)))
		} else {
			pos = autograd.Mean(t, margin)
		}
	} else {
		pos = autograd.Const(1, 1, []float32{0})
	}
	total := cls
	if obj.Lambda != 0 {
		total = autograd.Add(t, cls, autograd.Scale(t, autograd.Add(t, pos, neg), float32(obj.Lambda)))
	}
	return Losses{Total: total, Cls: cls, Pos: pos, Neg: neg, Logits: logits}
}
