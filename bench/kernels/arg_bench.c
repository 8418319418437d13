/* Micro-benchmark of the branch-free ARG_MAX (kernels/arg) against the reference
 * tfcc_arg_min_max (not a test). Built as build/bench/arg_bench; usage: arg_bench [reps].
 * Median thread CPU time per call (us), one thread: segmentation heads (DeepLab v3: uint8
 * [513 * 513, 21] and [513 * 513, 2] -> int64 over the last axis; float32 [257 * 257, 21]) and a
 * middle axis (float32 [1, 80, 8400] over the 80 classes -> int32). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/arg/arg.h"
#include "kernels/ref/reduce.h"
#include "bench_clock.h"

#define MAX_REPS 201
static int reps = 21;

typedef struct job {
  const char *what;
  tfcc_dtype dt, odt;
  int64_t outer, inner;
  int32_t axis;
} job;

static double run(const job *j, int fast, const void *x, void *y) {
  double t[MAX_REPS];
  for (int r = 0; r < reps; r++) {
    const double t0 = bench_now();
    if (fast)
      tfcc_arg_min_max_fast(j->dt, x, j->outer, j->axis, j->inner, true, j->odt, y);
    else
      tfcc_arg_min_max(j->dt, x, j->outer, j->axis, j->inner, true, j->odt, y);
    t[r] = bench_now() - t0;
  }
  qsort(t, (size_t)reps, sizeof t[0], bench_cmp_double);
  return t[reps / 2] * 1e6;
}

int main(int argc, char **argv) {
  if (argc > 1) reps = atoi(argv[1]);
  if (reps < 1) reps = 1;
  if (reps > MAX_REPS) reps = MAX_REPS;
  const job jobs[] = {
      {"uint8 [263169, 21] -> int64 (last axis)", TFCC_UINT8, TFCC_INT64, 263169, 1, 21},
      {"uint8 [263169, 2] -> int64 (last axis)", TFCC_UINT8, TFCC_INT64, 263169, 1, 2},
      {"float32 [66049, 21] -> int64 (last axis)", TFCC_FLOAT32, TFCC_INT64, 66049, 1, 21},
      {"float32 [1, 80, 8400] -> int32 (middle axis)", TFCC_FLOAT32, TFCC_INT32, 1, 8400, 80},
  };
  const size_t bytes = 263169u * 21u * 4u;
  unsigned char *x = malloc(bytes);
  float *xf = (float *)x;
  for (size_t i = 0; i < bytes / 4; i++) xf[i] = (float)((i * 2654435761u) >> 20) * 0.25f;
  unsigned char *a = malloc(263169u * 8u), *b = malloc(263169u * 8u);
  printf("%-48s %10s %10s %7s\n", "ARG_MAX", "ref us", "fast us", "ratio");
  for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
    const job *j = &jobs[i];
    const double r = run(j, 0, x, a), f = run(j, 1, x, b);
    const size_t ob = (size_t)(j->outer * j->inner) * (j->odt == TFCC_INT64 ? 8 : 4);
    if (memcmp(a, b, ob) != 0) printf("MISMATCH ");
    printf("%-48s %10.1f %10.1f %7.2f\n", j->what, r, f, r / f);
  }
  free(x);
  free(a);
  free(b);
  return 0;
}
