//go:build !amd64 || purego

package prefetch

import "unsafe"

// Line does nothing here; see the amd64 version.
func Line(p unsafe.Pointer) {}

// Range does nothing here; see the amd64 version.
func Range(p unsafe.Pointer, n int) {}
