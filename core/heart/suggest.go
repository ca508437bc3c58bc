package heart

import "ilpgnn/core/graph"

// SuggestLinks is how many held-out links SuggestionPairs ranks at most:
// each costs a score for every node of the graph.
const SuggestLinks = 1000

// SuggestionPairs returns the pairs that rank held-out links as a node's
// suggestions are ranked: for each of the first SuggestLinks links (i, j),
// the pairs (i, x) for every candidate x of i's suggestions, j among them
// (every node but i and i's neighbours in train, the graph suggestions are
// made on), without the other true links of i in known. Link k's pairs are
// pairs[starts[k]:starts[k+1]], and its own pair is the one at own[k].
func SuggestionPairs(train, known *graph.Graph, links []graph.Edge) (pairs []graph.Edge, starts, own []int) {
	links = links[:min(len(links), SuggestLinks)]
	starts = make([]int, 0, len(links)+1)
	own = make([]int, len(links))
	for k, l := range links {
		starts = append(starts, len(pairs))
		i := int(l.U)
		for x := range train.NumNodes() {
			if x == i || train.HasEdge(i, x) || (x != int(l.V) && known.HasEdge(i, x)) {
				continue
			}
			if x == int(l.V) {
				own[k] = len(pairs)
			}
			pairs = append(pairs, graph.Edge{U: l.U, V: int32(x)})
		}
	}
	starts = append(starts, len(pairs))
	return pairs, starts, own
}

// SuggestionHits returns the share of links whose own pair is among the
// first k of its candidates by score, as suggestions order them (highest
// first, ties by the smaller node), from the scores of SuggestionPairs'
// pairs.
func SuggestionHits(pairs []graph.Edge, starts, own []int, scores []float32, k int) float64 {
	if len(own) == 0 {
		return 0
	}
	hits := 0
	for l := range own {
		mine := scores[own[l]]
		if mine != mine {
			continue // a NaN has no rank
		}
		j := pairs[own[l]].V
		above := 0
		for p := starts[l]; p < starts[l+1]; p++ {
			if s := scores[p]; s > mine || s == mine && pairs[p].V < j {
				above++
			}
		}
		if above < k {
			hits++
		}
	}
	return float64(hits) / float64(len(own))
}
