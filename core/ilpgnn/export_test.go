package ilpgnn

import "ilpgnn/core/graph"

// RefBuild is the per-task Build that grouping by target replaced
// (refbuild_test.go), for benchmarks side by side.
func (m *Model) RefBuild(b *Batch, in *Inputs, hr []float32, pairs []graph.Edge, labels []float32, obj Objective, seed uint64) {
	m.refBuildAt(b, in, hr, pairs, labels, obj, seed, 0)
}
