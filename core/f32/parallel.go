package f32

import (
	"runtime"
	"sync"
)

// minParallelWork is the number of multiply-adds below which a kernel runs on
// the calling goroutine only; above it, each goroutine gets at least this
// much, tens of microseconds of work, so that starting and joining a
// goroutine (a few microseconds) costs at most ~10% where the split starts.
// The threshold rests on that overhead, not on a measured crossover (the
// measurements: docs/kernels.md).
const minParallelWork = 1 << 18

// workers returns how many goroutines a kernel with the given number of
// independent output units and total work should use: at most GOMAXPROCS,
// at most one per unit, and at least minParallelWork per goroutine.
func workers(units, work int) int {
	return max(1, min(runtime.GOMAXPROCS(0), units, work/minParallelWork))
}

// span returns the g-th of p contiguous pieces of [0, units), with every
// boundary a multiple of align (except units itself). Each kernel treats its
// output units in blocks of align, so aligned boundaries keep each output's
// summation order independent of p.
func span(g, p, units, align int) (lo, hi int) {
	blocks := (units + align - 1) / align
	lo = min(g*blocks/p*align, units)
	hi = min((g+1)*blocks/p*align, units)
	return lo, hi
}

// parallel runs fn(0), …, fn(p-1) concurrently, fn(0) on the calling
// goroutine, and returns when all are done.
func parallel(p int, fn func(g int)) {
	var wg sync.WaitGroup
	for g := 1; g < p; g++ {
		wg.Go(func() { fn(g) })
	}
	fn(0)
	wg.Wait()
}
