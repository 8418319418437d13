/* int16 x int8 GEMM (q16-gemm): the 16x8 CONV_2D driver on every variant this CPU can run,
 * against the reference kernel tfcc_conv_i16 (kernels/ref/conv.c), bit for bit: 1x1 and KxK,
 * channel counts around the tiles (not multiples of MR or NR), odd and even input depths,
 * depths past the int32 flush (TFCC_Q16_GEMM_FLUSH pairs) inside one tap and across taps,
 * strides, dilation, padding, batches, the extreme values (x = -32768 / 32767, w = -128 / 127
 * in whole layers: products of 2^22), int64 / int32 / no bias, per-tensor and per-channel
 * multipliers with shifts both ways (and one the vector requantization leaves to the scalar
 * reference function), ReLU ranges; 1 and 3 threads; layers of several blocks of tiles (the
 * row pointers made once a block) and, on 3 threads, few pixels over many panels (groups).
 * FULLY_CONNECTED of several batches on the same GEMM (tfcc_q16_gemm_fc) against the reference
 * tfcc_fc_i16 in every requantization mode: the double rescale, int32 / int64 / no bias. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/q16-gemm/gemm.h"
#include "kernels/ref/fully_connected.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 4242u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* mode 0: random; 1: x -32768, w -128 (the largest positive product); 2: x alternating
 * -32768 / 32767, w 127 / -127 (large sums of both signs); 3: small values (x within +-8, w
 * within +-4: sums that a rescale by 0.5 or 0.25 leaves unsaturated, many of them ties); 4: x
 * -32768, w as 3 but -128 in the output channels c % 32 >= 28 (conv_case: in the upper half of
 * every variant's panels, the only sums that can overflow int32) */
static void fill(int16_t *x, size_t nx, int8_t *w, size_t nw, int mode) {
  for (size_t i = 0; i < nx; i++)
    x[i] = mode == 1 || mode == 4 ? (int16_t)-32768
           : mode == 2            ? (int16_t)(i & 1 ? 32767 : -32768)
           : mode == 3            ? (int16_t)((int)(urand() % 17) - 8)
                                  : (int16_t)(urand() & 0xffff);
  for (size_t i = 0; i < nw; i++)
    w[i] = mode == 1   ? (int8_t)-128
           : mode == 2 ? (int8_t)(i % 3 ? 127 : -127)
           : mode >= 3 ? (int8_t)((int)(urand() % 9) - 4)
                       : (int8_t)urand();
}

/* multipliers in [2^30, 2^31) with shifts in [-24, 14] (14: total shift 1, the largest left
 * shift the 16x8 requantization allows; prepare refuses more); shift_kind 3: one channel's
 * shift -48 (total shift 63: the scalar path); 4: shifts -33..-35 (total shifts 48..50: sums
 * near 2^47 give outputs near 2^14, unsaturated, whose rounding shows a sum off by 2^31), output
 * offset 5 */
static void requant_init(tfcc_conv_requant *q, int32_t *mult, int32_t *shift, int n, bool per_ch,
                         int act, int shift_kind) {
  memset(q, 0, sizeof *q);
  for (int c = 0; c < n; c++) {
    mult[c] = (int32_t)(0x40000000u + (urand() & 0x3fffffffu));
    if (c % 7 == 3) mult[c] = 0x7FFF8000 + (int32_t)(urand() & 0x7fff); /* reduced to 0x7FFF */
    shift[c] = shift_kind == 0   ? -(int32_t)(12 + urand() % 10)
               : shift_kind == 1 ? (int32_t)(urand() % 15) - 8
               : shift_kind == 4 ? -(int32_t)(33 + urand() % 3)
                                 : -(int32_t)(20 + urand() % 5);
  }
  if (shift_kind == 3) shift[n / 2] = -48;
  q->mult = mult, q->shift = shift, q->mult_stride = per_ch ? 1 : 0;
  q->act_min = act == 1 ? 0 : -32768, q->act_max = act == 2 ? 1000 : 32767;
  q->output_offset = shift_kind == 4 ? 5 : 0;
}

typedef struct conv_spec {
  int batches, H, W, C, OC, kh, kw, sh, sw, ph, pw, dh, dw;
} conv_spec;

static int cases_run;

static void conv_case(const tfcc_q16_gemm_kernel *k, tfcc_threadpool *pool, const conv_spec *s,
                      int mode, int bias_kind, bool per_ch, int act, int shift_kind) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = s->batches, g.in_h = s->H, g.in_w = s->W, g.in_c = s->C, g.filter_in_c = s->C;
  g.out_c = s->OC, g.filter_h = s->kh, g.filter_w = s->kw, g.stride_h = s->sh;
  g.stride_w = s->sw, g.pad_h = s->ph, g.pad_w = s->pw, g.dil_h = s->dh, g.dil_w = s->dw;
  g.out_h = (s->H + 2 * s->ph - s->dh * (s->kh - 1) - 1) / s->sh + 1;
  g.out_w = (s->W + 2 * s->pw - s->dw * (s->kw - 1) - 1) / s->sw + 1;
  const size_t nx = (size_t)s->batches * s->H * s->W * s->C;
  const size_t nw = (size_t)s->OC * s->kh * s->kw * s->C;
  const size_t no = (size_t)s->batches * g.out_h * g.out_w * s->OC;
  const int threads = tfcc_threadpool_size(pool);
  const size_t sb = tfcc_q16_gemm_conv_scratch(&g, threads);
  int16_t *x = malloc(nx * sizeof(int16_t)), *o0 = malloc(no * sizeof(int16_t));
  int16_t *o1 = malloc(no * sizeof(int16_t));
  int8_t *w = malloc(nw);
  int64_t *b64 = malloc((size_t)s->OC * sizeof(int64_t));
  int32_t *b32 = malloc((size_t)s->OC * 4), *mult = malloc((size_t)s->OC * 4);
  int32_t *shift = malloc((size_t)s->OC * 4);
  void *scratch = sb ? aligned_alloc(64, (sb + 63) & ~(size_t)63) : NULL;
  const size_t pb = tfcc_q16_gemm_packed_bytes(k, s->OC, s->kh * s->kw, s->C);
  int8_t *wp = pb ? malloc(pb + 1) : NULL;
  CHECK(sb > 0 && pb > 0);
  CHECK(x && o0 && o1 && w && b64 && b32 && mult && shift && scratch && wp);
  if (!x || !o0 || !o1 || !w || !b64 || !b32 || !mult || !shift || !scratch || !wp) return;
  fill(x, nx, w, nw, mode);
  if (mode == 4)
    for (size_t i = 0; i < nw; i++)
      if (i / (nw / (size_t)s->OC) % 32 >= 28) w[i] = -128;
  /* bias_kind 3: biases at the fused requantization's limit +-(2^47 - 2^31) or within 2^46;
   * 4: as 3 with some at 2^47 - 2^20 (the sums then reach the reference's clamp at 2^47) */
  const int64_t blim = ((int64_t)1 << 47) - ((int64_t)1 << 31);
  for (int c = 0; c < s->OC; c++) {
    b64[c] = c % 5 == 4 ? ((int64_t)1 << 47) + 5 : (int64_t)(int32_t)urand() * 64 - (1 << 29);
    if (bias_kind >= 3)
      b64[c] = c % 3 == 0   ? blim
               : c % 3 == 1 ? -blim
                            : ((int64_t)urand() << 22) - ((int64_t)1 << 45);
    if (bias_kind == 4 && c % 4 == 2) b64[c] = ((int64_t)1 << 47) - ((int64_t)1 << 20);
    b32[c] = (int32_t)(urand() & 0xffffff) - (1 << 23);
  }
  tfcc_conv_requant q;
  requant_init(&q, mult, shift, s->OC, per_ch, act, shift_kind);
  if (shift_kind == 3) b64[s->OC / 2] = 777; /* total shift 63, on a sum far from 2^47 */
  CHECK(tfcc_q16_gemm_conv_fits(&g, &q));
  const int64_t *bb64 = bias_kind == 0 || bias_kind >= 3 ? b64 : NULL;
  const int32_t *bb32 = bias_kind == 1 ? b32 : NULL;
  tfcc_conv_i16(&g, &q, x, w, bb64, bb32, o0);
  wp[pb] = 0x33;
  tfcc_q16_gemm_pack(k, s->OC, s->kh * s->kw, s->C, w, wp);
  CHECK(wp[pb] == 0x33);
  memset(o1, 0x5a, no * sizeof(int16_t));
  memset(scratch, 0xa5, sb); /* the driver may not rely on its contents */
  tfcc_q16_gemm_conv(pool, k, &g, &q, x, wp, bb64, bb32, o1, scratch);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < no; i++)
    if (o0[i] != o1[i] && bad++ == 0) first = i;
  CHECKF(bad == 0,
         "%s (%d threads) conv %dx%dx%dx%d -> %d k%dx%d s%d,%d p%d,%d d%d,%d mode %d bias %d "
         "per_ch %d act %d shifts %d: %zu of %zu differ, first at %zu (%d, want %d)",
         k->name, threads, s->batches, s->H, s->W, s->C, s->OC, s->kh, s->kw, s->sh, s->sw, s->ph,
         s->pw, s->dh, s->dw, mode, bias_kind, (int)per_ch, act, shift_kind, bad, no, first,
         bad ? o1[first] : 0, bad ? o0[first] : 0);
  cases_run++;
  free(x), free(o0), free(o1), free(w), free(b64), free(b32), free(mult), free(shift);
  free(scratch), free(wp);
}

/* FULLY_CONNECTED of `batches` rows on the GEMM (tfcc_q16_gemm_fc) against tfcc_fc_i16: the
 * double rescale (real), int32 (wrapped) and int64 biases, none; real scales around the
 * multipliers' and one far larger (outputs clamped), output offset -3; use_real 2: scales 0.5,
 * 0.25, -0.5, 1.5, 1e-30, 1e30, 3 (ties of the rounding half away from zero, both signs;
 * zeros; saturation), small biases, one int64 bias past 2^52 (the scalar path) */
static void fc_case(const tfcc_q16_gemm_kernel *k, tfcc_threadpool *pool, int batches, int units,
                    int accum, int mode, int bias_kind, bool per_ch, int use_real, int act) {
  const size_t nx = (size_t)batches * accum, nw = (size_t)units * accum;
  const size_t no = (size_t)batches * units;
  const int threads = tfcc_threadpool_size(pool);
  const size_t sb = tfcc_q16_gemm_fc_scratch(batches, units, accum, threads);
  const size_t pb = tfcc_q16_gemm_packed_bytes(k, units, 1, accum);
  int16_t *x = malloc(nx * sizeof(int16_t)), *o0 = malloc(no * sizeof(int16_t));
  int16_t *o1 = malloc(no * sizeof(int16_t));
  int8_t *w = malloc(nw), *wp = pb ? malloc(pb) : NULL;
  int64_t *b64 = malloc((size_t)units * sizeof(int64_t));
  int32_t *b32 = malloc((size_t)units * 4), *mult = malloc((size_t)units * 4);
  int32_t *shift = malloc((size_t)units * 4);
  double *real = malloc((size_t)units * sizeof(double));
  void *scratch = sb ? aligned_alloc(64, (sb + 63) & ~(size_t)63) : NULL;
  CHECK(sb > 0 && pb > 0);
  CHECK(x && o0 && o1 && w && wp && b64 && b32 && mult && shift && real && scratch);
  if (!x || !o0 || !o1 || !w || !wp || !b64 || !b32 || !mult || !shift || !real || !scratch) return;
  fill(x, nx, w, nw, mode);
  tfcc_conv_requant q;
  requant_init(&q, mult, shift, units, per_ch, act, 0);
  q.output_offset = -3;
  for (int c = 0; c < units; c++) {
    b64[c] = (int64_t)(int32_t)urand() * 64 - (1 << 29);
    b32[c] = c % 6 == 5 ? INT32_MAX - 1000 : (int32_t)(urand() & 0xffffff) - (1 << 23);
    real[c] = ldexp((double)mult[c], shift[c] - 31) * (c % 9 == 8 ? 4096.0 : 1.0);
    if (use_real == 2) {
      static const double rs[] = {0.5, 0.25, -0.5, 1.5, 1e-30, 1e30, 3.0};
      real[c] = rs[c % 7];
      b64[c] = (int64_t)(urand() % 201) - 100;
      b32[c] = (int32_t)(urand() % 201) - 100;
    }
  }
  if (use_real == 2 && units > 40) b64[40] = ((int64_t)1 << 52) + 1;
  tfcc_fc_dims d = {batches, accum, units};
  const int64_t *bb64 = bias_kind == 0 ? b64 : NULL;
  const int32_t *bb32 = bias_kind == 1 ? b32 : NULL;
  const double *rr = use_real ? real : NULL;
  CHECK(tfcc_q16_gemm_fc_fits(&q));
  tfcc_fc_i16(&d, &q, x, w, bb64, bb32, rr, o0);
  tfcc_q16_gemm_pack(k, units, 1, accum, w, wp);
  memset(o1, 0x5a, no * sizeof(int16_t));
  memset(scratch, 0xa5, sb);
  tfcc_q16_gemm_fc(pool, k, batches, units, accum, &q, x, wp, bb64, bb32, rr, o1, scratch);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < no; i++)
    if (o0[i] != o1[i] && bad++ == 0) first = i;
  CHECKF(bad == 0,
         "%s (%d threads) fc %d x %d -> %d mode %d bias %d per_ch %d real %d act %d: %zu of %zu "
         "differ, first at %zu (%d, want %d)",
         k->name, threads, batches, accum, units, mode, bias_kind, (int)per_ch, use_real, act, bad,
         no, first, bad ? o1[first] : 0, bad ? o0[first] : 0);
  cases_run++;
  free(x), free(o0), free(o1), free(w), free(wp), free(b64), free(b32), free(mult), free(shift);
  free(real), free(scratch);
}

static const conv_spec specs[] = {
    /* b  H   W   C    OC  kh kw sh sw ph pw dh dw */
    {1, 1, 1, 512, 256, 1, 1, 1, 1, 0, 0, 1, 1}, /* a 1x1 layer on one pixel */
    {2, 5, 7, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1},     /* one channel in and out */
    {1, 6, 5, 17, 33, 1, 1, 1, 1, 0, 0, 1, 1},   /* odd depth, channels past a tile */
    {1, 9, 11, 64, 40, 1, 1, 2, 2, 0, 0, 1, 1},  /* 1x1 stride 2 */
    {1, 4, 5, 300, 37, 1, 1, 1, 1, 0, 0, 1, 1},  /* depth 300 (150 pairs) */
    {1, 3, 4, 777, 9, 1, 1, 1, 1, 0, 0, 1, 1},   /* odd depth: a flush inside the tap */
    {2, 7, 9, 3, 5, 3, 3, 1, 1, 1, 1, 1, 1},     /* 3 channels, padding */
    {1, 10, 8, 33, 19, 3, 3, 2, 2, 1, 1, 1, 1},  /* stride 2 */
    {1, 9, 9, 17, 70, 3, 3, 1, 1, 2, 2, 2, 2},   /* dilation */
    {1, 6, 6, 200, 35, 3, 3, 1, 1, 1, 1, 1, 1},  /* 1800 deep: flushes across taps */
    {1, 5, 30, 40, 40, 3, 1, 1, 1, 1, 0, 1, 1},  /* 3x1 */
    {1, 12, 11, 3, 16, 7, 7, 2, 2, 3, 3, 1, 1},  /* a 7x7 stem */
    {1, 4, 4, 8, 8, 5, 5, 1, 1, 4, 4, 1, 1},     /* padding wider than the image */
    {1, 8, 7, 24, 65, 2, 3, 3, 2, 0, 1, 1, 2},   /* uneven filter, strides, dilation */
    {1, 6, 5, 3, 300, 3, 3, 1, 1, 1, 1, 1, 1},   /* a shallow input, more than 8 panels */
    {1, 20, 30, 24, 40, 1, 1, 1, 1, 0, 0, 1, 1}, /* 600 pixels: several blocks of tiles */
    {2, 15, 17, 20, 50, 3, 3, 1, 1, 1, 1, 1, 1}, /* 510 pixels of 9 taps: blocks, padding */
    {1, 9, 10, 4, 12, 3, 3, 1, 1, 2, 1, 2, 1}, /* shallow, row dilation: filter rows copied whole */
    {1, 8, 9, 5, 9, 3, 3, 2, 1, 1, 2, 1, 2},   /* shallow, column dilation: tap by tap */
    {1, 3, 4, 510, 33, 1, 1, 1, 1, 0, 0, 1, 1},  /* 255 pairs: a lane's limit, then the flush */
    {1, 2, 5, 1021, 40, 1, 1, 1, 1, 0, 0, 1, 1}, /* four flushes, the last after the odd one */
    {1, 5, 5, 170, 20, 3, 3, 1, 1, 1, 1, 1, 1},  /* 85 pairs a tap: flushes inside taps */
    {1, 3, 4, 512, 33, 1, 1, 1, 1, 0, 0, 1, 1},  /* 256 pairs: one past the fused limit */
    {1, 4, 4, 57, 20, 3, 3, 1, 1, 1, 1, 1, 1},   /* 9 x 29 steps (odd depth): past the limit */
    {1, 4, 4, 56, 20, 3, 3, 1, 1, 1, 1, 1, 1},   /* 9 x 28 steps: fused */
};

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  TFCC_CHECK_SELECTS(tfcc_q16_gemm);
  tfcc_threadpool *pool3 = tfcc_test_pool(3);
  int tested = 0;
  for (int ki = 0; ki < tfcc_q16_gemm_kernel_count(); ki++) {
    const tfcc_q16_gemm_kernel *k = tfcc_q16_gemm_kernel_at(ki);
    if (!tfcc_q16_gemm_usable(k, best)) {
      printf("skip %s (CPU level %s)\n", k->name, tfcc_isa_name(best));
      continue;
    }
    CHECK(k->mr <= TFCC_Q16_GEMM_MAX_MR && k->nr <= TFCC_Q16_GEMM_MAX_NR);
    const size_t ns = sizeof specs / sizeof specs[0];
    for (size_t si = 0; si < ns; si++) {
      const conv_spec *s = &specs[si];
      conv_case(k, NULL, s, 0, (int)(si % 3), si % 2 == 0, (int)(si % 3), (int)(si % 3));
      conv_case(k, pool3, s, 0, (int)((si + 1) % 3), si % 2 == 1, 0, 1);
    }
    conv_case(k, NULL, &specs[2], 0, 0, true, 0, 3); /* a shift the vector path leaves */
    conv_case(k, NULL, &specs[7], 0, 2, false, 0, 3);
    /* the extremes, where the int32 lanes come closest to overflowing */
    for (int mode = 1; mode <= 2; mode++) {
      conv_case(k, NULL, &specs[4], mode, 0, true, 0, 2);
      conv_case(k, NULL, &specs[5], mode, 2, false, 0, 2);
      conv_case(k, pool3, &specs[9], mode, 1, true, 0, 2);
      conv_case(k, NULL, &specs[11], mode, 0, true, 1, 0);
      for (size_t si = ns - 6; si < ns; si++) /* the flush limit (TFCC_Q16_GEMM_FLUSH) */
        conv_case(k, si % 2 ? pool3 : NULL, &specs[si], mode, (int)si % 3, true, 0, 0);
    }
    /* deep layers of small weights but for a few channels whose sums come to 2^31 (a bound on
     * the weights alone must see every channel of a panel) */
    for (size_t si = ns - 6; si < ns; si++) {
      conv_case(k, NULL, &specs[si], 4, 2, true, 0, 0);
      conv_case(k, pool3, &specs[si], 3, (int)si % 3, false, 0, 1);
    }
    /* the fused requantization's limits (gemm.h: tfcc_q16_gemm_rq) on the largest sums */
    for (size_t si = 0; si < ns; si += 2) {
      conv_case(k, NULL, &specs[si], 1 + (int)(si / 2) % 2, 3, si % 4 == 0, 0, 4);
      conv_case(k, si % 4 ? pool3 : NULL, &specs[si], 1, 4, si % 4 != 0, 0, 4);
    }
    /* FULLY_CONNECTED batches: every requantization mode, odd sizes, 1 and 3 threads */
    static const int fcs[][3] = {{2, 1, 1},     {3, 33, 17},  {8, 64, 300},
                                 {17, 70, 777}, {5, 300, 64}, {130, 40, 24}};
    for (size_t fi = 0; fi < sizeof fcs / sizeof fcs[0]; fi++)
      for (int bias_kind = 0; bias_kind < 3; bias_kind++)
        for (int use_real = 0; use_real < 2; use_real++) {
          const int mode = (int)(fi + (size_t)bias_kind) % 3;
          fc_case(k, (fi + (size_t)use_real) % 2 ? pool3 : NULL, fcs[fi][0], fcs[fi][1], fcs[fi][2],
                  mode, bias_kind, (fi + (size_t)bias_kind) % 2 == 0, use_real, (int)fi % 3);
          if (use_real) /* ties, zeros, saturation */
            fc_case(k, fi % 2 ? pool3 : NULL, fcs[fi][0], fcs[fi][1], fcs[fi][2], 3, bias_kind,
                    fi % 2 == 0, 2, 0);
        }
    /* int64 sums past int32 through the double rescale (the int32 path must leave them) */
    for (int bias_kind = 0; bias_kind < 3; bias_kind += 2)
      fc_case(k, NULL, 3, 40, 777, 1, bias_kind, true, 1, 0);
    tested++;
  }
  tfcc_threadpool_destroy(pool3);
  printf("%d q16-gemm kernels tested (%d cases) at CPU level %s\n", tested, cases_run,
         tfcc_isa_name(best));
  return tfcc_test_finish("q16_gemm");
}
