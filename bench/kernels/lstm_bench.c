/* Micro-benchmark of the LSTM kernels (not a test): `build/bench/lstm_bench [reps]`. For each
 * shape, median thread CPU time (CLOCK_THREAD_CPUTIME_ID) of one whole sequence through the
 * reference kernel and through every fast variant this CPU can run: the int8x8->16 kernels
 * (src/kernels/q8-lstm) and the float32 one (src/kernels/f32-lstm) at each ISA level. The fast
 * plans are built once outside the timing, as the operator builds them at model load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-lstm/lstm.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-lstm/lstm.h"
#include "kernels/ref/quant_util.h"
#include "bench_clock.h"

static int reps = 51;
#define TIME_US(result, CALL) \
  do { \
    double t_[401]; \
    CALL; \
    for (int r_ = 0; r_ < reps; r_++) { \
      const double t0_ = bench_now(); \
      CALL; \
      t_[r_] = bench_now() - t0_; \
    } \
    qsort(t_, (size_t)reps, sizeof(double), bench_cmp_double); \
    (result) = t_[reps / 2] * 1e6; \
  } while (0)

static uint32_t rng = 5u;
static int32_t rndi(int32_t lo, int32_t hi) {
  rng = rng * 1664525u + 1013904223u;
  return lo + (int32_t)((rng >> 8) % (uint32_t)(hi - lo + 1));
}

typedef struct shape {
  const char *name;
  int32_t nb, nt, ni, nc, no;
  bool proj;
} shape;

static void bench_q8(const shape *sh) {
  tfcc_lstm_shape s = {sh->nb, sh->nt, sh->ni, sh->nc, sh->no, false, 0};
  tfcc_lstm_q_weights wt;
  memset(&wt, 0, sizeof wt);
  int8_t *w[4], *r[4];
  int32_t *b[4];
  for (int g = 0; g < 4; g++) {
    w[g] = malloc((size_t)sh->nc * sh->ni);
    r[g] = malloc((size_t)sh->nc * sh->no);
    b[g] = malloc(sizeof(int32_t) * (size_t)sh->nc);
    for (int32_t i = 0; i < sh->nc * sh->ni; i++) w[g][i] = (int8_t)rndi(-127, 127);
    for (int32_t i = 0; i < sh->nc * sh->no; i++) r[g][i] = (int8_t)rndi(-127, 127);
    for (int32_t i = 0; i < sh->nc; i++) b[g][i] = rndi(-20000, 20000);
    wt.w[g] = w[g], wt.r[g] = r[g], wt.bias[g] = b[g];
  }
  int8_t *pw = malloc((size_t)sh->no * sh->nc);
  int32_t *pb = calloc((size_t)sh->no, sizeof(int32_t));
  for (int32_t i = 0; i < sh->no * sh->nc; i++) pw[i] = (int8_t)rndi(-127, 127);
  if (sh->proj) wt.proj_w = pw, wt.proj_b = pb;
  tfcc_lstm_q_params q;
  memset(&q, 0, sizeof q);
  for (int g = 0; g < 4; g++) {
    tfcc_quantize_multiplier(0.3, &q.in_a[g], &q.in_b[g]);
    tfcc_quantize_multiplier(0.2, &q.rec_a[g], &q.rec_b[g]);
    tfcc_quantize_multiplier(1.0, &q.peep_a[g], &q.peep_b[g]);
  }
  q.cell_scale = -11;
  tfcc_quantize_multiplier(0x1p-22, &q.hidden_a, &q.hidden_b);
  tfcc_quantize_multiplier(0.002, &q.proj_a, &q.proj_b);
  const size_t nx = (size_t)sh->nb * sh->nt * sh->ni, ny = (size_t)sh->nb * sh->nt * sh->no;
  int8_t *x = malloc(nx), *y = malloc(ny), *h = calloc((size_t)sh->nb * sh->no, 1);
  int16_t *c = calloc((size_t)sh->nb * sh->nc, 2);
  for (size_t i = 0; i < nx; i++) x[i] = (int8_t)rndi(-128, 127);
  void *ref_scratch = malloc(tfcc_lstm_q_scratch_bytes(&s));
  double t_ref;
  TIME_US(t_ref, tfcc_lstm_q8(&s, &wt, &q, x, h, c, y, ref_scratch));
  printf("%-28s int8   %-18s %10.1f us\n", sh->name, "ref", t_ref);
  tfcc_q8_lstm_plan pl;
  if (!tfcc_q8_lstm_plan_build(&pl, &s, &wt, &q)) return;
  void *scratch = aligned_alloc(64, (tfcc_q8_lstm_scratch_bytes(&pl) + 63) & ~(size_t)63);
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  for (int ki = 0; ki < tfcc_q8_lstm_kernel_count(); ki++) {
    const tfcc_q8_lstm_kernel *k = tfcc_q8_lstm_kernel_at(ki);
    if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
    double t;
    TIME_US(t, tfcc_q8_lstm_run(k, &pl, &s, x, h, c, y, scratch));
    printf("%-28s int8   %-18s %10.1f us  %5.1fx\n", sh->name, k->name, t, t_ref / t);
  }
  free(scratch);
  tfcc_q8_lstm_plan_free(&pl);
  for (int g = 0; g < 4; g++) free(w[g]), free(r[g]), free(b[g]);
  free(pw), free(pb), free(x), free(y), free(h), free(c), free(ref_scratch);
}

static float *frand(size_t n, float a) {
  float *p = malloc(sizeof(float) * (n ? n : 1));
  for (size_t i = 0; i < n; i++) p[i] = a * (float)rndi(-1000, 1000) / 1000.f;
  return p;
}

static void bench_f32(const shape *sh) {
  tfcc_lstm_shape s = {sh->nb, sh->nt, sh->ni, sh->nc, sh->no, false, 0};
  tfcc_lstm_f32_weights wt;
  memset(&wt, 0, sizeof wt);
  float *own[16];
  int n_own = 0;
  for (int g = 0; g < 4; g++) {
    wt.w[g] = own[n_own++] = frand((size_t)sh->nc * sh->ni, 0.3f);
    wt.r[g] = own[n_own++] = frand((size_t)sh->nc * sh->no, 0.3f);
    wt.bias[g] = own[n_own++] = frand((size_t)sh->nc, 0.3f);
  }
  if (sh->proj) {
    wt.proj_w = own[n_own++] = frand((size_t)sh->no * sh->nc, 0.2f);
    wt.proj_b = own[n_own++] = frand((size_t)sh->no, 0.1f);
  }
  tfcc_lstm_f32_params p = {4, 0.f, 0.f};
  const size_t nx = (size_t)sh->nb * sh->nt * sh->ni, ny = (size_t)sh->nb * sh->nt * sh->no;
  float *x = frand(nx, 1.f), *y = malloc(sizeof(float) * ny);
  float *h = calloc((size_t)sh->nb * sh->no, sizeof(float)),
        *c = calloc((size_t)sh->nb * sh->nc, sizeof(float));
  float *ref_scratch = malloc(sizeof(float) * tfcc_lstm_f32_scratch_floats(&s));
  double t_ref;
  TIME_US(t_ref, tfcc_lstm_f32(&s, &wt, &p, x, NULL, h, c, y, ref_scratch));
  printf("%-28s float  %-18s %10.1f us\n", sh->name, "ref", t_ref);
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  for (int isa = 0; isa < TFCC_ISA_COUNT_; isa++) {
    if (!tfcc_isa_level_fits((tfcc_isa)isa, best)) continue;
    tfcc_f32_lstm_plan pl;
    if (!tfcc_f32_lstm_plan_build(&pl, (tfcc_isa)isa, &s, &wt, &p)) continue;
    void *scratch = aligned_alloc(64, (tfcc_f32_lstm_scratch_bytes(&pl) + 63) & ~(size_t)63);
    double t;
    TIME_US(t, tfcc_f32_lstm_run(&pl, &s, x, h, c, y, scratch));
    char name[40];
    snprintf(name, sizeof name, "f32-lstm %s", tfcc_isa_name((tfcc_isa)isa));
    printf("%-28s float  %-18s %10.1f us  %5.1fx\n", sh->name, name, t, t_ref / t);
    free(scratch);
    tfcc_f32_lstm_plan_free(&pl);
  }
  for (int i = 0; i < n_own; i++) free(own[i]);
  free(x), free(y), free(h), free(c), free(ref_scratch);
}

int main(int argc, char **argv) {
  if (argc > 1) reps = atoi(argv[1]);
  if (reps < 1 || reps > 401) reps = 51;
  static const shape shapes[] = {
      {"mnist b1 t28 i28 c20", 1, 28, 28, 20, 20, false},
      {"b1 t50 i40 c256 p128", 1, 50, 40, 256, 128, true},
      {"b4 t16 i64 c128", 4, 16, 64, 128, 128, false},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    bench_q8(&shapes[i]);
    bench_f32(&shapes[i]);
  }
  return 0;
}
