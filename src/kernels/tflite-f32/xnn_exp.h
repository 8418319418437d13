/* Float32 EXP as TensorFlow Lite's default build (LiteRT, XNNPACK delegate) runs it, bit for bit
 *: XNNPACK's f32-vexp rational-3-2-div kernel as its WebAssembly SIMD build computes
 * it (no fused multiply-add):
 * - z' = x * log2(e), clamped to [-127, 128] by WebAssembly's f32x4.max / min, which turn a NaN
 *   into the canonical NaN: every NaN input gives -NaN (0xffc00000) on LiteRT.js (lead49,
 *   float_exp_range);
 * - z = (z' + 1.5 * 2^23) - 1.5 * 2^23 (z' rounded to an integer), r = z' - z;
 * - 2^z from the bits of z + (2^23 + 127) shifted left by 23 (2^-127 gives 0, 2^128 inf);
 * - p = (r * a3 + a2) * r + a1, then * r + 1; q = (r * b2 + b1) * r + 1 (Horner, each product
 *   and sum rounded);
 * - 2^z * (p / q).
 * Up to a few ulp from exp, subnormal results flushed to 0. Verified on LiteRT.js's outputs:
 * hybrid_probe_exp (512 values in [-12, 7]), exp_f32 and float_exp_range (5,605 values over
 * the whole float range, NaNs bit for bit): 0 differ (std::exp's plain build 361
 * and 19, the same kernel with fused multiply-adds 47 and 1). */
#ifndef TFCC_KERNELS_TFLITE_F32_XNN_EXP_H
#define TFCC_KERNELS_TFLITE_F32_XNN_EXP_H

#include <stddef.h>

float tfcc_xnn_exp_f32_one(float x);
void tfcc_xnn_exp_f32(const float *x, float *y, size_t n);

#endif
