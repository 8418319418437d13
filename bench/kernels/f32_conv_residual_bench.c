/* Micro-benchmark of the residual fusion (pass fuse_residual_add) on ResNet-50's fused
 * convolutions (the 1x1 conv3 of each block and the stride-2 1x1 downsample convs), best
 * GEMM kernel, one thread: per call, the median thread CPU time of
 *   conv     the convolution alone (RELU), the lower bound;
 *   conv+add the convolution (no activation) then the f32-vbinary ADD with RELU (before);
 *   fused    tfcc_f32_conv_residual with RELU (after).
 * Between calls (not timed) a 24 MiB buffer is written so that the weights, the input and the
 * residual come from L3/DRAM as in the whole network, not from L2. Not a test.
 * Usage: f32_conv_residual_bench [reps] [warm] (warm: no buffer written between calls; the
 * operands stay in L2/L3 as far as they fit). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-vbinary/vbinary.h"

static unsigned char *evict_buf;
static void evict(void) {
  for (size_t i = 0; i < (24u << 20); i += 64) evict_buf[i] = (unsigned char)i;
}

int main(int argc, char **argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 21;
  const int warm = argc > 2 && strcmp(argv[2], "warm") == 0;
  const tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  const tfcc_f32_gemm_kernel *k = tfcc_f32_gemm_select(isa);
  const tfcc_f32_vbinary_kernel *vb = tfcc_f32_vbinary_select(isa);
  evict_buf = malloc(24u << 20);
  /* in_h, in_w, in_c, out_c, stride */
  static const int shapes[][5] = {{56, 56, 64, 256, 1},    {28, 28, 128, 512, 1},
                                  {14, 14, 256, 1024, 1},  {7, 7, 512, 2048, 1},
                                  {56, 56, 256, 512, 2},   {28, 28, 512, 1024, 2},
                                  {14, 14, 1024, 2048, 2}};
  double *t = malloc(sizeof(double) * (size_t)reps * 3);
  printf("%-22s %-28s %9s %9s %9s %9s\n", k->name, "shape", "conv", "conv+add", "fused",
         "saved");
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    tfcc_conv_geom g;
    memset(&g, 0, sizeof g);
    g.batches = 1;
    g.in_h = shapes[s][0];
    g.in_w = shapes[s][1];
    g.in_c = g.filter_in_c = shapes[s][2];
    g.out_c = shapes[s][3];
    g.filter_h = g.filter_w = 1;
    g.stride_h = g.stride_w = shapes[s][4];
    g.dil_h = g.dil_w = 1;
    g.out_h = (g.in_h - 1) / g.stride_h + 1;
    g.out_w = (g.in_w - 1) / g.stride_w + 1;
    const size_t K = (size_t)g.in_c, in_n = (size_t)g.in_h * g.in_w * g.in_c;
    const size_t out_n = (size_t)g.out_h * g.out_w * g.out_c;
    float *in = aligned_alloc(64, in_n * 4 + 64), *w = malloc((size_t)g.out_c * K * 4);
    float *out = aligned_alloc(64, out_n * 4 + 64), *res = aligned_alloc(64, out_n * 4 + 64);
    for (size_t i = 0; i < in_n; i++) in[i] = (float)(i % 7) * 0.1f;
    for (size_t i = 0; i < (size_t)g.out_c * K; i++) w[i] = (float)(i % 5) * 0.1f - 0.2f;
    for (size_t i = 0; i < out_n; i++) res[i] = (float)(i % 11) * 0.1f - 0.5f;
    tfcc_f32_packed p;
    tfcc_f32_pack(k, g.out_c, (int32_t)K, w, K, 1, NULL, &p);
    const tfcc_f32_vbinary_params add = {TFCC_F32VB_ADD, 0.0f, INFINITY};
    for (int r = 0; r < reps; r++)
      for (int v = 0; v < 3; v++) {
        if (!warm) evict();
        const double t0 = bench_now();
        if (v == 0) {
          tfcc_f32_conv(NULL, &g, &p, in, out, 0.0f, INFINITY, NULL);
        } else if (v == 1) {
          tfcc_f32_conv(NULL, &g, &p, in, out, -INFINITY, INFINITY, NULL);
          vb->fn(&add, out, res, out, out_n, 1, 1);
        } else {
          tfcc_f32_conv_residual(NULL, &g, &p, in, res, (size_t)g.out_c, out, 0.0f, INFINITY,
                                 NULL);
        }
        t[v * reps + r] = bench_now() - t0;
      }
    double med[3];
    for (int v = 0; v < 3; v++) {
      qsort(t + v * reps, (size_t)reps, sizeof(double), bench_cmp_double);
      med[v] = t[v * reps + reps / 2] * 1e3;
    }
    char shape[64];
    snprintf(shape, sizeof shape, "%dx%dx%d->%d s%d", g.in_h, g.in_w, g.in_c, g.out_c,
             g.stride_h);
    printf("%-22s %-28s %9.3f %9.3f %9.3f %9.3f ms\n", "", shape, med[0], med[1], med[2],
           med[1] - med[2]);
    tfcc_f32_packed_free(&p);
    free(in);
    free(w);
    free(out);
    free(res);
  }
  free(t);
  free(evict_buf);
  return 0;
}
