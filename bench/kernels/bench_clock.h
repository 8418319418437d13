/* Timing helpers shared by the kernel micro-benchmarks (the .c files here): seconds on the
 * calling thread's CPU clock, which other load on the machine does not inflate, or on the
 * monotonic wall clock where a benchmark clears bench_use_cpu_clock (runs on a thread pool,
 * whose workers' time the caller's clock does not see); and the comparison for qsort-ing
 * samples before taking their median. */
#ifndef TFCC_BENCH_KERNELS_BENCH_CLOCK_H
#define TFCC_BENCH_KERNELS_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static int bench_use_cpu_clock __attribute__((unused)) = 1;

static inline double bench_now(void) {
  struct timespec t;
  clock_gettime(bench_use_cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median of t[0..n) in microseconds (sorts t). */
static inline double bench_median_us(double *t, int n) {
  qsort(t, (size_t)n, sizeof t[0], bench_cmp_double);
  return t[n / 2] * 1e6;
}

/* argv[1] as a repetition count in 1..max, def without one. */
static inline int bench_reps_arg(int argc, char **argv, int def, int max) {
  const int r = argc > 1 ? atoi(argv[1]) : def;
  return r < 1 ? 1 : r > max ? max : r;
}

#endif
