/* Micro-benchmark of the fused hybrid expand 1x1 + float-weight depthwise
 * (hybrid-expand-xnn-dw, kernels/hybrid/expand_dw.h; not a test) against the unfused pair run by
 * the same kernels, as the two operators run it in TFLITE mode: qd8 of every input pixel
 * (tfcc_hyb_qd8_rows, the GEMM's uint8 q + 128) and tfcc_q8_gemm_hybrid writing the whole
 * expanded float tensor (RELU6), then the XNNPACK-order depthwise (3x3 SAME, RELU6) reading it
 * back. Usage:
 *   hybrid_expand_dw_bench [--shape HW CIN C STRIDE] [--block ROWS] [--reps N]
 * Default: MobileNetV2's pairs (the first, 112 x 112 x 16 -> 96 with a stride-2 depthwise, is
 * the one the pass fuses in the hybrid twin: its depthwise has float weights; the others have
 * int8 ones there, which this kernel does not take, and are timed for the kernel's sake).
 * One thread, thread CPU time per call, median and minimum of N (default 21) calls; TFCC_ISA
 * caps the kernels as in tfcc. Each shape also checks that both give the same bits.
 * Where the q8 depthwise has a row kernel (AVX512-VNNI), a second line splits the same expand
 * before a depthwise with int8 weights, as the other 15 pairs of the hybrid twin run (medians,
 * us): qd8 + GEMM, the depthwise's per-image min/max pass over the expanded image, its asym
 * element, the q8 row kernel's hybrid output; then the GEMM alone, the GEMM in blocks of
 * --block ROWS rows (default 56), and the same blocks each followed by its min/max (the range
 * read while the block is in L1 / L2: what folding the depthwise's min/max into the expand
 * could save at most, the blocked GEMM's own cost included). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "cpu/cpu_info.h"
#include "kernels/hybrid/expand_dw.h"
#include "kernels/hybrid/hyb_out.h"
#include "kernels/hybrid/quantize.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-gemm/gemm.h"

static tfcc_isa g_isa;
static int g_reps = 21;
static size_t g_block = 56; /* --block: rows per GEMM block of the range probe */

typedef struct pair_shape {
  int hw, cin, c, stride;
} pair_shape;

static void *bench_alloc(size_t n) { return aligned_alloc(64, (n + 63) & ~(size_t)63); }

static void stats(double *t, int n, double *med, double *mn) {
  qsort(t, (size_t)n, sizeof(double), bench_cmp_double);
  *med = t[n / 2];
  *mn = t[0];
}

static void run_pair(const pair_shape *s) {
  const int H = s->hw, W = s->hw, K = s->cin, C = s->c;
  tfcc_conv_geom g = {0};
  g.batches = 1;
  g.in_h = H, g.in_w = W, g.in_c = C;
  g.filter_h = g.filter_w = 3;
  g.filter_in_c = 1;
  g.stride_h = g.stride_w = s->stride;
  g.dil_h = g.dil_w = 1;
  g.out_h = (H + s->stride - 1) / s->stride, g.out_w = (W + s->stride - 1) / s->stride;
  g.out_c = C;
  /* SAME: total padding max((out - 1) * stride + 3 - in, 0), the leading half rounded down */
  const int pt = (g.out_h - 1) * s->stride + 3 - H;
  g.pad_h = g.pad_w = pt > 0 ? pt / 2 : 0;
  const size_t px = (size_t)H * W, opx = (size_t)g.out_h * g.out_w;
  float *x = bench_alloc(px * K * sizeof(float)), *e = bench_alloc(px * C * sizeof(float));
  float *o1 = bench_alloc(opx * C * sizeof(float)), *o2 = bench_alloc(opx * C * sizeof(float));
  int8_t *w = malloc((size_t)C * K), *q = bench_alloc(px * K);
  uint8_t *wu = malloc((size_t)C * K);
  int32_t *wsum = malloc(C * sizeof(int32_t)), *zp = malloc(px * sizeof(int32_t));
  float *fs = malloc(C * sizeof(float)), *b1 = malloc(C * sizeof(float));
  float *rs = malloc(px * sizeof(float)), *dwf = malloc((size_t)9 * C * sizeof(float));
  float *b2 = malloc(C * sizeof(float));
  if (!x || !e || !o1 || !o2 || !w || !q || !wu || !wsum || !zp || !fs || !b1 || !rs || !dwf ||
      !b2) {
    fprintf(stderr, "hybrid_expand_dw_bench: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < px * K; i++) x[i] = (float)(rand() % 2001 - 1000) * 0.004f;
  for (size_t i = 0; i < (size_t)C * K; i++) w[i] = (int8_t)(rand() % 255 - 127);
  for (int n = 0; n < C; n++) {
    int32_t sum = 0;
    for (int k = 0; k < K; k++) sum += w[(size_t)n * K + k];
    wsum[n] = sum;
    fs[n] = 0.002f + 0.0001f * (float)(n % 7);
    b1[n] = 0.01f * (float)(n % 11) - 0.05f;
    b2[n] = 0.02f * (float)(n % 5) - 0.04f;
  }
  for (size_t i = 0; i < (size_t)9 * C; i++) dwf[i] = (float)(rand() % 2001 - 1000) * 0.0005f;
  /* as ops/hybrid.c packs the expand: uint8 w + 128, filter offset -128 */
  for (size_t i = 0; i < (size_t)C * K; i++) wu[i] = (uint8_t)w[i] ^ 0x80u;
  const tfcc_q8_gemm_kernel *gk = tfcc_q8_gemm_select_for(g_isa, 0, K, C);
  tfcc_conv_requant rh = {0};
  rh.filter_offset = -128;
  tfcc_q8_packed ph;
  if (!gk || !tfcc_q8_pack(gk, false, C, K, wu, NULL, &rh, &ph)) {
    fprintf(stderr, "hybrid_expand_dw_bench: packing the %d x %d expand failed\n", K, C);
    exit(1);
  }
  const tfcc_tflite_f32_kernel *xk = tfcc_tflite_f32_select(g_isa);
  tfcc_hyb_expand_dw k = {0};
  k.packed = &ph;
  k.stage = (tfcc_q8_hybrid){.wsum = wsum,
                             .fscale = fs,
                             .fscale_stride = 1,
                             .bias = b1,
                             .lo = 0.0f,
                             .hi = 6.0f,
                             .row = tfcc_hyb_out_select(g_isa),
                             .tile = tfcc_hyb_out_tile_select(g_isa)};
  k.qd8_rows = tfcc_hyb_qd8_rows_select(g_isa);
  k.dw = xk ? xk->dwconv_rows : NULL;
  k.dw_filter = dwf;
  k.dw_bias = b2;
  k.lo = 0.0f, k.hi = 6.0f;
  void *fscratch = bench_alloc(tfcc_hyb_expand_dw_scratch_bytes(&k, &g, K, 1));
  void *gscratch = bench_alloc(tfcc_q8_hybrid_scratch_bytes(NULL, &ph, 1));
  tfcc_q8_hybrid h = k.stage;
  h.c = e, h.c_stride = (size_t)C, h.zp = zp, h.scale = rs, h.rows_per_group = 1;
  double *tu = malloc((size_t)g_reps * sizeof(double)),
         *tf = malloc((size_t)g_reps * sizeof(double));
  if (!fscratch || !gscratch || !tu || !tf) {
    fprintf(stderr, "hybrid_expand_dw_bench: out of memory\n");
    exit(1);
  }
  for (int r = -2; r < g_reps; r++) { /* the two alternate; two untimed rounds first */
    const double t0 = bench_now();
    k.qd8_rows(x, (size_t)K, px, q, rs, zp, 128);
    tfcc_q8_gemm_hybrid(NULL, &ph, &h, (int32_t)px, q, (size_t)K, gscratch);
    if (k.dw)
      k.dw(&g, e, dwf, b2, k.lo, k.hi, o1, 0, g.out_h);
    else
      tfcc_xnn_dwconv_f32_rows(&g, e, dwf, b2, k.lo, k.hi, o1, 0, g.out_h);
    const double t1 = bench_now();
    tfcc_hyb_expand_dw_run(NULL, &k, &g, K, x, o2, fscratch);
    const double t2 = bench_now();
    if (r >= 0) tu[r] = t1 - t0, tf[r] = t2 - t1;
  }
  const bool same = !memcmp(o1, o2, opx * C * sizeof(float));
  double um, un, fm, fn;
  stats(tu, g_reps, &um, &un);
  stats(tf, g_reps, &fm, &fn);
  printf(
      "%3dx%-3d %3d -> %4d dw s%d  %-26s unfused %8.1f us (min %8.1f)  fused %8.1f us (min "
      "%8.1f)  %5.2fx  same bits: %s\n",
      H, W, K, C, s->stride, gk->name, um * 1e6, un * 1e6, fm * 1e6, fn * 1e6, um / fm,
      same ? "yes" : "NO");
  /* the same expand before a depthwise with int8 weights (the other 15 pairs of the hybrid
     twin): the expanded image quantized per image (asym, ops/hybrid.c quantize_image on one
     thread: min/max pass, parameters, element pass into int8), then the q8 row kernel's hybrid
     output; each step timed on its own */
  const tfcc_q8_dw_kernel *dk = tfcc_q8_dw_select(g_isa);
  tfcc_q8_dw_packed dwv = {0};
  tfcc_conv_requant dr = {0};
  int8_t *w8 = malloc((size_t)9 * C);
  for (size_t i = 0; w8 && i < (size_t)9 * C; i++) w8[i] = (int8_t)(rand() % 255 - 127);
  const bool rows =
      dk && dk->row_s && w8 && tfcc_q8_dw_pack(dk, true, C, 3, 3, w8, NULL, &dr, &dwv) && dwv.rows;
  if (rows) {
    const tfcc_hyb_minmax_fn mm = tfcc_hyb_minmax_select(g_isa);
    const tfcc_hyb_round_fn rnd = tfcc_hyb_round_select(g_isa);
    int8_t *qi = bench_alloc(px * C);
    void *dscratch = bench_alloc(tfcc_q8_dw_scratch_bytes(&dwv, &g, 1));
    double *ts[7];
    for (int k2 = 0; k2 < 7; k2++) ts[k2] = malloc((size_t)g_reps * sizeof(double));
    for (int k2 = 0; k2 < 7; k2++)
      if (!ts[k2] || !qi || !dscratch) {
        fprintf(stderr, "hybrid_expand_dw_bench: out of memory\n");
        exit(1);
      }
    for (int r = -2; r < g_reps; r++) {
      const double t0 = bench_now();
      k.qd8_rows(x, (size_t)K, px, q, rs, zp, 128);
      tfcc_q8_gemm_hybrid(NULL, &ph, &h, (int32_t)px, q, (size_t)K, gscratch);
      const double t1 = bench_now();
      tfcc_q8_gemm_hybrid(NULL, &ph, &h, (int32_t)px, q, (size_t)K, gscratch);
      const double t1b = bench_now();
      float lo, hi, sc;
      int32_t z;
      mm(e, px * C, &lo, &hi);
      const double t2 = bench_now();
      if (tfcc_hyb_asym_params(lo, hi, &sc, &z))
        rnd(e, px * C, 1.0f / sc, z, -128, 127, qi, false);
      else
        memset(qi, 0, px * C);
      const double t3 = bench_now();
      const tfcc_q8_dw_hyb hy = {sc, fs, 1, b2, 0.0f, 6.0f, z};
      tfcc_q8_dwconv_hybrid(NULL, &g, &dwv, &hy, qi, o1, dscratch);
      const double t4 = bench_now();
      /* where the range could come from instead: the GEMM in blocks of --block rows (default
         56: 4 of the AVX-512 kernel's 14-row tiles), each block's min/max read right after it
         is written (from L1 / L2), against the same blocks without it */
      const size_t blk = g_block;
      float blo = INFINITY, bhi = -INFINITY;
      const double t5 = bench_now();
      for (size_t r0 = 0; r0 < px; r0 += blk) {
        const size_t nr = px - r0 < blk ? px - r0 : blk;
        tfcc_q8_hybrid hb = h;
        hb.c = e + r0 * (size_t)C, hb.zp = zp + r0, hb.scale = rs + r0;
        tfcc_q8_gemm_hybrid(NULL, &ph, &hb, (int32_t)nr, q + r0 * (size_t)K, (size_t)K, gscratch);
      }
      const double t6 = bench_now();
      for (size_t r0 = 0; r0 < px; r0 += blk) {
        const size_t nr = px - r0 < blk ? px - r0 : blk;
        tfcc_q8_hybrid hb = h;
        hb.c = e + r0 * (size_t)C, hb.zp = zp + r0, hb.scale = rs + r0;
        tfcc_q8_gemm_hybrid(NULL, &ph, &hb, (int32_t)nr, q + r0 * (size_t)K, (size_t)K, gscratch);
        float l2, h2;
        mm(e + r0 * (size_t)C, nr * (size_t)C, &l2, &h2);
        blo = l2 < blo ? l2 : blo, bhi = h2 > bhi ? h2 : bhi;
      }
      const double t7 = bench_now();
      if (blo != lo || bhi != hi) fprintf(stderr, "hybrid_expand_dw_bench: block range differs\n");
      if (r >= 0)
        ts[0][r] = t1 - t0, ts[1][r] = t2 - t1b, ts[6][r] = t1b - t1, ts[2][r] = t3 - t2,
        ts[3][r] = t4 - t3, ts[4][r] = t6 - t5, ts[5][r] = t7 - t6;
    }
    double md[7], mn4[7];
    for (int k2 = 0; k2 < 7; k2++) stats(ts[k2], g_reps, &md[k2], &mn4[k2]);
    printf(
        "        int8-weight dw instead: qd8 + GEMM %8.1f us, image min/max %6.1f, asym "
        "element %6.1f, q8 dw rows %6.1f; GEMM alone %8.1f, in %zu-row blocks %8.1f, with each block's "
        "min/max %8.1f (medians)\n",
        md[0] * 1e6, md[1] * 1e6, md[2] * 1e6, md[3] * 1e6, md[6] * 1e6, g_block, md[4] * 1e6,
        md[5] * 1e6);
    for (int k2 = 0; k2 < 7; k2++) free(ts[k2]);
    free(qi), free(dscratch);
  }
  tfcc_q8_dw_packed_free(&dwv);
  free(w8);
  tfcc_q8_packed_free(&ph);
  free(x), free(e), free(o1), free(o2), free(w), free(q), free(wu), free(wsum), free(zp);
  free(fs), free(b1), free(rs), free(dwf), free(b2), free(fscratch), free(gscratch), free(tu);
  free(tf);
}

int main(int argc, char **argv) {
  pair_shape one = {0};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--shape") && i + 4 < argc) {
      one =
          (pair_shape){atoi(argv[i + 1]), atoi(argv[i + 2]), atoi(argv[i + 3]), atoi(argv[i + 4])};
      i += 4;
    } else if (!strcmp(argv[i], "--block") && i + 1 < argc) {
      g_block = (size_t)atoi(argv[++i]);
      if (g_block < 1) g_block = 1;
    } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      g_reps = atoi(argv[++i]);
    } else {
      fprintf(
          stderr,
          "usage: hybrid_expand_dw_bench [--shape HW CIN C STRIDE] [--block ROWS] [--reps N]\n");
      return 2;
    }
  }
  if (g_reps < 1) g_reps = 1;
  if (one.hw > 0 && (one.cin <= 0 || one.c <= 0 || one.stride < 1 || one.stride > 2)) {
    fprintf(stderr, "hybrid_expand_dw_bench: --shape wants HW CIN C > 0 and STRIDE 1 or 2\n");
    return 2;
  }
  tfcc_isa cap = TFCC_ISA_COUNT_;
  const char *isa = getenv("TFCC_ISA");
  if (isa && *isa && tfcc_isa_parse(isa, &cap) != TFCC_OK) {
    fprintf(stderr, "hybrid_expand_dw_bench: unknown TFCC_ISA '%s'\n", isa);
    return 2;
  }
  g_isa = tfcc_cpu_dispatch_isa(cap);
  bench_use_cpu_clock = 1;
  if (one.hw > 0) {
    run_pair(&one);
    return 0;
  }
  static const pair_shape pairs[] = {{112, 16, 96, 2}, {56, 24, 144, 1}, {56, 24, 144, 2},
                                     {28, 32, 192, 1}, {28, 32, 192, 2}, {14, 64, 384, 1},
                                     {14, 96, 576, 1}, {14, 96, 576, 2}, {7, 160, 960, 1}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) run_pair(&pairs[i]);
  return 0;
}
