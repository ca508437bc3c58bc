//go:build amd64 && !purego

#include "textflag.h"

// func sigmoid4AVX(dst, x *float32, n int, c *[14][4]uint64, t *[32]float64) int
//
// Four lanes of Sigmoid, each through exactly Exp's float64 operations in
// Exp's order, every product rounded before the next add (VMULPD then
// VADDPD, never a fused multiply-add), then 1 + e, 1 / that, and the
// conversion to float32 (round to nearest, as Go converts). c's constants
// are read at their byte offsets (sigmoidConsts).
TEXT ·sigmoid4AVX(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	MOVQ t+32(FP), R9
	XORQ AX, AX
	VXORPD X7, X7, X7 // zero, the low halves of 2^e

loop:
	CMPQ AX, CX
	JGE  done
	VCVTPS2PD (SI)(AX*4), Y0 // x, exactly
	VXORPD    0(R8), Y0, Y0  // y = −x
	VANDPD    32(R8), Y0, Y1 // |y|
	VCMPPD    $2, 64(R8), Y1, Y1 // |y| <= 700, false for a NaN
	VMOVMSKPD Y1, BX
	CMPL      BX, $15
	JNE       done

	// n = floor(y·32/ln2 + 0.5); r = (y − n·ln2Hi/32) − n·ln2Lo/32
	VMULPD   96(R8), Y0, Y1
	VADDPD   128(R8), Y1, Y1
	VROUNDPD $1, Y1, Y1
	VMULPD   160(R8), Y1, Y2
	VSUBPD   Y2, Y0, Y2
	VMULPD   192(R8), Y1, Y3
	VSUBPD   Y3, Y2, Y2

	// p = r·(r·(r·(r·(r·(r/720 + 1/120) + 1/24) + 1/6) + 1/2) + 1)
	VMULPD 224(R8), Y2, Y3
	VADDPD 256(R8), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD 288(R8), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD 320(R8), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD 128(R8), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD 352(R8), Y3, Y3
	VMULPD Y2, Y3, Y3

	// j = n mod 32; 2^e for e = (n − j)/32, built from its exponent bits
	VCVTTPD2DQY Y1, X4
	VPAND       384(R8), X4, X5
	VPSUBD      X5, X4, X4
	VPSRAD      $5, X4, X4
	VPADDD      416(R8), X4, X4
	VPSLLD      $20, X4, X4
	VPUNPCKLDQ  X4, X7, X6
	VPUNPCKHDQ  X4, X7, X4
	VINSERTF128 $1, X4, Y6, Y6

	// t = 2^(j/32) from the table, lane by lane
	VMOVD       X5, BX
	VPEXTRD     $1, X5, DX
	VMOVSD      (R9)(BX*8), X4
	VMOVHPD     (R9)(DX*8), X4, X4
	VPEXTRD     $2, X5, BX
	VPEXTRD     $3, X5, DX
	VMOVSD      (R9)(BX*8), X1
	VMOVHPD     (R9)(DX*8), X1, X1
	VINSERTF128 $1, X1, Y4, Y4

	// e^y = (t + t·p)·2^e; the sigmoid 1 / (1 + e^y), to float32
	VMULPD     Y3, Y4, Y3
	VADDPD     Y3, Y4, Y3
	VMULPD     Y6, Y3, Y3
	VADDPD     352(R8), Y3, Y3
	VMOVUPD    352(R8), Y4
	VDIVPD     Y3, Y4, Y3
	VCVTPD2PSY Y3, X3
	VMOVUPS    X3, (DI)(AX*4)
	ADDQ       $4, AX
	JMP        loop

done:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET
