/* Fast sums for MEAN and SUM, vectorised, one file per ISA variant behind a dispatch table.
 * The reduction is seen as [outer, reduced, inner] (size-1 axes dropped, neighbouring axes of
 * the same kind merged); other layouts (two separate runs of reduced axes) stay on the
 * reference kernels. Results equal the reference sums exactly:
 *   float32: each output sums its elements in input order from 0.0f (the reference's order;
 *            the vector lanes are independent outputs), so MEAN's division gives the same bits;
 *   uint8 / int8 / int16: raw values summed in int32 with wrap-around (order is irrelevant),
 *            handed to the reference epilogues (kernels/ref/reduce.h *_finish). */
#ifndef TFCC_KERNELS_REDUCE_REDUCE_H
#define TFCC_KERNELS_REDUCE_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/reduce.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* out[o * I + i] = sum over r of in[(o * R + r) * I + i]. */
typedef void (*tfcc_rsum_f32_fn)(const float *in, size_t O, size_t R, size_t I, float *out);
/* Float32 MEAN over trailing axes as XNNPACK's f32-rsum sums each row (tfcc_xnn_rsum_f32's
 * order: 16 elements a step into four 4-lane accumulators, the same lanes the portable loop
 * keeps; up to three more 4-element groups into accumulators 0, 1, 2; the fold, a remaining
 * pair, a remaining single), times scale: out[o] = rsum(in + o * R, R) * scale. Several rows at
 * once (independent sums), so the same bits as the portable loop at every width. */
typedef void (*tfcc_rsum_xnn_mean_f32_fn)(const float *in, size_t O, size_t R, float scale,
                                          float *out);
/* dt: uint8 | int8 | int16; acc as out above (int32, wrapping). */
typedef void (*tfcc_rsum_q_fn)(tfcc_dtype dt, const void *in, size_t O, size_t R, size_t I,
                               int32_t *acc);

typedef struct tfcc_rsum_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_rsum_f32_fn sum_f32;
  tfcc_rsum_q_fn sum_q;
  tfcc_rsum_xnn_mean_f32_fn xnn_mean_f32;
} tfcc_rsum_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_rsum, tfcc_rsum_kernel);
bool tfcc_rsum_usable(const tfcc_rsum_kernel *k, tfcc_isa isa);

/* Whether s is an [O, R, I] reduction (at least one element); sets the three sizes. */
bool tfcc_rsum_shape(const tfcc_reduce_shape *s, size_t *O, size_t *R, size_t *I);

/* tfcc_xnn_reduce_q8_finish vectorised: the XNNPACK requantization of the sums is
 * (float)acc times the reduction's scale plus the float bias out_zp - (n * in_zp) * scale
 * (tfcc_xnn_reduce_bias; before the rounding), then the f32 -> q8 convert (scale 1, zero
 * point 0) of the quantize kernel of
 * level isa. acc is overwritten (used as the float buffer). dt: uint8 | int8. */
void tfcc_rsum_xnn_q8_finish(tfcc_isa isa, const tfcc_reduce_shape *s, tfcc_dtype dt, int32_t *acc,
                             int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                             float out_scale, bool is_mean);

#define TFCC_RSUM_DECL(isa) \
  void tfcc_rsum_f32_##isa(const float *in, size_t O, size_t R, size_t I, float *out); \
  void tfcc_rsum_q_##isa(tfcc_dtype dt, const void *in, size_t O, size_t R, size_t I, \
                         int32_t *acc); \
  void tfcc_rsum_xnn_mean_f32_##isa(const float *in, size_t O, size_t R, float scale, float *out)
TFCC_RSUM_DECL(avx512);
TFCC_RSUM_DECL(avx2);
TFCC_RSUM_DECL(sse4);
TFCC_RSUM_DECL(neon);
TFCC_RSUM_DECL(wasmsimd);
TFCC_RSUM_DECL(scalar);

#endif
