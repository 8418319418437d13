/* Micro-benchmark of the planned copies of TRANSPOSE / SLICE / STRIDED_SLICE (kernels/move)
 * against the reference tfcc_ref_copy_nd (not a test). Built as build/bench/move_bench; usage:
 * move_bench [reps]. Median thread CPU time per call (us), one thread, on the shapes of the
 * keyword-spotting transformers (float32 [1,102,3,4,64] perm [2,0,3,1,4], [1,4,102,64] perms
 * [0,1,3,2] and [0,2,1,3], SLICE of [3,1,4,102,64]) and of image models (NHWC <-> NCHW of
 * 56x56x64 float32 and int8, a last-two-axes swap of 1024 x 1024 int16 / int64, a stride-2
 * STRIDED_SLICE of 112x112x32 float32). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/move/move.h"
#include "kernels/ref/copy.h"
#include "bench_clock.h"

#define MAX_REPS 1001
static int reps = 201;

typedef struct job {
  int32_t rank;
  int32_t dims[8]; /* copied box (output shape) */
  int64_t is[8];   /* input strides of the box */
  int64_t off;     /* input offset */
  size_t es;
  const char *what;
} job;

/* TRANSPOSE of `in_dims` by perm. */
static job transpose_job(const char *what, int32_t rank, const int32_t *in_dims,
                         const int32_t *perm, size_t es) {
  job j = {.rank = rank, .es = es, .what = what};
  int64_t is[8];
  tfcc_ref_strides(rank, in_dims, is);
  for (int32_t d = 0; d < rank; d++) {
    j.dims[d] = in_dims[perm[d]];
    j.is[d] = is[perm[d]];
  }
  return j;
}

/* SLICE / STRIDED_SLICE: box dims, per-axis step, of in_dims at begin. */
static job slice_job(const char *what, int32_t rank, const int32_t *in_dims, const int32_t *begin,
                     const int32_t *size, const int32_t *step, size_t es) {
  job j = {.rank = rank, .es = es, .what = what};
  int64_t is[8];
  tfcc_ref_strides(rank, in_dims, is);
  for (int32_t d = 0; d < rank; d++) {
    j.dims[d] = size[d];
    j.is[d] = is[d] * step[d];
    j.off += begin[d] * is[d];
  }
  return j;
}

static double run(const job *j, int fast, const void *in, void *out) {
  int64_t os[8];
  tfcc_ref_strides(j->rank, j->dims, os);
  double t[MAX_REPS];
  for (int r = 0; r < reps; r++) {
    const double t0 = bench_now();
    if (fast)
      tfcc_move_copy_nd(j->rank, j->dims, in, j->off, j->is, out, 0, os, j->es);
    else
      tfcc_ref_copy_nd(j->rank, j->dims, in, j->off, j->is, out, 0, os, j->es);
    t[r] = bench_now() - t0;
  }
  qsort(t, (size_t)reps, sizeof t[0], bench_cmp_double);
  return t[reps / 2] * 1e6;
}

int main(int argc, char **argv) {
  if (argc > 1) reps = atoi(argv[1]);
  if (reps < 1) reps = 1;
  if (reps > MAX_REPS) reps = MAX_REPS;
  job jobs[16];
  int n = 0;
  {
    const int32_t d[] = {1, 102, 3, 4, 64}, p[] = {2, 0, 3, 1, 4};
    jobs[n++] = transpose_job("kws f32 [1,102,3,4,64] perm 2,0,3,1,4", 5, d, p, 4);
  }
  {
    const int32_t d[] = {1, 4, 102, 64}, p[] = {0, 1, 3, 2};
    jobs[n++] = transpose_job("kws f32 [1,4,102,64] perm 0,1,3,2", 4, d, p, 4);
  }
  {
    const int32_t d[] = {1, 4, 102, 64}, p[] = {0, 2, 1, 3};
    jobs[n++] = transpose_job("kws f32 [1,4,102,64] perm 0,2,1,3", 4, d, p, 4);
  }
  {
    const int32_t d[] = {3, 1, 4, 102, 64}, b[] = {1, 0, 0, 0, 0}, s[] = {1, 1, 4, 102, 64},
                  st[] = {1, 1, 1, 1, 1};
    jobs[n++] = slice_job("kws SLICE f32 [3,1,4,102,64] -> [1,1,4,102,64]", 5, d, b, s, st, 4);
  }
  {
    const int32_t d[] = {1, 56, 56, 64}, p[] = {0, 3, 1, 2};
    jobs[n++] = transpose_job("NHWC->NCHW f32 56x56x64", 4, d, p, 4);
    jobs[n++] = transpose_job("NHWC->NCHW int8 56x56x64", 4, d, p, 1);
  }
  {
    const int32_t d[] = {1, 64, 56, 56}, p[] = {0, 2, 3, 1};
    jobs[n++] = transpose_job("NCHW->NHWC f32 64x56x56", 4, d, p, 4);
  }
  {
    const int32_t d[] = {1024, 1024}, p[] = {1, 0};
    jobs[n++] = transpose_job("2-D int16 1024x1024", 2, d, p, 2);
    jobs[n++] = transpose_job("2-D int64 1024x1024", 2, d, p, 8);
  }
  {
    const int32_t d[] = {1, 112, 112, 32}, b[] = {0, 0, 0, 0}, s[] = {1, 56, 56, 32},
                  st[] = {1, 2, 2, 1};
    jobs[n++] = slice_job("STRIDED_SLICE f32 112x112x32 step 2", 4, d, b, s, st, 4);
  }
  size_t max_bytes = 0;
  for (int i = 0; i < n; i++) {
    size_t e = jobs[i].es;
    for (int32_t d = 0; d < jobs[i].rank; d++) e *= (size_t)jobs[i].dims[d];
    e *= 4; /* slices read a larger input */
    if (e > max_bytes) max_bytes = e;
  }
  unsigned char *in = malloc(max_bytes), *a = malloc(max_bytes), *b = malloc(max_bytes);
  for (size_t k = 0; k < max_bytes; k++) in[k] = (unsigned char)(k * 131u + 7u);
  printf("%-50s %10s %10s %7s\n", "copy", "ref us", "move us", "ratio");
  for (int i = 0; i < n; i++) {
    const double r = run(&jobs[i], 0, in, a), f = run(&jobs[i], 1, in, b);
    size_t e = jobs[i].es;
    for (int32_t d = 0; d < jobs[i].rank; d++) e *= (size_t)jobs[i].dims[d];
    if (memcmp(a, b, e) != 0) printf("MISMATCH ");
    printf("%-50s %10.2f %10.2f %7.2f\n", jobs[i].what, r, f, r / f);
  }
  free(in);
  free(a);
  free(b);
  return 0;
}
