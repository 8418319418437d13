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

static void make_requant(const qcase *q, int oc, tfcc_conv_requant *r, float *scale, int32_t *mult,
                         int32_t *shift) {
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

/* Output size and TFLite SAME/VALID padding of g for an ih x iw input, window fh x fw, strides
 * sh x sw, dilations dh x dw (sets out_h, out_w, pad_h, pad_w). */
static void q8_test_geom_out(tfcc_conv_geom *g, int ih, int iw, int fh, int fw, int sh, int sw,
                             int dh, int dw, bool same) {
  const int eh = (fh - 1) * dh + 1, ew = (fw - 1) * dw + 1;
  g->out_h = same ? (ih + sh - 1) / sh : (ih - eh + sh) / sh;
  g->out_w = same ? (iw + sw - 1) / sw : (iw - ew + sw) / sw;
  const int ph = ((g->out_h - 1) * sh + eh - ih) / 2, pw = ((g->out_w - 1) * sw + ew - iw) / 2;
  g->pad_h = ph > 0 ? ph : 0;
  g->pad_w = pw > 0 ? pw : 0;
}

/* Random input and filter bytes, with the extreme values 0x80 / 0x7F (input) and 0x80 / 0xFF
 * (filter) now and then. */
static void q8_test_fill(uint8_t *in, size_t nin, uint8_t *f, size_t nf) {
  for (size_t i = 0; i < nin; i++) in[i] = (uint8_t)urand();
  for (size_t i = 0; i < nf; i++) f[i] = (uint8_t)urand();
  for (size_t i = 0; i < nin; i += 7) in[i] = (i / 7) % 2 ? 0x80 : 0x7F;
  for (size_t i = 0; i < nf; i += 5) f[i] = (i / 5) % 2 ? 0x80 : 0xFF;
}

#endif
