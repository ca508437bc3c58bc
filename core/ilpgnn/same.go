package ilpgnn

import (
	"slices"

	"ilpgnn/core/autograd"
)

// Same reports whether m and o compute the same embeddings on any inputs:
// the same configuration and weights, and, with an anchor, the same
// frozen start, all bit for bit (a NaN weight is never the same).
func (m *Model) Same(o *Model) bool {
	if m.Config != o.Config || m.FeatureDim != o.FeatureDim || !sameParams(m, o) {
		return false
	}
	if (m.anchor == nil) != (o.anchor == nil) {
		return false
	}
	if m.anchor == nil {
		return true
	}
	return sameStart(m, o)
}

// sameStart reports whether m and o, both with an anchor, start from
// equal weights. The start's biases are left out: they follow from its W1
// (and the inputs AnchorEmbeddings last fitted them to), so two starts of
// equal matrices give equal embeddings on any inputs.
func sameStart(m, o *Model) bool {
	a, b := m.anchor.start, o.anchor.start
	return a != nil && b != nil && equalVars([]*autograd.Var{a.W1, a.W2, a.Wh, a.Wx}, []*autograd.Var{b.W1, b.W2, b.Wh, b.Wx})
}

// ShareAnchorEmbeddings gives m the start's H^0 on in that o computed
// (AnchorEmbeddings), when both are anchored with the same settings and
// start from the same weights, whatever their trained weights: a run's
// models all start from the weights its seed drew, so the H^0 of one is
// every other's, bit for bit, and a large graph's encoding need not run
// again. It reports whether m took them; m keeps its start, so other
// inputs are still encoded on demand.
func (m *Model) ShareAnchorEmbeddings(o *Model, in *Inputs) bool {
	if m.anchor == nil || o.anchor == nil || m == o || m.Config != o.Config || m.FeatureDim != o.FeatureDim || !sameStart(m, o) {
		return false
	}
	o.anchor.mu.Lock()
	h0, of := o.anchor.h0, o.anchor.in
	o.anchor.mu.Unlock()
	if of != in || h0 == nil {
		return false
	}
	m.anchor.mu.Lock()
	m.anchor.in, m.anchor.h0 = in, h0
	m.anchor.mu.Unlock()
	return true
}

func sameParams(m, o *Model) bool { return equalVars(m.Params(), o.Params()) }

func equalVars(a, b []*autograd.Var) bool {
	for k, p := range a {
		if p == nil || b[k] == nil || !slices.Equal(p.Value, b[k].Value) {
			return false
		}
	}
	return true
}
