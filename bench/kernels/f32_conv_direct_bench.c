/* Micro-benchmark (not a test) of the direct float32 convolution against the im2col + GEMM
 * path it replaces, on small-K first layers (MobileNetV2's 224x224x3 -> 32 3x3 s2, and a
 * few neighbours). Usage: f32_conv_direct_bench [threads]. One thread reports the thread's
 * CPU time (median of 9 repetitions, steady on a shared machine); a pool reports wall time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-conv-direct/direct_conv.h"
#include "kernels/f32-gemm/conv.h"
#include "base/threadpool.h"
#include "bench_clock.h"


typedef struct shape {
  const char *name;
  int h, w, cin, cout, k, s;
} shape;

int main(int argc, char **argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 1;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (threads > 1) {
    if (tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
    bench_use_cpu_clock = 0;
  }
  const tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  const tfcc_f32_gemm_kernel *gk = tfcc_f32_gemm_select(isa);
  const tfcc_f32_direct_conv_kernel *dk = tfcc_f32_direct_conv_select(isa, gk->nr);
  if (!dk) {
    printf("no direct kernel for %s\n", gk->name);
    return 0;
  }
  static const shape shapes[] = {
      {"mobilenet_v2 conv1 224x224x3->32 3x3 s2", 224, 224, 3, 32, 3, 2},
      {"112x112x3->16 3x3 s1", 112, 112, 3, 16, 3, 1},
      {"224x224x3->64 3x3 s2", 224, 224, 3, 64, 3, 2},
      {"112x112x4->24 3x3 s2", 112, 112, 4, 24, 3, 2},
      {"resnet50 stem 224x224x3->64 7x7 s2", 224, 224, 3, 64, 7, 2},
      {"224x224x3->32 5x5 s2", 224, 224, 3, 32, 5, 2},
      {"56x56x16->64 3x3 s1 (K 144)", 56, 56, 16, 64, 3, 1},
      {"56x56x8->32 3x3 s1 (K 72)", 56, 56, 8, 32, 3, 1},
  };
  printf("%s vs %s (im2col), %d thread(s), %s, ms per layer (median of 9)\n", dk->name, gk->name,
         threads, threads > 1 ? "wall time" : "thread CPU time");
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    const shape *sh = &shapes[si];
    tfcc_conv_geom g = {1, sh->h, sh->w, sh->cin, 0, 0, sh->cout, sh->k, sh->k, sh->cin,
                        sh->s, sh->s, 1, 1, 0, 0};
    g.out_h = (sh->h + sh->s - 1) / sh->s;
    g.out_w = (sh->w + sh->s - 1) / sh->s;
    int ph = ((g.out_h - 1) * sh->s + sh->k - sh->h) / 2;
    g.pad_h = g.pad_w = ph > 0 ? ph : 0;
    const int K = sh->k * sh->k * sh->cin;
    const size_t nin = (size_t)sh->h * sh->w * sh->cin;
    const size_t nout = (size_t)g.out_h * g.out_w * sh->cout;
    float *in = malloc(nin * 4), *f = malloc((size_t)sh->cout * K * 4), *out = malloc(nout * 4);
    for (size_t i = 0; i < nin; i++) in[i] = (float)(i % 17) * 0.1f;
    for (size_t i = 0; i < (size_t)sh->cout * K; i++) f[i] = (float)(i % 13) * 0.01f;
    tfcc_f32_packed pk;
    if (!tfcc_f32_pack(gk, sh->cout, K, f, (size_t)K, 1, NULL, &pk)) return 1;
    void *scratch = malloc(tfcc_f32_conv_scratch_bytes(&g, &pk, threads) + 64);
    const double macs = (double)nout * K;
    double td[9], tg[9];
    for (int r = -1; r < 9; r++) {
      double t0 = bench_now();
      for (int i = 0; i < 10; i++) tfcc_f32_direct_conv(pool, dk, &g, pk.w, in, out, 0.0f, 6.0f);
      double t1 = bench_now();
      for (int i = 0; i < 10; i++) tfcc_f32_conv(pool, &g, &pk, in, out, 0.0f, 6.0f, scratch);
      double t2 = bench_now();
      if (r >= 0) {
        td[r] = (t1 - t0) / 10;
        tg[r] = (t2 - t1) / 10;
      }
    }
    qsort(td, 9, sizeof td[0], bench_cmp_double);
    qsort(tg, 9, sizeof tg[0], bench_cmp_double);
    printf("  %-42s direct %.4f ms (%5.1f GFLOP/s)   im2col+GEMM %.4f ms (%5.1f GFLOP/s)\n",
           sh->name, td[4] * 1e3, 2 * macs / td[4] * 1e-9, tg[4] * 1e3,
           2 * macs / tg[4] * 1e-9);
    tfcc_f32_packed_free(&pk);
    free(scratch);
    free(in);
    free(f);
    free(out);
  }
  tfcc_threadpool_destroy(pool);
  return 0;
}
