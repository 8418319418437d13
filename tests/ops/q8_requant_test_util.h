/* Shared by the q8 GEMM and depthwise kernel tests: a seeded generator and the requantization
 * parameters of one case (int8 per-channel or uint8 per-tensor, fp32 or fixed point). */
#ifndef TFCC_TESTS_OPS_Q8_REQUANT_TEST_UTIL_H
#define TFCC_TESTS_OPS_Q8_REQUANT_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernels/ref/conv.h"
#include "kernels/ref/quant_util.h"

static uint32_t rng = 777u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

typedef struct qcase {
  bool is_signed, fp32;
  int32_t in_zp, w_zp, out_zp; /* w_zp: uint8 only */
  float scale_lo, scale_hi;    /* range of the per-channel requant scales */
  int32_t act_min, act_max;
} qcase;

static void make_requant(const qcase *q, int oc, tfcc_conv_requant *r, float *scale,
                         int32_t *mult, int32_t *shift) {
  memset(r, 0, sizeof *r);
  r->input_offset = -q->in_zp;
  r->filter_offset = q->is_signed ? 0 : -q->w_zp;
  r->output_offset = q->out_zp;
  r->mult_stride = q->is_signed ? 1 : 0;
  r->act_min = q->act_min;
  r->act_max = q->act_max;
  const int n = q->is_signed ? oc : 1;
  for (int c = 0; c < n; c++) {
    const float t = (float)(urand() % 1000) / 999.0f;
    scale[c] = q->scale_lo + (q->scale_hi - q->scale_lo) * t;
    int s;
    tfcc_quantize_multiplier((double)scale[c], &mult[c], &s);
    shift[c] = s;
  }
  r->mult = mult;
  r->shift = shift;
  r->scale = q->fp32 ? scale : NULL;
}

#endif
