package explain

import (
	"cmp"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"ilpgnn/core/graph"
)

// Ranker ranks the neighbours of node i as explanations of a link between
// i and j, best first. It must be safe for concurrent use.
type Ranker func(i, j int) []int32

// ByScore returns nodes ordered as explainers rank them: by score, highest
// first (cmp.Compare's order, NaN last), ties by node. score[k] belongs to
// nodes[k]; neither slice is changed.
func ByScore(nodes []int32, score []float64) []int32 {
	order := make([]int, len(nodes))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(score[b], score[a]); c != 0 {
			return c
		}
		return cmp.Compare(nodes[a], nodes[b])
	})
	out := make([]int32, len(order))
	for k, o := range order {
		out[k] = nodes[o]
	}
	return out
}

// Link is a link with its groundtruth explanation: WhyI are the
// neighbours of I that caused it, WhyJ those of J.
type Link struct {
	I, J       int
	WhyI, WhyJ []int32
}

// PrecisionAt returns, for each k in ks, Precision@k of rank on links
// (docs/model.md §7): |top-k ∩ groundtruth| / k for each side of each link, averaged
// over both sides of all links. It ranks in parallel; the result does not
// depend on the number of CPUs. PrecisionAt returns NaN for each k when
// links is empty.
func PrecisionAt(rank Ranker, links []Link, ks ...int) []float64 {
	hits := make([][]int, len(links)) // hits[l][n]: groundtruth in the top ks[n], both sides
	workers := min(runtime.GOMAXPROCS(0), max(1, len(links)/32))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for l := w * len(links) / workers; l < (w+1)*len(links)/workers; l++ {
				e := links[l]
				hits[l] = make([]int, len(ks))
				for _, side := range [2]struct {
					i, j int
					why  []int32
				}{{e.I, e.J, e.WhyI}, {e.J, e.I, e.WhyJ}} {
					ranked := rank(side.i, side.j)
					for n, k := range ks {
						for _, c := range ranked[:min(k, len(ranked))] {
							if slices.Contains(side.why, c) {
								hits[l][n]++
							}
						}
					}
				}
			}
		})
	}
	wg.Wait()
	out := make([]float64, len(ks))
	for n, k := range ks {
		total := 0
		for _, h := range hits {
			total += h[n]
		}
		out[n] = float64(total) / float64(2*len(links)*k)
		if len(links) == 0 {
			out[n] = math.NaN()
		}
	}
	return out
}

// RandomRanker returns the explainer that ranks the neighbours of i in a
// random order, the same for the same (seed, i, j): the floor every
// explainer must beat.
func RandomRanker(g *graph.Graph, seed uint64) Ranker {
	return func(i, j int) []int32 {
		out := slices.Clone(g.Neighbors(i))
		rng := rand.New(rand.NewPCG(seed, uint64(i)<<32|uint64(uint32(j))))
		rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
		return out
	}
}

// CosineRanker returns the explainer that ranks the neighbours c of i by
// the cosine similarity of their raw features to j's, highest first, ties
// by node id. It needs no training: an explainer that cannot beat it
// explains nothing the features did not already say.
func CosineRanker(g *graph.Graph) Ranker {
	x := g.Features
	norms := make([]float64, g.NumNodes())
	for i := range norms {
		var ss float64
		for _, v := range x.Values[x.Indptr[i]:x.Indptr[i+1]] {
			ss += float64(v) * float64(v)
		}
		norms[i] = math.Sqrt(ss)
	}
	// dot of two sparse rows by merging their sorted column lists.
	dot := func(a, b int) float64 {
		ia, ib := x.Indices[x.Indptr[a]:x.Indptr[a+1]], x.Indices[x.Indptr[b]:x.Indptr[b+1]]
		va, vb := x.Values[x.Indptr[a]:x.Indptr[a+1]], x.Values[x.Indptr[b]:x.Indptr[b+1]]
		var s float64
		for p, q := 0, 0; p < len(ia) && q < len(ib); {
			switch {
			case ia[p] < ib[q]:
				p++
			case ia[p] > ib[q]:
				q++
			default:
				s += float64(va[p]) * float64(vb[q])
				p, q = p+1, q+1
			}
		}
		return s
	}
	return func(i, j int) []int32 {
		nb := g.Neighbors(i)
		cos := make([]float64, len(nb))
		for k, c := range nb {
			if den := norms[c] * norms[j]; den > 0 {
				cos[k] = dot(int(c), j) / den
			}
		}
		return ByScore(nb, cos)
	}
}
