//go:build amd64 && !purego

package prefetch

import "unsafe"

// Line asks for the cache line holding p (PREFETCHT0).
//
//go:noescape
func Line(p unsafe.Pointer)
