package synth

// The coefficients of EstimateMemory, in bytes, fitted to the peak
// resident memory of `ilpgnn synth` (the sampled method, which writes its
// files too) on graphs of 200,000 to 10 million nodes, 1 to 10 million
// edges and 1 to 64 feature columns; each estimate is within 15% of its
// measurement, and above it (docs/scale.md, "Memory before
// training").
const (
	synthMemBase    = 10e6
	synthMemPerNode = 80  // ids, groups, degrees, the adjacency's offsets
	synthMemPerEdge = 100 // the edges, their roles and the files' rows
	synthMemPerFeat = 28  // per feature value: float64 draws, unit rows, float32 CSR (see MaxFeatureValues)
)

// EstimateMemory returns the estimated peak memory of generating c's graph
// and writing its files: the sampled method's terms, and for the exact
// method its five N×N matrices besides (33·N² bytes, see MaxExactNodes).
func EstimateMemory(c Config) int64 {
	n := int64(c.Nodes)
	b := synthMemBase + synthMemPerNode*n + synthMemPerEdge*int64(c.Edges) + synthMemPerFeat*n*int64(c.FeatureDim)
	if c.Method == Exact {
		b += 33 * n * n
	}
	return b
}
