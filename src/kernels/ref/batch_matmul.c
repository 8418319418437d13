/* Reference BATCH_MATMUL kernels with numpy batch broadcasting;
 * the contract is in batch_matmul.h. */
#include "kernels/ref/batch_matmul.h"

#include <stddef.h>

#include "kernels/ref/quant_util.h"

void tfcc_bmm_batch_offsets(const tfcc_bmm_dims *d, int64_t ob, size_t *lo, size_t *ro) {
  size_t l = 0, r = 0, lstride = 1, rstride = 1;
  for (int32_t i = d->nbd - 1; i >= 0; i--) {
    int64_t idx = ob % d->out_b[i];
    ob /= d->out_b[i];
    if (d->lhs_b[i] != 1) l += (size_t)idx * lstride;
    if (d->rhs_b[i] != 1) r += (size_t)idx * rstride;
    lstride *= (size_t)d->lhs_b[i];
    rstride *= (size_t)d->rhs_b[i];
  }
  *lo = l * (size_t)d->m * d->k;
  *ro = r * (size_t)d->k * d->n;
}

static int64_t n_batches(const tfcc_bmm_dims *d) {
  int64_t n = 1;
  for (int32_t i = 0; i < d->nbd; i++) n *= d->out_b[i];
  return n;
}

#define TFCC_BMM_LOOP(ACC_T, LV, RV, FINISH) \
  const int64_t nb = n_batches(d); \
  const size_t lsm = d->adj_x ? 1 : (size_t)d->k, lsk = d->adj_x ? (size_t)d->m : 1; \
  const size_t rsk = d->adj_y ? 1 : (size_t)d->n, rsn = d->adj_y ? (size_t)d->k : 1; \
  for (int64_t b = 0; b < nb; b++) { \
    size_t lo, ro; \
    tfcc_bmm_batch_offsets(d, b, &lo, &ro); \
    for (int32_t i = 0; i < d->m; i++) \
      for (int32_t j = 0; j < d->n; j++) { \
        ACC_T acc = 0; \
        for (int32_t p = 0; p < d->k; p++) { \
          const size_t li = lo + (size_t)i * lsm + (size_t)p * lsk; \
          const size_t ri = ro + (size_t)p * rsk + (size_t)j * rsn; \
          acc += (ACC_T)(LV) * (ACC_T)(RV); \
        } \
        const size_t oi = ((size_t)b * d->m + i) * d->n + j; \
        FINISH; \
      } \
  }

void tfcc_bmm_f32(const tfcc_bmm_dims *d, const float *lhs, const float *rhs, float *out) {
  TFCC_BMM_LOOP(float, lhs[li], rhs[ri], out[oi] = acc)
}

void tfcc_bmm_f32_xnn(const tfcc_bmm_dims *d, const float *lhs, const float *rhs, float *out) {
  const int64_t nb = n_batches(d);
  const size_t lsm = d->adj_x ? 1 : (size_t)d->k, lsk = d->adj_x ? (size_t)d->m : 1;
  const size_t rsk = d->adj_y ? 1 : (size_t)d->n, rsn = d->adj_y ? (size_t)d->k : 1;
  for (int64_t b = 0; b < nb; b++) {
    size_t lo, ro;
    tfcc_bmm_batch_offsets(d, b, &lo, &ro);
    for (int32_t i = 0; i < d->m; i++) {
      float *restrict y = out + ((size_t)b * d->m + i) * d->n;
      for (int32_t j = 0; j < d->n; j++) y[j] = 0.f;
      for (int32_t p = 0; p < d->k; p++) {
        const float a = lhs[lo + (size_t)i * lsm + (size_t)p * lsk];
        const float *restrict r = rhs + ro + (size_t)p * rsk;
        if (rsn == 1) { /* contiguous columns: the compiler vectorises over j */
          for (int32_t j = 0; j < d->n; j++) {
            const float prod = a * r[j];
            y[j] = y[j] + prod;
          }
        } else {
          for (int32_t j = 0; j < d->n; j++) {
            const float prod = a * r[(size_t)j * rsn];
            y[j] = y[j] + prod;
          }
        }
      }
    }
  }
}

void tfcc_bmm_i8(const tfcc_bmm_dims *d, const tfcc_bmm_quant *q, const int8_t *lhs,
                 const int8_t *rhs, int8_t *out) {
  TFCC_BMM_LOOP(int64_t, (int32_t)lhs[li] + q->lhs_offset, (int32_t)rhs[ri] + q->rhs_offset, {
    /* TFLite accumulates in int32 (wrapping): truncate once */
    int32_t a = (int32_t)(uint32_t)(uint64_t)acc;
    int32_t v = (int32_t)((int64_t)tfcc_mbqm(a, q->mult, q->shift) + q->output_offset);
    out[oi] = (int8_t)tfcc_clamp_i32(v, q->act_min, q->act_max);
  })
}

/* int16 output of an int64 sum: TFLite's int64 MultiplyByQuantizedMultiplier (input within
 * +-2^47), column j's multiplier where there is one per column. */
static inline int16_t bmm_out_i16(int64_t acc, const tfcc_bmm_quant *q, int32_t j) {
  const int64_t lim = (int64_t)1 << 47;
  const int64_t a = acc < -lim ? -lim : (acc > lim - 1 ? lim - 1 : acc);
  const int32_t m = q->col_mult ? q->col_mult[j] : q->mult;
  const int32_t s = q->col_shift ? q->col_shift[j] : q->shift;
  const int32_t v = (int32_t)((int64_t)tfcc_mbqm64(a, m, s) + q->output_offset);
  return (int16_t)tfcc_clamp_i32(v, q->act_min, q->act_max);
}

void tfcc_bmm_i16(const tfcc_bmm_dims *d, const tfcc_bmm_quant *q, const int16_t *lhs,
                  const int16_t *rhs, int16_t *out) {
  TFCC_BMM_LOOP(int64_t, (int32_t)lhs[li] + q->lhs_offset, (int32_t)rhs[ri] + q->rhs_offset,
                out[oi] = bmm_out_i16(acc, q, j))
}

void tfcc_bmm_i16_i8(const tfcc_bmm_dims *d, const tfcc_bmm_quant *q, const int16_t *lhs,
                     const int8_t *rhs, int16_t *out) {
  TFCC_BMM_LOOP(int64_t, (int32_t)lhs[li] + q->lhs_offset, (int32_t)rhs[ri] + q->rhs_offset,
                out[oi] = bmm_out_i16(acc, q, j))
}
