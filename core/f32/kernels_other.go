//go:build (!amd64 || purego) && !(wasm && goexperiment.simd)

package f32

// Without the amd64 assembly (WebAssembly, other architectures, the purego
// tag) the hot loops are the portable Go ones. These wrappers inline, so
// the calls cost what they did before the assembly existed.

func madd2(d0, d1, x0, x1, b []float32) { madd2Go(d0, d1, x0, x1, b) }

func spmmRow(d, val []float32, idx []int32, b []float32) { spmmRowGo(d, val, idx, b) }

func axpy(alpha float32, x, y []float32) { axpyGo(alpha, x, y) }

func dot(a, b []float32) float32 { return dotGo(a, b) }

func dotRows(dst, a, m []float32, rows []int32) { dotRowsGo(dst, a, m, rows) }

func scale(dst []float32, alpha float32, x []float32) { scaleGo(dst, alpha, x) }

// checkIndices is a no-op: the portable loops check every slice bound.
func checkIndices(string, *CSR) {}
