/* Float32 Winograd convolution (F(2x2,3x3) and F(4x4,3x3)): every transform variant this CPU
 * can run, with the GEMM micro-kernel of the same level, the filter transform stored and on the
 * fly (from the im2col GEMM's packing), against the reference convolution on
 * odd shapes: H, W 1..17 (images smaller than a tile, partial edge tiles), channels 1..70
 * (vector tails, half and partial GEMM panels), SAME and VALID, batch 1 and 2, each fused
 * activation, inline and on a 2-thread pool, plus block splits (many tiles). Winograd changes
 * rounding: the error of each output is bounded relative to sum |w * x| + |bias| (the
 * magnitude of what is summed); the test prints the largest ratio seen for F2 and F4.
 * Then CONV_2D itself as a model load runs it (init may choose Winograd): the layers the rule
 * gives to Winograd (F4, F2) against the reference within the bound and not bit-identical to
 * the GEMM path (so Winograd ran), the ones it keeps on the GEMM bit-identical to it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-winograd/winograd.h"
#include "kernels/ref/conv.h"
#include "conv_family_test_util.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

/* Error bound relative to sum |w x| + |bias| (float32 eps = 1.2e-7; seen: see main). */
#define TOL_F2 2e-6
#define TOL_F4 1e-5

static uint32_t rng = 777u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static double worst[2][5]; /* by on the fly, tile size m */

static void test_wino(const tfcc_f32_wino_kernel *k, int m, bool otf, tfcc_threadpool *pool,
                      int batches, int ih, int iw, int ic, int oc, bool same, bool bias, float lo,
                      float hi) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = batches;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = ic;
  g.out_c = oc;
  g.filter_h = g.filter_w = 3;
  g.filter_in_c = ic;
  g.stride_h = g.stride_w = 1;
  g.dil_h = g.dil_w = 1;
  g.out_h = same ? ih : ih - 2;
  g.out_w = same ? iw : iw - 2;
  g.pad_h = same ? 1 : 0;
  g.pad_w = same ? 1 : 0;
  if (g.out_h <= 0 || g.out_w <= 0) return;
  CHECK(tfcc_f32_wino_fits(&g));
  const tfcc_f32_gemm_kernel *gk = tfcc_f32_gemm_select(k->isa);
  const size_t nin = (size_t)batches * ih * iw * ic, nf = (size_t)oc * 9 * ic;
  const size_t nout = (size_t)batches * g.out_h * g.out_w * oc;
  float *in = malloc(sizeof(float) * nin), *f = malloc(sizeof(float) * nf);
  float *ain = malloc(sizeof(float) * nin), *af = malloc(sizeof(float) * nf);
  float *b = malloc(sizeof(float) * (size_t)oc), *ab = malloc(sizeof(float) * (size_t)oc);
  float *want = malloc(sizeof(float) * nout), *mag = malloc(sizeof(float) * nout);
  float *got = malloc(sizeof(float) * (nout + 1));
  for (size_t i = 0; i < nin; i++) ain[i] = fabsf(in[i] = frand());
  for (size_t i = 0; i < nf; i++) af[i] = fabsf(f[i] = frand());
  for (int i = 0; i < oc; i++) ab[i] = fabsf(b[i] = frand());
  tfcc_f32_wino_weights w;
  tfcc_f32_packed pk = {0};
  if (otf) {
    CHECK(tfcc_f32_pack(gk, oc, 9 * ic, f, (size_t)9 * ic, 1, bias ? b : NULL, &pk));
    CHECK(tfcc_f32_wino_otf(k, m, oc, ic, &pk, &w));
    CHECK(tfcc_f32_wino_weight_bytes(&w) == 0);
  } else {
    CHECK(tfcc_f32_wino_pack(k, gk, m, oc, ic, f, bias ? b : NULL, &w));
  }
  const int threads = tfcc_threadpool_size(pool);
  const size_t sb = tfcc_f32_wino_scratch_bytes(&g, &w, threads);
  void *scratch = aligned_alloc(64, (sb + 63) & ~(size_t)63);
  tfcc_conv_f32(&g, in, f, bias ? b : NULL, lo, hi, want);
  tfcc_conv_f32(&g, ain, af, bias ? ab : NULL, -INFINITY, INFINITY, mag);
  got[nout] = 12345.0f;
  memset(scratch, 0xff, sb); /* NaN garbage: nothing may read scratch it did not write */
  tfcc_f32_wino_conv(pool, &g, &w, in, got, lo, hi, scratch);
  const double tol = m == 4 ? TOL_F4 : TOL_F2;
  int bad = 0;
  for (size_t i = 0; i < nout; i++) {
    const double err = fabs((double)got[i] - (double)want[i]);
    const double ratio = err / ((double)mag[i] + 1e-30);
    if (err > 0 && ratio > worst[otf][m]) worst[otf][m] = ratio;
    if (!(err <= tol * (double)mag[i]) && bad++ < 3)
      fprintf(stderr, "%s %dx%dx%dx%d->%d: out[%zu] = %g, want %g (sum |wx| %g)\n", w.name, batches,
              ih, iw, ic, oc, i, got[i], want[i], mag[i]);
  }
  CHECKF(bad == 0, "%s%s %dx%dx%dx%d->%d %s act [%g, %g] threads %d: %d wrong", w.name,
         otf ? " (on the fly)" : "", batches, ih, iw, ic, oc, same ? "SAME" : "VALID", lo, hi,
         threads, bad);
  CHECK(got[nout] == 12345.0f);
  tfcc_f32_wino_free(&w);
  tfcc_f32_packed_free(&pk);
  free(scratch);
  free(in);
  free(f);
  free(ain);
  free(af);
  free(b);
  free(ab);
  free(want);
  free(mag);
  free(got);
}

/* CONV_2D through init/prepare/eval, Winograd allowed (TFCC_WINO_OTF, TFCC_WINO_STORED) or not. */
static void op_case(int batches, int ih, int iw, int ic, int oc, bool same, int act,
                    const float *in, const float *f, const float *b, int winograd, tt_case *c) {
  memset(c, 0, sizeof *c);
  c->builtin = 3; /* CONV_2D */
  c->n_in = 3;
  c->winograd = winograd;
  const int32_t di[4] = {batches, ih, iw, ic}, df[4] = {oc, 3, 3, ic}, db[1] = {oc};
  const int32_t dout[4] = {batches, same ? ih : ih - 2, same ? iw : iw - 2, oc};
  tt_set(&c->in[0], TFCC_FLOAT32, 4, di, (void *)in);
  c->in[0].not_const = true;
  tt_set(&c->in[1], TFCC_FLOAT32, 4, df, (void *)f);
  tt_set(&c->in[2], TFCC_FLOAT32, 1, db, (void *)b);
  tt_set(&c->out, TFCC_FLOAT32, 4, dout, NULL);
  tt_opt_i(c, 0, TFB_U8, same ? 0 : 1);
  tt_opt_i(c, 1, TFB_I32, 1);
  tt_opt_i(c, 2, TFB_I32, 1);
  tt_opt_i(c, 3, TFB_U8, act);
  CHECKF(tt_run(c, true) == TFCC_OK, "CONV_2D run: %s", c->err.msg);
}

/* expect_stored / expect_otf: the tile size the rule gives (0: the GEMM), stored / on the fly. */
static void test_op(int batches, int ih, int iw, int ic, int oc, bool same, int act,
                    int expect_stored, int expect_otf) {
  tfcc_conv_geom g = {batches, ih, iw, ic, same ? ih : ih - 2, same ? iw : iw - 2, oc, 3, 3, ic,
                      1,       1,  1,  1,  same ? 1 : 0,       same ? 1 : 0};
  CHECKF(tfcc_f32_wino_choose(&g) == expect_stored, "rule for %dx%dx%d->%d: %d, expected %d", ih,
         iw, ic, oc, tfcc_f32_wino_choose(&g), expect_stored);
  CHECKF(tfcc_f32_wino_choose_otf(&g) == expect_otf,
         "on-the-fly rule for %dx%dx%d->%d: %d, expected %d", ih, iw, ic, oc,
         tfcc_f32_wino_choose_otf(&g), expect_otf);
  const size_t nin = (size_t)batches * ih * iw * ic, nf = (size_t)oc * 9 * ic;
  const size_t nout = (size_t)batches * g.out_h * g.out_w * oc;
  float *in = malloc(sizeof(float) * nin), *f = malloc(sizeof(float) * nf);
  float *ain = malloc(sizeof(float) * nin), *af = malloc(sizeof(float) * nf);
  float *b = malloc(sizeof(float) * (size_t)oc), *ab = malloc(sizeof(float) * (size_t)oc);
  float *want = malloc(sizeof(float) * nout), *mag = malloc(sizeof(float) * nout);
  for (size_t i = 0; i < nin; i++) ain[i] = fabsf(in[i] = frand());
  for (size_t i = 0; i < nf; i++) af[i] = fabsf(f[i] = frand());
  for (int i = 0; i < oc; i++) ab[i] = fabsf(b[i] = frand());
  float lo = -INFINITY, hi = INFINITY;
  if (act == 1) lo = 0.0f;
  if (act == 3) lo = 0.0f, hi = 6.0f;
  tfcc_conv_f32(&g, in, f, b, lo, hi, want);
  tfcc_conv_f32(&g, ain, af, ab, -INFINITY, INFINITY, mag);
  for (int mode = TFCC_WINO_STORED; mode <= TFCC_WINO_OTF; mode++) {
    tt_case on, off;
    op_case(batches, ih, iw, ic, oc, same, act, in, f, b, mode, &on);
    op_case(batches, ih, iw, ic, oc, same, act, in, f, b, TFCC_WINO_OFF, &off);
    if (on.st == TFCC_OK && off.st == TFCC_OK) {
      const float *got = on.out_data, *gemm = off.out_data;
      const int expect_m = mode == TFCC_WINO_OTF ? expect_otf : expect_stored;
      const double tol = expect_m == 4 ? TOL_F4 : TOL_F2;
      int bad = 0, differ = 0;
      for (size_t i = 0; i < nout; i++) {
        if (!(fabs((double)got[i] - want[i]) <= tol * (double)mag[i]) && bad++ < 3)
          fprintf(stderr, "CONV_2D %dx%dx%d->%d: out[%zu] = %g, want %g\n", ih, iw, ic, oc, i,
                  got[i], want[i]);
        differ += memcmp(&got[i], &gemm[i], sizeof(float)) != 0;
      }
      CHECKF(bad == 0, "CONV_2D with Winograd (mode %d) %dx%dx%dx%d->%d: %d wrong", mode, batches,
             ih, iw, ic, oc, bad);
      if (expect_m)
        CHECKF(differ > 0, "CONV_2D %dx%dx%d->%d: bit-identical to the GEMM, Winograd did not run",
               ih, iw, ic, oc);
      else
        CHECKF(differ == 0, "CONV_2D %dx%dx%d->%d: %d outputs differ from the GEMM path", ih, iw,
               ic, oc, differ);
    }
    tt_done(&on);
    tt_done(&off);
  }
  free(in);
  free(f);
  free(ain);
  free(af);
  free(b);
  free(ab);
  free(want);
  free(mag);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  /* taken only for 3x3, stride 1, dilation 1, groups 1 */
  tfcc_conv_geom g = {1, 8, 8, 16, 8, 8, 16, 3, 3, 16, 1, 1, 1, 1, 1, 1};
  CHECK(tfcc_f32_wino_fits(&g));
  g.stride_w = 2;
  CHECK(!tfcc_f32_wino_fits(&g));
  g.stride_w = 1;
  g.dil_h = 2;
  CHECK(!tfcc_f32_wino_fits(&g));
  g.dil_h = 1;
  g.filter_in_c = 8;
  CHECK(!tfcc_f32_wino_fits(&g));
  g.filter_in_c = 16;
  g.filter_w = 5;
  CHECK(!tfcc_f32_wino_fits(&g));
  /* the rule: ResNet-50's 56x56 and 28x28 stages take F4, 14x14 F2, 7x7 the GEMM */
  tfcc_conv_geom r = {1, 56, 56, 64, 56, 56, 64, 3, 3, 64, 1, 1, 1, 1, 1, 1};
  CHECK(tfcc_f32_wino_choose(&r) == 4);
  r.in_h = r.in_w = r.out_h = r.out_w = 28;
  r.in_c = r.filter_in_c = r.out_c = 128;
  CHECK(tfcc_f32_wino_choose(&r) == 4);
  r.in_h = r.in_w = r.out_h = r.out_w = 14;
  r.in_c = r.filter_in_c = r.out_c = 256;
  CHECK(tfcc_f32_wino_choose(&r) == 2);
  r.batches = 64; /* blocks of few tiles would each read 37.7 MB (F4) / 16.8 MB (F2) */
  r.in_c = r.filter_in_c = r.out_c = 512;
  CHECK(tfcc_f32_wino_choose(&r) == 0);
  r.in_h = r.in_w = r.out_h = r.out_w = 7;
  r.in_c = r.filter_in_c = r.out_c = 512;
  CHECK(tfcc_f32_wino_choose(&r) == 0);
  /* on the fly (only the filter read per block): F2 there too, blocks of 16 and 32 tiles */
  CHECK(tfcc_f32_wino_choose_otf(&r) == 2);
  r.batches = 1;
  CHECK(tfcc_f32_wino_choose(&r) == 0);
  CHECK(tfcc_f32_wino_choose_otf(&r) == 2);
  r.in_h = r.in_w = r.out_h = r.out_w = 56; /* where the stored rule takes Winograd, the same */
  r.in_c = r.filter_in_c = r.out_c = 64;
  CHECK(tfcc_f32_wino_choose_otf(&r) == 4);

  static const struct {
    int ih, iw, ic, oc;
  } shapes[] = {
      {1, 1, 3, 5},   {2, 3, 1, 1},    {4, 4, 16, 16},   {5, 7, 17, 33},   {6, 6, 32, 32},
      {7, 7, 70, 17}, {9, 8, 8, 70},   {11, 13, 31, 15}, {17, 17, 20, 40}, {16, 3, 64, 48},
      {3, 17, 5, 64}, {13, 10, 48, 9}, {6, 5, 130, 20}, /* K = 9 x 130: the GEMM's packing in several K blocks at every level */
  };
  const float act[4][2] = {{-INFINITY, INFINITY}, {0.0f, INFINITY}, {0.0f, 6.0f}, {-1.0f, 1.0f}};
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_f32_wino, k, best) {
    tested++;
    for (int m = 2; m <= 4; m += 2) {
      for (int otf = 0; otf < 2; otf++) {
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
          const int ih = shapes[si].ih, iw = shapes[si].iw, ic = shapes[si].ic;
          const int oc = shapes[si].oc;
          tfcc_threadpool *p = si % 2 ? pool2 : NULL;
          const float *a = act[si % 4];
          test_wino(k, m, otf, p, 1, ih, iw, ic, oc, true, true, a[0], a[1]);
          test_wino(k, m, otf, p, 2, ih, iw, ic, oc, false, si % 3 != 0, a[0], a[1]);
          test_wino(k, m, otf, si % 2 ? NULL : pool2, 2, ih, iw, ic, oc, true, si % 3 == 0,
                    act[(si + 1) % 4][0], act[(si + 1) % 4][1]);
        }
        /* many tiles: several blocks per thread */
        test_wino(k, m, otf, pool2, 2, 30, 33, 24, 40, true, true, 0.0f, INFINITY);
        test_wino(k, m, otf, NULL, 1, 40, 37, 16, 16, false, true, -INFINITY, INFINITY);
      }
    }
  }
  /* through CONV_2D (init chooses): F4, F2 (160 channels on 8x8), the GEMM (7x7x256) */
  test_op(1, 20, 19, 24, 40, true, 1, 4, 4);
  test_op(2, 13, 17, 32, 33, false, 0, 4, 4);
  test_op(1, 8, 8, 160, 160, true, 3, 2, 2);
  /* stored: the GEMM (the transformed weights' reads); on the fly: F2 (16 tiles) */
  test_op(1, 7, 7, 256, 256, true, 0, 0, 2);
  /* both: the GEMM (4 tiles) */
  test_op(1, 3, 3, 256, 256, true, 0, 0, 0);
  CHECK(tested >= 1);
  printf(
      "%d f32 Winograd transform variants tested at CPU level %s; largest |error| / sum|wx|: "
      "stored F2 %.3g, F4 %.3g; on the fly F2 %.3g, F4 %.3g\n",
      tested, tfcc_isa_name(best), worst[0][2], worst[0][4], worst[1][2], worst[1][4]);
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_f32_winograd");
}
