/* Fast SOFTMAX over the last dimension (rows of `depth`).
 *
 * float32: one file per ISA variant behind a dispatch table, every one with the reference's
 *   bits (the same bits at every ISA cap; tfweb's, the classic interpreter's Eigen
 *   softmax): per row the maximum, e = expf((x - max) * beta) by the C library's algorithm in
 *   vector lanes (kernels/tflite-f32's expf), the sum in element order over four rows side by
 *   side, then times 1 / sum. beta < 0 or NaN: the reference runs. The scalar variant is the
 *   reference. (ops/softmax.c runs beta 1 through XNNPACK's softmax instead, as TFLite does.)
 *
 * 8-bit (uint8 -> uint8, int8 -> int8): byte-identical to tfcc_softmax_q8 (TFLite's optimized
 *   kernel: float table of exp(-input_scale * beta * (max - x)), float sum in element order,
 *   quantized probability). The sum stays sequential (float addition does not reassociate)
 *   but runs four rows interleaved; per row the probability depends on the byte alone, so
 *   rows longer than the value range get a byte table of the quantized outputs, computed with
 *   the reference's expressions for the values between the row's minimum and maximum, and
 *   applied by the q8-lut kernel; vectorised over rows (tfcc_q8_softmax_run below). int16
 *   output stays on the reference.
 *
 * int16 -> int16: see tfcc_q16_softmax_run below. */
#ifndef TFCC_KERNELS_SOFTMAX_SOFTMAX_H
#define TFCC_KERNELS_SOFTMAX_SOFTMAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/q8-lut/lut.h"
#include "kernels/ref/softmax.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* rows rows of depth: out[c] = softmax(in[0..depth) * beta)[c], beta >= 0. */
typedef void (*tfcc_f32_softmax_fn)(const float *in, float *out, size_t rows, size_t depth,
                                    float beta);

typedef struct tfcc_f32_softmax_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_f32_softmax_fn fn;
} tfcc_f32_softmax_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_f32_softmax, tfcc_f32_softmax_kernel);

struct tfcc_threadpool;
/* outer rows, split over pool when large; beta < 0 or NaN runs the reference. */
void tfcc_f32_softmax_run(struct tfcc_threadpool *pool, const tfcc_f32_softmax_kernel *k,
                          const float *in, float *out, size_t outer, size_t depth, float beta);

/* The tasks a row split of outer x depth takes on pool (16K elements or more each, at most 4 a
 * thread); 0: too small to split, run inline. */
size_t tfcc_softmax_tasks(const struct tfcc_threadpool *pool, size_t outer, size_t depth);

#define TFCC_F32_SOFTMAX_DECL(name) \
  void name(const float *in, float *out, size_t rows, size_t depth, float beta)
TFCC_F32_SOFTMAX_DECL(tfcc_f32_softmax_avx512);
TFCC_F32_SOFTMAX_DECL(tfcc_f32_softmax_avx2);
TFCC_F32_SOFTMAX_DECL(tfcc_f32_softmax_neon);
TFCC_F32_SOFTMAX_DECL(tfcc_f32_softmax_wasmsimd);
TFCC_F32_SOFTMAX_DECL(tfcc_f32_softmax_scalar);

/* int16 -> int16 (reference_ops::SoftmaxInt16, tfcc_softmax_i16) bit for bit: AVX-512, AVX2,
 * NEON and SIMD128 variants of one body over the i32v primitives (q16_softmax_body.h: the table
 * lookups as 32-bit gathers of both entries of a segment on x86, lane loads on NEON and
 * SIMD128); the generic row is the reference. */
typedef void (*tfcc_q16_softmax_fn)(const int16_t *in, int16_t *out, size_t rows, size_t depth,
                                    const tfcc_softmax_i16_params *p);

typedef struct tfcc_q16_softmax_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q16_softmax_fn fn;
} tfcc_q16_softmax_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q16_softmax, tfcc_q16_softmax_kernel);

/* outer rows, split over pool when large; multipliers or shifts outside the lanes' exact range
 * (a right shift past 31, the multiplier INT32_MIN) run the reference. */
void tfcc_q16_softmax_run(struct tfcc_threadpool *pool, const tfcc_q16_softmax_kernel *k,
                          const int16_t *in, int16_t *out, size_t outer, size_t depth,
                          const tfcc_softmax_i16_params *p);

#define TFCC_Q16_SOFTMAX_DECL(name) \
  void name(const int16_t *in, int16_t *out, size_t rows, size_t depth, \
            const tfcc_softmax_i16_params *p)
TFCC_Q16_SOFTMAX_DECL(tfcc_q16_softmax_avx512);
TFCC_Q16_SOFTMAX_DECL(tfcc_q16_softmax_avx2);
TFCC_Q16_SOFTMAX_DECL(tfcc_q16_softmax_neon);
TFCC_Q16_SOFTMAX_DECL(tfcc_q16_softmax_wasmsimd);

/* 8-bit softmax (uint8 -> uint8, int8 -> int8) as tfcc_softmax_q8, byte for byte: rows rows of
 * depth, u8 for uint8 (else int8); lk looks up the byte tables. One body for the vector
 * variants (q8_softmax_body.h: F32V_N rows' sums side by side, the table entries by gathers
 * or lane loads, the quantization in float lanes); the scalar variant is the portable rows
 * (q8-softmax-scalar.c). */
#define TFCC_Q8_SOFTMAX_DECL(name) \
  void name(const tfcc_q8_lut_kernel *lk, bool u8, const uint8_t *in, uint8_t *out, size_t rows, \
            size_t depth, const float table[256], float out_scale, int32_t out_zp)
typedef void (*tfcc_q8_softmax_fn)(const tfcc_q8_lut_kernel *lk, bool u8, const uint8_t *in,
                                   uint8_t *out, size_t rows, size_t depth, const float table[256],
                                   float out_scale, int32_t out_zp);

typedef struct tfcc_q8_softmax_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q8_softmax_fn fn;
} tfcc_q8_softmax_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q8_softmax, tfcc_q8_softmax_kernel);

TFCC_Q8_SOFTMAX_DECL(tfcc_q8_softmax_avx512);
TFCC_Q8_SOFTMAX_DECL(tfcc_q8_softmax_avx2);
TFCC_Q8_SOFTMAX_DECL(tfcc_q8_softmax_neon);
TFCC_Q8_SOFTMAX_DECL(tfcc_q8_softmax_wasmsimd);
TFCC_Q8_SOFTMAX_DECL(tfcc_q8_softmax_scalar);

/* The variant that runs 8-bit softmax rows with these output parameters (u8: uint8, else
 * int8): k where its vector lanes are exact, the scalar rows where they are not (out_scale not
 * > 0, an int8 zero point outside [-128, 127]). The operator asks once, at init. */
const tfcc_q8_softmax_kernel *tfcc_q8_softmax_pick(const tfcc_q8_softmax_kernel *k, bool u8,
                                                   float out_scale, int32_t out_zp);

/* tfcc_softmax_q8 for uint8 -> uint8 (u8) or int8 -> int8 on k (from tfcc_q8_softmax_pick for
 * these out_scale / out_zp), rows split over pool when large; table from
 * tfcc_softmax_table_build. */
void tfcc_q8_softmax_run(struct tfcc_threadpool *pool, const tfcc_q8_softmax_kernel *k,
                         const tfcc_q8_lut_kernel *lk, bool u8, const uint8_t *in, uint8_t *out,
                         size_t outer, size_t depth, const float table[256], float out_scale,
                         int32_t out_zp);

#endif
