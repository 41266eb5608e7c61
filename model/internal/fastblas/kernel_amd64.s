//go:build !purego

#include "textflag.h"

// The micro-kernels: C[0:4, 0:w] += alpha * A[0:4, 0:k] · B[0:k, 0:w] (or =,
// when add is false: beta = 0 needs no pass clearing C first), with
// w = 8 float64s or 16 float32s (two YMM registers per row of C). A is read
// by its row and column strides in bytes (rs, cs), so a transposed A needs
// no copy; B's rows are contiguous w-wide panels ldb bytes apart; C's rows
// are ldc bytes apart. The eight accumulators Y0-Y7 hold the 4 x w block;
// every k adds one FMA per register, in the order k = 0, 1, ..., so the
// rounding is that of a plain loop over k with one rounding per step.

// func kern4x8f64(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, alpha float64, add bool)
TEXT ·kern4x8f64(SB), NOSPLIT, $0-73
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rs+16(FP), R8
	MOVQ cs+24(FP), R9
	MOVQ b+32(FP), DI
	MOVQ ldb+40(FP), R10
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R11
	LEAQ (R8)(R8*2), R12
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ CX, CX
	JEQ   store64

loop64:
	VMOVUPD      (DI), Y8
	VMOVUPD      32(DI), Y9
	VBROADCASTSD (SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD (SI)(R8*1), Y11
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VBROADCASTSD (SI)(R8*2), Y12
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VBROADCASTSD (SI)(R12*1), Y13
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         R9, SI
	ADDQ         R10, DI
	DECQ         CX
	JNZ          loop64

store64:
	VBROADCASTSD alpha+64(FP), Y14
	MOVBLZX      add+72(FP), AX
	TESTQ        AX, AX
	JEQ          overwrite64
	VMOVUPD      (DX), Y8
	VMOVUPD      32(DX), Y9
	VFMADD231PD  Y0, Y14, Y8
	VFMADD231PD  Y1, Y14, Y9
	VMOVUPD      Y8, (DX)
	VMOVUPD      Y9, 32(DX)
	ADDQ         R11, DX
	VMOVUPD      (DX), Y8
	VMOVUPD      32(DX), Y9
	VFMADD231PD  Y2, Y14, Y8
	VFMADD231PD  Y3, Y14, Y9
	VMOVUPD      Y8, (DX)
	VMOVUPD      Y9, 32(DX)
	ADDQ         R11, DX
	VMOVUPD      (DX), Y8
	VMOVUPD      32(DX), Y9
	VFMADD231PD  Y4, Y14, Y8
	VFMADD231PD  Y5, Y14, Y9
	VMOVUPD      Y8, (DX)
	VMOVUPD      Y9, 32(DX)
	ADDQ         R11, DX
	VMOVUPD      (DX), Y8
	VMOVUPD      32(DX), Y9
	VFMADD231PD  Y6, Y14, Y8
	VFMADD231PD  Y7, Y14, Y9
	VMOVUPD      Y8, (DX)
	VMOVUPD      Y9, 32(DX)
	VZEROUPPER
	RET

overwrite64:
	VMULPD        Y0, Y14, Y0
	VMULPD        Y1, Y14, Y1
	VMOVUPD      Y0, (DX)
	VMOVUPD      Y1, 32(DX)
	ADDQ         R11, DX
	VMULPD        Y2, Y14, Y2
	VMULPD        Y3, Y14, Y3
	VMOVUPD      Y2, (DX)
	VMOVUPD      Y3, 32(DX)
	ADDQ         R11, DX
	VMULPD        Y4, Y14, Y4
	VMULPD        Y5, Y14, Y5
	VMOVUPD      Y4, (DX)
	VMOVUPD      Y5, 32(DX)
	ADDQ         R11, DX
	VMULPD        Y6, Y14, Y6
	VMULPD        Y7, Y14, Y7
	VMOVUPD      Y6, (DX)
	VMOVUPD      Y7, 32(DX)
	VZEROUPPER
	RET

// func kern4x16f32(k int, a *float32, rs, cs int, b *float32, ldb int, c *float32, ldc int, alpha float32, add bool)
TEXT ·kern4x16f32(SB), NOSPLIT, $0-69
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rs+16(FP), R8
	MOVQ cs+24(FP), R9
	MOVQ b+32(FP), DI
	MOVQ ldb+40(FP), R10
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R11
	LEAQ (R8)(R8*2), R12
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JEQ   store32

loop32:
	VMOVUPS      (DI), Y8
	VMOVUPS      32(DI), Y9
	VBROADCASTSS (SI), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VBROADCASTSS (SI)(R8*1), Y11
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VBROADCASTSS (SI)(R8*2), Y12
	VFMADD231PS  Y8, Y12, Y4
	VFMADD231PS  Y9, Y12, Y5
	VBROADCASTSS (SI)(R12*1), Y13
	VFMADD231PS  Y8, Y13, Y6
	VFMADD231PS  Y9, Y13, Y7
	ADDQ         R9, SI
	ADDQ         R10, DI
	DECQ         CX
	JNZ          loop32

store32:
	VBROADCASTSS alpha+64(FP), Y14
	MOVBLZX      add+68(FP), AX
	TESTQ        AX, AX
	JEQ          overwrite32
	VMOVUPS      (DX), Y8
	VMOVUPS      32(DX), Y9
	VFMADD231PS  Y0, Y14, Y8
	VFMADD231PS  Y1, Y14, Y9
	VMOVUPS      Y8, (DX)
	VMOVUPS      Y9, 32(DX)
	ADDQ         R11, DX
	VMOVUPS      (DX), Y8
	VMOVUPS      32(DX), Y9
	VFMADD231PS  Y2, Y14, Y8
	VFMADD231PS  Y3, Y14, Y9
	VMOVUPS      Y8, (DX)
	VMOVUPS      Y9, 32(DX)
	ADDQ         R11, DX
	VMOVUPS      (DX), Y8
	VMOVUPS      32(DX), Y9
	VFMADD231PS  Y4, Y14, Y8
	VFMADD231PS  Y5, Y14, Y9
	VMOVUPS      Y8, (DX)
	VMOVUPS      Y9, 32(DX)
	ADDQ         R11, DX
	VMOVUPS      (DX), Y8
	VMOVUPS      32(DX), Y9
	VFMADD231PS  Y6, Y14, Y8
	VFMADD231PS  Y7, Y14, Y9
	VMOVUPS      Y8, (DX)
	VMOVUPS      Y9, 32(DX)
	VZEROUPPER
	RET

overwrite32:
	VMULPS        Y0, Y14, Y0
	VMULPS        Y1, Y14, Y1
	VMOVUPS      Y0, (DX)
	VMOVUPS      Y1, 32(DX)
	ADDQ         R11, DX
	VMULPS        Y2, Y14, Y2
	VMULPS        Y3, Y14, Y3
	VMOVUPS      Y2, (DX)
	VMOVUPS      Y3, 32(DX)
	ADDQ         R11, DX
	VMULPS        Y4, Y14, Y4
	VMULPS        Y5, Y14, Y5
	VMOVUPS      Y4, (DX)
	VMOVUPS      Y5, 32(DX)
	ADDQ         R11, DX
	VMULPS        Y6, Y14, Y6
	VMULPS        Y7, Y14, Y7
	VMOVUPS      Y6, (DX)
	VMOVUPS      Y7, 32(DX)
	VZEROUPPER
	RET
