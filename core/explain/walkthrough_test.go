package explain

import "testing"

// TestWalkthrough checks each step's sentences, written out by hand, for
// a small explanation: one end with a common neighbour, a second selected
// one and one left out, the other end with no neighbour within the
// diffusion's reach and none selected, a calibrated model with an anchor.
func TestWalkthrough(t *testing.T) {
	e := &Explanation{
		I: Side{Node: 0, ID: "a", Norm: 2, Own: 0.5, Neighbors: []Neighbor{
			{Node: 2, ID: "c", Structure: 1, Features: 0.7, Learnt: 0.8, Untrained: 0.6, Score: 0.75, Common: true, Selected: true, Weight: 0.6, Shift: 0.3, Attribution: 0.25, Rank: 1},
			{Node: 3, ID: "d", Structure: 0.5, Features: 0.6, Learnt: 0.5, Untrained: 0.7, Score: 0.55, Selected: true, Weight: 0.4, Shift: 0.1, Attribution: -0.125, Rank: 2},
			{Node: 4, ID: "e", Structure: 0.25, Features: 0.4, Learnt: 0.3, Untrained: 0.5, Score: 0.325, Rank: 3},
		}},
		J:     Side{Node: 1, ID: "b", Norm: 1.5, Own: 0.625, Neighbors: []Neighbor{{Node: 5, ID: "f", Features: 0.5, Learnt: 0.5, Untrained: 0.5, Score: 0.25, Rank: 1}}},
		Model: Terms{Alpha: 0.5, Anchor: 0.5, K: 2, StructureScaled: true, Tau: 1, Beta: 0.5, Temperature: 2, Bias: -0.25},
		Logit: 0.625, Prob: 0.515, ProbRandom: 0.4, ProbRemoved: 0.45, ProbRandomRemoved: 0.5, RandomDraws: 10,
	}
	if err := e.Finish(); err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{StepStructure, "Structure", "Structure is personalised PageRank (PPR): how often a random walk that keeps restarting at one node passes through another, so nodes that many short paths join score high. Here it is measured from b to each neighbour of a, and from a to each neighbour of b, each side scaled so that its closest neighbour has 1. Of the 3 neighbours of a, the closest to b: c (1.000), d (0.500), e (0.250). The one neighbour of b is not within the diffusion's reach of a (0)."},
		{StepFeatures, "Features", "Features compare what the nodes hold (a paper's words, a product's description): sigmoid(h_c · h_other) of their representations, from 0 (unlike) through 0.5 (no signal) to 1 (alike). The model mixes two encoders: 0.50 of the score from the trained one and 0.50 from the same encoder as it started, untrained, which keeps the score from drifting to whatever training found convenient. Of the 3 neighbours of a, the most alike to b: c (0.700: trained 0.800, untrained 0.600); d (0.600: trained 0.500, untrained 0.700); e (0.400: trained 0.300, untrained 0.500). Of the one neighbour of b, the most alike to a: f (0.500: trained 0.500, untrained 0.500)."},
		{StepScores, "Scores", "Each neighbour's score mixes the two: s = α·structure + (1 − α)·features, with α = 0.50. Of the 3 neighbours of a, the best scored against b: c (0.750), d (0.550), e (0.325). Of the one neighbour of b, the best scored against a: f (0.250)."},
		{StepSelection, "Selection", "Each side keeps at most K = 2 neighbours: common neighbours of a and b first, then the best scores. a keeps c (common), d of its 3 neighbours; 1 is left out. b keeps none of its one neighbour; 1 is left out."},
		{StepAggregation, "Aggregation", "The kept neighbours get weights b = softmax(s/τ) with τ = 1.000, and each node's representation becomes h = h^r + β·Σ b·h^r_c with β = 0.50: its own plus its neighbours' pull. a's own h^r has length 2.000; c (b 0.600, moves it by 0.300), d (b 0.400, moves it by 0.100). b has no kept neighbour: h is its own h^r (length 1.500)."},
		{StepPrediction, "Prediction", "The logit is h_a · h_b = 0.625; seen from a, it is its own term +0.500 and c's +0.250 and d's -0.125. Calibration on held-out pairs maps it to p = sigmoid(logit / T + c) with T = 2.000 and c = -0.250: p = 51.5%. Above 50%, so the model predicts a link."},
		{StepWhatIf, "What if", "Removing the 2 selected neighbours of a lowers p from 51.5% to 45.0%; removing as many random neighbours lowers it to 50.0% (mean of 10 draws). With 2 random neighbours of each side in place of the selected ones, p would be 40.0%."},
	}
	if len(e.Steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(e.Steps), len(want))
	}
	for k, w := range want {
		if e.Steps[k] != w {
			t.Errorf("step %d:\n got %+v\nwant %+v", k+1, e.Steps[k], w)
		}
	}

	// Uncalibrated, without an anchor: the features step names no
	// untrained encoder and p is sigmoid(logit).
	e.Model = Terms{Alpha: 0.5, K: 2, StructureScaled: true, Tau: 1, Beta: 0.5, Temperature: 1}
	steps := e.Walkthrough()
	if got, w := steps[1].Text, "Features compare what the nodes hold (a paper's words, a product's description): sigmoid(h_c · h_other) of their representations, from 0 (unlike) through 0.5 (no signal) to 1 (alike). Of the 3 neighbours of a, the most alike to b: c (0.800), d (0.500), e (0.300). Of the one neighbour of b, the most alike to a: f (0.500)."; got != w {
		t.Errorf("features without an anchor:\n got %q\nwant %q", got, w)
	}
	if got, w := steps[5].Text, "The logit is h_a · h_b = 0.625; seen from a, it is its own term +0.500 and c's +0.250 and d's -0.125. The model is not calibrated, so p = sigmoid(logit) = 51.5%. Above 50%, so the model predicts a link."; got != w {
		t.Errorf("prediction uncalibrated:\n got %q\nwant %q", got, w)
	}
}
