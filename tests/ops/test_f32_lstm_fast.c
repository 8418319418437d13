/* Fast float32 LSTM (src/kernels/f32-lstm) against the reference kernel at every ISA level this
 * CPU has: odd sizes, CIFG, peephole, projection, clipping, both layouts, sequences longer than
 * one chunk of steps; outputs and both states bit for bit (exact3: both are TensorFlow Lite's
 * builtin arithmetic; they were within float rounding of each other before). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-lstm/lstm.h"
#include "test_harness.h"

static uint32_t rng = 99u;
static float rndf(float a) {
  rng = rng * 1664525u + 1013904223u;
  return a * ((float)(rng >> 8) / (float)(1u << 23) - 1.f);
}

typedef struct fcase {
  int32_t nb, nt, ni, nc, no;
  bool cifg, peep, proj, clip, time_major;
} fcase;

static float *fill(size_t n, float a) {
  float *p = malloc(sizeof(float) * (n ? n : 1));
  for (size_t i = 0; i < n; i++) p[i] = rndf(a);
  return p;
}

/* Largest |a - b| (relative to max(1, |b|) when rel); a plain loop (gcc 12's aarch64
 * vectorizer fails on an fmax reduction here). */
static double max_diff(const float *a, const float *b, size_t n, bool rel) {
  double worst = 0;
  for (size_t i = 0; i < n; i++) {
    double d = fabs((double)a[i] - (double)b[i]);
    if (rel && fabs((double)b[i]) > 1.0) d /= fabs((double)b[i]);
    if (d > worst) worst = d;
  }
  return worst;
}

static void run_case(tfcc_isa isa, const fcase *fc) {
  tfcc_lstm_shape s = {fc->nb, fc->nt, fc->ni, fc->nc, fc->no, fc->time_major, 0};
  tfcc_lstm_f32_weights wt;
  memset(&wt, 0, sizeof wt);
  float *own[24] = {0};
  int n_own = 0;
  for (int g = 0; g < 4; g++) {
    if (g == 0 && fc->cifg) continue;
    wt.w[g] = own[n_own++] = fill((size_t)fc->nc * fc->ni, 0.5f);
    wt.r[g] = own[n_own++] = fill((size_t)fc->nc * fc->no, 0.5f);
    wt.bias[g] = own[n_own++] = fill((size_t)fc->nc, 0.5f);
    if (fc->peep && g != 2) wt.peep[g] = own[n_own++] = fill((size_t)fc->nc, 0.5f);
  }
  if (fc->proj) {
    wt.proj_w = own[n_own++] = fill((size_t)fc->no * fc->nc, 0.4f);
    wt.proj_b = own[n_own++] = fill((size_t)fc->no, 0.2f);
  }
  tfcc_lstm_f32_params p = {4, fc->clip ? 0.9f : 0.f, fc->clip && fc->proj ? 0.5f : 0.f};
  const size_t nx = (size_t)fc->nb * fc->nt * fc->ni, ny = (size_t)fc->nb * fc->nt * fc->no;
  float *x = fill(nx, 2.f), *y_ref = fill(ny, 0.f), *y = fill(ny, 0.f);
  float *h_ref = fill((size_t)fc->nb * fc->no, 0.5f), *c_ref = fill((size_t)fc->nb * fc->nc, 1.f);
  float *h = malloc(sizeof(float) * (size_t)fc->nb * fc->no),
        *c = malloc(sizeof(float) * (size_t)fc->nb * fc->nc);
  memcpy(h, h_ref, sizeof(float) * (size_t)fc->nb * fc->no);
  memcpy(c, c_ref, sizeof(float) * (size_t)fc->nb * fc->nc);
  float *ref_scratch = malloc(sizeof(float) * tfcc_lstm_f32_scratch_floats(&s));
  tfcc_lstm_f32(&s, &wt, &p, x, NULL, h_ref, c_ref, y_ref, ref_scratch);
  CHECK(tfcc_f32_lstm_supported(&wt, &p));
  tfcc_f32_lstm_plan pl;
  CHECK(tfcc_f32_lstm_plan_build(&pl, isa, &s, &wt, &p));
  void *scratch = aligned_alloc(64, (tfcc_f32_lstm_scratch_bytes(&pl) + 63) & ~(size_t)63);
  tfcc_f32_lstm_run(&pl, &s, x, h, c, y, scratch);
  double worst = max_diff(y, y_ref, ny, false);
  worst = fmax(worst, max_diff(h, h_ref, (size_t)fc->nb * fc->no, false));
  worst = fmax(worst, max_diff(c, c_ref, (size_t)fc->nb * fc->nc, true));
  const bool same = memcmp(y, y_ref, sizeof(float) * ny) == 0 &&
                    memcmp(h, h_ref, sizeof(float) * (size_t)fc->nb * fc->no) == 0 &&
                    memcmp(c, c_ref, sizeof(float) * (size_t)fc->nb * fc->nc) == 0;
  CHECKF(same, "%s b%d t%d i%d c%d o%d cifg %d peep %d proj %d clip %d tm %d: max diff %g",
         tfcc_isa_name(isa), (int)fc->nb, (int)fc->nt, (int)fc->ni, (int)fc->nc, (int)fc->no,
         fc->cifg, fc->peep, fc->proj, fc->clip, fc->time_major, worst);
  free(scratch);
  tfcc_f32_lstm_plan_free(&pl);
  free(ref_scratch), free(x), free(y_ref), free(y), free(h_ref), free(c_ref), free(h), free(c);
  for (int i = 0; i < n_own; i++) free(own[i]);
}

int main(void) {
  static const fcase cases[] = {
      {1, 28, 28, 20, 20, false, false, false, false, false}, /* mnist_lstm_float */
      {1, 3, 1, 1, 1, false, false, false, false, false},
      {2, 5, 3, 7, 7, false, true, false, true, false},
      {3, 40, 37, 33, 33, true, false, false, false, true},
      {2, 6, 5, 19, 11, false, true, true, true, false},
      {1, 70, 13, 17, 5, true, true, true, false, true},
      {2, 33, 64, 70, 70, false, true, false, false, false},
      {2, 0, 4, 6, 6, false, false, false, false, false},
  };
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  for (int isa = 0; isa <= (int)best && isa < TFCC_ISA_COUNT_; isa++) {
    if (!tfcc_isa_level_fits((tfcc_isa)isa, best)) continue;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case((tfcc_isa)isa, &cases[i]);
  }
  return tfcc_test_finish("f32_lstm_fast");
}
