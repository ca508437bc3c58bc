package autograd

import (
	"fmt"
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
	p := pieces(n, cost)
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

// pieces returns how many goroutines parallelFor(n, cost, …) uses.
func pieces(n, cost int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n*cost/minParallelWork, n))
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

// The helpers below split elementwise work, where element i of the output
// depends on the inputs at i only, so any split gives the same result. They
// take plain functions and build a closure only when the work is split:
// small ops, the common case, allocate nothing.

// each1 runs f(x) on pieces of x.
func each1(f func(x []float32), x []float32) {
	if p := pieces(len(x), 1); p > 1 {
		parallelFor(len(x), 1, func(lo, hi int) { f(x[lo:hi]) })
		return
	}
	f(x)
}

// each2 runs f(dst, x) on matching pieces of dst and x.
func each2(f func(dst, x []float32), dst, x []float32) {
	mustMatch(len(dst), len(x))
	if p := pieces(len(x), 1); p > 1 {
		parallelFor(len(x), 1, func(lo, hi int) { f(dst[lo:hi], x[lo:hi]) })
		return
	}
	f(dst, x)
}

// each3 runs f(dst, x, y) on matching pieces of dst, x and y.
func each3(f func(dst, x, y []float32), dst, x, y []float32) {
	mustMatch(len(dst), len(x))
	mustMatch(len(dst), len(y))
	if p := pieces(len(x), 1); p > 1 {
		parallelFor(len(x), 1, func(lo, hi int) { f(dst[lo:hi], x[lo:hi], y[lo:hi]) })
		return
	}
	f(dst, x, y)
}

// eachScalar runs f(dst, c, x) on matching pieces of dst and x.
func eachScalar(f func(dst []float32, c float32, x []float32), dst []float32, c float32, x []float32) {
	mustMatch(len(dst), len(x))
	if p := pieces(len(x), 1); p > 1 {
		parallelFor(len(x), 1, func(lo, hi int) { f(dst[lo:hi], c, x[lo:hi]) })
		return
	}
	f(dst, c, x)
}

func mustMatch(a, b int) {
	if a != b {
		panic(fmt.Sprintf("autograd: elementwise lengths %d and %d differ", a, b))
	}
}
