/* Micro-benchmark of the int16x8 depthwise driver (not a test): what the depth multiplier's
 * spread costs. Per geometry (multipliers 2 and 3, 3x3 to 7x7), on one thread's CPU clock
 * (median of 7 repetitions): `spread` = tfcc_q16_dwconv of the multiplier (the input spread to
 * the output channels in scratch, then the fused kernel) and `m1` = the same sums on an input
 * already spread (in_c = out_c, the fused kernel alone), so spread - m1 bounds what folding the
 * spread into the kernel could save. Then windows past 256 taps on the fused kernel against the
 * per-tap path (no packing). Usage: q16_dwconv_bench [isa]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/q16-dwconv/dwconv.h"
#include "bench_clock.h"

#define REPS 7

typedef struct run {
  const tfcc_q16_dw_kernel *k;
  const tfcc_conv_geom *g;
  const tfcc_conv_requant *q;
  const int16_t *in, *packed;
  const int8_t *w;
  const int64_t *b;
  int16_t *out;
  void *scratch;
} run;

static double time_run(const run *r, double macs) {
  const int inner = (int)(2e7 / macs) + 1;
  double t[REPS];
  tfcc_q16_dwconv(NULL, r->k, r->g, r->q, r->in, r->w, r->packed, r->b, NULL, r->out, r->scratch);
  for (int i = 0; i < REPS; i++) {
    const double t0 = bench_now();
    for (int n = 0; n < inner; n++)
      tfcc_q16_dwconv(NULL, r->k, r->g, r->q, r->in, r->w, r->packed, r->b, NULL, r->out,
                      r->scratch);
    t[i] = (bench_now() - t0) / inner;
  }
  return bench_median_us(t, REPS);
}

typedef struct shape {
  int h, w, c, mult, kh, kw, stride;
} shape;

static uint32_t rng = 12345u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* the geometry of s (SAME padding), m: its multiplier, or 1 on an input of c * mult channels */
static tfcc_conv_geom geom(const shape *s, bool spread_in) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 1, g.in_h = s->h, g.in_w = s->w, g.out_c = s->c * s->mult;
  g.in_c = spread_in ? g.out_c : s->c;
  g.filter_h = s->kh, g.filter_w = s->kw, g.stride_h = g.stride_w = s->stride;
  g.dil_h = g.dil_w = 1;
  g.out_h = (s->h + s->stride - 1) / s->stride, g.out_w = (s->w + s->stride - 1) / s->stride;
  const int ph = (g.out_h - 1) * s->stride + s->kh - s->h,
            pw = (g.out_w - 1) * s->stride + s->kw - s->w;
  g.pad_h = ph > 0 ? ph / 2 : 0, g.pad_w = pw > 0 ? pw / 2 : 0;
  return g;
}

int main(int argc, char **argv) {
  tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  for (int i = 0; argc > 1 && i < TFCC_ISA_COUNT_; i++)
    if (!strcmp(argv[1], tfcc_isa_name((tfcc_isa)i))) isa = (tfcc_isa)i;
  const tfcc_q16_dw_kernel *k = tfcc_q16_dw_select(isa);
  static const shape shapes[] = {
      {112, 112, 16, 2, 3, 3, 1}, {56, 56, 32, 2, 3, 3, 1},   {56, 56, 48, 2, 7, 7, 1},
      {28, 28, 64, 3, 3, 3, 1},   {28, 28, 32, 3, 5, 5, 1},   {56, 56, 24, 2, 3, 3, 2},
      {1, 400, 64, 1, 1, 300, 1}, {32, 32, 64, 1, 17, 17, 1}, {28, 28, 48, 1, 31, 31, 1},
  };
  printf("%s, one thread, us per call (CPU time, median of %d)\n", k->name, REPS);
  printf(
      "| shape | taps | multiplier | spread + fused | fused on spread input | spread share | "
      "per-tap path |\n|---|---|---|---|---|---|---|\n");
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    const shape *s = &shapes[si];
    const tfcc_conv_geom gm = geom(s, false), g1 = geom(s, true);
    const int oc = gm.out_c, taps = s->kh * s->kw;
    const size_t nx = (size_t)s->h * s->w, no = (size_t)gm.out_h * gm.out_w * oc;
    int16_t *x = malloc(nx * s->c * 2), *xs = malloc(nx * oc * 2), *out = malloc(no * 2);
    int8_t *w = malloc((size_t)taps * oc);
    int64_t *b = malloc((size_t)oc * 8);
    int32_t *qm = malloc((size_t)oc * 4), *qs = malloc((size_t)oc * 4);
    int16_t *pk = malloc(tfcc_q16_dw_packed_bytes(k, oc, taps));
    void *scr = malloc(tfcc_q16_dwconv_scratch_bytes(&gm, 1));
    if (!x || !xs || !out || !w || !b || !qm || !qs || !pk || !scr) return 1;
    for (size_t i = 0; i < nx * s->c; i++) x[i] = (int16_t)(urand() & 0xffff);
    for (size_t p = 0; p < nx; p++) /* x'[c] = x[c / m] */
      for (int c = 0; c < oc; c++) xs[p * oc + c] = x[p * s->c + c / s->mult];
    for (size_t i = 0; i < (size_t)taps * oc; i++) w[i] = (int8_t)(urand() & 0xff);
    for (int c = 0; c < oc; c++) {
      b[c] = (int64_t)(int32_t)urand() - (1 << 23);
      qm[c] = (int32_t)(0x40000000u + (urand() & 0x3fffffffu)), qs[c] = -12;
    }
    tfcc_conv_requant q;
    memset(&q, 0, sizeof q);
    q.mult = qm, q.shift = qs, q.mult_stride = 1, q.act_min = -32768, q.act_max = 32767;
    tfcc_q16_dw_pack(k, oc, taps, w, pk);
    const double macs = (double)no * taps;
    run rm = {k, &gm, &q, x, pk, w, b, out, scr}, r1 = rm;
    r1.g = &g1, r1.in = xs;
    const double tm = s->mult > 1 ? time_run(&rm, macs) : 0, t1 = time_run(&r1, macs);
    run rt = r1;
    rt.packed = NULL, rt.scratch = NULL;
    const double tt = taps > 256 ? time_run(&rt, macs) : 0;
    printf("| %dx%dx%d s%d %dx%d | %d | %d | ", s->h, s->w, s->c, s->stride, s->kh, s->kw, taps,
           s->mult);
    if (s->mult > 1)
      printf("%.1f | %.1f | %.1f%% | - |\n", tm, t1, 100.0 * (tm - t1) / tm);
    else
      printf("- | %.1f | - | %.1f |\n", t1, tt);
    free(x), free(xs), free(out), free(w), free(b), free(qm), free(qs), free(pk), free(scr);
  }
  return 0;
}
