/* q8-fc-small, generic C: the packed layout read column by column, sums modulo 2^32 in
 * uint32, the reference requantization functions per element (exact by construction). */
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/ref/conv_acc.h"

void tfcc_q8_fcs_scalar(const tfcc_q8_fcs_packed *p, size_t batches, const void *x, void *y) {
  const size_t K = (size_t)p->kdim, N = (size_t)p->n, npad = (size_t)p->npad;
  for (size_t b = 0; b < batches; b++) {
    const uint8_t *xr = (const uint8_t *)x + b * K;
    uint8_t *yr = (uint8_t *)y + b * N;
    for (size_t c = 0; c < N; c++) {
      uint32_t acc = (uint32_t)p->bias[c];
      for (size_t k = 0; k < K; k++) {
        const int32_t xv = p->is_signed ? (int32_t)(int8_t)xr[k] : (int32_t)xr[k];
        acc += (uint32_t)(xv * (int32_t)p->w[((k / 2) * npad + c) * 2 + (k & 1)]);
      }
      const int32_t a = (int32_t)acc;
      int32_t v;
      if (p->fp32) {
        v = tfcc_requant_fp32(a, p->scale[c], p->zp, p->act_min, p->act_max);
      } else {
        v = tfcc_mbqm(a, p->mult[c], p->shift[c]);
        v = tfcc_clamp_i32((int32_t)((int64_t)v + p->zp), p->act_min, p->act_max);
      }
      yr[c] = (uint8_t)v; /* v is within the storage type: its low byte is the value */
    }
  }
}
