/* Micro-benchmark of REFERENCE mode's one-batch float32 FULLY_CONNECTED in Eigen's GEMV order
 * (not a test): the scalar loop (tfcc_fc_f32_eigen_gemv, kernels/ref/fully_connected.c) against
 * the same sums on each vector variant of kernels/hybrid/fc_eigen.h that this CPU runs, in GEMV
 * mode on weights packed once (tfcc_fc_eigen_pack; ref12). Shapes: GRU-cell-like layers and
 * ones that are not a multiple of any vector width. Built as build/bench/fc_gemv_bench; usage:
 * fc_gemv_bench [reps]. Interleaved rounds (A, B, A, B, ...) of 20 calls each, CPU time of the
 * calling thread, median per call in microseconds, the ratio A / B; also checks that both give
 * the same bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/hybrid/fc_eigen.h"
#include "kernels/ref/fully_connected.h"
#include "bench_clock.h"

#define MAX_REPS 401
#define CALLS 20

int main(int argc, char **argv) {
  const int reps = bench_reps_arg(argc, argv, 101, MAX_REPS);
  static const int32_t shapes[][2] = {{32, 96}, {64, 192}, {128, 384}, {256, 64}, {33, 97}};
  static double ta[MAX_REPS], tb[MAX_REPS];
  printf("fc_gemv_bench: %d interleaved rounds of %d calls, CPU us per call (median)\n", reps,
         CALLS);
  printf("%-22s %-10s %10s %10s %7s %s\n", "variant", "K x U", "scalar", "vector", "ratio", "bits");
  for (int ki = 0; ki < tfcc_fc_eigen_kernel_count(); ki++) {
    const tfcc_fc_eigen_kernel *k = tfcc_fc_eigen_kernel_at(ki);
    if (!tfcc_isa_level_fits(k->isa, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_))) continue;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      const int32_t K = shapes[s][0], U = shapes[s][1];
      const tfcc_fc_dims d = {1, K, U};
      float *x = malloc((size_t)K * sizeof(float)), *w = malloc((size_t)U * K * sizeof(float));
      float *b = malloc((size_t)U * sizeof(float)), *oa = malloc((size_t)U * sizeof(float));
      float *ob = malloc((size_t)U * sizeof(float));
      float *wp = malloc(tfcc_fc_eigen_packed_floats(U, K) * sizeof(float));
      if (!x || !w || !b || !oa || !ob || !wp) return 1;
      uint32_t seed = 11u + (uint32_t)s;
      for (int32_t i = 0; i < K; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
      }
      for (size_t i = 0; i < (size_t)U * (size_t)K; i++) {
        seed = seed * 1664525u + 1013904223u;
        w[i] = (float)(seed >> 8) / 33554432.0f - 0.25f;
      }
      for (int32_t i = 0; i < U; i++) b[i] = 0.01f * (float)i;
      tfcc_fc_eigen_pack(w, U, K, wp);
      for (int r = 0; r < reps; r++) {
        const double t0 = bench_now();
        for (int c = 0; c < CALLS; c++)
          tfcc_fc_f32_eigen_gemv(&d, x, w, b, -INFINITY, INFINITY, oa);
        const double t1 = bench_now();
        for (int c = 0; c < CALLS; c++)
          k->fn(&d, true, x, w, wp, b, -INFINITY, INFINITY, ob, NULL, 0, U);
        const double t2 = bench_now();
        ta[r] = (t1 - t0) / CALLS;
        tb[r] = (t2 - t1) / CALLS;
      }
      const double ma = bench_median_us(ta, reps), mb = bench_median_us(tb, reps);
      char shape[32];
      snprintf(shape, sizeof shape, "%dx%d", (int)K, (int)U);
      printf("%-22s %-10s %10.2f %10.2f %6.2fx %s\n", k->name, shape, ma, mb, ma / mb,
             memcmp(oa, ob, (size_t)U * sizeof(float)) == 0 ? "same" : "DIFFER");
      free(x), free(w), free(b), free(oa), free(ob), free(wp);
    }
  }
  return 0;
}
