/* Micro-benchmark (not a test) of the float32 GEMV (FULLY_CONNECTED at batch 1) on the
 * classifier shapes of MobileNetV2 (1280 -> 1000), ResNet-50 (2048 -> 1000) and a small one:
 * the multi-panel GEMV driver (tfcc_f32_gemv) against the GEMM driver at M = 1 (one panel
 * at a time through the one-row micro-kernel), and the weight streaming rate each reaches.
 * Usage: f32_gemv_bench [threads] [cold]. One thread reports the thread's CPU time (median
 * of 15), a pool wall time. The weights (MBs) stay in L3 between calls, or with `cold` come
 * from memory (a 320 MB buffer is read between calls, outside the timing). Next to them, a
 * plain streaming read of the same packed bytes on the calling thread (XOR chains, nothing to
 * wait for, no software prefetch), under the same conditions: the bandwidth the GEMV is
 * measured against. One core, 2026-11-30, load average 5-7: plain read 8-13 GB/s from memory,
 * 17-22 GB/s from L3; the AVX-512 GEMV (prefetching 4 KB ahead) 10-12.6 and 19-23.5 GB/s. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-gemm/gemv.h"
#include "base/threadpool.h"
#include "bench_clock.h"


#define REPS 15

/* A plain read of n bytes (n a multiple of 64): four independent 16-byte XOR chains per cache
 * line (SSE2 through GCC/Clang vector types: the bench is built for the baseline ISA); the
 * result depends on every byte. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));
static uint64_t plain_read(const void *p, size_t n) {
  const unsigned char *b = p;
  u64x2 x[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
  for (size_t i = 0; i + 64 <= n; i += 64)
    for (int k = 0; k < 4; k++) {
      u64x2 v;
      memcpy(&v, b + i + 16 * (size_t)k, sizeof v);
      x[k] ^= v;
    }
  const u64x2 r = x[0] ^ x[1] ^ x[2] ^ x[3];
  return r[0] ^ r[1];
}

int main(int argc, char **argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 1;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (threads > 1) {
    if (tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
    bench_use_cpu_clock = 0;
  }
  const int cold = argc > 2;
  const size_t evict_n = cold ? (size_t)80 << 20 : 0; /* floats: 320 MB */
  float *evict = cold ? malloc(evict_n * sizeof(float)) : NULL;
  float sink = 0.0f; /* printed, so the eviction reads stay */
  uint64_t read_sink = 0;
  if (evict)
    for (size_t i = 0; i < evict_n; i++) evict[i] = (float)i;
  const tfcc_f32_gemm_kernel *gk = tfcc_f32_gemm_select(tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_));
  static const int shapes[][2] = {{1280, 1000}, {2048, 1000}, {512, 256}};
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    const int K = shapes[si][0], N = shapes[si][1];
    float *w = malloc(sizeof(float) * (size_t)K * N), *a = malloc(sizeof(float) * K);
    float *c = malloc(sizeof(float) * N);
    for (size_t i = 0; i < (size_t)K * N; i++) w[i] = (float)(i % 7) * 0.01f;
    for (int i = 0; i < K; i++) a[i] = (float)(i % 5) * 0.1f;
    tfcc_f32_packed pk;
    if (!tfcc_f32_pack(gk, N, K, w, (size_t)K, 1, NULL, &pk)) return 1;
    const double bytes = (double)tfcc_f32_packed_bytes(gk, N, K);
    double tg[REPS], tv[REPS], tr[REPS];
    const int inner = cold ? 1 : 20;
    for (int r = -2; r < REPS; r++) {
      double t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0, t4 = 0.0, t5 = 0.0;
      float s = 0.0f;
      for (size_t i = 0; i < evict_n; i += 16) s += evict[i];
      t0 = bench_now();
      for (int i = 0; i < inner; i++) tfcc_f32_gemm(pool, &pk, 1, a, (size_t)K, c, (size_t)N, 0, 6);
      t1 = bench_now();
      for (size_t i = 0; i < evict_n; i += 16) s += evict[i];
      t2 = bench_now();
      for (int i = 0; i < inner; i++) tfcc_f32_gemv(pool, &pk, a, c, 0, 6);
      t3 = bench_now();
      for (size_t i = 0; i < evict_n; i += 16) s += evict[i];
      t4 = bench_now();
      for (int i = 0; i < inner; i++) read_sink += plain_read(pk.w, (size_t)bytes / 64 * 64);
      t5 = bench_now();
      sink += s;
      if (r >= 0) {
        tg[r] = (t1 - t0) / inner;
        tv[r] = (t3 - t2) / inner;
        tr[r] = (t5 - t4) / inner;
      }
    }
    qsort(tg, REPS, sizeof tg[0], bench_cmp_double);
    qsort(tv, REPS, sizeof tv[0], bench_cmp_double);
    qsort(tr, REPS, sizeof tr[0], bench_cmp_double);
    printf("%4d x %4d (%.1f MB %s, %d thread%s, %s): GEMM M=1 (%s) %.4f ms %5.1f GB/s   %s %.4f ms "
           "%5.1f GB/s\n",
           K, N, bytes / 1e6, cold ? "cold" : "in L3", threads, threads > 1 ? "s" : "", bench_use_cpu_clock ? "CPU" : "wall",
           gk->name1, tg[REPS / 2] * 1e3, bytes / tg[REPS / 2] * 1e-9, tfcc_f32_gemv_name(&pk),
           tv[REPS / 2] * 1e3, bytes / tv[REPS / 2] * 1e-9);
    printf("%*s plain read of the same bytes (1 thread): %.4f ms %5.1f GB/s\n", 12, "",
           tr[REPS / 2] * 1e3, bytes / tr[REPS / 2] * 1e-9);
    tfcc_f32_packed_free(&pk);
    free(w);
    free(a);
    free(c);
  }
  if (cold) printf("(eviction checksum %g)\n", (double)sink);
  printf("(read checksum %llx)\n", (unsigned long long)read_sink);
  free(evict);
  tfcc_threadpool_destroy(pool);
  return 0;
}
