package engine

// testPPREps is the PPR push tolerance (the "ppr-eps" hyperparameter) that
// page.send gives every ILP-GNN train request whose config does not set
// one. Preparing a graph's S̃ at the default ε = 5e-5 (core/diffusion) took
// most of these tests' time, above all under node where a push is several
// times slower: at 1e-3 a column's push work is bounded 20 times lower.
// What these tests check is the engine (its protocol, runs, cancels,
// checkpoints and their storage, workers), which does not depend on ε;
// core/diffusion checks S̃ at the default ε against the exact solve. The
// runs these tests rebuild outside the engine take their configuration
// from the engine's checkpoint or result, so they use the same ε.
const testPPREps = 1e-3

// withTestPPREps returns args with config["ppr-eps"] = testPPREps added
// when op is train of ILP-GNN (no model, or "ilpgnn") and args is a map
// whose config does not set ppr-eps; anything else is returned as it is.
// The caller's maps are not modified.
func withTestPPREps(op string, args any) any {
	a, ok := args.(map[string]any)
	if op != "train" || !ok {
		return args
	}
	if m, set := a["model"]; set && m != "ilpgnn" {
		return args
	}
	cfg, ok := a["config"].(map[string]any)
	if _, hasCfg := a["config"]; hasCfg && !ok {
		return args // a malformed config the test means to send
	}
	if _, set := cfg["ppr-eps"]; set {
		return args
	}
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	c := make(map[string]any, len(cfg)+1)
	for k, v := range cfg {
		c[k] = v
	}
	c["ppr-eps"] = testPPREps
	out["config"] = c
	return out
}
