/* Fast 8-bit depthwise convolution: every q8 depthwise micro-kernel this CPU can run
 * produces exactly the reference kernel's bytes (tfcc_dwconv_i8 / tfcc_dwconv_u8), int8
 * (per-channel) and uint8 (per-tensor, filter zero point), both requantization modes, odd
 * channel counts (tails of 16 and 8), 3x3 / 5x5 / other windows, strides 1 and 2, dilation,
 * SAME and VALID padding, batches, extreme zero points and scales, activation ranges,
 * depth multipliers 1, 2 and 3, single threaded and on a 2-thread pool. The packed block
 * adopted from a copy (a weights cache's) gives the same bytes; blocks that do not fit are
 * refused. The kernels' vectorised fixed-point requantization against tfcc_requant32. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/ref/conv_acc.h"
#include "kernels/ref/depthwise_conv.h"
#include "kernels/ref/quant_util.h"
#include "base/threadpool.h"
#include "q8_requant_test_util.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static void test_dwm(const tfcc_q8_dw_kernel *k, tfcc_threadpool *pool, const qcase *q, int batches,
                     int ih, int iw, int ic, int dm, int fh, int fw, int s, int d, bool same,
                     bool with_bias) {
  const int ch = ic * dm;
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = batches;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = ic;
  g.out_c = ch;
  g.filter_h = fh;
  g.filter_w = fw;
  g.filter_in_c = 1;
  g.stride_h = g.stride_w = s;
  g.dil_h = g.dil_w = d;
  q8_test_geom_out(&g, ih, iw, fh, fw, s, s, d, d, same);
  const size_t nin = (size_t)batches * ih * iw * ic, nf = (size_t)fh * fw * ch;
  const size_t nout = (size_t)batches * g.out_h * g.out_w * ch;
  uint8_t *in = malloc(nin + 1), *f = malloc(nf + 1);
  int32_t *b = malloc(sizeof(int32_t) * (size_t)ch);
  uint8_t *want = malloc(nout + 1), *got = malloc(nout + 1);
  float *scale = malloc(sizeof(float) * (size_t)ch);
  int32_t *mult = malloc(sizeof(int32_t) * (size_t)ch),
          *shift = malloc(sizeof(int32_t) * (size_t)ch);
  q8_test_fill(in, nin, f, nf);
  for (int c = 0; c < ch; c++) b[c] = (int32_t)(urand() % 20001) - 10000;
  tfcc_conv_requant r;
  make_requant(q, ch, &r, scale, mult, shift);
  const int32_t *bias = with_bias ? b : NULL;
  if (q->is_signed)
    tfcc_dwconv_i8(&g, &r, (const int8_t *)in, (const int8_t *)f, bias, (int8_t *)want);
  else
    tfcc_dwconv_u8(&g, &r, in, f, bias, want);
  tfcc_q8_dw_packed p;
  CHECK(tfcc_q8_dw_pack(k, q->is_signed, ch, fh, fw, f, bias, &r, &p));
  const size_t sb = tfcc_q8_dw_scratch_bytes(&p, &g, tfcc_threadpool_size(pool));
  void *scratch = sb ? aligned_alloc(64, sb) : NULL;
  memset(got, 0xEE, nout + 1);
  tfcc_q8_dwconv(pool, &g, &p, &r, in, got, scratch);
  int bad = 0;
  for (size_t i = 0; i < nout; i++)
    if (got[i] != want[i] && bad++ < 3)
      fprintf(stderr, "%s: out[%zu] = %d, want %d\n", k->name, i, got[i], want[i]);
  CHECKF(bad == 0 && got[nout] == 0xEE,
         "%s (%s) %s %s dw %dx%dx%d m%d f%dx%d s%d d%d %s zp %d/%d/%d: %d wrong", k->name,
         p.k->name, q->is_signed ? "s8" : "u8", q->fp32 ? "fp32" : "fixed", ih, iw, ic, dm, fh, fw,
         s, d, same ? "SAME" : "VALID", q->in_zp, q->w_zp, q->out_zp, bad);
  /* the block is self-describing: a copy of it (a weights cache's) adopted with the same
   * arguments, without the filter, gives the same bytes; a block that does not fit is refused */
  const size_t bb = tfcc_q8_dw_block_bytes(k, q->is_signed, ch, fh, fw, &r);
  CHECKF(p.block_bytes == bb && bb > 0 && tfcc_q8_dw_block(&p) != NULL, "%s: block bytes %zu / %zu",
         k->name, p.block_bytes, bb);
  uint8_t *copy = aligned_alloc(64, (bb + 63) / 64 * 64);
  memcpy(copy, tfcc_q8_dw_block(&p), bb);
  tfcc_q8_dw_packed a;
  CHECK(tfcc_q8_dw_adopt(k, q->is_signed, ch, fh, fw, &r, copy, bb, &a));
  CHECKF(a.k == p.k && a.rows == p.rows && a.kz == p.kz && a.rep == p.rep &&
             a.scale_lt1 == p.scale_lt1 && a.fp32 == p.fp32 && a.zp_byte == p.zp_byte,
         "%s: adopted layout differs", k->name);
  memset(got, 0xEE, nout + 1);
  tfcc_q8_dwconv(pool, &g, &a, &r, in, got, scratch);
  CHECKF(memcmp(got, want, nout) == 0 && got[nout] == 0xEE, "%s: adopted block: other output",
         k->name);
  tfcc_q8_dw_packed_free(&a); /* not owned: the copy stays */
  CHECK(!tfcc_q8_dw_adopt(k, q->is_signed, ch, fh, fw, &r, copy, bb - 64, &a) && !a.w);
  CHECK(!tfcc_q8_dw_adopt(k, q->is_signed, ch + 1, fh, fw, &r, copy, bb, &a));
  CHECK(!tfcc_q8_dw_adopt(k, !q->is_signed, ch, fh, fw, &r, copy, bb, &a));
  copy[0] ^= 1; /* the header's magic */
  CHECK(!tfcc_q8_dw_adopt(k, q->is_signed, ch, fh, fw, &r, copy, bb, &a));
  free(copy);
  free(scratch);
  tfcc_q8_dw_packed_free(&p);
  free(in);
  free(f);
  free(b);
  free(want);
  free(got);
  free(scale);
  free(mult);
  free(shift);
}

static void test_dw(const tfcc_q8_dw_kernel *k, tfcc_threadpool *pool, const qcase *q, int batches,
                    int ih, int iw, int ch, int fh, int fw, int s, int d, bool same,
                    bool with_bias) {
  test_dwm(k, pool, q, batches, ih, iw, ch, 1, fh, fw, s, d, same, with_bias);
}

/* A kernel's fixed-point requantization (rq_fixed) gives tfcc_requant32's bytes for sums across
 * int32 (the extremes included), per-channel and per-tensor multipliers and shifts (left shifts,
 * right shifts to 31, and values the vector path hands to the scalar one: a shift of 31, a
 * multiplier of INT32_MIN), channel counts with tails, activation ranges of both types. */
static void test_rq_fixed(const tfcc_q8_dw_kernel *k) {
  enum { C = 45 };
  int32_t acc[C], mult[C], shift[C];
  uint8_t got[C + 1], want[C];
  for (int it = 0; it < 4000; it++) {
    const int c = 1 + (int)(urand() % C);
    for (int i = 0; i < C; i++) {
      const uint32_t u = urand() ^ (urand() << 16);
      acc[i] = it % 7 == 0 ? (int32_t)u : (int32_t)(u % 2000001u) - 1000000;
      mult[i] = (int32_t)((1u << 30) + (urand() ^ (urand() << 15)) % (1u << 30));
      shift[i] = it % 3 == 0 ? (int32_t)(urand() % 62) - 31 : (int32_t)(urand() % 16) - 14;
    }
    if (it % 11 == 0) acc[urand() % C] = INT32_MIN;
    if (it % 13 == 0) acc[urand() % C] = INT32_MAX;
    if (it % 19 == 0) shift[urand() % C] = 31;
    if (it % 23 == 0) mult[urand() % C] = INT32_MIN;
    if (it % 29 == 0) mult[urand() % C] = 0;
    tfcc_conv_requant r;
    memset(&r, 0, sizeof r);
    r.mult = mult;
    r.shift = shift;
    r.mult_stride = it % 2;
    const bool s8 = it % 4 < 2;
    r.output_offset = s8 ? (int32_t)(urand() % 256) - 128 : (int32_t)(urand() % 256);
    r.act_min = s8 ? -128 + (int32_t)(urand() % 40) : (int32_t)(urand() % 40);
    r.act_max = s8 ? 127 - (int32_t)(urand() % 40) : 255 - (int32_t)(urand() % 40);
    for (int i = 0; i < c; i++) want[i] = (uint8_t)tfcc_requant32(acc[i], 0, &r, i);
    memset(got, 0xEE, sizeof got);
    k->rq_fixed(acc, (size_t)c, &r, got);
    CHECKF(memcmp(got, want, (size_t)c) == 0 && got[c] == 0xEE,
           "%s: fixed-point requantization, %d channels, stride %d", k->name, c, r.mult_stride);
  }
}

/* tfcc_q8_dw_fits_any_width says yes exactly where tfcc_q8_dw_fits holds at every out_w
 * (checked to 4096 columns, past where the margin stops moving). */
static void test_fits_any_width(void) {
  static const int32_t fws[] = {1, 3, 5, 7}, strides[] = {1, 2, 16, 47, 48, 49, 200},
                       dils[] = {1, 2, 64, 100, 200, 1000};
  for (size_t a = 0; a < sizeof fws / sizeof fws[0]; a++)
    for (size_t b = 0; b < sizeof strides / sizeof strides[0]; b++)
      for (size_t c = 0; c < sizeof dils / sizeof dils[0]; c++) {
        tfcc_conv_geom g = {0};
        g.filter_h = 3, g.filter_w = fws[a], g.stride_w = strides[b], g.dil_w = dils[c];
        bool every = true;
        for (g.out_w = 1; g.out_w <= 4096 && every; g.out_w++) every = tfcc_q8_dw_fits(&g);
        CHECK(tfcc_q8_dw_fits_any_width(3, fws[a], strides[b], dils[c]) == every);
      }
  CHECK(!tfcc_q8_dw_fits_any_width(0, 3, 1, 1) && !tfcc_q8_dw_fits_any_width(3, 3, 0, 1));
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  test_fits_any_width();
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS_USABLE(tfcc_q8_dw, tfcc_q8_dw_usable);
  const qcase cases[] = {
      /* signed, fp32, in_zp, w_zp, out_zp, scales, act range */
      {true, true, 0, 0, 0, 1e-4f, 2e-2f, -128, 127},
      {true, true, -128, 0, 127, 1e-3f, 5e-2f, -128, 127},
      {true, true, 127, 0, -128, 1e-5f, 1e-3f, -128, 127},
      {true, true, 5, 0, -3, 1e-3f, 3e-3f, 0, 127},  /* RELU */
      {true, true, -7, 0, 10, 1e-3f, 3e-3f, 10, 70}, /* RELU6-like */
      {true, true, 2, 0, -20, 0.5f, 2.5f, -100, 90}, /* scales >= 1: clamp before rounding */
      {false, true, 130, 126, 40, 1.0f, 1.0f, 5, 250},
      {true, false, 3, 0, -5, 1e-4f, 2e-2f, -128, 127},
      {true, false, -128, 0, 127, 1e-3f, 5e-1f, -128, 127},
      {true, false, 127, 0, 0, 1e-6f, 1e-5f, -1, 1},
      {true, false, 1, 0, 2, 1.5f, 3.0f, -128, 127}, /* multiplier > 1: left shift */
      {false, false, 120, 118, 7, 1.2f, 1.2f, 0, 255},
      {false, true, 128, 128, 128, 1e-4f, 1e-4f, 0, 255},
      {false, true, 0, 255, 255, 2e-3f, 2e-3f, 0, 255},
      {false, true, 255, 0, 0, 3e-5f, 3e-5f, 0, 255},
      {false, true, 17, 140, 3, 1e-3f, 1e-3f, 3, 200},
      {false, false, 128, 128, 128, 1e-4f, 1e-4f, 0, 255},
      {false, false, 0, 255, 255, 2e-3f, 2e-3f, 0, 255},
      {false, false, 255, 0, 0, 7e-2f, 7e-2f, 0, 255},
      {false, false, 100, 37, 60, 4e-4f, 4e-4f, 60, 255},
  };
  int tested = 0;
  TFCC_EACH_VARIANT_IF(tfcc_q8_dw, k, best, tfcc_q8_dw_usable(k, best)) {
    tested++;
    if (k->rq_fixed) test_rq_fixed(k);
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
      const qcase *q = &cases[ci];
      tfcc_threadpool *pl = ci % 2 ? pool2 : NULL;
      test_dw(k, pl, q, 1, 7, 9, 3, 3, 3, 1, 1, true, true);
      test_dw(k, pl, q, 2, 12, 11, 33, 3, 3, 2, 1, true, ci % 3 == 0);
      test_dw(k, pl, q, 1, 9, 9, 16, 5, 5, 1, 1, true, true);
      test_dw(k, pl, q, 1, 13, 10, 47, 5, 5, 2, 1, true, true);
      test_dw(k, pl, q, 1, 9, 8, 24, 3, 3, 1, 1, false, true);
      test_dw(k, pl, q, 1, 10, 10, 9, 3, 3, 1, 2, true, true);
      test_dw(k, pl, q, 1, 6, 7, 1, 2, 4, 1, 1, true, true);
      test_dw(k, pl, q, 1, 30, 30, 96, 3, 3, 2, 1, true, true);
      /* 64-channel blocks (full, tail of 1, of 63), 5x5 / 7x7 / 4x1 windows (filter-row quads
       * of 4, partial), depth multiplier 2 and 3, window taller than the image */
      test_dw(k, pl, q, 1, 8, 9, 128, 3, 3, 1, 1, true, true);
      test_dw(k, pl, q, 1, 7, 7, 65, 5, 5, 1, 1, true, true);
      test_dw(k, pl, q, 1, 9, 8, 127, 3, 3, 2, 1, false, true);
      test_dw(k, pl, q, 1, 10, 9, 20, 7, 7, 2, 1, true, true);
      test_dw(k, pl, q, 1, 9, 6, 70, 4, 1, 1, 1, true, true);
      test_dw(k, pl, q, 1, 2, 12, 64, 5, 5, 1, 1, true, true);
      test_dwm(k, pl, q, 1, 9, 10, 8, 2, 3, 3, 1, 1, true, true);
      test_dwm(k, pl, q, 2, 11, 9, 40, 2, 3, 3, 2, 1, true, true);
      test_dwm(k, pl, q, 1, 8, 8, 5, 3, 5, 5, 1, 2, true, ci % 2 == 0);
      /* channel counts dividing 64 at stride 1 (several pixels per vector, partial edges) */
      test_dw(k, pl, q, 1, 7, 13, 32, 3, 3, 1, 1, true, true);
      test_dw(k, pl, q, 1, 6, 11, 8, 3, 3, 1, 2, true, true);
      test_dw(k, pl, q, 1, 5, 70, 2, 3, 3, 1, 1, false, true);
      test_dw(k, pl, q, 2, 4, 37, 4, 5, 5, 1, 1, true, ci % 3 == 1);
      test_dw(k, pl, q, 1, 9, 9, 32, 3, 3, 2, 1, true, true);
      /* 3x3 stride 2 (AVX2's run reuses each even column for 2 pixels): even and odd widths,
       * SAME and VALID, runs of 1 pixel (out_w 1, 2), 16-channel groups with and without a
       * tail, uint8 and int8 */
      test_dw(k, pl, q, 1, 7, 16, 48, 3, 3, 2, 1, false, true);
      test_dw(k, pl, q, 2, 9, 17, 31, 3, 3, 2, 1, true, ci % 2 == 1);
      test_dw(k, pl, q, 1, 5, 4, 16, 3, 3, 2, 1, false, true);
      test_dw(k, pl, q, 1, 6, 5, 17, 3, 3, 2, 1, true, true);
      test_dw(k, pl, q, 1, 8, 14, 64, 3, 3, 2, 1, true, true);
    }
  }
  CHECK(tested >= 1);
  printf("%d q8 depthwise kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_q8_dwconv");
}
