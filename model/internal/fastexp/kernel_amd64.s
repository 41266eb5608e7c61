//go:build !purego

#include "textflag.h"

// exp over 4 float64s (exp64AVX2) or 8 float32s (exp32AVX2) per step: the
// lanes of fastexp.go's exp64 and exp32, operation for operation, each a
// single VEX multiply, add, subtract, divide or round (no FMA), so every
// lane gets the portable path's bits. Instead of branching, a lane is
// computed on x clamped to [underflow, overflow] (a NaN lane on overflow)
// and set to 0 where x < underflow (a clamped -745.13 would make a subnormal
// product, which costs Intel CPUs a microcode assist of ~100 cycles, and
// softmax feeds masked entries of -1e9), then x > overflow is replaced by
// +Inf, x < underflow by 0 and a NaN by x.
// Go's operand order: VSUBPD b, a, d is d = a - b; VBLENDVPD m, s, a, d is
// d = m ? s : a; VCMPPD $p, b, a, d is d = a <p> b.

// func exp64AVX2(out, x *float64, n int)
TEXT ·exp64AVX2(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX

loop64:
	VMOVUPD (SI), Y0                   // x
	VMINPD  over64<>(SB), Y0, Y1
	VMAXPD  under64<>(SB), Y1, Y1      // x clamped
	VCMPPD  $0x11, under64<>(SB), Y0, Y12 // x < underflow (LT_OQ)
	VANDNPD Y1, Y12, Y1                // xc = 0 there: no subnormal on the way
	VMULPD  log2e64<>(SB), Y1, Y2
	VROUNDPD $0, Y2, Y2                // k = roundToEven(xc·log2e)
	VMULPD  ln2hi64<>(SB), Y2, Y3
	VSUBPD  Y3, Y1, Y3                 // hi = xc - k·ln2hi
	VMULPD  ln2lo64<>(SB), Y2, Y4      // lo = k·ln2lo
	VSUBPD  Y4, Y3, Y5                 // r = hi - lo
	VMULPD  Y5, Y5, Y6                 // t = r·r
	VMULPD  p564<>(SB), Y6, Y7
	VADDPD  p464<>(SB), Y7, Y7         // p = P4 + t·P5
	VMULPD  Y7, Y6, Y7
	VADDPD  p364<>(SB), Y7, Y7         // p = P3 + t·p
	VMULPD  Y7, Y6, Y7
	VADDPD  p264<>(SB), Y7, Y7         // p = P2 + t·p
	VMULPD  Y7, Y6, Y7
	VADDPD  p164<>(SB), Y7, Y7         // p = P1 + t·p
	VMULPD  Y7, Y6, Y7
	VSUBPD  Y7, Y5, Y7                 // c = r - t·p
	VMULPD  Y7, Y5, Y8                 // r·c
	VMOVUPD two64<>(SB), Y9
	VSUBPD  Y7, Y9, Y9                 // 2 - c
	VDIVPD  Y9, Y8, Y8                 // r·c/(2 - c)
	VSUBPD  Y8, Y4, Y8                 // lo - r·c/(2 - c)
	VSUBPD  Y3, Y8, Y8                 // ... - hi
	VMOVUPD one64<>(SB), Y9
	VSUBPD  Y8, Y9, Y8                 // y = 1 - (...)
	VCVTPD2DQY Y2, X10                 // k as int32
	VPSRAD  $1, X10, X11               // k1 = k>>1
	VPSUBD  X11, X10, X10              // k2 = k - k1
	VPADDD  bias64<>(SB), X11, X11
	VPADDD  bias64<>(SB), X10, X10
	VPMOVZXDQ X11, Y11
	VPMOVZXDQ X10, Y10
	VPSLLQ  $52, Y11, Y11              // 2^k1
	VPSLLQ  $52, Y10, Y10              // 2^k2
	VMULPD  Y11, Y8, Y8                // exact
	VMULPD  Y10, Y8, Y8                // one rounding (to a subnormal)
	VCMPPD  $0x1e, over64<>(SB), Y0, Y13 // x > overflow (GT_OQ)
	VBLENDVPD Y13, inf64<>(SB), Y8, Y8
	VANDNPD Y8, Y12, Y8                // 0 where x < underflow
	VCMPPD  $3, Y0, Y0, Y13            // x is NaN (UNORD_Q)
	VBLENDVPD Y13, Y0, Y8, Y8
	VMOVUPD Y8, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $4, CX
	JNZ     loop64
	VZEROUPPER
	RET

// func exp32AVX2(out, x *float32, n int)
TEXT ·exp32AVX2(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX

loop32:
	VMOVUPS (SI), Y0                   // x
	VMINPS  over32<>(SB), Y0, Y1
	VMAXPS  under32<>(SB), Y1, Y1
	VCMPPS  $0x11, under32<>(SB), Y0, Y12
	VANDNPS Y1, Y12, Y1                // xc
	VMULPS  log2e32<>(SB), Y1, Y2
	VROUNDPS $0, Y2, Y2                // k
	VMULPS  ln2hi32<>(SB), Y2, Y3
	VSUBPS  Y3, Y1, Y3                 // hi
	VMULPS  ln2lo32<>(SB), Y2, Y4      // lo
	VSUBPS  Y4, Y3, Y5                 // r
	VMULPS  Y5, Y5, Y6                 // t
	VMULPS  p232<>(SB), Y6, Y7
	VADDPS  p132<>(SB), Y7, Y7         // P1 + t·P2
	VMULPS  Y7, Y6, Y7
	VSUBPS  Y7, Y5, Y7                 // c
	VMULPS  Y7, Y5, Y8                 // r·c
	VMOVUPS two32<>(SB), Y9
	VSUBPS  Y7, Y9, Y9                 // 2 - c
	VDIVPS  Y9, Y8, Y8
	VSUBPS  Y8, Y4, Y8
	VSUBPS  Y3, Y8, Y8
	VMOVUPS one32<>(SB), Y9
	VSUBPS  Y8, Y9, Y8                 // y
	VCVTPS2DQ Y2, Y10                  // k as int32
	VPSRAD  $1, Y10, Y11               // k1
	VPSUBD  Y11, Y10, Y10              // k2
	VPADDD  bias32<>(SB), Y11, Y11
	VPADDD  bias32<>(SB), Y10, Y10
	VPSLLD  $23, Y11, Y11              // 2^k1
	VPSLLD  $23, Y10, Y10              // 2^k2
	VMULPS  Y11, Y8, Y8
	VMULPS  Y10, Y8, Y8
	VCMPPS  $0x1e, over32<>(SB), Y0, Y13
	VBLENDVPS Y13, inf32<>(SB), Y8, Y8
	VANDNPS Y8, Y12, Y8
	VCMPPS  $3, Y0, Y0, Y13
	VBLENDVPS Y13, Y0, Y8, Y8
	VMOVUPS Y8, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     loop32
	VZEROUPPER
	RET

// The constants, one per lane.
DATA ln2hi64<>+0(SB)/8, $0x3fe62e42fee00000
DATA ln2hi64<>+8(SB)/8, $0x3fe62e42fee00000
DATA ln2hi64<>+16(SB)/8, $0x3fe62e42fee00000
DATA ln2hi64<>+24(SB)/8, $0x3fe62e42fee00000
GLOBL ln2hi64<>(SB), RODATA|NOPTR, $32
DATA ln2lo64<>+0(SB)/8, $0x3dea39ef35793c76
DATA ln2lo64<>+8(SB)/8, $0x3dea39ef35793c76
DATA ln2lo64<>+16(SB)/8, $0x3dea39ef35793c76
DATA ln2lo64<>+24(SB)/8, $0x3dea39ef35793c76
GLOBL ln2lo64<>(SB), RODATA|NOPTR, $32
DATA log2e64<>+0(SB)/8, $0x3ff71547652b82fe
DATA log2e64<>+8(SB)/8, $0x3ff71547652b82fe
DATA log2e64<>+16(SB)/8, $0x3ff71547652b82fe
DATA log2e64<>+24(SB)/8, $0x3ff71547652b82fe
GLOBL log2e64<>(SB), RODATA|NOPTR, $32
DATA over64<>+0(SB)/8, $0x40862e42fefa39ef
DATA over64<>+8(SB)/8, $0x40862e42fefa39ef
DATA over64<>+16(SB)/8, $0x40862e42fefa39ef
DATA over64<>+24(SB)/8, $0x40862e42fefa39ef
GLOBL over64<>(SB), RODATA|NOPTR, $32
DATA under64<>+0(SB)/8, $0xc0874910d52d3051
DATA under64<>+8(SB)/8, $0xc0874910d52d3051
DATA under64<>+16(SB)/8, $0xc0874910d52d3051
DATA under64<>+24(SB)/8, $0xc0874910d52d3051
GLOBL under64<>(SB), RODATA|NOPTR, $32
DATA p164<>+0(SB)/8, $0x3fc5555555555555
DATA p164<>+8(SB)/8, $0x3fc5555555555555
DATA p164<>+16(SB)/8, $0x3fc5555555555555
DATA p164<>+24(SB)/8, $0x3fc5555555555555
GLOBL p164<>(SB), RODATA|NOPTR, $32
DATA p264<>+0(SB)/8, $0xbf66c16c16bebd93
DATA p264<>+8(SB)/8, $0xbf66c16c16bebd93
DATA p264<>+16(SB)/8, $0xbf66c16c16bebd93
DATA p264<>+24(SB)/8, $0xbf66c16c16bebd93
GLOBL p264<>(SB), RODATA|NOPTR, $32
DATA p364<>+0(SB)/8, $0x3f11566aaf25de2c
DATA p364<>+8(SB)/8, $0x3f11566aaf25de2c
DATA p364<>+16(SB)/8, $0x3f11566aaf25de2c
DATA p364<>+24(SB)/8, $0x3f11566aaf25de2c
GLOBL p364<>(SB), RODATA|NOPTR, $32
DATA p464<>+0(SB)/8, $0xbebbbd41c5d26bf1
DATA p464<>+8(SB)/8, $0xbebbbd41c5d26bf1
DATA p464<>+16(SB)/8, $0xbebbbd41c5d26bf1
DATA p464<>+24(SB)/8, $0xbebbbd41c5d26bf1
GLOBL p464<>(SB), RODATA|NOPTR, $32
DATA p564<>+0(SB)/8, $0x3e66376972bea4d0
DATA p564<>+8(SB)/8, $0x3e66376972bea4d0
DATA p564<>+16(SB)/8, $0x3e66376972bea4d0
DATA p564<>+24(SB)/8, $0x3e66376972bea4d0
GLOBL p564<>(SB), RODATA|NOPTR, $32
DATA one64<>+0(SB)/8, $0x3ff0000000000000
DATA one64<>+8(SB)/8, $0x3ff0000000000000
DATA one64<>+16(SB)/8, $0x3ff0000000000000
DATA one64<>+24(SB)/8, $0x3ff0000000000000
GLOBL one64<>(SB), RODATA|NOPTR, $32
DATA two64<>+0(SB)/8, $0x4000000000000000
DATA two64<>+8(SB)/8, $0x4000000000000000
DATA two64<>+16(SB)/8, $0x4000000000000000
DATA two64<>+24(SB)/8, $0x4000000000000000
GLOBL two64<>(SB), RODATA|NOPTR, $32
DATA inf64<>+0(SB)/8, $0x7ff0000000000000
DATA inf64<>+8(SB)/8, $0x7ff0000000000000
DATA inf64<>+16(SB)/8, $0x7ff0000000000000
DATA inf64<>+24(SB)/8, $0x7ff0000000000000
GLOBL inf64<>(SB), RODATA|NOPTR, $32
DATA bias64<>+0(SB)/4, $0x3ff
DATA bias64<>+4(SB)/4, $0x3ff
DATA bias64<>+8(SB)/4, $0x3ff
DATA bias64<>+12(SB)/4, $0x3ff
GLOBL bias64<>(SB), RODATA|NOPTR, $16
DATA ln2hi32<>+0(SB)/4, $0x3f317200
DATA ln2hi32<>+4(SB)/4, $0x3f317200
DATA ln2hi32<>+8(SB)/4, $0x3f317200
DATA ln2hi32<>+12(SB)/4, $0x3f317200
DATA ln2hi32<>+16(SB)/4, $0x3f317200
DATA ln2hi32<>+20(SB)/4, $0x3f317200
DATA ln2hi32<>+24(SB)/4, $0x3f317200
DATA ln2hi32<>+28(SB)/4, $0x3f317200
GLOBL ln2hi32<>(SB), RODATA|NOPTR, $32
DATA ln2lo32<>+0(SB)/4, $0x35bfbe8e
DATA ln2lo32<>+4(SB)/4, $0x35bfbe8e
DATA ln2lo32<>+8(SB)/4, $0x35bfbe8e
DATA ln2lo32<>+12(SB)/4, $0x35bfbe8e
DATA ln2lo32<>+16(SB)/4, $0x35bfbe8e
DATA ln2lo32<>+20(SB)/4, $0x35bfbe8e
DATA ln2lo32<>+24(SB)/4, $0x35bfbe8e
DATA ln2lo32<>+28(SB)/4, $0x35bfbe8e
GLOBL ln2lo32<>(SB), RODATA|NOPTR, $32
DATA log2e32<>+0(SB)/4, $0x3fb8aa3b
DATA log2e32<>+4(SB)/4, $0x3fb8aa3b
DATA log2e32<>+8(SB)/4, $0x3fb8aa3b
DATA log2e32<>+12(SB)/4, $0x3fb8aa3b
DATA log2e32<>+16(SB)/4, $0x3fb8aa3b
DATA log2e32<>+20(SB)/4, $0x3fb8aa3b
DATA log2e32<>+24(SB)/4, $0x3fb8aa3b
DATA log2e32<>+28(SB)/4, $0x3fb8aa3b
GLOBL log2e32<>(SB), RODATA|NOPTR, $32
DATA over32<>+0(SB)/4, $0x42b17217
DATA over32<>+4(SB)/4, $0x42b17217
DATA over32<>+8(SB)/4, $0x42b17217
DATA over32<>+12(SB)/4, $0x42b17217
DATA over32<>+16(SB)/4, $0x42b17217
DATA over32<>+20(SB)/4, $0x42b17217
DATA over32<>+24(SB)/4, $0x42b17217
DATA over32<>+28(SB)/4, $0x42b17217
GLOBL over32<>(SB), RODATA|NOPTR, $32
DATA under32<>+0(SB)/4, $0xc2cff1b5
DATA under32<>+4(SB)/4, $0xc2cff1b5
DATA under32<>+8(SB)/4, $0xc2cff1b5
DATA under32<>+12(SB)/4, $0xc2cff1b5
DATA under32<>+16(SB)/4, $0xc2cff1b5
DATA under32<>+20(SB)/4, $0xc2cff1b5
DATA under32<>+24(SB)/4, $0xc2cff1b5
DATA under32<>+28(SB)/4, $0xc2cff1b5
GLOBL under32<>(SB), RODATA|NOPTR, $32
DATA p132<>+0(SB)/4, $0x3e2aaa8f
DATA p132<>+4(SB)/4, $0x3e2aaa8f
DATA p132<>+8(SB)/4, $0x3e2aaa8f
DATA p132<>+12(SB)/4, $0x3e2aaa8f
DATA p132<>+16(SB)/4, $0x3e2aaa8f
DATA p132<>+20(SB)/4, $0x3e2aaa8f
DATA p132<>+24(SB)/4, $0x3e2aaa8f
DATA p132<>+28(SB)/4, $0x3e2aaa8f
GLOBL p132<>(SB), RODATA|NOPTR, $32
DATA p232<>+0(SB)/4, $0xbb355215
DATA p232<>+4(SB)/4, $0xbb355215
DATA p232<>+8(SB)/4, $0xbb355215
DATA p232<>+12(SB)/4, $0xbb355215
DATA p232<>+16(SB)/4, $0xbb355215
DATA p232<>+20(SB)/4, $0xbb355215
DATA p232<>+24(SB)/4, $0xbb355215
DATA p232<>+28(SB)/4, $0xbb355215
GLOBL p232<>(SB), RODATA|NOPTR, $32
DATA one32<>+0(SB)/4, $0x3f800000
DATA one32<>+4(SB)/4, $0x3f800000
DATA one32<>+8(SB)/4, $0x3f800000
DATA one32<>+12(SB)/4, $0x3f800000
DATA one32<>+16(SB)/4, $0x3f800000
DATA one32<>+20(SB)/4, $0x3f800000
DATA one32<>+24(SB)/4, $0x3f800000
DATA one32<>+28(SB)/4, $0x3f800000
GLOBL one32<>(SB), RODATA|NOPTR, $32
DATA two32<>+0(SB)/4, $0x40000000
DATA two32<>+4(SB)/4, $0x40000000
DATA two32<>+8(SB)/4, $0x40000000
DATA two32<>+12(SB)/4, $0x40000000
DATA two32<>+16(SB)/4, $0x40000000
DATA two32<>+20(SB)/4, $0x40000000
DATA two32<>+24(SB)/4, $0x40000000
DATA two32<>+28(SB)/4, $0x40000000
GLOBL two32<>(SB), RODATA|NOPTR, $32
DATA inf32<>+0(SB)/4, $0x7f800000
DATA inf32<>+4(SB)/4, $0x7f800000
DATA inf32<>+8(SB)/4, $0x7f800000
DATA inf32<>+12(SB)/4, $0x7f800000
DATA inf32<>+16(SB)/4, $0x7f800000
DATA inf32<>+20(SB)/4, $0x7f800000
DATA inf32<>+24(SB)/4, $0x7f800000
DATA inf32<>+28(SB)/4, $0x7f800000
GLOBL inf32<>(SB), RODATA|NOPTR, $32
DATA bias32<>+0(SB)/4, $0x7f
DATA bias32<>+4(SB)/4, $0x7f
DATA bias32<>+8(SB)/4, $0x7f
DATA bias32<>+12(SB)/4, $0x7f
DATA bias32<>+16(SB)/4, $0x7f
DATA bias32<>+20(SB)/4, $0x7f
DATA bias32<>+24(SB)/4, $0x7f
DATA bias32<>+28(SB)/4, $0x7f
GLOBL bias32<>(SB), RODATA|NOPTR, $32
