package autograd

import (
	"runtime"
	"sync"
)

// minParallelWork is the number of multiply-adds below which an op runs on
// the calling goroutine only (a goroutine costs a few microseconds).
const minParallelWork = 1 << 16

// parallelFor splits [0, n) into contiguous pieces, one per goroutine (at
// most GOMAXPROCS), when n·cost multiply-adds make it worthwhile, and runs
// fn on each. Callers write disjoint outputs from each piece, so results do
// not depend on the split.
func parallelFor(n, cost int, fn func(lo, hi int)) {
	p := max(1, min(runtime.GOMAXPROCS(0), n*cost/minParallelWork, n))
	if p == 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for g := 1; g < p; g++ {
		wg.Go(func() { fn(g*n/p, (g+1)*n/p) })
	}
	fn(0, n/p)
	wg.Wait()
}

// scatterOwners runs fn(lo, hi) for a partition of the destination rows
// [0, rows) when a scatter of n updates of cost each is large enough. Each
// call scans every update in order and applies only those whose destination
// row is in [lo, hi): every row then receives its updates in the same order
// as a serial loop, so the result is bit-identical for any number of
// goroutines.
func scatterOwners(rows, n, cost int, fn func(lo, hi int)) {
	parallelFor(rows, max(1, n*cost/max(rows, 1)), fn)
}
