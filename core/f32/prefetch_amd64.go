//go:build amd64 && !purego

package f32

// Prefetch asks the CPU to start loading x's cache lines, so that a read
// of x a little later, after other work, finds them in cache. It changes
// no value. Rows of H^r picked by a graph's edges are scattered over
// memory larger than the caches; loading the next rows while the current
// ones are used hides much of that latency.
func Prefetch(x []float32) {
	if len(x) > 0 {
		prefetch(&x[0], len(x))
	}
}

// prefetch issues PREFETCHT0 for each 64-byte line of the n floats at p.
//
//go:noescape
func prefetch(p *float32, n int)
