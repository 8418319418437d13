/* Fast QUANTIZE / DEQUANTIZE element kernels, vectorised, one file per ISA variant behind a
 * dispatch table; bit-identical to kernels/ref/quantize.c:
 *   f32 -> q8, XNNPACK (TFCC_QUANT_COMPAT_TFLITE): x * inv_scale, clamped in float to
 *       [qmin - zp, qmax - zp] (NaN -> qmin - zp, as fmaxf), rounded half to even by adding and
 *       subtracting 1.5 * 2^23 (exact for the clamped range, same rounding mode as lrintf), + zp;
 *   f32 -> q8/q16, TFLite builtin: x / scale in double (optimized_ops::AffineQuantize; a NaN
 *       becomes 0, i.e. the zero point), clamped to
 *       one beyond the representable range, rounded half away from zero as trunc plus the
 *       fraction's sign when |fraction| >= 0.5 (the same as roundf on the clamped range), + zp,
 *       clamped;
 *   q -> f32: scale * (float)(q - zp) in float, which equals the reference's
 *       (float)((double)scale * (q - zp)) because the double product is exact.
 *   q8 -> same q8, XNNPACK: (bias + x * mult) >> 8 in int32 (no overflow: |x * mult| < 2^24);
 * other 8-bit -> 8/16-bit requantizations use a 256-entry table built from the reference
 * element (tfcc_qz_lut_build / tfcc_qz_lut_apply), exact by construction. Per-axis and float16 stay
 * on the reference kernels. */
#ifndef TFCC_KERNELS_QUANTIZE_QUANTIZE_H
#define TFCC_KERNELS_QUANTIZE_QUANTIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* ot: uint8 | int8. */
typedef void (*tfcc_qz_xnn_fn)(const float *in, void *out, size_t n, float inv_scale, int32_t zp,
                               tfcc_dtype ot);
/* ot: uint8 | int8 | int16. */
typedef void (*tfcc_qz_ref_fn)(const float *in, void *out, size_t n, float scale, int32_t zp,
                               tfcc_dtype ot);
/* XNNPACK q8 -> q8 of one type t (uint8 | int8): (bias + x * mult) >> 8 (arithmetic), clamped,
 * bias = (out_zp << 8) - mult * in_zp + 0x80 (tfcc_xnn_requantize_q8). */
typedef void (*tfcc_rqz_xnn_fn)(const void *in, void *out, size_t n, int32_t mult, int32_t in_zp,
                                int32_t out_zp, tfcc_dtype t);
/* it: uint8 | int8 | int16. */
typedef void (*tfcc_dqz_fn)(const void *in, float *out, size_t n, float scale, int32_t zp,
                            tfcc_dtype it);

typedef struct tfcc_qz_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_qz_xnn_fn quantize_xnn;
  tfcc_qz_ref_fn quantize_ref;
  tfcc_dqz_fn dequantize;
  tfcc_rqz_xnn_fn requantize_xnn;
} tfcc_qz_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_qz, tfcc_qz_kernel);
bool tfcc_qz_usable(const tfcc_qz_kernel *k, tfcc_isa isa);

struct tfcc_threadpool;
/* Whole tensors, split over the pool in chunks when large enough. */
void tfcc_qz_quantize_xnn(struct tfcc_threadpool *pool, const tfcc_qz_kernel *k, const float *in,
                          void *out, size_t n, float inv_scale, int32_t zp, tfcc_dtype ot);
void tfcc_qz_quantize_ref(struct tfcc_threadpool *pool, const tfcc_qz_kernel *k, const float *in,
                          void *out, size_t n, float scale, int32_t zp, tfcc_dtype ot);
void tfcc_qz_dequantize(struct tfcc_threadpool *pool, const tfcc_qz_kernel *k, const void *in,
                        float *out, size_t n, float scale, int32_t zp, tfcc_dtype it);
void tfcc_qz_requantize_xnn(struct tfcc_threadpool *pool, const tfcc_qz_kernel *k, const void *in,
                            void *out, size_t n, int32_t mult, int32_t in_zp, int32_t out_zp,
                            tfcc_dtype t);

/* Requantization table of an 8-bit input type: table[b] is the output (of type ot, uint8 |
 * int8 | int16) for the input byte b. */
typedef struct tfcc_qz_lut {
  tfcc_dtype in_type, out_type;
  int16_t v[256];
} tfcc_qz_lut;
/* xnn: XNNPACK's q8 -> q8 (mult = lrintf(256 * s_in / s_out); in_type == out_type), else
 * the builtin MultiplyByQuantizedMultiplier(x - in_zp, mult, shift) + out_zp. */
void tfcc_qz_lut_build(tfcc_qz_lut *t, tfcc_dtype in_type, tfcc_dtype out_type, bool xnn,
                       int32_t mult, int shift, int32_t in_zp, int32_t out_zp);
void tfcc_qz_lut_apply(const tfcc_qz_lut *t, const void *in, void *out, size_t n);

#define TFCC_QZ_DECL(isa) \
  void tfcc_qz_xnn_##isa(const float *in, void *out, size_t n, float inv_scale, int32_t zp, \
                         tfcc_dtype ot); \
  void tfcc_qz_ref_##isa(const float *in, void *out, size_t n, float scale, int32_t zp, \
                         tfcc_dtype ot); \
  void tfcc_dqz_##isa(const void *in, float *out, size_t n, float scale, int32_t zp, \
                      tfcc_dtype it); \
  void tfcc_rqz_xnn_##isa(const void *in, void *out, size_t n, int32_t mult, int32_t in_zp, \
                          int32_t out_zp, tfcc_dtype t)
TFCC_QZ_DECL(avx512);
TFCC_QZ_DECL(avx2);
TFCC_QZ_DECL(sse4);
TFCC_QZ_DECL(neon);
TFCC_QZ_DECL(wasmsimd);
TFCC_QZ_DECL(scalar);

#endif
