/* Micro-benchmark of the fused expand 1x1 + depthwise driver (f32-expand-dw, not a test) on
 * MobileNetV2's 16 inverted-residual pairs (1x1 expand RELU6, 3x3 depthwise stride 1/2 SAME
 * RELU6), against the unfused pair run by the same kernels (packed f32 GEMM writing the
 * expanded tensor, then the f32 depthwise reading it back). Usage: expand_dw_bench [isa]
 * [threads]. Thread CPU time per layer, median of 9 repetitions; the total weights each shape
 * by how often MobileNetV2 has it. With threads > 1: both on a pool of that many threads inside
 * a run scope (workers awake, as in a session's run), wall time of single calls, the minimum and
 * the median of 301 (on a loaded machine the minimum is the moment both threads had a core). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernels/f32-expand-dw/expand_dw.h"

#define REPS 9
#define POOL_REPS 301

typedef struct layer {
  int hw, cin, c, stride, count;
} layer;

static const layer k_layers[] = {
    {112, 16, 96, 2, 1}, {56, 24, 144, 1, 1}, {56, 24, 144, 2, 1},
    {28, 32, 192, 1, 2}, {28, 32, 192, 2, 1}, {14, 64, 384, 1, 4},
    {14, 96, 576, 1, 2}, {14, 96, 576, 2, 1}, {7, 160, 960, 1, 3},
};

typedef struct ctx {
  const tfcc_f32_expand_dw *k;
  const tfcc_conv_geom *g;
  const float *x;
  float *e, *out;
  void *scratch;
  tfcc_threadpool *pool;
} ctx;

static void run_unfused(const ctx *c) {
  const tfcc_conv_geom *g = c->g;
  tfcc_f32_gemm(c->pool, c->k->expand, g->in_h * g->in_w, c->x, (size_t)c->k->expand->kdim, c->e,
                (size_t)g->in_c, c->k->expand_lo, c->k->expand_hi);
  tfcc_f32_dwconv(c->pool, c->k->dw, g, c->e, c->k->dw_filter, c->k->dw_bias, c->k->lo, c->k->hi,
                  c->out, NULL);
}

static void run_fused(const ctx *c) {
  tfcc_f32_expand_dw_run(c->pool, c->k, c->g, c->x, c->out, c->scratch);
}

static double pool_min; /* the minimum of the last time_it on a pool */

static double time_it(void (*fn)(const ctx *), const ctx *c, double macs) {
  if (c->pool) { /* single calls, wall time */
    static double t[POOL_REPS];
    for (int r = 0; r < 5; r++) fn(c);
    for (int r = 0; r < POOL_REPS; r++) {
      const double t0 = bench_now();
      fn(c);
      t[r] = bench_now() - t0;
    }
    qsort(t, POOL_REPS, sizeof t[0], bench_cmp_double);
    pool_min = t[0];
    return t[POOL_REPS / 2];
  }
  const int inner = (int)(3e7 / macs) + 1;
  double t[REPS];
  fn(c);
  for (int r = 0; r < REPS; r++) {
    const double t0 = bench_now();
    for (int i = 0; i < inner; i++) fn(c);
    t[r] = (bench_now() - t0) / inner;
  }
  qsort(t, REPS, sizeof t[0], bench_cmp_double);
  return t[REPS / 2];
}

static float *rnd(size_t n, unsigned seed) {
  float *v = aligned_alloc(64, ((n * sizeof(float)) + 63) / 64 * 64);
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    v[i] = (float)((seed >> 8) & 0xFFFF) / 32768.0f - 1.0f;
  }
  return v;
}

int main(int argc, char **argv) {
  tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  if (argc > 1 && tfcc_isa_parse(argv[1], &isa) != TFCC_OK) {
    fprintf(stderr, "unknown isa %s\n", argv[1]);
    return 2;
  }
  const int threads = argc > 2 ? atoi(argv[2]) : 1;
  tfcc_threadpool *pool = NULL;
  if (threads > 1) {
    tfcc_err err = {0};
    if (tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) {
      fprintf(stderr, "thread pool of %d: %s\n", threads, err.msg);
      return 1;
    }
    bench_use_cpu_clock = 0;
    tfcc_threadpool_run_begin(pool);
  }
  const tfcc_f32_gemm_kernel *gk = tfcc_f32_gemm_select(isa);
  const tfcc_f32_dwconv_kernel *dk = tfcc_f32_dwconv_select(isa);
  if (pool)
    printf("%s + %s vs %s, %d threads, wall time (ms, median and min of %d single calls)\n",
           gk->name, dk->name, tfcc_f32_expand_dw_name(dk), threads, POOL_REPS);
  else
    printf("%s + %s vs %s, thread CPU time (ms, median of %d)\n", gk->name, dk->name,
           tfcc_f32_expand_dw_name(dk), REPS);
  printf("  HxWxCin -> C    s   unfused    fused   fused/unfused  x count%s\n",
         pool ? "   min: unfused    fused" : "");
  double tu = 0, tf = 0, tum = 0, tfm = 0;
  for (size_t li = 0; li < sizeof k_layers / sizeof k_layers[0]; li++) {
    const layer *L = &k_layers[li];
    tfcc_conv_geom g;
    memset(&g, 0, sizeof g);
    g.batches = 1;
    g.in_h = g.in_w = L->hw;
    g.in_c = g.out_c = L->c;
    g.filter_h = g.filter_w = 3;
    g.filter_in_c = 1;
    g.stride_h = g.stride_w = L->stride;
    g.dil_h = g.dil_w = 1;
    g.out_h = g.out_w = (L->hw + L->stride - 1) / L->stride;
    const int pad = ((g.out_h - 1) * L->stride + 3 - L->hw) / 2;
    g.pad_h = g.pad_w = pad > 0 ? pad : 0;
    const size_t px = (size_t)L->hw * L->hw;
    float *x = rnd(px * L->cin, 1), *w1 = rnd((size_t)L->c * L->cin, 2), *b1 = rnd(L->c, 3);
    float *w2 = rnd((size_t)9 * L->c, 4), *b2 = rnd(L->c, 5);
    float *e = rnd(px * L->c, 6), *out = rnd((size_t)g.out_h * g.out_w * L->c, 7);
    tfcc_f32_packed p;
    if (!tfcc_f32_pack(gk, L->c, L->cin, w1, (size_t)L->cin, 1, b1, &p)) return 1;
    void *scratch = aligned_alloc(64, tfcc_f32_expand_dw_scratch_bytes(&g, threads) + 64);
    tfcc_f32_expand_dw k = {&p, 0.0f, 6.0f, dk, w2, b2, 0.0f, 6.0f};
    ctx c = {&k, &g, x, e, out, scratch, pool};
    const double macs = (double)px * L->c * L->cin + (double)g.out_h * g.out_w * L->c * 9;
    const double u = time_it(run_unfused, &c, macs) * 1e3, um = pool_min * 1e3;
    const double f = time_it(run_fused, &c, macs) * 1e3, fm = pool_min * 1e3;
    tu += u * L->count;
    tf += f * L->count;
    tum += um * L->count;
    tfm += fm * L->count;
    printf("  %3dx%3dx%3d -> %3d  %d  %7.4f  %7.4f   %.3f  x%d", L->hw, L->hw, L->cin, L->c,
           L->stride, u, f, f / u, L->count);
    if (pool) printf("   %7.4f  %7.4f", um, fm);
    printf("\n");
    tfcc_f32_packed_free(&p);
    free(x);
    free(w1);
    free(b1);
    free(w2);
    free(b2);
    free(e);
    free(out);
    free(scratch);
  }
  printf("MobileNetV2 total: unfused %.3f ms  fused %.3f ms  (%.3f)\n", tu, tf, tf / tu);
  if (pool) {
    printf("MobileNetV2 total of minimums: unfused %.3f ms  fused %.3f ms  (%.3f)\n", tum, tfm,
           tfm / tum);
    tfcc_threadpool_run_end(pool);
    tfcc_threadpool_destroy(pool);
  }
  return 0;
}
