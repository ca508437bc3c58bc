package pairfit

import (
	"runtime"
	"sync"

	"ilpgnn/core/graph"
)

// InChunks scores pairs chunk pairs at a time, the chunks spread over the
// CPUs, and returns the logits in the order of pairs. score must be safe
// for concurrent use and give a pair the same logit whatever chunk it is
// in (as Model.Logits must), so the result does not depend on the number
// of CPUs.
func InChunks(pairs []graph.Edge, chunk int, score func([]graph.Edge) []float32) []float32 {
	out := make([]float32, len(pairs))
	chunk = max(chunk, 1)
	n := (len(pairs) + chunk - 1) / chunk
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for c := w; c < n; c += workers {
				lo, hi := c*chunk, min((c+1)*chunk, len(pairs))
				copy(out[lo:hi], score(pairs[lo:hi]))
			}
		})
	}
	wg.Wait()
	return out
}
