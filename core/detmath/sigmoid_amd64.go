//go:build amd64 && !purego

package detmath

import (
	"math"

	"ilpgnn/core/internal/avx"
)

// lanes4 is a float64 constant for the four lanes of a YMM register.
func lanes4(v float64) [4]uint64 {
	b := math.Float64bits(v)
	return [4]uint64{b, b, b, b}
}

// int32s4 is a 32-bit integer constant for the four lanes of an XMM
// register.
func int32s4(v uint32) [4]uint64 {
	b := uint64(v) | uint64(v)<<32
	return [4]uint64{b, b, 0, 0}
}

// sigmoidConsts are sigmoid4AVX's constants, each in four lanes, in the
// order its offsets name them. The products of Exp's untyped constants
// (32·invLn2, ln2Hi/32, ...) round to the float64 that Exp multiplies by.
var sigmoidConsts = [14][4]uint64{
	{1 << 63, 1 << 63, 1 << 63, 1 << 63},         // 0: the sign bit
	{1<<63 - 1, 1<<63 - 1, 1<<63 - 1, 1<<63 - 1}, // 32: all but the sign bit
	lanes4(700),         // 64: the largest |argument| taken four at a time
	lanes4(32 * invLn2), // 96
	lanes4(0.5),         // 128
	lanes4(ln2Hi / 32),  // 160
	lanes4(ln2Lo / 32),  // 192
	lanes4(1.0 / 720),   // 224
	lanes4(1.0 / 120),   // 256
	lanes4(1.0 / 24),    // 288
	lanes4(1.0 / 6),     // 320
	lanes4(1),           // 352
	int32s4(31),         // 384
	int32s4(1023),       // 416
}

// sigmoid4AVX sets dst[k] = Sigmoid(x[k]) four at a time from k = 0 for
// n (a multiple of 4) values, with no bounds checks, and returns how many
// it set: it stops before the first four holding an argument beyond ±700
// or a NaN, which Exp's special cases take. c is sigmoidConsts, t Exp's
// exp2Table.
//
//go:noescape
func sigmoid4AVX(dst, x *float32, n int, c *[14][4]uint64, t *[32]float64) int

func sigmoids(dst, x []float32) {
	n := len(x) &^ 3
	done := 0
	for avx.Supported() && done < n {
		done += sigmoid4AVX(&dst[done], &x[done], n-done, &sigmoidConsts, &exp2Table)
		if done < n {
			sigmoidsGo(dst[done:done+4], x[done:done+4])
			done += 4
		}
	}
	sigmoidsGo(dst[done:], x[done:])
}
