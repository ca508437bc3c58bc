package f32

import (
	"unsafe"

	"ilpgnn/core/internal/prefetch"
)

// Prefetch asks the CPU to start loading x's cache lines, so that a read
// of x a little later, after other work, finds them in cache. It changes
// no value, and does nothing where there is no prefetch instruction
// (WebAssembly, the purego tag). Rows of H^r picked by a graph's edges are
// scattered over memory larger than the caches; loading the next rows
// while the current ones are used hides much of that latency.
func Prefetch(x []float32) {
	if len(x) > 0 {
		prefetch.Range(unsafe.Pointer(&x[0]), 4*len(x))
	}
}
