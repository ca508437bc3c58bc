//go:build amd64 && !purego

#include "textflag.h"

// func Line(p unsafe.Pointer)
TEXT ·Line(SB), NOSPLIT, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func Range(p unsafe.Pointer, n int)
TEXT ·Range(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	ADDQ SI, CX // end of the bytes
rloop:
	PREFETCHT0 (SI)
	ADDQ $64, SI
	CMPQ SI, CX
	JB   rloop
	RET
