/* Micro-benchmark of the f32 convolution driver (im2col groups / direct 1x1) with the best
 * GEMM kernel on the ResNet-50 and MobileNetV2 convolution shapes that need im2col (not a
 * test), and the 1x1 (direct) ones of both networks. Usage: f32_conv_bench [threads]
 * [cold|warm] [shape indices, e.g. 3,7]. One thread reports the thread's CPU time
 * (steady on a shared machine); a pool reports wall time. `cold`: the calls rotate over
 * copies of the packed weights (about 128 MB in all), so every call reads its weights from
 * L3/DRAM as in a whole network (ResNet-50 holds 97 MB of weights) instead of from L2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/f32-gemm/gemm.h"
#include "base/threadpool.h"
#include "bench_clock.h"


int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (threads > 1 && tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
  const int cold = argc > 2 && strcmp(argv[2], "cold") == 0;
  bench_use_cpu_clock = threads <= 1;
  const tfcc_f32_gemm_kernel *k = tfcc_f32_gemm_select(tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_));
  /* in_h, in_w, in_c, out_c, filter, stride, pad */
  static const int shapes[][7] = {
      {56, 56, 64, 64, 3, 1, 1},  {28, 28, 128, 128, 3, 1, 1}, {14, 14, 256, 256, 3, 1, 1},
      {7, 7, 512, 512, 3, 1, 1},  {14, 14, 512, 512, 3, 1, 1}, {224, 224, 3, 64, 7, 2, 3},  {224, 224, 3, 32, 3, 2, 1},
      {14, 14, 1024, 2048, 1, 2, 0}, {7, 7, 2048, 512, 1, 1, 0}, {7, 7, 512, 2048, 1, 1, 0},
      /* 10..: the other ResNet-50 1x1s and MobileNetV2's short-K expands / M = 49 1x1s */
      {56, 56, 64, 256, 1, 1, 0}, {56, 56, 256, 64, 1, 1, 0}, {28, 28, 128, 512, 1, 1, 0},
      {28, 28, 512, 128, 1, 1, 0}, {14, 14, 256, 1024, 1, 1, 0}, {14, 14, 1024, 256, 1, 1, 0},
      {112, 112, 16, 96, 1, 1, 0}, {28, 28, 32, 192, 1, 1, 0},   {7, 7, 320, 1280, 1, 1, 0},
      {7, 7, 960, 320, 1, 1, 0},
  };
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    if (argc > 3) { /* only the listed shapes */
      char key[16];
      snprintf(key, sizeof key, ",%zu,", s);
      char list[256];
      snprintf(list, sizeof list, ",%s,", argv[3]);
      if (!strstr(list, key)) continue;
    }
    tfcc_conv_geom g;
    memset(&g, 0, sizeof g);
    g.batches = 1;
    g.in_h = shapes[s][0];
    g.in_w = shapes[s][1];
    g.in_c = g.filter_in_c = shapes[s][2];
    g.out_c = shapes[s][3];
    g.filter_h = g.filter_w = shapes[s][4];
    g.stride_h = g.stride_w = shapes[s][5];
    g.pad_h = g.pad_w = shapes[s][6];
    g.dil_h = g.dil_w = 1;
    g.out_h = (g.in_h + 2 * g.pad_h - g.filter_h) / g.stride_h + 1;
    g.out_w = (g.in_w + 2 * g.pad_w - g.filter_w) / g.stride_w + 1;
    const size_t K = (size_t)g.filter_h * g.filter_w * g.in_c;
    const size_t in_n = (size_t)g.in_h * g.in_w * g.in_c;
    const size_t out_n = (size_t)g.out_h * g.out_w * g.out_c;
    float *in = aligned_alloc(64, in_n * 4 + 64), *w = malloc((size_t)g.out_c * K * 4);
    float *out = aligned_alloc(64, out_n * 4 + 64);
    for (size_t i = 0; i < in_n; i++) in[i] = (float)(i % 7) * 0.1f;
    for (size_t i = 0; i < (size_t)g.out_c * K; i++) w[i] = (float)(i % 5) * 0.1f;
    enum { MAX_COPIES = 64 };
    tfcc_f32_packed p[MAX_COPIES];
    const size_t pbytes = tfcc_f32_packed_bytes(k, g.out_c, (int32_t)K);
    size_t copies = cold ? (128u << 20) / pbytes + 1 : 1;
    if (copies > MAX_COPIES) copies = MAX_COPIES;
    for (size_t i = 0; i < copies; i++) tfcc_f32_pack(k, g.out_c, (int32_t)K, w, K, 1, NULL, &p[i]);
    const size_t sb = tfcc_f32_conv_scratch_bytes(&g, &p[0], threads);
    void *scratch = aligned_alloc(64, (sb + 63) / 64 * 64 + 64);
    const double flops = 2.0 * (double)g.out_h * g.out_w * g.out_c * (double)K;
    int reps = (int)(1e9 / flops) + 1;
    if (reps < (int)copies) reps = (int)copies;
    tfcc_f32_conv(pool, &g, &p[0], in, out, -1e30f, 1e30f, scratch);
    double best_t = 1e9;
    for (int r = 0; r < 5; r++) {
      const double t0 = bench_now();
      for (int i = 0; i < reps; i++)
        tfcc_f32_conv(pool, &g, &p[(size_t)i % copies], in, out, -1e30f, 1e30f, scratch);
      const double t = (bench_now() - t0) / reps;
      if (t < best_t) best_t = t;
    }
    printf("%-22s conv %3dx%3dx%4d -> %4d  %dx%d s%d  K=%5zu  %8.3f ms  %7.1f GFLOP/s%s\n",
           k->name, g.in_h, g.in_w, g.in_c, g.out_c, g.filter_h, g.filter_w, g.stride_h, K,
           best_t * 1e3, flops / best_t * 1e-9, cold ? "  (cold weights)" : "");
    for (size_t i = 0; i < copies; i++) tfcc_f32_packed_free(&p[i]);
    free(in);
    free(w);
    free(out);
    free(scratch);
  }
  tfcc_threadpool_destroy(pool);
  return 0;
}
