//go:build !amd64 || purego

package f32

// Prefetch does nothing where there is no prefetch instruction to issue
// (WebAssembly) or assembly is off (purego); see the amd64 version.
func Prefetch(x []float32) {}
