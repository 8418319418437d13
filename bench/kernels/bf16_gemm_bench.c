/* Micro-benchmark of precision bf16 (not a test): the core's measured vdpbf16ps and FMA peaks,
 * then GFLOP/s of the bf16 GEMM (weights packed bf16, rows converted per tile) against the
 * float32 GEMM on ResNet-50 / MobileNetV2 GEMM shapes (M x K -> N). Built as
 * build/bench/bf16_gemm_bench; usage: bf16_gemm_bench [threads]. One thread reports the thread's
 * CPU time (meaningful on a shared machine), more the wall time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/f32-gemm/gemm.h"
#include "base/threadpool.h"


#if defined(__x86_64__)
#include <immintrin.h>
#include "bench_clock.h"
/* GFLOP/s (2 per multiply-add) of 16 independent chains of one instruction. */
__attribute__((target("avx512f,avx512bf16"))) static double dpbf16_peak(void) {
  __m512 acc[16];
  for (int i = 0; i < 16; i++) acc[i] = _mm512_setzero_ps();
  const __m512bh a = (__m512bh)_mm512_set1_epi32(0x3f803f80), b = (__m512bh)_mm512_set1_epi32(0x3c003c00);
  const long iters = 5000000;
  double t0 = bench_now();
  for (long it = 0; it < iters; it++)
    for (int i = 0; i < 16; i++) acc[i] = _mm512_dpbf16_ps(acc[i], a, b);
  double t = bench_now() - t0;
  float s = 0;
  for (int i = 0; i < 16; i++) s += _mm512_reduce_add_ps(acc[i]);
  if (s == 12345.f) printf(" ");
  return (double)iters * 16 * 64 / t * 1e-9;
}
__attribute__((target("avx512f,fma"))) static double fma_peak(void) {
  __m512 acc[16];
  for (int i = 0; i < 16; i++) acc[i] = _mm512_set1_ps((float)i);
  const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(0.001f);
  const long iters = 5000000;
  double t0 = bench_now();
  for (long it = 0; it < iters; it++)
    for (int i = 0; i < 16; i++) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  double t = bench_now() - t0;
  float s = 0;
  for (int i = 0; i < 16; i++) s += _mm512_reduce_add_ps(acc[i]);
  if (s == 12345.f) printf(" ");
  return (double)iters * 16 * 32 / t * 1e-9;
}
#endif

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (threads > 1 && tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
  bench_use_cpu_clock = threads <= 1;
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  const tfcc_bf16_gemm_kernel *bk = tfcc_bf16_gemm_select(best);
  if (!bk) {
    printf("no bf16 kernel: %s\n", tfcc_bf16_gemm_unavailable(best));
    return 0;
  }
#if defined(__x86_64__)
  printf("measured per-core peaks: vdpbf16ps %.1f GFLOP/s, FMA f32 %.1f GFLOP/s\n", dpbf16_peak(),
         fma_peak());
#endif
  const tfcc_f32_gemm_kernel *fk = tfcc_f32_gemm_select(best);
  static const int shapes[][3] = {{3136, 64, 256}, {784, 128, 512}, {196, 256, 1024},
                                  {49, 512, 2048}, {3136, 256, 64},  {196, 1024, 256},
                                  {12544, 32, 16}, {784, 32, 192},   {196, 1024, 1024},
                                  {49, 4608, 512}, {1, 1280, 1000},  {1, 2048, 1000}};
  printf("%-26s %-26s %7s %7s\n", "M x K -> N", "", "f32", "bf16");
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const int M = shapes[s][0], K = shapes[s][1], N = shapes[s][2];
    float *a = malloc(sizeof(float) * (size_t)M * K), *w = malloc(sizeof(float) * (size_t)N * K);
    float *c = malloc(sizeof(float) * (size_t)M * N);
    for (size_t i = 0; i < (size_t)M * K; i++) a[i] = (float)(i % 7) * 0.1f;
    for (size_t i = 0; i < (size_t)N * K; i++) w[i] = (float)(i % 5) * 0.1f;
    tfcc_f32_packed fp;
    tfcc_bf16_packed bp;
    if (!tfcc_f32_pack(fk, N, K, w, (size_t)K, 1, NULL, &fp) ||
        !tfcc_bf16_pack(bk, N, K, w, (size_t)K, 1, NULL, &bp))
      return 1;
    const size_t sb = tfcc_bf16_gemm_scratch_bytes(&bp, M, threads);
    void *scratch = aligned_alloc(64, sb);
    const double flop = 2.0 * M * N * K;
    const int reps = (int)(2e9 / flop) + 3;
    double best_f = 1e30, best_b = 1e30;
    for (int round = 0; round < 3; round++) {
      double t0 = bench_now();
      for (int r = 0; r < reps; r++)
        tfcc_f32_gemm(pool, &fp, M, a, (size_t)K, c, (size_t)N, -1e30f, 1e30f);
      double t1 = bench_now();
      for (int r = 0; r < reps; r++)
        tfcc_bf16_gemm(pool, &bp, M, a, (size_t)K, c, (size_t)N, -1e30f, 1e30f, scratch);
      double t2 = bench_now();
      if (t1 - t0 < best_f) best_f = t1 - t0;
      if (t2 - t1 < best_b) best_b = t2 - t1;
    }
    char shape[64];
    snprintf(shape, sizeof shape, "%d x %d -> %d", M, K, N);
    printf("%-26s %-26s %7.1f %7.1f GFLOP/s\n", shape, bk->name, flop * reps / best_f * 1e-9,
           flop * reps / best_b * 1e-9);
    free(scratch);
    tfcc_f32_packed_free(&fp);
    tfcc_bf16_packed_free(&bp);
    free(a);
    free(w);
    free(c);
  }
  tfcc_threadpool_destroy(pool);
  return 0;
}
