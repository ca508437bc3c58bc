package explain

import (
	"fmt"

	"ilpgnn/core/graph"
)

// Explainer explains link predictions by ranking each end's neighbours as
// reasons for the link. ILP-GNN's selection, GAT's attention, GNNExplainer,
// CONPI's context interaction, and the random and raw-cosine floors all
// answer through it, so the app, the experiments and the command line walk
// one list of explainers.
type Explainer interface {
	// Method names how it explains: selection, attention, gnnexplainer,
	// context, random or cosine.
	Method() string
	// Rank ranks i's neighbours as reasons for a link between i and j,
	// best first. It must be safe for concurrent use.
	Rank(i, j int) []int32
	// Explain returns each end's top neighbours, at most top of them,
	// best first, with their weights where the method has any.
	Explain(i, j, top int) (*Ranking, error)
}

// Ranking is an explainer's answer for a pair (i, j).
type Ranking struct {
	Method string
	// Weighted says the neighbours carry weights (a mask, an attention or
	// interaction mass); a method that only orders them leaves it false.
	Weighted bool
	I, J     []Ranked // i's neighbours as reasons for j, and j's for i
}

// Ranked is one neighbour in a ranking.
type Ranked struct {
	Node   int32
	Weight float64
}

// Validate reports a ranking that names a node twice on one side.
func (r *Ranking) Validate() error {
	for _, side := range [][]Ranked{r.I, r.J} {
		seen := map[int32]bool{}
		for _, n := range side {
			if seen[n.Node] {
				return fmt.Errorf("explain: %s ranks node %d twice", r.Method, n.Node)
			}
			seen[n.Node] = true
		}
	}
	return nil
}

// Ranks returns the Explainer that explains by rank alone.
func Ranks(method string, rank Ranker) Explainer { return rankOnly{method, rank} }

type rankOnly struct {
	method string
	rank   Ranker
}

func (r rankOnly) Method() string        { return r.method }
func (r rankOnly) Rank(i, j int) []int32 { return r.rank(i, j) }
func (r rankOnly) Explain(i, j, top int) (*Ranking, error) {
	out := &Ranking{Method: r.method, I: TopOf(r.rank(i, j), top), J: TopOf(r.rank(j, i), top)}
	return out, out.Validate()
}

// TopOf returns the first top nodes of a ranking, without weights.
func TopOf(ranked []int32, top int) []Ranked {
	out := make([]Ranked, 0, min(top, len(ranked)))
	for _, n := range ranked[:min(top, len(ranked))] {
		out = append(out, Ranked{Node: n})
	}
	return out
}

// Random is the explainer that ranks neighbours in an order drawn from
// seed: the floor every explainer must beat.
func Random(g *graph.Graph, seed uint64) Explainer { return Ranks("random", RandomRanker(g, seed)) }

// Cosine is the explainer that ranks neighbours by their raw features'
// cosine to the other end's: an explainer that cannot beat it explains
// nothing the features did not already say.
func Cosine(g *graph.Graph) Explainer { return Ranks("cosine", CosineRanker(g)) }
