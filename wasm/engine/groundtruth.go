package engine

import (
	"ilpgnn/core/explain"
	"ilpgnn/core/synth"
)

// Explanation is the result of explain: ILP-GNN's explanation (its fields
// flattened into the same JSON object) and, for a link of a synthetic graph
// with groundtruth, the neighbours the generator drew it from.
type Explanation struct {
	*explain.Explanation
	Groundtruth *Groundtruth `json:"groundtruth,omitempty"`
	// Weights, set while a run trains, names the epoch whose weights
	// answered.
	Weights *Weights `json:"weights,omitempty"`
}

// Groundtruth is the groundtruth explanation of a link (docs/model.md §8): the
// neighbours of the pair's i end that explain it, those of its j end, and
// which labelled set the link belongs to.
type Groundtruth struct {
	I    []int32 `json:"i"`
	J    []int32 `json:"j"`
	Role string  `json:"role"` // train, validation or test
}

// roleName names a link's role as the protocol does.
func roleName(r synth.Role) string {
	switch r {
	case synth.Train:
		return "train"
	case synth.Validation:
		return "validation"
	case synth.Test:
		return "test"
	}
	return r.String()
}

// withGroundtruth adds the groundtruth of (ex.I, ex.J), if l has one for it.
func (e *Engine) withGroundtruth(l *loaded, ex *explain.Explanation) Explanation {
	out := Explanation{Explanation: ex}
	if l.d.Truth == nil {
		return out
	}
	i, j := int32(ex.I.Node), int32(ex.J.Node)
	// Explained builds its index on first use: not while another request
	// might.
	e.mu.Lock()
	link, ok := l.d.Truth.Explained(i, j)
	e.mu.Unlock()
	if !ok {
		return out
	}
	// Why(i) is GT(i|j) whichever way round the link is stored.
	out.Groundtruth = &Groundtruth{I: nonNil(link.Why(i)), J: nonNil(link.Why(j)), Role: roleName(link.Role)}
	return out
}

func nonNil(s []int32) []int32 {
	if s == nil {
		return []int32{}
	}
	return s
}
