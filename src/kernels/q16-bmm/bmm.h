/* Quantized BATCH_MATMUL on the q16-gemm micro-kernels (kernels/q16-gemm/gemm.h): the results of
 * the reference kernels tfcc_bmm_i16, tfcc_bmm_i16_i8 and tfcc_bmm_i8 (kernels/ref/
 * batch_matmul.h) bit for bit, for operands that change every run (attention's Q x K^T and
 * P x V), numpy broadcasting of the batch dimensions, adj_x and adj_y.
 *
 * The micro-kernel multiplies int16 rows by panels of int16 pairs whose values are within
 * +-2^7 (gemm.h: a lane of 255 pairs then stays within int32; its sums are exact int64). So the
 * rhs is packed at run time, one panel of NR output columns at a time, into the thread's
 * scratch:
 *   int16 x int16: every value split as v = 256 * h + l, l the low byte read as signed
 *     (-128..127), h = (v - l) / 256 (-128..128): two panels, two micro-kernel calls, the exact
 *     sum 256 * sum(x * h) + sum(x * l) in int64 (TFLite's int64 accumulator);
 *   int16 x int8: the int8 values, one panel;
 *   int8 x int8: both operands with their offsets added (-255..255) as int16, one panel; the
 *     int64 sum is truncated to int32 as TFLite's int32 accumulator wraps.
 * The lhs rows are read in place (int16, adj_x false) or copied as int16 rows (adj_x, int8):
 * the whole lhs once per run, before the tasks, into the start of the scratch (at most
 * lhs_max bytes), else a block of Q16_BMM_ROWS rows at a time into the thread's
 * scratch, again for each panel. The requantization is the
 * reference's: int16 outputs through the q16-gemm kernel's (tfcc_requant64's arithmetic with a
 * zero bias, which is the reference's clamp to +-2^47 and tfcc_mbqm64), int8 outputs through
 * tfcc_mbqm. */
#ifndef TFCC_KERNELS_Q16_BMM_BMM_H
#define TFCC_KERNELS_Q16_BMM_BMM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/threadpool.h"
#include "kernels/q16-gemm/gemm.h"
#include "kernels/ref/batch_matmul.h"

typedef enum tfcc_q16_bmm_type {
  TFCC_Q16_BMM_I16,    /* int16 lhs, int16 rhs, int16 out (zero points 0) */
  TFCC_Q16_BMM_I16_I8, /* int16 lhs, int8 rhs, int16 out (zero points 0) */
  TFCC_Q16_BMM_I8      /* int8 lhs, int8 rhs, int8 out, any zero points */
} tfcc_q16_bmm_type;

/* The largest whole-lhs int16 copy (bytes) the operator allows; a larger lhs is copied in row
 * blocks per panel. tfcc_q16_bmm_scratch and tfcc_q16_bmm take the limit as lhs_max and must be
 * given the same one (tests pass 0 to run the row blocks). */
#define TFCC_Q16_BMM_LHS_MAX ((size_t)64 << 20)

/* Whether d and q run here (integer zero offsets where the type needs them, sizes within what
 * the scratch may hold). */
bool tfcc_q16_bmm_fits(const tfcc_bmm_dims *d, const tfcc_bmm_quant *q, tfcc_q16_bmm_type t);
/* Scratch bytes (64-byte aligned memory) for `threads` threads; 0: too large. */
size_t tfcc_q16_bmm_scratch(const tfcc_q16_gemm_kernel *k, const tfcc_bmm_dims *d,
                            tfcc_q16_bmm_type t, int threads, size_t lhs_max);
/* out = the reference kernel of type t on lhs, rhs (pool may be NULL; scratch of
 * tfcc_q16_bmm_scratch bytes for the pool's thread count and the same lhs_max). */
void tfcc_q16_bmm(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k, const tfcc_bmm_dims *d,
                  const tfcc_bmm_quant *q, tfcc_q16_bmm_type t, size_t lhs_max, const void *lhs,
                  const void *rhs, void *out, void *scratch);

/* The int8 outputs of rows x nc sums (acc[i * acc_stride + n]): tfcc_mbqm of the sum truncated to
 * int32, + output offset, clamped, into out[i * out_stride + n]; q->shift within [-31, 31]. The
 * scalar variant is the reference's loop; the x86 ones run it in vector lanes (req8_i32v.h). */
#define TFCC_Q16_BMM_REQ8_DECL(name) \
  void name(size_t rows, size_t nc, const int64_t *acc, size_t acc_stride, \
            const tfcc_bmm_quant *q, int8_t *out, size_t out_stride)
typedef void (*tfcc_q16_bmm_req8_fn)(size_t rows, size_t nc, const int64_t *acc, size_t acc_stride,
                                     const tfcc_bmm_quant *q, int8_t *out, size_t out_stride);
TFCC_Q16_BMM_REQ8_DECL(tfcc_q16_bmm_req8_avx512);
TFCC_Q16_BMM_REQ8_DECL(tfcc_q16_bmm_req8_avx2);
TFCC_Q16_BMM_REQ8_DECL(tfcc_q16_bmm_req8_scalar);
/* The variant for the micro-kernel k's level. */
tfcc_q16_bmm_req8_fn tfcc_q16_bmm_req8_for(const tfcc_q16_gemm_kernel *k);

#endif
