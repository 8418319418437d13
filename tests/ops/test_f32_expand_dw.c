/* Fused expand 1x1 + depthwise (f32-expand-dw) against the unfused pair through the reference
 * kernels (tfcc_conv_f32, then tfcc_dwconv_f32 on the whole expanded tensor): random odd shapes
 * (H, W 1..20, input channels 1..40, expansion 1..7), 3x3 and 5x5, strides 1 and 2 on each
 * axis, SAME, VALID and asymmetric explicit padding (fuse_pad's), every activation on both
 * convolutions, batches 1 and 2, inline and on a 2-thread pool, at every ISA level this CPU
 * runs; tolerance relative to the sum of |products| through both convolutions. Also: the fused
 * result is bit-identical to the same fast GEMM + depthwise kernels run unfused, and a window
 * smaller than the image (MobileNetV2's 112-wide x96 stride-2 pair, 56-wide x144 stride 1,
 * a 5x5 with one output row per strip) streams its rows with the same bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-expand-dw/expand_dw.h"
#include "kernels/ref/depthwise_conv.h"
#include "kernels/ref/quant_util.h"
#include "base/threadpool.h"
#include "test_harness.h"

static uint32_t rng = 12345u;
static uint32_t urand(uint32_t n) {
  rng = rng * 1664525u + 1013904223u;
  return (rng >> 8) % n;
}
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static const int k_acts[] = {TFCC_ACT_NONE, TFCC_ACT_RELU, TFCC_ACT_RELU6, TFCC_ACT_RELU_N1_TO_1};

typedef struct shape {
  int b, h, w, cin, c, k, sh, sw;
  int pad_mode; /* 0 SAME, 1 VALID, 2 explicit (top, left) */
  int pt, pb, pl, pr;
  int act1, act2;
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

static int n_fail_shapes = 0;
static tfcc_isa levels[TFCC_ISA_COUNT_];
static int n_levels;

/* Runs one shape at each of the n_isa levels, inline and (pool != NULL) on pool. */
static void run_shape(const shape *s, const tfcc_isa *isas, int n_isa, tfcc_threadpool *pool) {
  tfcc_conv_geom g;
  geom_of(s, &g);
  if (g.out_h <= 0 || g.out_w <= 0) return;
  const size_t px = (size_t)s->b * s->h * s->w, npx = (size_t)s->b * g.out_h * g.out_w;
  float *x = malloc(sizeof(float) * px * s->cin), *w1 = malloc(sizeof(float) * s->c * s->cin);
  float *b1 = malloc(sizeof(float) * s->c), *w2 = malloc(sizeof(float) * s->k * s->k * s->c);
  float *b2 = malloc(sizeof(float) * s->c);
  for (size_t i = 0; i < px * s->cin; i++) x[i] = 2.0f * frand();
  for (int i = 0; i < s->c * s->cin; i++) w1[i] = frand();
  for (int i = 0; i < s->c; i++) b1[i] = frand(), b2[i] = frand();
  for (int i = 0; i < s->k * s->k * s->c; i++) w2[i] = frand();
  /* reference: the whole expanded tensor, then the depthwise; and the same on |values| */
  float *e = malloc(sizeof(float) * px * s->c), *ea = malloc(sizeof(float) * px * s->c);
  float *ref = malloc(sizeof(float) * npx * s->c), *bound = malloc(sizeof(float) * npx * s->c);
  float *fast = malloc(sizeof(float) * npx * s->c), *got = malloc(sizeof(float) * npx * s->c);
  float *xa = malloc(sizeof(float) * px * s->cin), *w1a = malloc(sizeof(float) * s->c * s->cin);
  float *b1a = malloc(sizeof(float) * s->c), *w2a = malloc(sizeof(float) * s->k * s->k * s->c);
  float *b2a = malloc(sizeof(float) * s->c);
  for (size_t i = 0; i < px * s->cin; i++) xa[i] = fabsf(x[i]);
  for (int i = 0; i < s->c * s->cin; i++) w1a[i] = fabsf(w1[i]);
  for (int i = 0; i < s->c; i++) b1a[i] = fabsf(b1[i]), b2a[i] = fabsf(b2[i]);
  for (int i = 0; i < s->k * s->k * s->c; i++) w2a[i] = fabsf(w2[i]);
  tfcc_conv_geom g1;
  memset(&g1, 0, sizeof g1);
  g1.batches = s->b;
  g1.in_h = g1.out_h = s->h;
  g1.in_w = g1.out_w = s->w;
  g1.in_c = g1.filter_in_c = s->cin;
  g1.out_c = s->c;
  g1.filter_h = g1.filter_w = 1;
  g1.stride_h = g1.stride_w = g1.dil_h = g1.dil_w = 1;
  float lo1, hi1, lo2, hi2;
  tfcc_act_range_f32(s->act1, &lo1, &hi1);
  tfcc_act_range_f32(s->act2, &lo2, &hi2);
  tfcc_conv_f32(&g1, x, w1, s->bias1 ? b1 : NULL, lo1, hi1, e);
  tfcc_dwconv_f32(&g, e, w2, s->bias2 ? b2 : NULL, lo2, hi2, ref);
  tfcc_conv_f32(&g1, xa, w1a, s->bias1 ? b1a : NULL, -INFINITY, INFINITY, ea);
  tfcc_dwconv_f32(&g, ea, w2a, s->bias2 ? b2a : NULL, -INFINITY, INFINITY, bound);
  for (int li = 0; li < n_isa; li++)
    for (int pi = 0; pi < (pool ? 2 : 1); pi++) {
      const tfcc_isa isa = isas[li];
      tfcc_threadpool *const tp = pi ? pool : NULL;
      /* the same fast kernels unfused */
      const tfcc_f32_gemm_kernel *gk = tfcc_f32_gemm_select(isa);
      const tfcc_f32_dwconv_kernel *dk = tfcc_f32_dwconv_select(isa);
      tfcc_f32_packed p;
      CHECK(tfcc_f32_pack(gk, s->c, s->cin, w1, (size_t)s->cin, 1, s->bias1 ? b1 : NULL, &p));
      tfcc_f32_gemm(NULL, &p, (int32_t)px, x, (size_t)s->cin, e, (size_t)s->c, lo1, hi1);
      tfcc_f32_dwconv(NULL, dk, &g, e, w2, s->bias2 ? b2 : NULL, lo2, hi2, fast, NULL);
      /* fused */
      const size_t sb = tfcc_f32_expand_dw_scratch_bytes(&g, tfcc_threadpool_size(tp));
      void *scratch = aligned_alloc(64, (sb + 63) / 64 * 64 + 64);
      for (size_t i = 0; i < npx * s->c; i++) got[i] = NAN;
      tfcc_f32_expand_dw k = {&p, lo1, hi1, dk, w2, s->bias2 ? b2 : NULL, lo2, hi2};
      tfcc_f32_expand_dw_run(tp, &k, &g, x, got, scratch);
      size_t bad = 0, differ = 0;
      double worst = 0;
      for (size_t i = 0; i < npx * s->c; i++) {
        const double err = fabs((double)got[i] - (double)ref[i]);
        const double tol = 2e-5 * (double)bound[i] + 1e-6;
        if (!(err <= tol)) bad++;
        if (err / tol > worst) worst = err / tol;
        if (memcmp(&got[i], &fast[i], sizeof(float)) != 0) differ++;
      }
      CHECKF(
          bad == 0 && differ == 0,
          "%s b%d %dx%dx%d->%d k%d s%dx%d pad%d(%d,%d,%d,%d) act %d/%d bias %d/%d threads %d: %zu "
          "outside tolerance (worst %.2f x tol), %zu differ from the unfused fast kernels",
          dk->name, s->b, s->h, s->w, s->cin, s->c, s->k, s->sh, s->sw, s->pad_mode, s->pt, s->pb,
          s->pl, s->pr, s->act1, s->act2, s->bias1, s->bias2, tfcc_threadpool_size(tp), bad, worst,
          differ);
      if (bad || differ) n_fail_shapes++;
      tfcc_f32_packed_free(&p);
      free(scratch);
    }
  free(x);
  free(w1);
  free(b1);
  free(w2);
  free(b2);
  free(e);
  free(ea);
  free(ref);
  free(bound);
  free(fast);
  free(got);
  free(xa);
  free(w1a);
  free(b1a);
  free(w2a);
  free(b2a);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  /* every distinct (GEMM, depthwise) kernel pair this CPU runs */
  for (int i = 0; i < (int)TFCC_ISA_COUNT_; i++) {
    const tfcc_isa l = (tfcc_isa)i;
    if (!tfcc_isa_level_fits(l, best)) continue;
    bool dup = false;
    for (int j = 0; j < n_levels; j++)
      dup = dup || (tfcc_f32_gemm_select(levels[j]) == tfcc_f32_gemm_select(l) &&
                    tfcc_f32_dwconv_select(levels[j]) == tfcc_f32_dwconv_select(l));
    if (!dup) levels[n_levels++] = l;
  }
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  CHECK(tfcc_threadpool_create(2, NULL, 0, &pool, &err) == TFCC_OK);
  for (int it = 0; it < 160; it++) {
    shape s;
    memset(&s, 0, sizeof s);
    s.b = 1 + (int)urand(2);
    s.h = 1 + (int)urand(20);
    s.w = 1 + (int)urand(20);
    s.cin = 1 + (int)urand(40);
    s.c = s.cin * (1 + (int)urand(7));
    s.k = urand(3) ? 3 : 5;
    s.sh = 1 + (int)urand(2);
    s.sw = urand(4) ? s.sh : 3 - s.sh;
    s.pad_mode = (int)urand(3);
    if (s.pad_mode == 2) {
      s.pt = (int)urand(3);
      s.pb = (int)urand(3);
      s.pl = (int)urand(3);
      s.pr = (int)urand(3);
    }
    s.act1 = k_acts[urand(4)];
    s.act2 = k_acts[urand(4)];
    s.bias1 = urand(5) != 0;
    s.bias2 = urand(5) != 0;
    if (n_fail_shapes < 10) run_shape(&s, levels, n_levels, it % 4 == 0 ? pool : NULL);
  }
  /* windows smaller than the image: several strips per image and per thread; then images
   * that fit one window */
  const shape big[] = {
      {1, 48, 112, 16, 96, 3, 2, 2, 0, 0, 0, 0, 0, TFCC_ACT_RELU6, TFCC_ACT_RELU6, true, true},
      {1, 40, 56, 24, 144, 3, 1, 1, 0, 0, 0, 0, 0, TFCC_ACT_RELU6, TFCC_ACT_NONE, true, true},
      {1, 30, 120, 8, 200, 5, 2, 1, 2, 1, 3, 2, 0, TFCC_ACT_RELU, TFCC_ACT_RELU6, false, true},
      /* MobileNetV2's 28x28 pairs (two windows: row runs on the pool), then its 14x14 and 7x7
       * pairs (one window: on the pool the whole image is expanded by the pooled GEMM, then the
       * depthwise's rows are split) */
      {1, 28, 28, 32, 192, 3, 1, 1, 0, 0, 0, 0, 0, TFCC_ACT_RELU6, TFCC_ACT_RELU6, true, true},
      {1, 28, 28, 32, 192, 3, 2, 2, 0, 0, 0, 0, 0, TFCC_ACT_RELU6, TFCC_ACT_RELU6, true, true},
      {1, 14, 14, 64, 384, 3, 1, 1, 0, 0, 0, 0, 0, TFCC_ACT_RELU6, TFCC_ACT_NONE, true, true},
      {1, 14, 14, 96, 576, 3, 2, 2, 0, 0, 0, 0, 0, TFCC_ACT_RELU6, TFCC_ACT_RELU6, true, true},
      {2, 7, 7, 160, 960, 3, 1, 1, 0, 0, 0, 0, 0, TFCC_ACT_RELU6, TFCC_ACT_RELU6, true, false},
  };
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) { run_shape(&big[i], &best, 1, pool); }
  tfcc_threadpool_destroy(pool);
  return tfcc_test_finish("f32_expand_dw");
}
