/* Micro-benchmark of the q8 GEMM kernels through the threaded driver (not a test).
 * Built as build/bench/q8_gemm_bench; usage: q8_gemm_bench [threads] [--cold MIB] [--shape M K N]
 * [--kernel NAME]. Prints GOP/s (2 x MACs
 * per second) of large 1x1-convolution-shaped int8 GEMMs (M = H*W, K = Cin, N = Cout) for
 * every kernel the CPU can run, in both requantization modes, and the core's measured
 * AVX512-VNNI peak (vpdpbusd zmm: 128 OP). Single thread: the thread's CPU time. --cold MIB:
 * the median of 15 calls, each after writing MIB MiB (not timed), so that the weights come
 * from L3 or memory as in a whole model (batch-1 FULLY_CONNECTED, deep layers). */
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
  const long iters = 20000000;
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


int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  size_t flush_bytes = 0;
  int only[3] = {0, 0, 0};
  const char *only_kernel = NULL;
  for (int i = 1; i + 1 < argc; i++) {
    if (!strcmp(argv[i], "--cold")) flush_bytes = (size_t)atoi(argv[i + 1]) << 20;
    if (!strcmp(argv[i], "--kernel")) only_kernel = argv[i + 1];
    if (!strcmp(argv[i], "--shape") && i + 3 < argc)
      for (int d = 0; d < 3; d++) only[d] = atoi(argv[i + 1 + d]);
  }
  if (threads < 1) threads = 1;
  uint8_t *flush = flush_bytes ? malloc(flush_bytes) : NULL;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (threads > 1 && tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
  bench_use_cpu_clock = threads <= 1;
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
#if defined(__x86_64__)
  if (tfcc_cpu_has(tfcc_cpu(), TFCC_CPU_AVX512VNNI))
    printf("measured AVX512-VNNI peak: %.1f GOP/s per core\n", vnni_peak());
#endif
  static const int shapes[][3] = {{3136, 64, 256}, {784, 128, 512}, {784, 512, 128},
                                  {196, 1024, 256}, {196, 256, 1024}, {49, 2048, 512},
                                  {3136, 24, 144}, {196, 576, 96}, {1, 2048, 1000},
                                  {1, 1280, 1000}, {49, 512, 2048}};
  for (int ki = 0; ki < tfcc_q8_gemm_kernel_count(); ki++) {
    const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_kernel_at(ki);
    if (!tfcc_q8_gemm_usable(k, best) || (only_kernel && strcmp(only_kernel, k->name))) continue;
    for (int mode = 0; mode < 2; mode++) {
      for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int M = shapes[s][0], K = shapes[s][1], N = shapes[s][2];
        if (only[0] && (M != only[0] || K != only[1] || N != only[2])) continue;
        int8_t *a = malloc((size_t)M * K), *w = malloc((size_t)N * K), *c = malloc((size_t)M * N);
        float *scale = malloc(sizeof(float) * (size_t)N);
        for (size_t i = 0; i < (size_t)M * K; i++) a[i] = (int8_t)(i * 7);
        for (size_t i = 0; i < (size_t)N * K; i++) w[i] = (int8_t)(i * 13);
        for (int i = 0; i < N; i++) scale[i] = 1e-3f;
        int32_t mult = 1 << 30, shift = -8;
        tfcc_conv_requant r = {.input_offset = 3, .output_offset = -2, .mult = &mult, .shift = &shift,
                               .act_min = -128, .act_max = 127, .scale = mode ? NULL : scale};
        if (mode) r.mult_stride = 0;
        tfcc_q8_packed p;
        if (!tfcc_q8_pack(k, true, N, K, w, NULL, &r, &p)) return 1;
        const size_t sb = tfcc_q8_scratch_bytes(NULL, &p, threads);
        void *scratch = sb ? aligned_alloc(64, sb) : NULL;
        tfcc_q8_gemm(pool, &p, &r, M, a, (size_t)K, c, (size_t)N, scratch);
        int reps = 1;
        double t = 0;
        if (flush) {
          double ts[15];
          for (int i = 0; i < 15; i++) {
            memset(flush, i, flush_bytes);
            const double t0 = bench_now();
            tfcc_q8_gemm(pool, &p, &r, M, a, (size_t)K, c, (size_t)N, scratch);
            ts[i] = bench_now() - t0;
            for (int j = i; j > 0 && ts[j] < ts[j - 1]; j--) {
              const double x = ts[j];
              ts[j] = ts[j - 1];
              ts[j - 1] = x;
            }
          }
          t = ts[7];
        }
        for (; !flush;) {
          const double t0 = bench_now();
          for (int i = 0; i < reps; i++)
            tfcc_q8_gemm(pool, &p, &r, M, a, (size_t)K, c, (size_t)N, scratch);
          t = bench_now() - t0;
          if (t > 0.2) break;
          reps *= 2;
        }
        printf("%-26s %-5s M=%5d K=%5d N=%5d  %7.1f GOP/s\n", k->name, mode ? "fixed" : "fp32", M,
               K, N, 2.0 * M * K * N * reps / t * 1e-9);
        free(scratch);
        tfcc_q8_packed_free(&p);
        free(a);
        free(w);
        free(c);
        free(scale);
      }
    }
  }
  tfcc_threadpool_destroy(pool);
  free(flush);
  return 0;
}
