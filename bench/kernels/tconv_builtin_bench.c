/* Micro-benchmark of the float32 TRANSPOSE_CONV builtin order (REFERENCE mode and computed
 * output shapes; not a test): the scalar loops (tfcc_tconv_f32, TFCC_TCONV_F32_BUILTIN,
 * kernels/ref/transpose_conv.c) against the same sums on the vector GEMM (tfcc_eigen_tconv_f32,
 * kernels/tflite-f32/eigen_f32.h; the ISA's tflite_f32 variant, or TFCC_ISA's). Shapes: the six
 * TRANSPOSE_CONVs of the DPCRN speech enhancers (dpcrn_quant: [1, 1, W, C] inputs, 1x3 / 1x5
 * filters), then two image-like ones. Built as build/bench/tconv_builtin_bench; usage:
 * tconv_builtin_bench [reps]. Interleaved rounds (A, B, A, B, ...), CPU time of the calling
 * thread, median per call in microseconds, the ratio A / B; also checks that both give the same
 * bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/ref/transpose_conv.h"
#include "kernels/tflite-f32/eigen_f32.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "bench_clock.h"

#define MAX_REPS 401

int main(int argc, char **argv) {
  const int reps = bench_reps_arg(argc, argv, 41, MAX_REPS);
  const tfcc_tflite_f32_kernel *k = tfcc_tflite_f32_select(tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_));
  if (!k || !k->eigen_gemm) {
    fprintf(stderr, "no tflite_f32 kernel\n");
    return 1;
  }
  /* in_h, in_w, in_c, out_c, filter_h, filter_w, stride_h, stride_w, pad_w, out_w */
  static const int32_t shapes[][10] = {
      {1, 32, 256, 64, 1, 3, 1, 1, 1, 32}, {1, 32, 128, 32, 1, 3, 1, 1, 1, 32},
      {1, 32, 64, 32, 1, 3, 1, 2, 0, 64},  {1, 64, 64, 32, 1, 3, 1, 2, 0, 128},
      {1, 128, 64, 2, 1, 5, 1, 2, 0, 259}, {1, 128, 64, 1, 1, 5, 1, 2, 0, 259},
      {16, 16, 32, 16, 3, 3, 2, 2, 0, 32}, {8, 8, 64, 32, 4, 4, 2, 2, 1, 16},
  };
  printf("tconv_builtin_bench: %s, %d interleaved rounds, CPU us per call (median)\n", k->name,
         reps);
  printf("%-34s %10s %10s %7s %s\n", "shape", "scalar", "vector", "ratio", "bits");
  double tot_a = 0, tot_b = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const int32_t *v = shapes[s];
    tfcc_conv_geom g;
    memset(&g, 0, sizeof g);
    g.batches = 1;
    g.in_h = v[0];
    g.in_w = v[1];
    g.in_c = g.filter_in_c = v[2];
    g.out_c = v[3];
    g.filter_h = v[4];
    g.filter_w = v[5];
    g.stride_h = v[6];
    g.stride_w = v[7];
    g.pad_w = v[8];
    g.dil_h = g.dil_w = 1;
    g.out_w = v[9];
    g.out_h = v[0] == 1 ? 1 : v[0] * v[6];
    g.pad_h = v[0] == 1 ? 0 : v[8];
    const size_t ni = (size_t)g.in_h * g.in_w * g.in_c;
    const size_t nf = (size_t)g.out_c * g.filter_h * g.filter_w * g.in_c;
    const size_t no = (size_t)g.out_h * g.out_w * g.out_c;
    float *in = malloc(ni * sizeof(float)), *f = malloc(nf * sizeof(float));
    float *b = malloc((size_t)g.out_c * sizeof(float));
    float *oa = malloc(no * sizeof(float)), *ob = malloc(no * sizeof(float));
    float *scratch = malloc(tfcc_eigen_tconv_f32_scratch(&g));
    if (!in || !f || !b || !oa || !ob || !scratch) return 1;
    uint32_t seed = 7u + (uint32_t)s;
    for (size_t i = 0; i < ni; i++) {
      seed = seed * 1664525u + 1013904223u;
      in[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
    }
    for (size_t i = 0; i < nf; i++) {
      seed = seed * 1664525u + 1013904223u;
      f[i] = (float)(seed >> 8) / 33554432.0f - 0.25f;
    }
    for (int32_t i = 0; i < g.out_c; i++) b[i] = 0.01f * (float)i;
    static double ta[MAX_REPS], tb[MAX_REPS];
    for (int r = 0; r < reps; r++) {
      double t0 = bench_now();
      tfcc_tconv_f32(&g, in, f, NULL, b, -INFINITY, INFINITY, TFCC_TCONV_F32_BUILTIN, oa);
      double t1 = bench_now();
      tfcc_eigen_tconv_f32(&g, in, f, NULL, b, -INFINITY, INFINITY, ob, scratch, k->eigen_gemm);
      double t2 = bench_now();
      ta[r] = t1 - t0;
      tb[r] = t2 - t1;
    }
    const double ma = bench_median_us(ta, reps), mb = bench_median_us(tb, reps);
    tot_a += ma;
    tot_b += mb;
    char name[64];
    snprintf(name, sizeof name, "[%d,%d,%d]->%d %dx%d s%d,%d", (int)g.in_h, (int)g.in_w,
             (int)g.in_c, (int)g.out_c, (int)g.filter_h, (int)g.filter_w, (int)g.stride_h,
             (int)g.stride_w);
    printf("%-34s %10.1f %10.1f %6.2fx %s\n", name, ma, mb, ma / mb,
           memcmp(oa, ob, no * sizeof(float)) == 0 ? "same" : "DIFFER");
    free(in), free(f), free(b), free(oa), free(ob), free(scratch);
  }
  printf("%-34s %10.1f %10.1f %6.2fx\n", "sum of medians", tot_a, tot_b, tot_a / tot_b);
  return 0;
}
