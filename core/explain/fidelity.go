package explain

import (
	"context"
	"runtime"
	"sync"

	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
)

// Fidelity measures how a model's test AUC falls as each pair's top
// neighbours are taken away (the paper's sec. 5.3 and figure 3). pairs are
// scored by logits(m) with the top m neighbours of both ends removed, the
// first nPos of them positive; logits(0) removes nothing. It returns the
// AUC with nothing removed and the AUC at each m = 1..maxM (the drop is
// full - cut[m-1]), calling step after each m when it is not nil, and
// stops with ctx's error when ctx ends.
func Fidelity(ctx context.Context, nPos, maxM int, logits func(m int) []float32, step func(m int)) (full float64, cut []float64, err error) {
	s := logits(0)
	full = eval.AUC(s[:nPos], s[nPos:])
	for m := 1; m <= maxM; m++ {
		if err := ctx.Err(); err != nil {
			return full, cut, err
		}
		s := logits(m)
		cut = append(cut, eval.AUC(s[:nPos], s[nPos:]))
		if step != nil {
			step(m)
		}
	}
	return full, cut, nil
}

// Deleter scores a pair with some undirected edges deleted from its
// model's message-passing graph: the deletion of the fidelity metric.
type Deleter interface {
	LogitWithout(i, j int, removed []graph.Edge) float32
}

// LogitsWithout scores every pair (i, j) with the edges from i to the top
// m of rank(i, j), and from j to the top m of rank(j, i), deleted from
// local's graph. It runs in parallel; each pair is computed on its own, so
// the result does not depend on the number of CPUs.
func LogitsWithout(rank Ranker, local Deleter, pairs []graph.Edge, m int) []float32 {
	out := make([]float32, len(pairs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(pairs)/16))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(pairs); k += workers {
				i, j := pairs[k].U, pairs[k].V
				var rm []graph.Edge
				if m > 0 {
					for _, side := range [2][2]int32{{i, j}, {j, i}} {
						top := rank(int(side[0]), int(side[1]))
						for _, c := range top[:min(m, len(top))] {
							rm = append(rm, graph.Edge{U: side[0], V: c})
						}
					}
				}
				out[k] = local.LogitWithout(int(i), int(j), rm)
			}
		})
	}
	wg.Wait()
	return out
}
