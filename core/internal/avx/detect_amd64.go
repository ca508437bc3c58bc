//go:build amd64 && !purego

package avx

// detect reports CPUID's AVX and OSXSAVE bits and that the OS saves the
// YMM registers (XGETBV).
func detect() bool
