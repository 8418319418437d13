/* Micro-benchmark of the q8 convolution path (tfcc_q8_conv: im2col or direct rows + GEMM) on
 * the 53 convolutions of ResNet-50 int8 (224x224 input, NHWC, per-channel int8 weights, input
 * zero point -128), not a test. Built as build/bench/q8_conv_bench.
 *
 *   q8_conv_bench [--fixed] [--cold MIB] [--reps N] [--isa CAP] [--only TEXT] [--threads T]
 *
 * For every distinct layer: the median CPU time (CLOCK_THREAD_CPUTIME_ID, single thread) of
 * N repetitions (default 15), GOP/s = 2 x MACs / time, and the layer's share of the total;
 * then the sum over all 53 convolutions (ms per inference) and its overall GOP/s against the
 * core's measured AVX512-VNNI peak. --fixed: fixed-point requantization (REFERENCE mode)
 * instead of XNNPACK's fp32 (the TFLITE default). --cold MIB: before every repetition, write a
 * buffer of MIB MiB (not timed) so that weights and input come from further away as in a whole
 * model, where the other layers' 24 MiB of weights pass through the caches between two runs of
 * a layer (16: from L3; more than the L3: from memory). --threads T (> 1): on a pool of T threads
 * (the split of tfcc_q8_conv between them), wall-clock time instead. Each layer also shows its
 * fastest repetition, which other load on a shared machine (a busy sibling hyperthread)
 * disturbs least, and the total line the sum of those. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/q8-gemm/gemm.h"
#include "base/threadpool.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include "bench_clock.h"
__attribute__((target("avx512f,avx512vnni"))) static double vnni_peak(void) {
  __m512i acc[12];
  for (int i = 0; i < 12; i++) acc[i] = _mm512_set1_epi32(i);
  const __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-2);
  struct timespec t0, t1;
  const long iters = 10000000;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  for (long it = 0; it < iters; it++)
    for (int i = 0; i < 12; i++) acc[i] = _mm512_dpbusd_epi32(acc[i], a, b);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  int s = 0;
  for (int i = 0; i < 12; i++) s += _mm512_reduce_add_epi32(acc[i]);
  double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (s == 12345) printf(" ");
  return (double)iters * 12 * 128 / sec * 1e-9;
}
#endif

typedef struct layer {
  const char *name;
  int count;                 /* how many of the 53 convolutions have this shape */
  int ih, iw, ic, oc, f, s, pad;
} layer;

/* ResNet-50 v1.5 (stride on the 3x3 of the first block of a stage), as converted to TFLite
 * and loaded: the PAD before the 7x7 stem is fused into it (fuse_pad), so the stem convolves
 * the 224x224 input with padding 3. */
static const layer layers[] = {
    {"stem 7x7 s2 3->64", 1, 224, 224, 3, 64, 7, 2, 3},
    {"56 1x1 64->64", 1, 56, 56, 64, 64, 1, 1, 0},
    {"56 3x3 64->64", 3, 56, 56, 64, 64, 3, 1, 1},
    {"56 1x1 64->256", 4, 56, 56, 64, 256, 1, 1, 0},
    {"56 1x1 256->64", 2, 56, 56, 256, 64, 1, 1, 0},
    {"56 1x1 256->128", 1, 56, 56, 256, 128, 1, 1, 0},
    {"56>28 3x3 s2 128", 1, 57, 57, 128, 128, 3, 2, 0},
    {"28 1x1 128->512", 4, 28, 28, 128, 512, 1, 1, 0},
    {"56>28 1x1 s2 256->512", 1, 56, 56, 256, 512, 1, 2, 0},
    {"28 1x1 512->128", 3, 28, 28, 512, 128, 1, 1, 0},
    {"28 3x3 128->128", 3, 28, 28, 128, 128, 3, 1, 1},
    {"28 1x1 512->256", 1, 28, 28, 512, 256, 1, 1, 0},
    {"28>14 3x3 s2 256", 1, 29, 29, 256, 256, 3, 2, 0},
    {"14 1x1 256->1024", 6, 14, 14, 256, 1024, 1, 1, 0},
    {"28>14 1x1 s2 512->1024", 1, 28, 28, 512, 1024, 1, 2, 0},
    {"14 1x1 1024->256", 5, 14, 14, 1024, 256, 1, 1, 0},
    {"14 3x3 256->256", 5, 14, 14, 256, 256, 3, 1, 1},
    {"14 1x1 1024->512", 1, 14, 14, 1024, 512, 1, 1, 0},
    {"14>7 3x3 s2 512", 1, 15, 15, 512, 512, 3, 2, 0},
    {"7 1x1 512->2048", 3, 7, 7, 512, 2048, 1, 1, 0},
    {"14>7 1x1 s2 1024->2048", 1, 14, 14, 1024, 2048, 1, 2, 0},
    {"7 1x1 2048->512", 2, 7, 7, 2048, 512, 1, 1, 0},
    {"7 3x3 512->512", 2, 7, 7, 512, 512, 3, 1, 1},
};


int main(int argc, char **argv) {
  bool fixed = false;
  size_t flush_bytes = 0;
  int reps = 15, threads = 1;
  const char *only = NULL; /* layers whose name contains this */
  tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--fixed")) {
      fixed = true;
    } else if (!strcmp(argv[i], "--cold") && i + 1 < argc) {
      flush_bytes = (size_t)atoi(argv[++i]) << 20;
    } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = atoi(argv[++i]);
      if (reps < 1 || reps > 1000) reps = 15;
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = atoi(argv[++i]);
      if (threads < 1 || threads > 64) threads = 1;
    } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else if (!strcmp(argv[i], "--isa") && i + 1 < argc) {
      const char *want = argv[++i];
      for (int l = 0; l < TFCC_ISA_COUNT_; l++)
        if (!strcmp(want, tfcc_isa_name((tfcc_isa)l))) isa = tfcc_cpu_dispatch_isa((tfcc_isa)l);
    } else {
      fprintf(stderr, "usage: q8_conv_bench [--fixed] [--cold MIB] [--reps N] [--isa CAP] [--only TEXT] "
                      "[--threads T]\n");
      return 2;
    }
  }
  const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_select(isa);
  tfcc_threadpool *pool = NULL;
  if (threads > 1) {
    tfcc_err err = {0};
    if (tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
    bench_use_cpu_clock = 0;
  }
  double peak = 0;
#if defined(__x86_64__)
  if (tfcc_cpu_has(tfcc_cpu(), TFCC_CPU_AVX512VNNI)) peak = vnni_peak() * threads; /* all cores */
#endif
  if (pool)
    printf("kernel %s, %s requantization, median (and fastest) of %d, %d threads, wall time%s",
           k->name, fixed ? "fixed-point" : "fp32", reps, threads, flush_bytes ? ", cold caches" : "");
  else
    printf("kernel %s, %s requantization, median of %d, single thread CPU time%s", k->name,
           fixed ? "fixed-point" : "fp32", reps, flush_bytes ? ", cold caches" : "");
  if (peak > 0) printf(", VNNI peak %.0f GOP/s", peak);
  printf("\n%-24s %3s %5s %5s %5s %9s %8s %6s %11s\n", "layer", "n", "M", "K", "N", "ms", "GOP/s",
         "peak%", "fastest ms");
  double total_ms = 0, total_ops = 0, total_min_ms = 0;
  double *t = malloc(sizeof(double) * (size_t)reps);
  uint8_t *flush = flush_bytes ? malloc(flush_bytes) : NULL;
  for (size_t li = 0; li < sizeof layers / sizeof layers[0]; li++) {
    const layer *L = &layers[li];
    if (only && !strstr(L->name, only)) continue;
    tfcc_conv_geom g;
    memset(&g, 0, sizeof g);
    g.batches = 1;
    g.in_h = L->ih;
    g.in_w = L->iw;
    g.in_c = g.filter_in_c = L->ic;
    g.out_c = L->oc;
    g.filter_h = g.filter_w = L->f;
    g.stride_h = g.stride_w = L->s;
    g.dil_h = g.dil_w = 1;
    g.pad_h = g.pad_w = L->pad;
    g.out_h = (L->ih + 2 * L->pad - L->f) / L->s + 1;
    g.out_w = (L->iw + 2 * L->pad - L->f) / L->s + 1;
    const int M = g.out_h * g.out_w, K = L->f * L->f * L->ic, N = L->oc;
    int8_t *in = malloc((size_t)L->ih * L->iw * L->ic), *w = malloc((size_t)N * K);
    int8_t *out = malloc((size_t)M * N);
    float *scale = malloc(sizeof(float) * (size_t)N);
    int32_t *mult = malloc(sizeof(int32_t) * (size_t)N), *shift = malloc(sizeof(int32_t) * (size_t)N);
    int32_t *bias = malloc(sizeof(int32_t) * (size_t)N);
    for (size_t i = 0; i < (size_t)L->ih * L->iw * L->ic; i++) in[i] = (int8_t)(i * 7 + (i >> 9));
    for (size_t i = 0; i < (size_t)N * K; i++) w[i] = (int8_t)(i * 13 + (i >> 7));
    for (int i = 0; i < N; i++) {
      scale[i] = 1e-4f * (float)(1 + i % 7);
      mult[i] = 1 << 30;
      shift[i] = -10;
      bias[i] = i * 37 - 1000;
    }
    tfcc_conv_requant r = {.input_offset = 128, .output_offset = -5, .mult = mult, .shift = shift,
                           .mult_stride = 1, .act_min = -128, .act_max = 127,
                           .scale = fixed ? NULL : scale};
    tfcc_q8_packed p;
    if (!tfcc_q8_pack(k, true, N, K, w, bias, &r, &p)) return 1;
    const size_t sb = tfcc_q8_scratch_bytes(&g, &p, threads);
    void *scratch = sb ? aligned_alloc(64, (sb + 63) & ~(size_t)63) : NULL;
    tfcc_threadpool_run_begin(pool); /* workers spin between the repetitions, as in a run */
    tfcc_q8_conv(pool, &g, &p, &r, in, out, scratch);
    for (int i = 0; i < reps; i++) {
      if (flush) memset(flush, i, flush_bytes);
      const double t0 = bench_now();
      tfcc_q8_conv(pool, &g, &p, &r, in, out, scratch);
      t[i] = bench_now() - t0;
    }
    tfcc_threadpool_run_end(pool);
    qsort(t, (size_t)reps, sizeof *t, bench_cmp_double);
    const double sec = t[reps / 2], ops = 2.0 * M * (double)K * N;
    total_ms += L->count * sec * 1e3;
    total_ops += L->count * ops;
    printf("%-24s %3d %5d %5d %5d %9.3f %8.1f %5.0f%% %11.3f\n", L->name, L->count, M, K, N,
           sec * 1e3, ops / sec * 1e-9, peak > 0 ? 100.0 * ops / sec * 1e-9 / peak : 0.0,
           t[0] * 1e3);
    total_min_ms += L->count * t[0] * 1e3;
    free(scratch);
    tfcc_q8_packed_free(&p);
    free(in);
    free(w);
    free(out);
    free(scale);
    free(mult);
    free(shift);
    free(bias);
  }
  free(t);
  free(flush);
  tfcc_threadpool_destroy(pool);
  printf("all 53 convolutions: %.2f ms per inference, %.1f GOP/s", total_ms,
         total_ops / (total_ms * 1e-3) * 1e-9);
  if (peak > 0) printf(" (%.0f%% of peak)", 100.0 * total_ops / (total_ms * 1e-3) * 1e-9 / peak);
  printf("; fastest repetitions: %.2f ms\n", total_min_ms);
  return 0;
}
