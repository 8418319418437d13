/* q8-fc-small, generic C (also the NEON build's): 16 columns at a time, one pair of depth
 * positions per step over the packed layout (a loop compilers vectorise), sums modulo 2^32
 * in uint32, then the reference requantization functions per element (exact by
 * construction). */
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/ref/conv_acc.h"

static inline int32_t input_at(const uint8_t *xr, size_t k, bool is_signed) {
  return is_signed ? (int32_t)(int8_t)xr[k] : (int32_t)xr[k];
}

void tfcc_q8_fcs_scalar(const tfcc_q8_fcs_packed *p, size_t batches, const void *x, void *y) {
  const size_t K = (size_t)p->kdim, N = (size_t)p->n, npad = (size_t)p->npad;
  const size_t kpairs = (size_t)p->kpairs;
  for (size_t b = 0; b < batches; b++) {
    const uint8_t *xr = (const uint8_t *)x + b * K;
    uint8_t *yr = (uint8_t *)y + b * N;
    for (size_t j = 0; j < N; j += 16) {
      uint32_t acc[16];
      for (size_t c = 0; c < 16; c++) acc[c] = (uint32_t)p->bias[j + c];
      for (size_t q = 0; q < kpairs; q++) {
        const int32_t x0 = input_at(xr, 2 * q, p->is_signed);
        const int32_t x1 = 2 * q + 1 < K ? input_at(xr, 2 * q + 1, p->is_signed) : 0;
        const int16_t *w = p->w + (q * npad + j) * 2;
        for (size_t c = 0; c < 16; c++) /* |x| <= 255, |w| <= 32767: no int32 overflow */
          acc[c] += (uint32_t)(x0 * (int32_t)w[2 * c] + x1 * (int32_t)w[2 * c + 1]);
      }
      const size_t nc = N - j < 16 ? N - j : 16;
      for (size_t c = 0; c < nc; c++) {
        const int32_t a = (int32_t)acc[c];
        int32_t v;
        if (p->fp32) {
          v = tfcc_requant_fp32(a, p->scale[j + c], p->zp, p->act_min, p->act_max);
        } else {
          v = tfcc_mbqm(a, p->mult[j + c], p->shift[j + c]);
          v = tfcc_clamp_i32((int32_t)((int64_t)v + p->zp), p->act_min, p->act_max);
        }
        yr[j + c] = (uint8_t)v; /* v is within the storage type: its low byte is the value */
      }
    }
  }
}
