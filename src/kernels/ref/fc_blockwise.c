/* Blockwise-quantized FULLY_CONNECTED row; the contract is in fc_blockwise.h. */
#include "kernels/ref/fc_blockwise.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

float tfcc_fc_bw_scale(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  if (!isnan(f)) u += 0x7FFFu + ((u >> 16) & 1u);
  u &= 0xFFFF0000u;
  memcpy(&f, &u, sizeof f);
  return f;
}

void tfcc_fc_blockwise_row(const int8_t *q, int32_t zp, float scale, const int8_t *w,
                           const float *bscale, const float *bias, int32_t units, int32_t accum,
                           int32_t bs, float lo, float hi, float *out) {
  const int32_t nb = accum / bs;
  for (int32_t n = 0; n < units; n++) {
    const int8_t *wr = w + (size_t)n * (size_t)accum;
    const float *sr = bscale + (size_t)n * (size_t)nb;
    float acc = 0.0f;
    for (int32_t b = 0; b < nb; b++) {
      int32_t s = 0;
      for (int32_t k = b * bs; k < (b + 1) * bs; k++) s += ((int32_t)q[k] - zp) * (int32_t)wr[k];
      acc += (float)s * sr[b];
    }
    float v = acc * scale + (bias ? bias[n] : 0.0f);
    out[n] = v < lo ? lo : (v > hi ? hi : v);
  }
}

void tfcc_fc_blockwise_row_builtin(const int8_t *q, int32_t zp, float scale, const int8_t *w,
                                   const float *bscale, const float *bias, int32_t units,
                                   int32_t accum, int32_t bs, float lo, float hi, float *out) {
  const int32_t nb = accum / bs;
  for (int32_t n = 0; n < units; n++) {
    const int8_t *wr = w + (size_t)n * (size_t)accum;
    const float *sr = bscale + (size_t)n * (size_t)nb;
    float acc = 0.0f, kfsum = 0.0f;
    for (int32_t b = 0; b < nb; b++) {
      int32_t s = 0, ksum = 0;
      for (int32_t k = b * bs; k < (b + 1) * bs; k++) {
        s += (int32_t)q[k] * (int32_t)wr[k];
        ksum += wr[k];
      }
      acc += (float)s * sr[b];
      kfsum += sr[b] * (float)ksum;
    }
    acc -= (float)zp * kfsum;
    acc *= scale;
    if (bias) acc += bias[n];
    out[n] = acc < lo ? lo : (acc > hi ? hi : acc);
  }
}
