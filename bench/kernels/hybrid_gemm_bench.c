/* Micro-benchmark of the hybrid (dynamic-range) GEMM path against the int8 GEMM it reuses
 * (not a test). Built as build/bench/bench_hybrid_gemm_bench; usage:
 *   hybrid_gemm_bench [--shape M K N] [--conv H W C N] [--dw H W C STRIDE]
 *                     [--stream on|off|auto] [--next]
 * (--stream: tfcc_q8_hybrid.stream, the float output's streamed stores, default auto as the
 * operators run; --next: each hybrid call followed by a min/max pass over its output, timed
 * with it, the next operator's first read; TFCC_ISA caps the kernels as in tfcc).
 * For FULLY_CONNECTED / 1x1-conv shaped GEMMs (M rows of K float32 inputs, N outputs) it
 * times, single thread on the thread's CPU clock, median of 9:
 *   int8   tfcc_q8_gemm on int8 input, XNNPACK float requantization to int8 (the int8 peak
 *          of this shape: what a fully quantized model runs)
 *   hybrid quantization of every row (qd8, tfcc_hyb_qd8_rows: what the operators run), the
 *          bytes as uint8 q + 128 (ops/hybrid.c) + tfcc_q8_gemm_hybrid (float out)
 * and for 3x3 convolutions (H x W x C -> N, SAME) tfcc_q8_conv against per-image quantization
 * + tfcc_q8_conv_hybrid. GOP/s = 2 x MACs per second; the last column is hybrid / int8.
 * --dw: the fast hybrid 3x3 depthwise kernel alone (tfcc_hyb_dwconv_select, SAME padding) on
 * an image already quantized. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "cpu/cpu_info.h"
#include "kernels/hybrid/dwconv.h"
#include "kernels/hybrid/hyb_out.h"
#include "kernels/hybrid/quantize.h"
#include "kernels/q8-gemm/gemm.h"

#define REPS 9
static tfcc_isa g_isa; /* the kernels' level: the best one, or TFCC_ISA's cap as in tfcc */
static int g_stream;   /* tfcc_q8_hybrid.stream of the hybrid calls (--stream) */
static int g_next;     /* --next: a min/max pass over the float output after each hybrid call */
static volatile float g_sink;

/* n floats of output, 64-byte aligned as the runtime's arena places tensors. */
static float *bench_out(size_t n) {
  return aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63);
}

/* What the next operator does first with a float output it quantizes: its min/max, read
 * from wherever the output's lines are (from memory once streamed). */
static void next_read(tfcc_hyb_minmax_fn mm, const float *out, size_t n) {
  float lo, hi;
  mm(out, n, &lo, &hi);
  g_sink = g_sink + lo + hi;
}

static double median(double *v) {
  qsort(v, REPS, sizeof(double), bench_cmp_double);
  return v[REPS / 2];
}

typedef struct setup {
  const tfcc_q8_gemm_kernel *k;
  tfcc_q8_packed p8, ph;
  tfcc_conv_requant r8, rh;
  float *scale8;
  int32_t *mult, *shift, *wsum;
  float *fscale, *wsumf; /* wsumf: as ops/hybrid.c sets it (depth and kernel allowing), else NULL */
} setup;

static int make(setup *s, int K, int N, int8_t *w) {
  memset(s, 0, sizeof *s);
  s->k = tfcc_q8_gemm_select_for(g_isa, 0, K, N);
  s->scale8 = malloc(N * sizeof(float));
  s->mult = calloc(N, sizeof(int32_t));
  s->shift = calloc(N, sizeof(int32_t));
  s->wsum = malloc(N * sizeof(int32_t));
  s->fscale = malloc(N * sizeof(float));
  if (!s->scale8 || !s->mult || !s->shift || !s->wsum || !s->fscale) return -1;
  for (int n = 0; n < N; n++) {
    s->scale8[n] = 0.0004f;
    s->fscale[n] = 0.01f;
    int32_t sum = 0;
    for (int k = 0; k < K; k++) sum += w[(size_t)n * K + k];
    s->wsum[n] = sum;
  }
  s->r8.input_offset = 3;
  s->r8.output_offset = -5;
  s->r8.mult = s->mult;
  s->r8.shift = s->shift;
  s->r8.mult_stride = 1;
  s->r8.act_min = -128;
  s->r8.act_max = 127;
  s->r8.scale = s->scale8;
  if (!tfcc_q8_pack(s->k, true, N, K, w, NULL, &s->r8, &s->p8)) return -1;
  /* as ops/hybrid.c packs them: uint8 w + 128, filter offset -128 (activations q + 128) */
  uint8_t *wu = malloc((size_t)N * K);
  if (!wu) return -1;
  for (size_t i = 0; i < (size_t)N * K; i++) wu[i] = (uint8_t)w[i] ^ 0x80u;
  s->rh.filter_offset = -128;
  const bool ok = tfcc_q8_pack(s->k, false, N, K, wu, NULL, &s->rh, &s->ph);
  free(wu);
  if (!ok) return -1;
  if (K <= TFCC_Q8_HYB_FMA_MAX_K && s->k->w_xor == 0x80u && s->k->x_xor == 0) {
    s->wsumf = malloc(N * sizeof(float));
    if (!s->wsumf) return -1;
    for (int n = 0; n < N; n++) s->wsumf[n] = (float)s->wsum[n];
  }
  return 0;
}

/* The quantized bytes and zero points as the ops hand them to the GEMM (uint8 q + 128). */
static void to_u8(int8_t *q, size_t n, int32_t *zp, size_t groups) {
  for (size_t i = 0; i < n; i++) q[i] = (int8_t)((uint8_t)q[i] ^ 0x80u);
  for (size_t g = 0; g < groups; g++) zp[g] += 128;
}

static void run_gemm(int M, int K, int N) {
  int8_t *x8 = malloc((size_t)M * K), *w = malloc((size_t)N * K), *q = malloc((size_t)M * K);
  float *xf = malloc((size_t)M * K * sizeof(float)), *out = bench_out((size_t)M * N);
  uint8_t *o8 = malloc((size_t)M * N);
  float *rs = malloc(M * sizeof(float));
  int32_t *zp = malloc(M * sizeof(int32_t));
  for (size_t i = 0; i < (size_t)M * K; i++) {
    x8[i] = (int8_t)(rand() % 256 - 128);
    xf[i] = (float)(rand() % 2000) * 0.003f - 1.0f;
  }
  for (size_t i = 0; i < (size_t)N * K; i++) w[i] = (int8_t)(rand() % 255 - 127);
  setup s;
  if (make(&s, K, N, w) != 0) return;
  const tfcc_hyb_qd8_rows_fn qd8_rows = tfcc_hyb_qd8_rows_select(g_isa);
  void *sc8 = malloc(tfcc_q8_scratch_bytes(NULL, &s.p8, 1) + 64);
  void *sch = malloc(tfcc_q8_hybrid_scratch_bytes(NULL, &s.ph, 1) + 64);
  tfcc_q8_hybrid h = {out, (size_t)N, zp, rs, 1, s.wsum, s.fscale, 1, NULL, -INFINITY, INFINITY,
                      false, tfcc_hyb_out_select(g_isa), tfcc_hyb_out_tile_select(g_isa),
                      g_stream, s.wsumf};
  const tfcc_hyb_minmax_fn mm = tfcc_hyb_minmax_select(g_isa);
  double t8[REPS], th[REPS];
  for (int r = 0; r < REPS; r++) {
    double t0 = bench_now();
    tfcc_q8_gemm(NULL, &s.p8, &s.r8, M, x8, (size_t)K, o8, (size_t)N, sc8);
    double t1 = bench_now();
    qd8_rows(xf, (size_t)K, (size_t)M, q, rs, zp, 128); /* the GEMM's uint8 bytes */
    tfcc_q8_gemm_hybrid(NULL, &s.ph, &h, M, q, (size_t)K, sch);
    if (g_next) next_read(mm, out, (size_t)M * N);
    double t2 = bench_now();
    t8[r] = t1 - t0;
    th[r] = t2 - t1;
  }
  const double ops = 2.0 * M * K * N * 1e-9;
  const double a = ops / median(t8), b = ops / median(th);
  printf("gemm  M %5d K %5d N %5d  %-26s int8 %7.1f GOP/s  hybrid %7.1f GOP/s  %5.1f%%\n", M, K, N,
         s.k->name, a, b, 100.0 * b / a);
  free(x8); free(w); free(q); free(xf); free(out); free(o8); free(rs); free(zp); free(sc8); free(sch);
}

static void run_conv(int H, int W, int C, int N) {
  tfcc_conv_geom g = {1, H, W, C, H, W, N, 3, 3, C, 1, 1, 1, 1, 1, 1};
  const int K = 9 * C;
  const size_t in_n = (size_t)H * W * C, out_n = (size_t)H * W * N;
  int8_t *x8 = malloc(in_n), *w = malloc((size_t)N * K), *q = malloc(in_n);
  float *xf = malloc(in_n * sizeof(float)), *out = bench_out(out_n);
  uint8_t *o8 = malloc(out_n);
  for (size_t i = 0; i < in_n; i++) {
    x8[i] = (int8_t)(rand() % 256 - 128);
    xf[i] = (float)(rand() % 2000) * 0.003f - 1.0f;
  }
  for (size_t i = 0; i < (size_t)N * K; i++) w[i] = (int8_t)(rand() % 255 - 127);
  setup s;
  if (make(&s, K, N, w) != 0) return;
  const tfcc_hyb_qd8_rows_fn qd8_rows = tfcc_hyb_qd8_rows_select(g_isa);
  void *sc8 = malloc(tfcc_q8_scratch_bytes(&g, &s.p8, 1) + 64);
  void *sch = malloc(tfcc_q8_hybrid_scratch_bytes(&g, &s.ph, 1) + 64);
  float rs;
  int32_t zp;
  tfcc_q8_hybrid h = {out, (size_t)N, &zp, &rs, 1, s.wsum, s.fscale, 1, NULL, -INFINITY, INFINITY,
                      false, tfcc_hyb_out_select(g_isa), tfcc_hyb_out_tile_select(g_isa),
                      g_stream, s.wsumf};
  const tfcc_hyb_minmax_fn mm = tfcc_hyb_minmax_select(g_isa);
  double t8[REPS], th[REPS];
  for (int r = 0; r < REPS; r++) {
    double t0 = bench_now();
    tfcc_q8_conv(NULL, &g, &s.p8, &s.r8, x8, o8, sc8);
    double t1 = bench_now();
    qd8_rows(xf, in_n, 1, q, &rs, &zp, 0);
    to_u8(q, in_n, &zp, 1);
    tfcc_q8_conv_hybrid(NULL, &g, &s.ph, &h, q, sch);
    if (g_next) next_read(mm, out, out_n);
    double t2 = bench_now();
    t8[r] = t1 - t0;
    th[r] = t2 - t1;
  }
  const double ops = 2.0 * H * W * (double)K * N * 1e-9;
  const double a = ops / median(t8), b = ops / median(th);
  printf("conv3x3 %4dx%-4d C %4d N %4d %-24s int8 %7.1f GOP/s  hybrid %7.1f GOP/s  %5.1f%%\n", H, W,
         C, N, s.k->name, a, b, 100.0 * b / a);
  free(x8); free(w); free(q); free(xf); free(out); free(o8); free(sc8); free(sch);
}

static void run_dw(int H, int W, int C, int S) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 1, g.in_h = H, g.in_w = W, g.in_c = C, g.filter_in_c = 1, g.out_c = C;
  g.filter_h = g.filter_w = 3, g.stride_h = g.stride_w = S, g.dil_h = g.dil_w = 1;
  g.out_h = (H + S - 1) / S, g.out_w = (W + S - 1) / S;
  g.pad_h = ((g.out_h - 1) * S + 3 - H) / 2, g.pad_w = ((g.out_w - 1) * S + 3 - W) / 2;
  const size_t in_n = (size_t)H * W * C, out_n = (size_t)g.out_h * g.out_w * C;
  int16_t *q = malloc(in_n * sizeof(int16_t));
  int32_t *w32 = malloc((size_t)9 * C * sizeof(int32_t));
  float *fs = malloc((size_t)C * sizeof(float)), *b = malloc((size_t)C * sizeof(float));
  float *out = malloc(out_n * sizeof(float));
  if (!q || !w32 || !fs || !b || !out) return;
  for (size_t i = 0; i < in_n; i++) q[i] = (int16_t)(rand() % 511 - 255);
  for (int i = 0; i < 9 * C; i++) w32[i] = rand() % 255 - 127;
  for (int c = 0; c < C; c++) fs[c] = 0.01f, b[c] = 0.1f;
  const tfcc_hyb_dwconv_fn fn = tfcc_hyb_dwconv_select(g_isa);
  double t[REPS];
  for (int r = 0; r < REPS; r++) {
    const double t0 = bench_now();
    fn(&g, q, 0.01f, w32, fs, 1, b, 0.0f, 6.0f, out, 0, g.out_h);
    t[r] = bench_now() - t0;
  }
  printf("dw3x3 %4dx%-4d C %4d s%d  hybrid %6.1f GOP/s\n", H, W, C, S,
         2.0 * 9 * (double)out_n * 1e-9 / median(t));
  free(q), free(w32), free(fs), free(b), free(out);
}

int main(int argc, char **argv) {
  int shape[3] = {0, 0, 0}, conv[4] = {0, 0, 0, 0}, dw[4] = {0, 0, 0, 0};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--shape") && i + 3 < argc)
      for (int d = 0; d < 3; d++) shape[d] = atoi(argv[i + 1 + d]);
    if (!strcmp(argv[i], "--conv") && i + 4 < argc)
      for (int d = 0; d < 4; d++) conv[d] = atoi(argv[i + 1 + d]);
    if (!strcmp(argv[i], "--dw") && i + 4 < argc)
      for (int d = 0; d < 4; d++) dw[d] = atoi(argv[i + 1 + d]);
    if (!strcmp(argv[i], "--stream") && i + 1 < argc)
      g_stream = !strcmp(argv[i + 1], "on")    ? TFCC_Q8_STREAM_ON
                 : !strcmp(argv[i + 1], "off") ? TFCC_Q8_STREAM_OFF
                                               : TFCC_Q8_STREAM_AUTO;
    if (!strcmp(argv[i], "--next")) g_next = 1;
  }
  tfcc_isa cap = TFCC_ISA_COUNT_;
  const char *isa = getenv("TFCC_ISA");
  if (isa && *isa && tfcc_isa_parse(isa, &cap) != TFCC_OK) {
    fprintf(stderr, "hybrid_gemm_bench: unknown TFCC_ISA '%s'\n", isa);
    return 2;
  }
  g_isa = tfcc_cpu_dispatch_isa(cap);
  bench_use_cpu_clock = 1;
  if (dw[0] > 0) {
    run_dw(dw[0], dw[1], dw[2], dw[3]);
    return 0;
  }
  bench_use_cpu_clock = 1;
  if (shape[0] > 0) {
    run_gemm(shape[0], shape[1], shape[2]);
  } else if (conv[0] <= 0) {
    static const int shapes[][3] = {{1, 1024, 1000}, {64, 1024, 1024}, {256, 1024, 1024},
                                    {3136, 256, 256}, {784, 512, 512}, {6400, 64, 128}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
      run_gemm(shapes[i][0], shapes[i][1], shapes[i][2]);
  }
  if (conv[0] > 0) {
    run_conv(conv[0], conv[1], conv[2], conv[3]);
  } else if (shape[0] <= 0) {
    static const int convs[][4] = {{56, 56, 64, 64}, {28, 28, 128, 128}, {80, 80, 64, 64},
                                   {20, 20, 256, 256}};
    for (size_t i = 0; i < sizeof convs / sizeof convs[0]; i++)
      run_conv(convs[i][0], convs[i][1], convs[i][2], convs[i][3]);
  }
  return 0;
}
