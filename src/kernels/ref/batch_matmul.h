/* Reference batched matrix multiply with numpy batch broadcasting, matching TensorFlow Lite's
 * reference BatchMatMul (float; int8 with zero points and one multiplier; int16 with int64
 * accumulation, rhs int16 or int8; an int16 x int8 product may scale each output column by its
 * own multiplier). lhs is [..., M, K] ([..., K, M] when adj_x), rhs [..., K, N] ([..., N, K]
 * when adj_y), out [..., M, N]. */
#ifndef TFCC_KERNELS_REF_BATCH_MATMUL_H
#define TFCC_KERNELS_REF_BATCH_MATMUL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TFCC_BMM_MAX_BATCH_DIMS 6

typedef struct tfcc_bmm_dims {
  int32_t nbd;                            /* number of batch dims (output's) */
  int32_t out_b[TFCC_BMM_MAX_BATCH_DIMS]; /* output batch dims */
  int32_t lhs_b[TFCC_BMM_MAX_BATCH_DIMS]; /* lhs batch dims, left-padded with 1 */
  int32_t rhs_b[TFCC_BMM_MAX_BATCH_DIMS];
  int32_t m, k, n;
  bool adj_x, adj_y;
} tfcc_bmm_dims;

typedef struct tfcc_bmm_quant {
  int32_t lhs_offset, rhs_offset, output_offset; /* -zp, -zp, zp */
  int32_t mult;
  int32_t shift;
  int32_t act_min, act_max;
  const int32_t *col_mult, *col_shift; /* [n] per output column (int16 outputs), or NULL */
} tfcc_bmm_quant;

/* Element offsets of the lhs and rhs matrices of flat output batch ob (numpy broadcasting: a
 * batch dimension of 1 repeats). */
void tfcc_bmm_batch_offsets(const tfcc_bmm_dims *d, int64_t ob, size_t *lhs_off, size_t *rhs_off);
void tfcc_bmm_f32(const tfcc_bmm_dims *d, const float *lhs, const float *rhs, float *out);
/* float32 in XNNPACK's f32 GEMM order (TFLite's delegate runs a float BATCH_MATMUL of
 * a hybrid model): every output starts at 0 and adds lhs[i][k] * rhs[k][j] for k = 0, 1, ...,
 * each product and each sum rounded to float (no fused multiply-add). */
void tfcc_bmm_f32_xnn(const tfcc_bmm_dims *d, const float *lhs, const float *rhs, float *out);
void tfcc_bmm_i8(const tfcc_bmm_dims *d, const tfcc_bmm_quant *q, const int8_t *lhs,
                 const int8_t *rhs, int8_t *out);
void tfcc_bmm_i16(const tfcc_bmm_dims *d, const tfcc_bmm_quant *q, const int16_t *lhs,
                  const int16_t *rhs, int16_t *out);
void tfcc_bmm_i16_i8(const tfcc_bmm_dims *d, const tfcc_bmm_quant *q, const int16_t *lhs,
                     const int8_t *rhs, int16_t *out);

#endif
