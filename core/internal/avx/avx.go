// Package avx says whether this CPU and its operating system run AVX
// instructions, for the packages whose amd64 assembly needs them (f32,
// detmath). Elsewhere, or with the purego tag, the answer is no.
package avx

// Supported reports whether AVX instructions can run here: CPUID's AVX
// and OSXSAVE bits, and the OS saving the YMM registers.
func Supported() bool { return supported }

// supported is set once at start-up and only read after.
var supported = detect()
