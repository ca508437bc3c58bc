//go:build amd64 && !purego

#include "textflag.h"

// AVX kernels behind kernels_amd64.go. Every output element gets exactly
// the operations of the portable Go loop, in its order: acc = d[j];
// acc = acc + w0*v0; acc = acc + w1*v1; ... with each product rounded to
// float32 before the add (VMULPS then VADDPS, never a fused multiply-add).
// Eight columns j go through one YMM register; the last n mod 8 columns
// take the same steps with scalar VEX instructions.

// func madd2AVX(d0, d1, x0, x1, b *float32, n, k4 int)
//
// For each block of four rows p..p+3 of b (b0..b3, row stride n):
// d0[j] = d0[j] + x0[p]*b0[j] + x0[p+1]*b1[j] + x0[p+2]*b2[j] + x0[p+3]*b3[j]
// and the same for d1 with x1, left to right.
TEXT ·madd2AVX(SB), NOSPLIT, $0-56
	MOVQ d0+0(FP), DI
	MOVQ d1+8(FP), SI
	MOVQ x0+16(FP), R8
	MOVQ x1+24(FP), R9
	MOVQ b+32(FP), R10
	MOVQ n+40(FP), CX
	MOVQ k4+48(FP), DX
	MOVQ CX, R11
	SHLQ $2, R11         // row stride in bytes
	MOVQ CX, R14
	SUBQ $8, R14         // last j that starts a full vector

mblock:
	CMPQ DX, $4
	JLT  mdone
	VBROADCASTSS 0(R8), Y0
	VBROADCASTSS 4(R8), Y1
	VBROADCASTSS 8(R8), Y2
	VBROADCASTSS 12(R8), Y3
	VBROADCASTSS 0(R9), Y4
	VBROADCASTSS 4(R9), Y5
	VBROADCASTSS 8(R9), Y6
	VBROADCASTSS 12(R9), Y7
	LEAQ (R10)(R11*1), R13 // b1
	LEAQ (R13)(R11*1), BX  // b2
	LEAQ (BX)(R11*1), AX   // b3
	XORQ R12, R12          // j

mvec:
	CMPQ R12, R14
	JGT  mtail
	VMOVUPS (DI)(R12*4), Y8
	VMOVUPS (SI)(R12*4), Y9
	VMOVUPS (R10)(R12*4), Y12
	VMULPS  Y12, Y0, Y10
	VADDPS  Y10, Y8, Y8
	VMULPS  Y12, Y4, Y11
	VADDPS  Y11, Y9, Y9
	VMOVUPS (R13)(R12*4), Y12
	VMULPS  Y12, Y1, Y10
	VADDPS  Y10, Y8, Y8
	VMULPS  Y12, Y5, Y11
	VADDPS  Y11, Y9, Y9
	VMOVUPS (BX)(R12*4), Y12
	VMULPS  Y12, Y2, Y10
	VADDPS  Y10, Y8, Y8
	VMULPS  Y12, Y6, Y11
	VADDPS  Y11, Y9, Y9
	VMOVUPS (AX)(R12*4), Y12
	VMULPS  Y12, Y3, Y10
	VADDPS  Y10, Y8, Y8
	VMULPS  Y12, Y7, Y11
	VADDPS  Y11, Y9, Y9
	VMOVUPS Y8, (DI)(R12*4)
	VMOVUPS Y9, (SI)(R12*4)
	ADDQ    $8, R12
	JMP     mvec

mtail:
	CMPQ   R12, CX
	JGE    mnext
	VMOVSS (DI)(R12*4), X8
	VMOVSS (SI)(R12*4), X9
	VMOVSS (R10)(R12*4), X12
	VMULSS X12, X0, X10
	VADDSS X10, X8, X8
	VMULSS X12, X4, X11
	VADDSS X11, X9, X9
	VMOVSS (R13)(R12*4), X12
	VMULSS X12, X1, X10
	VADDSS X10, X8, X8
	VMULSS X12, X5, X11
	VADDSS X11, X9, X9
	VMOVSS (BX)(R12*4), X12
	VMULSS X12, X2, X10
	VADDSS X10, X8, X8
	VMULSS X12, X6, X11
	VADDSS X11, X9, X9
	VMOVSS (AX)(R12*4), X12
	VMULSS X12, X3, X10
	VADDSS X10, X8, X8
	VMULSS X12, X7, X11
	VADDSS X11, X9, X9
	VMOVSS X8, (DI)(R12*4)
	VMOVSS X9, (SI)(R12*4)
	INCQ   R12
	JMP    mtail

mnext:
	ADDQ $16, R8
	ADDQ $16, R9
	LEAQ (AX)(R11*1), R10 // the next block's b0 follows b3
	SUBQ $4, DX
	JMP  mblock

mdone:
	VZEROUPPER
	RET

// func spmmRowAVX(d *float32, n int, val *float32, idx *int32, nq int, b *float32)
//
// Entries in groups of four: d[j] = d[j] + w0*b[i0][j] + w1*b[i1][j] +
// w2*b[i2][j] + w3*b[i3][j], left to right; then the last nq mod 4 entries
// one at a time, d[j] = d[j] + w*b[i][j].
TEXT ·spmmRowAVX(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ val+16(FP), SI
	MOVQ idx+24(FP), R8
	MOVQ nq+32(FP), DX
	MOVQ b+40(FP), R9
	MOVQ CX, R11
	SHLQ $2, R11 // row stride in bytes
	MOVQ CX, R14
	SUBQ $8, R14

sblock:
	CMPQ DX, $4
	JLT  sone
	VBROADCASTSS 0(SI), Y0
	VBROADCASTSS 4(SI), Y1
	VBROADCASTSS 8(SI), Y2
	VBROADCASTSS 12(SI), Y3
	MOVLQSX 0(R8), R10
	IMULQ   R11, R10
	ADDQ    R9, R10
	MOVLQSX 4(R8), R13
	IMULQ   R11, R13
	ADDQ    R9, R13
	MOVLQSX 8(R8), BX
	IMULQ   R11, BX
	ADDQ    R9, BX
	MOVLQSX 12(R8), AX
	IMULQ   R11, AX
	ADDQ    R9, AX
	XORQ    R12, R12

svec:
	CMPQ    R12, R14
	JGT     stail
	VMOVUPS (DI)(R12*4), Y8
	VMULPS  (R10)(R12*4), Y0, Y10
	VADDPS  Y10, Y8, Y8
	VMULPS  (R13)(R12*4), Y1, Y11
	VADDPS  Y11, Y8, Y8
	VMULPS  (BX)(R12*4), Y2, Y10
	VADDPS  Y10, Y8, Y8
	VMULPS  (AX)(R12*4), Y3, Y11
	VADDPS  Y11, Y8, Y8
	VMOVUPS Y8, (DI)(R12*4)
	ADDQ    $8, R12
	JMP     svec

stail:
	CMPQ   R12, CX
	JGE    snext
	VMOVSS (DI)(R12*4), X8
	VMOVSS (R10)(R12*4), X12
	VMULSS X12, X0, X10
	VADDSS X10, X8, X8
	VMOVSS (R13)(R12*4), X12
	VMULSS X12, X1, X10
	VADDSS X10, X8, X8
	VMOVSS (BX)(R12*4), X12
	VMULSS X12, X2, X10
	VADDSS X10, X8, X8
	VMOVSS (AX)(R12*4), X12
	VMULSS X12, X3, X10
	VADDSS X10, X8, X8
	VMOVSS X8, (DI)(R12*4)
	INCQ   R12
	JMP    stail

snext:
	ADDQ $16, SI
	ADDQ $16, R8
	SUBQ $4, DX
	JMP  sblock

sone:
	TESTQ DX, DX
	JLE   sdone
	VBROADCASTSS 0(SI), Y0
	MOVLQSX 0(R8), R10
	IMULQ   R11, R10
	ADDQ    R9, R10
	XORQ    R12, R12

sonevec:
	CMPQ    R12, R14
	JGT     sonetail
	VMOVUPS (DI)(R12*4), Y8
	VMULPS  (R10)(R12*4), Y0, Y10
	VADDPS  Y10, Y8, Y8
	VMOVUPS Y8, (DI)(R12*4)
	ADDQ    $8, R12
	JMP     sonevec

sonetail:
	CMPQ   R12, CX
	JGE    sonenext
	VMOVSS (DI)(R12*4), X8
	VMOVSS (R10)(R12*4), X12
	VMULSS X12, X0, X10
	VADDSS X10, X8, X8
	VMOVSS X8, (DI)(R12*4)
	INCQ   R12
	JMP    sonetail

sonenext:
	ADDQ $4, SI
	ADDQ $4, R8
	DECQ DX
	JMP  sone

sdone:
	VZEROUPPER
	RET

// func axpyAVX(alpha float32, x, y *float32, n int)
//
// y[j] = y[j] + alpha*x[j].
TEXT ·axpyAVX(SB), NOSPLIT, $0-32
	VBROADCASTSS alpha+0(FP), Y0
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	MOVQ n+24(FP), CX
	MOVQ CX, R14
	SUBQ $16, R14
	XORQ R12, R12

avec2:
	CMPQ    R12, R14
	JGT     avec1
	VMOVUPS (DI)(R12*4), Y8
	VMOVUPS 32(DI)(R12*4), Y9
	VMULPS  (SI)(R12*4), Y0, Y10
	VMULPS  32(SI)(R12*4), Y0, Y11
	VADDPS  Y10, Y8, Y8
	VADDPS  Y11, Y9, Y9
	VMOVUPS Y8, (DI)(R12*4)
	VMOVUPS Y9, 32(DI)(R12*4)
	ADDQ    $16, R12
	JMP     avec2

avec1:
	ADDQ    $8, R14
	CMPQ    R12, R14
	JGT     atail
	VMOVUPS (DI)(R12*4), Y8
	VMULPS  (SI)(R12*4), Y0, Y10
	VADDPS  Y10, Y8, Y8
	VMOVUPS Y8, (DI)(R12*4)
	ADDQ    $8, R12

atail:
	CMPQ   R12, CX
	JGE    adone
	VMOVSS (DI)(R12*4), X8
	VMOVSS (SI)(R12*4), X12
	VMULSS X12, X0, X10
	VADDSS X10, X8, X8
	VMOVSS X8, (DI)(R12*4)
	INCQ   R12
	JMP    atail

adone:
	VZEROUPPER
	RET

// func dotAVX(a, b *float32, n int, s *[4]float32)
//
// The block loop of dotGo for n (a multiple of 8) elements: for each block
// of eight, s[l] = s[l] + (a[i+l]*b[i+l] + a[i+4+l]*b[i+4+l]) for lanes
// l = 0..3, from s = 0. The products are rounded (VMULPS), the upper half
// is added to the lower (the pairs of dotGo's lines), then to the lanes.
TEXT ·dotAVX(SB), NOSPLIT, $0-32
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	MOVQ   s+24(FP), DX
	VXORPS X0, X0, X0
	XORQ   R12, R12

dloop:
	CMPQ         R12, CX
	JGE          ddone
	VMOVUPS      (SI)(R12*4), Y1
	VMULPS       (DI)(R12*4), Y1, Y1
	VEXTRACTF128 $1, Y1, X2
	VADDPS       X2, X1, X1
	VADDPS       X1, X0, X0
	ADDQ         $8, R12
	JMP          dloop

ddone:
	VMOVUPS X0, (DX)
	VZEROUPPER
	RET

// func dot4AVX(a, b0, b1, b2, b3 *float32, n int, s *[16]float32)
//
// dotAVX for four vectors b0..b3 against the same a at once: s[4r:4r+4]
// are the four running sums of a·br, each lane through dotAVX's exact
// operations. The four sums are independent chains, so their additions
// overlap and each block of a is loaded once for the four.
TEXT ·dot4AVX(SB), NOSPLIT, $0-56
	MOVQ   a+0(FP), SI
	MOVQ   b0+8(FP), R8
	MOVQ   b1+16(FP), R9
	MOVQ   b2+24(FP), R10
	MOVQ   b3+32(FP), R11
	MOVQ   n+40(FP), CX
	MOVQ   s+48(FP), DX
	VXORPS X0, X0, X0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	VXORPS X3, X3, X3
	XORQ   R12, R12

d4loop:
	CMPQ         R12, CX
	JGE          d4done
	VMOVUPS      (SI)(R12*4), Y4
	VMULPS       (R8)(R12*4), Y4, Y5
	VMULPS       (R9)(R12*4), Y4, Y6
	VMULPS       (R10)(R12*4), Y4, Y7
	VMULPS       (R11)(R12*4), Y4, Y8
	VEXTRACTF128 $1, Y5, X9
	VEXTRACTF128 $1, Y6, X10
	VEXTRACTF128 $1, Y7, X11
	VEXTRACTF128 $1, Y8, X12
	VADDPS       X9, X5, X5
	VADDPS       X10, X6, X6
	VADDPS       X11, X7, X7
	VADDPS       X12, X8, X8
	VADDPS       X5, X0, X0
	VADDPS       X6, X1, X1
	VADDPS       X7, X2, X2
	VADDPS       X8, X3, X3
	ADDQ         $8, R12
	JMP          d4loop

d4done:
	VMOVUPS X0, (DX)
	VMOVUPS X1, 16(DX)
	VMOVUPS X2, 32(DX)
	VMOVUPS X3, 48(DX)
	VZEROUPPER
	RET

// func prefetch4(b0, b1, b2, b3 *float32, n int)
//
// Hints the cache lines of b0..b3 (n floats each, n > 0) into the cache.
// It computes nothing.
TEXT ·prefetch4(SB), NOSPLIT, $0-40
	MOVQ b0+0(FP), R8
	MOVQ b1+8(FP), R9
	MOVQ b2+16(FP), R10
	MOVQ b3+24(FP), R11
	MOVQ n+32(FP), CX
	SHLQ $2, CX
	XORQ R12, R12

pfloop:
	PREFETCHT0 (R8)(R12*1)
	PREFETCHT0 (R9)(R12*1)
	PREFETCHT0 (R10)(R12*1)
	PREFETCHT0 (R11)(R12*1)
	ADDQ       $64, R12
	CMPQ       R12, CX
	JLT        pfloop
	RET

// func scaleAVX(alpha float32, x, dst *float32, n int)
//
// dst[i] = alpha*x[i] for n (a multiple of 8) elements.
TEXT ·scaleAVX(SB), NOSPLIT, $0-32
	VBROADCASTSS alpha+0(FP), Y0
	MOVQ         x+8(FP), SI
	MOVQ         dst+16(FP), DI
	MOVQ         n+24(FP), CX
	XORQ         R12, R12

sloop:
	CMPQ    R12, CX
	JGE     sdone
	VMULPS  (SI)(R12*4), Y0, Y1
	VMOVUPS Y1, (DI)(R12*4)
	ADDQ    $8, R12
	JMP     sloop

sdone:
	VZEROUPPER
	RET
