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
	// The start's biases are left out: they follow from its W1 (and
	// the inputs AnchorEmbeddings last fitted them to), so two starts of
	// equal matrices give equal embeddings on any inputs.
	a, b := m.anchor.start, o.anchor.start
	return a != nil && b != nil && equalVars([]*autograd.Var{a.W1, a.W2, a.Wh, a.Wx}, []*autograd.Var{b.W1, b.W2, b.Wh, b.Wx})
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
