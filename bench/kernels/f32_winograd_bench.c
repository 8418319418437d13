/* Micro-benchmark (not a test) of the float32 Winograd convolution, F(2x2,3x3) and
 * F(4x4,3x3), with the filter transform stored (F2, F4) or made on the fly from the GEMM's
 * packing (F2o, F4o), against the im2col + GEMM path, on ResNet-50's 3x3 stride-1 layers and a
 * few other sizes. Usage: f32_winograd_bench [threads] [cold]. One thread reports the thread's CPU
 * time (median of 9 rounds, the three paths interleaved in each round); a pool reports wall
 * time. Weights are warm (the same layer repeated), or with `cold` rotate over COPIES copies
 * of each (as a model run, which reads each layer's weights from L3 or memory). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/f32-winograd/winograd.h"
#include "base/threadpool.h"
#include "bench_clock.h"

typedef struct shape {
  const char *name;
  int h, w, cin, cout;
} shape;

#define ROUNDS 9
#define COPIES 8

int main(int argc, char **argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 1;
  const int copies = argc > 2 && strcmp(argv[2], "cold") == 0 ? COPIES : 1;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (threads > 1) {
    if (tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
    bench_use_cpu_clock = 0;
  }
  const tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  const tfcc_f32_gemm_kernel *gk = tfcc_f32_gemm_select(isa);
  const tfcc_f32_wino_kernel *wk = tfcc_f32_wino_select(isa);
  static const shape shapes[] = {
      {"resnet50 56x56x64->64", 56, 56, 64, 64},     {"resnet50 28x28x128->128", 28, 28, 128, 128},
      {"resnet50 14x14x256->256", 14, 14, 256, 256}, {"resnet50 7x7x512->512", 7, 7, 512, 512},
      {"112x112x32->32", 112, 112, 32, 32},          {"28x28x64->64", 28, 28, 64, 64},
      {"14x14x128->128", 14, 14, 128, 128},
  };
  printf("%s / %s vs %s (im2col), %d thread(s), %s, ms per layer (median of %d)\n", wk->name_f2,
         wk->name_f4, gk->name, threads, threads > 1 ? "wall time" : "thread CPU time", ROUNDS);
  printf("%-28s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "layer", "gemm", "F2", "F4", "F2o", "F4o",
         "F2/gemm", "F4/gemm", "F2o/F2", "F4o/F4");
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    const shape *sh = &shapes[si];
    tfcc_conv_geom g = {1, sh->h,   sh->w, sh->cin, sh->h, sh->w, sh->cout, 3,
                        3, sh->cin, 1,     1,       1,     1,     1,        1};
    const int K = 9 * sh->cin;
    const size_t nin = (size_t)sh->h * sh->w * sh->cin, nout = (size_t)sh->h * sh->w * sh->cout;
    float *in = malloc(nin * 4), *f = malloc((size_t)sh->cout * K * 4), *out = malloc(nout * 4);
    float *b = calloc((size_t)sh->cout, 4);
    for (size_t i = 0; i < nin; i++) in[i] = (float)(i % 13) * 0.1f - 0.6f;
    for (size_t i = 0; i < (size_t)sh->cout * K; i++) f[i] = (float)(i % 7) * 0.01f - 0.03f;
    tfcc_f32_packed pk[COPIES];
    tfcc_f32_wino_weights w2[COPIES], w4[COPIES], o2[COPIES], o4[COPIES];
    for (int c = 0; c < copies; c++)
      if (!tfcc_f32_pack(gk, sh->cout, K, f, (size_t)K, 1, b, &pk[c]) ||
          !tfcc_f32_wino_pack(wk, gk, 2, sh->cout, sh->cin, f, b, &w2[c]) ||
          !tfcc_f32_wino_pack(wk, gk, 4, sh->cout, sh->cin, f, b, &w4[c]) ||
          !tfcc_f32_wino_otf(wk, 2, sh->cout, sh->cin, &pk[c], &o2[c]) ||
          !tfcc_f32_wino_otf(wk, 4, sh->cout, sh->cin, &pk[c], &o4[c]))
        return 1;
    size_t sb = tfcc_f32_conv_scratch_bytes(&g, &pk[0], threads);
    const size_t s2 = tfcc_f32_wino_scratch_bytes(&g, &w2[0], threads);
    const size_t s4 = tfcc_f32_wino_scratch_bytes(&g, &w4[0], threads);
    if (s2 > sb) sb = s2;
    if (s4 > sb) sb = s4;
    const size_t so2 = tfcc_f32_wino_scratch_bytes(&g, &o2[0], threads);
    const size_t so4 = tfcc_f32_wino_scratch_bytes(&g, &o4[0], threads);
    if (so2 > sb) sb = so2;
    if (so4 > sb) sb = so4;
    void *scratch = aligned_alloc(64, (sb + 63) & ~(size_t)63);
    double t[5][ROUNDS];
    for (int r = -1; r < ROUNDS; r++) {
      for (int v = 0; v < 5; v++) {
        const int c = (r + 1) % copies;
        const double t0 = bench_now();
        if (v == 0)
          tfcc_f32_conv(pool, &g, &pk[c], in, out, -1e30f, 1e30f, scratch);
        else
          tfcc_f32_wino_conv(pool, &g,
                             v == 1   ? &w2[c]
                             : v == 2 ? &w4[c]
                             : v == 3 ? &o2[c]
                                      : &o4[c],
                             in, out, -1e30f, 1e30f, scratch);
        if (r >= 0) t[v][r] = (bench_now() - t0) * 1e3;
      }
    }
    for (int v = 0; v < 5; v++) qsort(t[v], ROUNDS, sizeof(double), bench_cmp_double);
    const double gm = t[0][ROUNDS / 2], f2 = t[1][ROUNDS / 2], f4 = t[2][ROUNDS / 2];
    const double f2o = t[3][ROUNDS / 2], f4o = t[4][ROUNDS / 2];
    printf("%-28s %8.3f %8.3f %8.3f %8.3f %8.3f %8.2f %8.2f %8.2f %8.2f\n", sh->name, gm, f2, f4,
           f2o, f4o, f2 / gm, f4 / gm, f2o / f2, f4o / f4);
    for (int c = 0; c < copies; c++) {
      tfcc_f32_packed_free(&pk[c]);
      tfcc_f32_wino_free(&w2[c]);
      tfcc_f32_wino_free(&w4[c]);
    }
    free(scratch);
    free(in);
    free(f);
    free(out);
    free(b);
  }
  tfcc_threadpool_destroy(pool);
  return 0;
}
