//go:build amd64 && !purego

package prefetch

import "unsafe"

// Line asks for the cache line holding p (PREFETCHT0).
//
//go:noescape
func Line(p unsafe.Pointer)

// Range asks for every cache line of the n bytes at p (n > 0).
//
//go:noescape
func Range(p unsafe.Pointer, n int)
