/* Fused 8-bit expand 1x1 + depthwise (q8-expand-dw) against the unfused pair through the
 * reference kernels (tfcc_conv_i8 on the whole expanded tensor, then tfcc_dwconv_i8), byte for
 * byte: random odd shapes (H, W 1..20, input channels 1..40, expansion 1..7), 3x3 and 5x5,
 * strides 1 and 2 on each axis, SAME, VALID and asymmetric explicit padding, per-channel
 * requantization in float (XNNPACK's, TFLITE mode) and fixed point (REFERENCE mode), extreme
 * zero points, activation ranges on both halves, with and without biases, batches 1 and 2,
 * inline and on a 2-thread pool, with every (q8 GEMM, q8 depthwise) kernel pair this CPU runs.
 * Also MobileNetV2-sized pairs (112-wide x96 stride 2, 56-wide x144 stride 1, a 5x5 one), whose
 * windows are smaller than the image: several strips per image and per thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/q8-expand-dw/expand_dw.h"
#include "kernels/ref/depthwise_conv.h"
#include "base/threadpool.h"
#include "q8_requant_test_util.h"
#include "test_harness.h"

typedef struct shape {
  int b, h, w, cin, c, k, sh, sw;
  int pad_mode; /* 0 SAME, 1 VALID, 2 explicit (top, left) */
  int pt, pb, pl, pr;
  bool bias1, bias2;
} shape;

static void geom_of(const shape *s, tfcc_conv_geom *g) {
  memset(g, 0, sizeof *g);
  g->batches = s->b;
  g->in_h = s->h;
  g->in_w = s->w;
  g->in_c = g->out_c = s->c;
  g->filter_h = g->filter_w = s->k;
  g->filter_in_c = 1;
  g->stride_h = s->sh;
  g->stride_w = s->sw;
  g->dil_h = g->dil_w = 1;
  if (s->pad_mode == 0) {
    g->out_h = (s->h + s->sh - 1) / s->sh;
    g->out_w = (s->w + s->sw - 1) / s->sw;
    const int ph = ((g->out_h - 1) * s->sh + s->k - s->h) / 2,
              pw = ((g->out_w - 1) * s->sw + s->k - s->w) / 2;
    g->pad_h = ph > 0 ? ph : 0;
    g->pad_w = pw > 0 ? pw : 0;
  } else if (s->pad_mode == 1) {
    g->out_h = (s->h - s->k) / s->sh + 1;
    g->out_w = (s->w - s->k) / s->sw + 1;
  } else {
    g->out_h = (s->h + s->pt + s->pb - s->k) / s->sh + 1;
    g->out_w = (s->w + s->pl + s->pr - s->k) / s->sw + 1;
    g->pad_h = s->pt;
    g->pad_w = s->pl;
  }
}

/* (q8 GEMM, q8 depthwise) pairs to run: the ISA levels whose selections differ */
static tfcc_isa levels[TFCC_ISA_COUNT_];
static int n_levels;
static int n_fail_shapes;

/* Requantization cases of the two halves: the expand's output zero point is the depthwise's
 * input zero point (mid). */
typedef struct pcase {
  bool fp32;
  int32_t in_zp, mid_zp, out_zp;
  float s1_lo, s1_hi, s2_lo, s2_hi;
  int32_t act1_min, act1_max, act2_min, act2_max;
} pcase;

static void run_shape(const shape *s, const pcase *pc, tfcc_threadpool *pool, const tfcc_isa *isas,
                      int n_isa) {
  tfcc_conv_geom g;
  geom_of(s, &g);
  if (g.out_h <= 0 || g.out_w <= 0) return;
  const size_t px = (size_t)s->b * s->h * s->w, npx = (size_t)s->b * g.out_h * g.out_w;
  const size_t nx = px * (size_t)s->cin, nf1 = (size_t)s->c * s->cin,
               nf2 = (size_t)s->k * s->k * s->c;
  uint8_t *x = malloc(nx + 1), *f1 = malloc(nf1 + 1), *f2 = malloc(nf2 + 1);
  uint8_t *e = malloc(px * (size_t)s->c + 1), *want = malloc(npx * (size_t)s->c + 1);
  uint8_t *got = malloc(npx * (size_t)s->c + 1);
  int32_t *b1 = malloc(sizeof(int32_t) * (size_t)s->c),
          *b2 = malloc(sizeof(int32_t) * (size_t)s->c);
  float *sc1 = malloc(sizeof(float) * (size_t)s->c), *sc2 = malloc(sizeof(float) * (size_t)s->c);
  int32_t *m1 = malloc(sizeof(int32_t) * (size_t)s->c),
          *sh1 = malloc(sizeof(int32_t) * (size_t)s->c);
  int32_t *m2 = malloc(sizeof(int32_t) * (size_t)s->c),
          *sh2 = malloc(sizeof(int32_t) * (size_t)s->c);
  q8_test_fill(x, nx, f1, nf1);
  for (size_t i = 0; i < nf2; i++) f2[i] = (uint8_t)urand();
  for (int c = 0; c < s->c; c++) {
    b1[c] = (int32_t)(urand() % 20001) - 10000;
    b2[c] = (int32_t)(urand() % 20001) - 10000;
  }
  const qcase q1 = {true,      pc->fp32,  pc->in_zp,    0,           pc->mid_zp,
                    pc->s1_lo, pc->s1_hi, pc->act1_min, pc->act1_max};
  const qcase q2 = {true,      pc->fp32,  pc->mid_zp,   0,           pc->out_zp,
                    pc->s2_lo, pc->s2_hi, pc->act2_min, pc->act2_max};
  tfcc_conv_requant r1, r2;
  make_requant(&q1, s->c, &r1, sc1, m1, sh1);
  make_requant(&q2, s->c, &r2, sc2, m2, sh2);
  const int32_t *bias1 = s->bias1 ? b1 : NULL, *bias2 = s->bias2 ? b2 : NULL;
  /* reference: the whole expanded tensor, then the depthwise */
  tfcc_conv_geom g1;
  memset(&g1, 0, sizeof g1);
  g1.batches = s->b;
  g1.in_h = g1.out_h = s->h;
  g1.in_w = g1.out_w = s->w;
  g1.in_c = g1.filter_in_c = s->cin;
  g1.out_c = s->c;
  g1.filter_h = g1.filter_w = 1;
  g1.stride_h = g1.stride_w = g1.dil_h = g1.dil_w = 1;
  tfcc_conv_i8(&g1, &r1, (const int8_t *)x, (const int8_t *)f1, bias1, (int8_t *)e);
  tfcc_dwconv_i8(&g, &r2, (const int8_t *)e, (const int8_t *)f2, bias2, (int8_t *)want);
  for (int li = 0; li < n_isa; li++)
    for (int pi = 0; pi < (pool ? 2 : 1); pi++) {
      tfcc_threadpool *const tp = pi ? pool : NULL;
      const tfcc_q8_gemm_kernel *gk = tfcc_q8_gemm_select_for(isas[li], (int64_t)px, s->cin, s->c);
      const tfcc_q8_dw_kernel *dk = tfcc_q8_dw_select(isas[li]);
      tfcc_q8_packed p1;
      tfcc_q8_dw_packed p2;
      CHECK(tfcc_q8_pack(gk, true, s->c, s->cin, f1, bias1, &r1, &p1));
      CHECK(tfcc_q8_dw_pack(dk, true, s->c, s->k, s->k, f2, bias2, &r2, &p2));
      const tfcc_q8_expand_dw k = {&p1, &r1, &p2, &r2, 0};
      const size_t sb = tfcc_q8_expand_dw_scratch_bytes(&k, &g, tfcc_threadpool_size(tp));
      void *scratch = aligned_alloc(64, (sb + 63) / 64 * 64 + 64);
      memset(scratch, 0x5A, sb);
      memset(got, 0xEE, npx * (size_t)s->c + 1);
      tfcc_q8_expand_dw_run(tp, &k, &g, x, got, scratch);
      size_t bad = 0;
      for (size_t i = 0; i < npx * (size_t)s->c; i++) bad += got[i] != want[i];
      CHECKF(bad == 0 && got[npx * (size_t)s->c] == 0xEE,
             "%s + %s %s b%d %dx%dx%d->%d k%d s%dx%d pad%d(%d,%d,%d,%d) zp %d/%d/%d bias %d/%d "
             "threads %d: %zu bytes differ from the reference pair",
             gk->name, dk->name, pc->fp32 ? "fp32" : "fixed", s->b, s->h, s->w, s->cin, s->c, s->k,
             s->sh, s->sw, s->pad_mode, s->pt, s->pb, s->pl, s->pr, pc->in_zp, pc->mid_zp,
             pc->out_zp, s->bias1, s->bias2, tfcc_threadpool_size(tp), bad);
      if (bad) n_fail_shapes++;
      tfcc_q8_packed_free(&p1);
      tfcc_q8_dw_packed_free(&p2);
      free(scratch);
    }
  free(x);
  free(f1);
  free(f2);
  free(e);
  free(want);
  free(got);
  free(b1);
  free(b2);
  free(sc1);
  free(sc2);
  free(m1);
  free(sh1);
  free(m2);
  free(sh2);
}

int main(void) {
  (void)q8_test_geom_out; /* the shared helper's SAME / VALID: geom_of has explicit padding too */
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  for (int i = 0; i < (int)TFCC_ISA_COUNT_; i++) {
    const tfcc_isa l = (tfcc_isa)i;
    if (!tfcc_isa_level_fits(l, best)) continue;
    bool dup = false;
    for (int j = 0; j < n_levels; j++)
      dup = dup || (tfcc_q8_gemm_select_for(levels[j], 1000, 16, 96) ==
                        tfcc_q8_gemm_select_for(l, 1000, 16, 96) &&
                    tfcc_q8_dw_select(levels[j]) == tfcc_q8_dw_select(l));
    if (!dup) levels[n_levels++] = l;
  }
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  CHECK(tfcc_threadpool_create(2, NULL, 0, &pool, &err) == TFCC_OK);
  const pcase cases[] = {
      /* fp32, in/mid/out zp, expand scales, depthwise scales, activation ranges */
      {true, -128, -128, 3, 1e-3f, 2e-2f, 1e-3f, 5e-2f, -128, 127, -128, 127},
      {true, 5, -128, -7, 2e-3f, 4e-2f, 2e-3f, 2e-2f, -128, 30, -128, 127}, /* RELU6-like */
      {true, 127, 100, -128, 1e-4f, 3e-3f, 1e-3f, 1e-2f, 100, 127, -100, 90},
      {false, -128, -128, 3, 1e-3f, 2e-2f, 1e-3f, 5e-2f, -128, 127, -128, 127},
      {false, 7, -20, 0, 1e-4f, 1e-2f, 1e-3f, 1.5f, -20, 100, -128, 127},
  };
  const int ncase = (int)(sizeof cases / sizeof cases[0]);
  for (int it = 0; it < 120 && n_fail_shapes < 10; it++) {
    shape s;
    memset(&s, 0, sizeof s);
    s.b = 1 + (int)(urand() % 2);
    s.h = 1 + (int)(urand() % 20);
    s.w = 1 + (int)(urand() % 20);
    s.cin = 1 + (int)(urand() % 40);
    s.c = s.cin * (1 + (int)(urand() % 7));
    s.k = urand() % 3 ? 3 : 5;
    s.sh = 1 + (int)(urand() % 2);
    s.sw = urand() % 4 ? s.sh : 3 - s.sh;
    s.pad_mode = (int)(urand() % 3);
    if (s.pad_mode == 2) {
      s.pt = (int)(urand() % 3);
      s.pb = (int)(urand() % 3);
      s.pl = (int)(urand() % 3);
      s.pr = (int)(urand() % 3);
    }
    s.bias1 = urand() % 5 != 0;
    s.bias2 = urand() % 5 != 0;
    run_shape(&s, &cases[it % ncase], it % 4 == 0 ? pool : NULL, levels, n_levels);
  }
  /* windows smaller than the image: several strips per image and per thread; then images
   * that fit one window */
  const shape big[] = {
      {1, 48, 112, 16, 96, 3, 2, 2, 0, 0, 0, 0, 0, true, true},
      {1, 40, 56, 24, 144, 3, 1, 1, 0, 0, 0, 0, 0, true, true},
      {2, 30, 120, 8, 200, 5, 2, 1, 2, 1, 3, 2, 0, false, true},
      /* MobileNetV2's 14x14 and 7x7 pairs: one window per image, so on the pool the whole
       * image is expanded by the pooled GEMM, then the depthwise's rows are split */
      {1, 14, 14, 64, 384, 3, 1, 1, 0, 0, 0, 0, 0, true, true},
      {1, 14, 14, 96, 576, 3, 2, 2, 0, 0, 0, 0, 0, true, true},
      {2, 7, 7, 160, 960, 3, 1, 1, 0, 0, 0, 0, 0, true, true},
  };
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
    for (int ci = 0; ci < ncase; ci += 3) run_shape(&big[i], &cases[ci], pool, &best, 1);
  tfcc_threadpool_destroy(pool);
  return tfcc_test_finish("q8_expand_dw");
}
