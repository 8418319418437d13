/* Micro-benchmark of the f32 GEMM micro-kernels and the threaded driver (not a test).
 * Built as build/bench/f32_gemm_bench; usage: f32_gemm_bench [threads]. Prints GFLOP/s per kernel and shape, and the core's measured
 * AVX-512 FMA peak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/gemm.h"
#include "base/threadpool.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include "bench_clock.h"
__attribute__((target("avx512f,fma"))) static double fma_peak(void) {
  __m512 acc[12];
  for (int i = 0; i < 12; i++) acc[i] = _mm512_set1_ps((float)i);
  const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(0.001f);
  struct timespec t0, t1;
  const long iters = 20000000;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  for (long it = 0; it < iters; it++)
    for (int i = 0; i < 12; i++) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  float s = 0;
  for (int i = 0; i < 12; i++) s += _mm512_reduce_add_ps(acc[i]);
  double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (s == 12345.f) printf(" ");
  return (double)iters * 12 * 32 / sec * 1e-9;
}
#endif

/* Single thread: the caller's CPU time (robust on a shared machine); pool: wall time. */

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (threads > 1 && tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
  bench_use_cpu_clock = threads <= 1;
  tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
#if defined(__x86_64__)
  if (best >= TFCC_ISA_AVX512) printf("measured AVX-512 FMA peak: %.1f GFLOP/s per core\n", fma_peak());
#endif
  static const int shapes[][3] = {{3136, 64, 256}, {784, 128, 512}, {196, 256, 1024},
                                  {49, 512, 2048}, {3136, 256, 64},  {196, 1024, 256},
                                  {12544, 32, 16}, {784, 32, 192},   {196, 1024, 1024},
                                  {1, 1280, 1000}};
  for (int ki = 0; ki < tfcc_f32_gemm_kernel_count(); ki++) {
    const tfcc_f32_gemm_kernel *k = tfcc_f32_gemm_kernel_at(ki);
    if (tfcc_f32_gemm_select(best) != k && k->isa > best) continue;
    if (k->isa == TFCC_ISA_NEON && best != TFCC_ISA_NEON) continue;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      const int M = shapes[s][0], K = shapes[s][1], N = shapes[s][2];
      float *a = aligned_alloc(64, (size_t)M * K * 4 + 64), *w = malloc((size_t)N * K * 4);
      float *c = aligned_alloc(64, (size_t)M * N * 4 + 64);
      for (size_t i = 0; i < (size_t)M * K; i++) a[i] = (float)(i % 7) * 0.1f;
      for (size_t i = 0; i < (size_t)N * K; i++) w[i] = (float)(i % 5) * 0.1f;
      tfcc_f32_packed p;
      tfcc_f32_pack(k, N, K, w, (size_t)K, 1, NULL, &p);
      double flops = 2.0 * M * N * K;
      int reps = (int)(2e9 / flops) + 1;
      tfcc_f32_gemm(pool, &p, M, a, (size_t)K, c, (size_t)N, -1e30f, 1e30f);
      double best_t = 1e9;
      for (int r = 0; r < 5; r++) {
        double t0 = bench_now();
        for (int i = 0; i < reps; i++)
          tfcc_f32_gemm(pool, &p, M, a, (size_t)K, c, (size_t)N, -1e30f, 1e30f);
        double t = (bench_now() - t0) / reps;
        if (t < best_t) best_t = t;
      }
      printf("%-22s M=%5d K=%5d N=%5d  %8.3f ms  %7.1f GFLOP/s\n", k->name, M, K, N,
             best_t * 1e3, flops / best_t * 1e-9);
      tfcc_f32_packed_free(&p);
      free(a);
      free(w);
      free(c);
    }
  }
  tfcc_threadpool_destroy(pool);
  return 0;
}
