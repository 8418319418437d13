/* The q8 GEMM kernel tests' convolution case (test_q8_gemm.c, test_q8_amx_emulated.c): one
 * convolution of random data with extreme values through a kernel (its packing, the driver,
 * the kernel) against the reference conv kernel, byte for byte, and, for a 1x1 stride-1
 * unpadded one, the same weights as a plain GEMM (FULLY_CONNECTED) against the reference FC.
 * Input and filter buffers get `slack` bytes past their end (0: allocated to the byte, so
 * that ASan sees any read past a row); `on_packed`, if set, checks the packed weights. */
#ifndef TFCC_TESTS_OPS_Q8_CONV_TEST_UTIL_H
#define TFCC_TESTS_OPS_Q8_CONV_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/q8-gemm/gemm.h"
#include "kernels/ref/conv.h"
#include "kernels/ref/fully_connected.h"
#include "base/threadpool.h"
#include "q8_requant_test_util.h"
#include "test_harness.h"

typedef void (*q8_packed_check_fn)(const tfcc_q8_packed *p, int K, const tfcc_conv_requant *r);

static void q8_check_conv(const char *what, const tfcc_q8_gemm_kernel *k, tfcc_threadpool *pool,
                          const qcase *q, size_t slack, q8_packed_check_fn on_packed, int batches,
                          int ih, int iw, int ic, int oc, int fh, int fw, int sh, int sw, int dh,
                          int dw, bool same, bool with_bias) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = batches;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = g.filter_in_c = ic;
  g.out_c = oc;
  g.filter_h = fh;
  g.filter_w = fw;
  g.stride_h = sh;
  g.stride_w = sw;
  g.dil_h = dh;
  g.dil_w = dw;
  q8_test_geom_out(&g, ih, iw, fh, fw, sh, sw, dh, dw, same);
  const size_t nin = (size_t)batches * ih * iw * ic, nf = (size_t)oc * fh * fw * ic;
  const size_t nout = (size_t)batches * g.out_h * g.out_w * oc;
  uint8_t *in = malloc(nin + slack), *f = malloc(nf + slack);
  int32_t *b = malloc(sizeof(int32_t) * (size_t)oc);
  uint8_t *want = malloc(nout + 1), *got = malloc(nout + 1);
  float *scale = malloc(sizeof(float) * (size_t)oc);
  int32_t *mult = malloc(sizeof(int32_t) * (size_t)oc),
          *shift = malloc(sizeof(int32_t) * (size_t)oc);
  q8_test_fill(in, nin, f, nf);
  for (int c = 0; c < oc; c++) b[c] = (int32_t)(urand() % 200001) - 100000;
  tfcc_conv_requant r;
  make_requant(q, oc, &r, scale, mult, shift);
  const int32_t *bias = with_bias ? b : NULL;
  if (q->is_signed)
    tfcc_conv_i8(&g, &r, (const int8_t *)in, (const int8_t *)f, bias, (int8_t *)want);
  else
    tfcc_conv_u8(&g, &r, in, f, bias, want);
  tfcc_q8_packed p;
  const int K = fh * fw * ic;
  CHECK(tfcc_q8_pack(k, q->is_signed, oc, K, f, bias, &r, &p));
  if (on_packed) on_packed(&p, K, &r);
  size_t sb = tfcc_q8_scratch_bytes(&g, &p, tfcc_threadpool_size(pool));
  void *scratch = sb ? aligned_alloc(64, (sb + 63) & ~(size_t)63) : NULL;
  if (scratch) memset(scratch, 0x5A, sb);
  memset(got, 0xEE, nout + 1);
  tfcc_q8_conv(pool, &g, &p, &r, in, got, scratch);
  int bad = 0;
  for (size_t i = 0; i < nout; i++)
    if (got[i] != want[i] && bad++ < 3)
      fprintf(stderr, "%s %s conv %dx%dx%d->%d f%dx%d s%d,%d d%d,%d: out[%zu] = %d, want %d\n",
              what, q->is_signed ? "s8" : "u8", ih, iw, ic, oc, fh, fw, sh, sw, dh, dw, i, got[i],
              want[i]);
  CHECKF(bad == 0 && got[nout] == 0xEE,
         "%s %s %s conv b%d %dx%dx%d->%d f%dx%d s%d,%d d%d,%d %s zp %d/%d/%d: %d wrong", what,
         q->is_signed ? "s8" : "u8", q->fp32 ? "fp32" : "fixed", batches, ih, iw, ic, oc, fh, fw,
         sh, sw, dh, dw, same ? "SAME" : "VALID", q->in_zp, q->w_zp, q->out_zp, bad);
  /* the same weights as a plain GEMM on the first K bytes of each input row (FC) */
  if (fh == 1 && fw == 1 && sh == 1 && sw == 1 && !g.pad_h && !g.pad_w) {
    const tfcc_fc_dims d = {batches * ih * iw, ic, oc};
    if (q->is_signed)
      tfcc_fc_i8(&d, &r, (const int8_t *)in, (const int8_t *)f, bias, (int8_t *)want);
    else
      tfcc_fc_u8(&d, &r, in, f, bias, want);
    sb = tfcc_q8_scratch_bytes(NULL, &p, tfcc_threadpool_size(pool));
    void *s2 = sb ? aligned_alloc(64, (sb + 63) & ~(size_t)63) : NULL;
    tfcc_q8_gemm(pool, &p, &r, d.batches, in, (size_t)ic, got, (size_t)oc, s2);
    CHECKF(memcmp(got, want, (size_t)d.batches * (size_t)oc) == 0, "%s %s %s gemm %dx%dx%d differs",
           what, q->is_signed ? "s8" : "u8", q->fp32 ? "fp32" : "fixed", d.batches, oc, ic);
    free(s2);
  }
  free(scratch);
  tfcc_q8_packed_free(&p);
  free(in);
  free(f);
  free(b);
  free(want);
  free(got);
  free(scale);
  free(mult);
  free(shift);
}

#endif
