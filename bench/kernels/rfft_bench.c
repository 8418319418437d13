/* Micro-benchmark of RFFT2D with fft_length [1, W] over many slices (spectrogram frames, as
 * YAMNet's front end runs it): the per-slice tfcc_rfft2d the operator ran before (init, then one
 * slice at a time) against tfcc_rfft_rows (TFCC_RFFT_LANES rows side by side). Not a test.
 * Built as build/bench/rfft_bench; usage: rfft_bench [reps]. Median thread CPU time per call
 * (us), one thread; the outputs must be equal byte for byte (MISMATCH otherwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/fft/fft.h"
#include "bench_clock.h"

#define MAX_REPS 1001
static int reps = 201;

typedef struct job {
  const char *what;
  int32_t rows, w, fw;
} job;

static double run(const job *j, int fast, const float *x, double *work, double *buf, float *y) {
  double t[MAX_REPS];
  const size_t out_row = 2 * ((size_t)j->fw / 2 + 1);
  for (int r = 0; r < reps; r++) {
    const double t0 = bench_now();
    if (fast) {
      tfcc_rfft_rows_init(j->fw, work);
      tfcc_rfft_rows(x, (size_t)j->rows, (size_t)j->w, j->w, j->fw, work, buf, y, out_row);
    } else {
      tfcc_rfft2d_init(1, j->fw, work);
      for (int32_t s = 0; s < j->rows; s++)
        tfcc_rfft2d(x + (size_t)s * (size_t)j->w, 1, j->w, 1, j->fw, work, y + s * out_row);
    }
    t[r] = bench_now() - t0;
  }
  return bench_median_us(t, reps);
}

int main(int argc, char **argv) {
  reps = bench_reps_arg(argc, argv, reps, MAX_REPS);
  const job jobs[] = {
      {"YAMNet frames: 96 x 400 at [1, 512]", 96, 400, 512},
      {"96 x 512 at [1, 512]", 96, 512, 512},
      {"49 x 640 at [1, 1024]", 49, 640, 1024},
      {"3 x 400 at [1, 512]", 3, 400, 512},
  };
  const size_t max_in = 96 * 640, max_out = 96 * 2 * 513;
  float *x = malloc(sizeof(float) * max_in), *a = malloc(sizeof(float) * max_out),
        *b = malloc(sizeof(float) * max_out);
  double *work = malloc(sizeof(double) * tfcc_rfft2d_work_doubles(1, 1024));
  double *buf = malloc(sizeof(double) * tfcc_rfft_rows_buffer_doubles(1024));
  for (size_t i = 0; i < max_in; i++) x[i] = (float)((i * 2654435761u) >> 20) * 1e-3f - 2.f;
  printf("%-40s %12s %10s %7s\n", "RFFT2D [1, W] rows", "per-slice us", "rows us", "ratio");
  for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
    const job *j = &jobs[i];
    const double r = run(j, 0, x, work, buf, a), f = run(j, 1, x, work, buf, b);
    const size_t ob = (size_t)j->rows * 2 * ((size_t)j->fw / 2 + 1) * sizeof(float);
    if (memcmp(a, b, ob) != 0) printf("MISMATCH ");
    printf("%-40s %12.1f %10.1f %7.2f\n", j->what, r, f, r / f);
  }
  free(x);
  free(a);
  free(b);
  free(work);
  free(buf);
  return 0;
}
