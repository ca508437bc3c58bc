package synth

import "ilpgnn/core/explain"

// ExplainedLinks returns the links of role r with their groundtruth, in the
// form explain.PrecisionAt scores explainers against.
func (d *Dataset) ExplainedLinks(r Role) []explain.Link {
	var out []explain.Link
	for _, l := range d.Links {
		if l.Role == r {
			out = append(out, explain.Link{I: int(l.Edge.U), J: int(l.Edge.V), WhyI: l.WhyU, WhyJ: l.WhyV})
		}
	}
	return out
}
