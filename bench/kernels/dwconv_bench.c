/* Micro-benchmark of the fast depthwise kernels (not a test) on MobileNetV2's 17 depthwise
 * layers (3x3, stride 1/2, SAME, RELU6): float32, int8 (XNNPACK fp32 requantization and the
 * fixed-point reference mode) and uint8. Usage: dwconv_bench [threads] [isa]. One thread
 * reports the thread's CPU time per layer (median of 7 repetitions, steady on a shared
 * machine); a pool reports wall time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/ref/quant_util.h"
#include "base/threadpool.h"
#include "bench_clock.h"



#define REPS 7
typedef void (*run_fn)(void *ctx);
static double time_it(run_fn fn, void *ctx, double macs) {
  const int inner = (int)(2e7 / macs) + 1;
  double t[REPS];
  fn(ctx);
  for (int r = 0; r < REPS; r++) {
    const double t0 = bench_now();
    for (int i = 0; i < inner; i++) fn(ctx);
    t[r] = (bench_now() - t0) / inner;
  }
  qsort(t, REPS, sizeof t[0], bench_cmp_double);
  return t[REPS / 2];
}

typedef struct f32_ctx {
  tfcc_threadpool *pool;
  const tfcc_f32_dwconv_kernel *k;
  const tfcc_conv_geom *g;
  const float *in, *w, *b;
  float *out;
} f32_ctx;
static void run_f32(void *p) {
  const f32_ctx *c = p;
  tfcc_f32_dwconv(c->pool, c->k, c->g, c->in, c->w, c->b, 0.0f, 6.0f, c->out, NULL);
}

typedef struct q8_ctx {
  tfcc_threadpool *pool;
  const tfcc_conv_geom *g;
  const tfcc_q8_dw_packed *p;
  const tfcc_conv_requant *r;
  const uint8_t *in;
  uint8_t *out;
  void *scratch;
} q8_ctx;
static void run_q8(void *p) {
  const q8_ctx *c = p;
  tfcc_q8_dwconv(c->pool, c->g, c->p, c->r, c->in, c->out, c->scratch);
}

int main(int argc, char **argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 1;
  tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  if (argc > 2)
    for (int i = 0; i < TFCC_ISA_COUNT_; i++)
      if (!strcmp(argv[2], tfcc_isa_name((tfcc_isa)i))) isa = (tfcc_isa)i;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (threads > 1 && tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) return 1;
  bench_use_cpu_clock = threads <= 1;
  /* MobileNetV2 depthwise layers: in_h = in_w, channels, stride, count */
  static const int layers[][4] = {{112, 32, 1, 1}, {112, 96, 2, 1}, {56, 144, 1, 1},
                                  {56, 144, 2, 1}, {28, 192, 1, 2}, {28, 192, 2, 1},
                                  {14, 384, 1, 4}, {14, 576, 1, 2}, {14, 576, 2, 1},
                                  {7, 960, 1, 3}};
  const tfcc_f32_dwconv_kernel *fk = tfcc_f32_dwconv_select(isa);
  const tfcc_q8_dw_kernel *qk = tfcc_q8_dw_select(isa);
  printf("kernels: %s, %s; %d thread(s), %s time; ms per layer (median of %d)\n", fk->name,
         qk->name, threads, bench_use_cpu_clock ? "thread CPU" : "wall", REPS);
  printf("%-18s %9s %9s %9s %9s %9s\n", "layer", "MACs", "f32", "s8 fp32", "s8 fixed", "u8 fp32");
  double tot[4] = {0, 0, 0, 0}, tot_macs = 0;
  for (size_t l = 0; l < sizeof layers / sizeof layers[0]; l++) {
    tfcc_conv_geom g;
    memset(&g, 0, sizeof g);
    g.batches = 1;
    g.in_h = g.in_w = layers[l][0];
    g.in_c = g.out_c = layers[l][1];
    g.filter_h = g.filter_w = 3;
    g.filter_in_c = 1;
    g.stride_h = g.stride_w = layers[l][2];
    g.dil_h = g.dil_w = 1;
    g.out_h = g.out_w = (g.in_h + g.stride_h - 1) / g.stride_h;
    const int pad = ((g.out_h - 1) * g.stride_h + 3 - g.in_h) / 2;
    g.pad_h = g.pad_w = pad > 0 ? pad : 0;
    const size_t C = (size_t)g.in_c, nin = (size_t)g.in_h * g.in_w * C;
    const size_t nout = (size_t)g.out_h * g.out_w * C;
    const double macs = (double)nout * 9.0;
    float *fin = aligned_alloc(64, nin * 4 + 64), *fout = aligned_alloc(64, nout * 4 + 64);
    float *fw = malloc(9 * C * 4), *fb = malloc(C * 4);
    uint8_t *qin = aligned_alloc(64, nin + 64), *qout = aligned_alloc(64, nout + 64);
    uint8_t *qw = malloc(9 * C);
    int32_t *qb = malloc(C * 4), *mult = malloc(C * 4), *shift = malloc(C * 4);
    float *scale = malloc(C * 4);
    for (size_t i = 0; i < nin; i++) {
      fin[i] = (float)(i % 7) * 0.1f - 0.3f;
      qin[i] = (uint8_t)(i * 37u + 11u);
    }
    for (size_t i = 0; i < 9 * C; i++) {
      fw[i] = (float)(i % 5) * 0.1f - 0.2f;
      qw[i] = (uint8_t)(i * 53u + 7u);
    }
    for (size_t i = 0; i < C; i++) {
      fb[i] = 0.01f * (float)(i % 3);
      qb[i] = (int32_t)(i % 1000) - 500;
      scale[i] = 1e-3f + 1e-5f * (float)(i % 50);
      int s;
      tfcc_quantize_multiplier((double)scale[i], &mult[i], &s);
      shift[i] = s;
    }
    f32_ctx fc = {pool, fk, &g, fin, fw, fb, fout};
    const double tf = time_it(run_f32, &fc, macs);
    double tq[3];
    for (int m = 0; m < 3; m++) {
      const bool is_signed = m < 2;
      tfcc_conv_requant r;
      memset(&r, 0, sizeof r);
      r.input_offset = is_signed ? 3 : -128;
      r.filter_offset = is_signed ? 0 : -120;
      r.output_offset = is_signed ? -128 : 0;
      r.mult = mult;
      r.shift = shift;
      r.mult_stride = is_signed ? 1 : 0;
      r.act_min = is_signed ? -128 : 0;
      r.act_max = is_signed ? 127 : 255;
      r.scale = m == 1 ? NULL : scale;
      tfcc_q8_dw_packed p;
      if (!tfcc_q8_dw_pack(qk, is_signed, (int32_t)C, 3, 3, qw, qb, &r, &p)) return 1;
      const size_t sb = tfcc_q8_dw_scratch_bytes(&p, &g, threads);
      void *scratch = sb ? aligned_alloc(64, (sb + 63) / 64 * 64) : NULL;
      q8_ctx qc = {pool, &g, &p, &r, qin, qout, scratch};
      tq[m] = time_it(run_q8, &qc, macs);
      free(scratch);
      tfcc_q8_dw_packed_free(&p);
    }
    const int n = layers[l][3];
    char name[32];
    snprintf(name, sizeof name, "%dx%dx%d s%d x%d", g.in_h, g.in_w, g.in_c, g.stride_h, n);
    printf("%-18s %9.0f %9.4f %9.4f %9.4f %9.4f\n", name, macs, tf * 1e3, tq[0] * 1e3,
           tq[1] * 1e3, tq[2] * 1e3);
    tot[0] += n * tf;
    for (int m = 0; m < 3; m++) tot[m + 1] += n * tq[m];
    tot_macs += n * macs;
    free(fin);
    free(fout);
    free(fw);
    free(fb);
    free(qin);
    free(qout);
    free(qw);
    free(qb);
    free(mult);
    free(shift);
    free(scale);
  }
  printf("%-18s %9.0f %9.4f %9.4f %9.4f %9.4f   (ms per network, all 17 layers)\n", "total",
         tot_macs, tot[0] * 1e3, tot[1] * 1e3, tot[2] * 1e3, tot[3] * 1e3);
  printf("%-18s %9s %9.1f %9.1f %9.1f %9.1f   (GOP/s, 2 ops per MAC)\n", "", "",
         2e-9 * tot_macs / tot[0], 2e-9 * tot_macs / tot[1], 2e-9 * tot_macs / tot[2],
         2e-9 * tot_macs / tot[3]);
  tfcc_threadpool_destroy(pool);
  return 0;
}
