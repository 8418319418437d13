/* q8-fc-small against the q8 GEMM on FULLY_CONNECTED shapes around the small path's limits:
 * `build/bench/q8_fc_small_bench [reps] [--isa CAP] [--kernel NAME]`. Per shape (batches x units x depth, int8,
 * fp32 requantization) the median thread CPU time per call of R repetitions of a tight loop:
 * the small kernel (as FULLY_CONNECTED calls it) and the q8 GEMM on one thread (tfcc_q8_gemm
 * with its scratch, as the operator's GEMM path); the ratio shows where the limits
 * (TFCC_Q8_FCS_MAX_*) should sit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "cpu/cpu_info.h"
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/q8-gemm/gemm.h"

typedef struct shape {
  int32_t b, n, k;
} shape;

static double median_ns(int reps, long iters, void (*fn)(void *), void *ctx) {
  double *t = malloc(sizeof(double) * (size_t)reps);
  for (int r = 0; r < reps; r++) {
    const double t0 = bench_now();
    for (long i = 0; i < iters; i++) fn(ctx);
    t[r] = (bench_now() - t0) / (double)iters * 1e9;
  }
  qsort(t, (size_t)reps, sizeof *t, bench_cmp_double);
  const double m = t[reps / 2];
  free(t);
  return m;
}

typedef struct job {
  const tfcc_q8_fcs_packed *fcs;
  const tfcc_q8_packed *gemm;
  const tfcc_conv_requant *r;
  int32_t b;
  const int8_t *x;
  int8_t *y;
  void *scratch;
} job;

static void run_small(void *p) {
  const job *j = p;
  j->fcs->k->fn(j->fcs, (size_t)j->b, j->x, j->y);
}

static void run_gemm(void *p) {
  const job *j = p;
  tfcc_q8_gemm(NULL, j->gemm, j->r, j->b, j->x, (size_t)j->gemm->kdim, j->y, (size_t)j->gemm->n,
               j->scratch);
}

int main(int argc, char **argv) {
  int reps = 9;
  tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
      only = argv[++i];
      continue;
    }
    if (!strcmp(argv[i], "--isa") && i + 1 < argc) {
      tfcc_isa cap;
      if (tfcc_isa_parse(argv[++i], &cap) == TFCC_OK) isa = tfcc_cpu_dispatch_isa(cap);
    } else {
      reps = atoi(argv[i]) > 0 ? atoi(argv[i]) : reps;
    }
  }
  static const shape shapes[] = {{1, 16, 1},   {1, 16, 16},  {1, 1, 16},    {1, 10, 560},
                                 {1, 64, 64},  {1, 128, 128}, {2, 128, 64}, {4, 64, 128},
                                 {1, 16, 1024}, {2, 16, 1024}, {8, 64, 64},  {32, 32, 32}};
  const tfcc_q8_fcs_kernel *fk = tfcc_q8_fcs_select(isa);
  for (int i = 0; only && i < tfcc_q8_fcs_kernel_count(); i++)
    if (!strcmp(tfcc_q8_fcs_kernel_at(i)->name, only)) fk = tfcc_q8_fcs_kernel_at(i);
  if (only && strcmp(fk->name, only) != 0) {
    fprintf(stderr, "no kernel %s in this build\n", only);
    return 2;
  }
  if (!tfcc_q8_fcs_usable(fk, isa)) {
    fprintf(stderr, "%s cannot run here at %s\n", fk->name, tfcc_isa_name(isa));
    return 2;
  }
  const tfcc_q8_gemm_kernel *gk = tfcc_q8_gemm_select(isa);
  printf("isa %s: %s vs %s (1 thread), median of %d, ns per call\n", tfcc_isa_name(isa), fk->name,
         gk->name, reps);
  printf("%-18s %8s %10s %10s %7s\n", "b x n x k", "MACs", "small", "gemm", "gemm/small");
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const shape *sh = &shapes[s];
    const size_t nx = (size_t)sh->b * sh->k, nw = (size_t)sh->n * sh->k;
    int8_t *x = malloc(nx), *w = malloc(nw), *y = malloc((size_t)sh->b * sh->n);
    int32_t *bias = malloc(sizeof(int32_t) * (size_t)sh->n);
    for (size_t i = 0; i < nx; i++) x[i] = (int8_t)(i * 7 + 3);
    for (size_t i = 0; i < nw; i++) w[i] = (int8_t)(i * 13 + 5);
    for (int32_t i = 0; i < sh->n; i++) bias[i] = i * 100 - 500;
    int32_t mult = 1 << 30, shift = -8;
    float scale = 1.f / 512.f;
    tfcc_conv_requant r = {.input_offset = 3, .output_offset = -2, .mult = &mult, .shift = &shift,
                           .act_min = -128, .act_max = 127, .scale = &scale};
    tfcc_q8_fcs_packed fp;
    tfcc_q8_packed gp;
    const bool ok_small = tfcc_q8_fcs_pack(fk, true, sh->n, sh->k, w, bias, &r, &fp);
    const bool ok_gemm = tfcc_q8_pack(gk, true, sh->n, sh->k, w, bias, &r, &gp);
    void *scratch = ok_gemm ? aligned_alloc(64, (tfcc_q8_scratch_bytes(NULL, &gp, 1) + 64) & ~(size_t)63) : NULL;
    job j = {&fp, &gp, &r, sh->b, x, y, scratch};
    const long macs = (long)sh->b * sh->n * sh->k;
    const long iters = macs < 4096 ? 20000 : 2000;
    const double ts = ok_small ? median_ns(reps, iters, run_small, &j) : 0;
    const double tg = ok_gemm ? median_ns(reps, iters, run_gemm, &j) : 0;
    char name[32];
    snprintf(name, sizeof name, "%dx%dx%d", sh->b, sh->n, sh->k);
    printf("%-18s %8ld %10.1f %10.1f %7.2f%s\n", name, macs, ts, tg, ts > 0 ? tg / ts : 0,
           ok_small && tfcc_q8_fcs_fits(&fp, sh->b) ? "" : "   (beyond the small path's limits)");
    if (ok_small) tfcc_q8_fcs_packed_free(&fp);
    if (ok_gemm) tfcc_q8_packed_free(&gp);
    free(scratch), free(x), free(w), free(y), free(bias);
  }
  return 0;
}
