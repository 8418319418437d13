/* What a parallel region costs (not a test): build/bench/threadpool_overhead [--threads N]
 * [--reps R] [--no-run-scope].
 *
 *   empty    back-to-back regions of N no-op tasks: the pure start + finish cost per region
 *   gap G    regions of N tasks of ~W us CPU work each, separated by G us of serial work on the
 *            caller (a non-parallel operator between two parallel ones): region wall time vs
 *            the W us an ideal pool takes; shows whether the workers were still awake
 *   small    a 50 us operator split into 4 tasks per thread, back to back: ideal 50/N us
 *   wake     a region after the caller slept 2 ms (workers asleep): delay until a worker starts
 *
 * With the run scope (default) the gap and empty cases run inside tfcc_threadpool_run_begin /
 * _end, as a session's invoke does. Medians and p90 of wall time (CLOCK_MONOTONIC), plus the
 * caller's and the process's CPU time per region. On a machine shared with other work the wall
 * figures inflate; compare variants in the same command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/threadpool.h"

static double now_us(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec * 1e6 + 1e-3 * (double)t.tv_nsec;
}

/* ~1 ns of dependent integer work per iteration; calibrated to CPU time below. */
static _Thread_local volatile unsigned sink; /* keeps the loop; per thread: no shared line */
static void spin_work(unsigned long iters) {
  unsigned x = 1;
  for (unsigned long i = 0; i < iters; i++) x = x * 1664525u + 1013904223u;
  sink = x;
}
static double iters_per_us;
static void calibrate(void) {
  double best = 1e30;
  for (int r = 0; r < 5; r++) {
    double t0 = now_us(CLOCK_THREAD_CPUTIME_ID);
    spin_work(2000000);
    double dt = now_us(CLOCK_THREAD_CPUTIME_ID) - t0;
    if (dt < best) best = dt;
  }
  iters_per_us = 2000000.0 / best;
}
static void work_us(double us) { spin_work((unsigned long)(us * iters_per_us)); }

typedef struct {
  double task_us;
  volatile double worker_start; /* wake: first time a worker thread started a task */
  volatile int worker_started;
} job;

static void task_noop(void *ctx, size_t t, int thread) { (void)ctx, (void)t, (void)thread; }
static void task_work(void *ctx, size_t t, int thread) {
  (void)t, (void)thread;
  work_us(((job *)ctx)->task_us);
}
/* The caller (thread 0) holds its task until a worker has started one (at most 20 ms), so the
 * region measures how long a sleeping worker takes to come. */
static void task_wake(void *ctx, size_t t, int thread) {
  (void)t;
  job *j = ctx;
  if (thread != 0) {
    if (!j->worker_started) {
      j->worker_start = now_us(CLOCK_MONOTONIC);
      __atomic_store_n(&j->worker_started, 1, __ATOMIC_RELEASE);
    }
    return;
  }
  const double t0 = now_us(CLOCK_MONOTONIC);
  while (!__atomic_load_n(&j->worker_started, __ATOMIC_ACQUIRE) && now_us(CLOCK_MONOTONIC) - t0 < 20000) {
  }
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static void report(const char *name, double *v, int n, double cpu_caller, double cpu_proc) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  printf("%-22s wall p50 %8.2f us  p90 %8.2f us  | CPU/region caller %7.2f us  process %7.2f us\n", name,
         v[n / 2], v[(n * 9) / 10], cpu_caller / n, cpu_proc / n);
}

int main(int argc, char **argv) {
  int threads = 2, reps = 2000, run_scope = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--no-run-scope")) run_scope = 0;
    else {
      fprintf(stderr, "usage: %s [--threads N] [--reps R] [--no-run-scope]\n", argv[0]);
      return 2;
    }
  }
  if (reps < 10) reps = 10;
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  if (tfcc_threadpool_create(threads, NULL, 0, &pool, &err) != TFCC_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  calibrate();
  double *v = malloc(sizeof(double) * (size_t)reps);
  if (!v) return 1;
  printf("threads %d, %d repetitions, run scope %s\n", threads, reps, run_scope ? "on" : "off");
  job j = {0};

  /* empty regions */
  if (run_scope) tfcc_threadpool_run_begin(pool);
  for (int r = 0; r < 100; r++) tfcc_threadpool_run(pool, (size_t)threads, task_noop, &j);
  double c0 = now_us(CLOCK_THREAD_CPUTIME_ID), p0 = now_us(CLOCK_PROCESS_CPUTIME_ID);
  for (int r = 0; r < reps; r++) {
    double t0 = now_us(CLOCK_MONOTONIC);
    tfcc_threadpool_run(pool, (size_t)threads, task_noop, &j);
    v[r] = now_us(CLOCK_MONOTONIC) - t0;
  }
  double c1 = now_us(CLOCK_THREAD_CPUTIME_ID), p1 = now_us(CLOCK_PROCESS_CPUTIME_ID);
  if (run_scope) tfcc_threadpool_run_end(pool);
  report("empty", v, reps, c1 - c0, p1 - p0);

  /* regions of work separated by serial gaps */
  static const double gaps[] = {0, 20, 100, 500, 2000};
  j.task_us = 50;
  for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
    int n = gaps[g] >= 2000 ? reps / 10 : reps / 2;
    if (n < 10) n = 10;
    if (run_scope) tfcc_threadpool_run_begin(pool);
    c0 = now_us(CLOCK_THREAD_CPUTIME_ID);
    p0 = now_us(CLOCK_PROCESS_CPUTIME_ID);
    double gap_cpu = 0;
    for (int r = 0; r < n; r++) {
      double g0 = now_us(CLOCK_THREAD_CPUTIME_ID);
      work_us(gaps[g]);
      gap_cpu += now_us(CLOCK_THREAD_CPUTIME_ID) - g0;
      double t0 = now_us(CLOCK_MONOTONIC);
      tfcc_threadpool_run(pool, (size_t)threads, task_work, &j);
      v[r] = now_us(CLOCK_MONOTONIC) - t0;
    }
    c1 = now_us(CLOCK_THREAD_CPUTIME_ID);
    p1 = now_us(CLOCK_PROCESS_CPUTIME_ID);
    if (run_scope) tfcc_threadpool_run_end(pool);
    char name[64];
    snprintf(name, sizeof name, "%gx50us, gap %gus", (double)threads, gaps[g]);
    report(name, v, n, c1 - c0 - gap_cpu, p1 - p0 - gap_cpu);
  }

  /* a small operator: 4 tasks per thread, 50 us of work in all, back to back */
  {
    const int n_tasks = 4 * threads;
    j.task_us = 50.0 / n_tasks;
    if (run_scope) tfcc_threadpool_run_begin(pool);
    c0 = now_us(CLOCK_THREAD_CPUTIME_ID);
    p0 = now_us(CLOCK_PROCESS_CPUTIME_ID);
    for (int r = 0; r < reps; r++) {
      double t0 = now_us(CLOCK_MONOTONIC);
      tfcc_threadpool_run(pool, (size_t)n_tasks, task_work, &j);
      v[r] = now_us(CLOCK_MONOTONIC) - t0;
    }
    c1 = now_us(CLOCK_THREAD_CPUTIME_ID);
    p1 = now_us(CLOCK_PROCESS_CPUTIME_ID);
    if (run_scope) tfcc_threadpool_run_end(pool);
    char name[64];
    snprintf(name, sizeof name, "%dx%.2gus (50us op)", n_tasks, j.task_us);
    report(name, v, reps, c1 - c0, p1 - p0);
  }

  /* wake-up after the workers slept */
  if (threads > 1) {
    int n = reps / 20 < 20 ? 20 : reps / 20;
    for (int r = 0; r < n; r++) {
      struct timespec ts = {0, 2000000};
      nanosleep(&ts, NULL);
      j.worker_started = 0;
      double t0 = now_us(CLOCK_MONOTONIC);
      tfcc_threadpool_run(pool, 2, task_wake, &j);
      v[r] = j.worker_started ? j.worker_start - t0 : 20000;
    }
    report("wake after 2 ms sleep", v, n, 0, 0);
  }
  free(v);
  tfcc_threadpool_destroy(pool);
  return 0;
}
