/* Per-invoke cost of small models through the public API: `build/bench/invoke_overhead
 * [--runs N] [--reps R] [--threads T] MODEL...`. For each model, R repetitions of N back-to-back
 * tfcc_session_run calls (zero-filled inputs); each repetition's thread CPU time
 * (CLOCK_THREAD_CPUTIME_ID) / N; prints the median and the minimum in microseconds per run.
 * No clock is read inside the loop, so the figure is the run itself (what `tfcc bench` adds per
 * run for its own timing is not in it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfcc/tfcc.h"

static double cpu_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int bench_model(tfcc_runtime *rt, const char *path, int runs, int reps) {
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  if (tfcc_model_load_file(rt, path, NULL, &m) != TFCC_OK || tfcc_session_create(m, NULL, &s) != TFCC_OK) {
    fprintf(stderr, "%s: %s\n", path, tfcc_last_error());
    tfcc_model_release(m);
    return 1;
  }
  const int ni = tfcc_session_input_count(s), no = tfcc_session_output_count(s);
  void **in = calloc((size_t)ni + 1, sizeof *in), **out = calloc((size_t)no + 1, sizeof *out);
  for (int i = 0; i < ni; i++) {
    tfcc_tensor_info t;
    tfcc_session_input_info(s, i, &t);
    in[i] = aligned_alloc(64, (t.bytes + 64) & ~(size_t)63);
    memset(in[i], 0, t.bytes);
  }
  for (int i = 0; i < no; i++) {
    tfcc_tensor_info t;
    tfcc_session_output_info(s, i, &t);
    out[i] = aligned_alloc(64, (t.bytes + 64) & ~(size_t)63);
  }
  double *per = malloc(sizeof(double) * (size_t)reps);
  int rc = 0;
  for (int w = 0; w < 100 && rc == 0; w++)
    rc = tfcc_session_run(s, (const void *const *)in, out) != TFCC_OK;
  for (int r = 0; r < reps && rc == 0; r++) {
    double t0 = cpu_us();
    for (int k = 0; k < runs; k++)
      if (tfcc_session_run(s, (const void *const *)in, out) != TFCC_OK) rc = 1;
    per[r] = (cpu_us() - t0) / runs;
  }
  if (rc) {
    fprintf(stderr, "%s: run failed: %s\n", path, tfcc_last_error());
  } else {
    qsort(per, (size_t)reps, sizeof *per, cmp_double);
    const char *name = strrchr(path, '/');
    printf("%-40s median %9.3f us/run   min %9.3f us/run   (%d x %d runs)\n", name ? name + 1 : path,
           per[reps / 2], per[0], reps, runs);
  }
  for (int i = 0; i < ni; i++) free(in[i]);
  for (int i = 0; i < no; i++) free(out[i]);
  free(in), free(out), free(per);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  return rc;
}

int main(int argc, char **argv) {
  int runs = 2000, reps = 21, threads = 1, rc = 0;
  tfcc_runtime_options o;
  tfcc_runtime_options_default(&o);
  int first = 1;
  for (; first < argc; first++) {
    if (!strcmp(argv[first], "--runs") && first + 1 < argc) runs = atoi(argv[++first]);
    else if (!strcmp(argv[first], "--reps") && first + 1 < argc) reps = atoi(argv[++first]);
    else if (!strcmp(argv[first], "--threads") && first + 1 < argc) threads = atoi(argv[++first]);
    else break;
  }
  if (first >= argc || runs < 1 || reps < 1) {
    fprintf(stderr, "usage: invoke_overhead [--runs N] [--reps R] [--threads T] MODEL...\n");
    return 2;
  }
  o.num_threads = threads;
  tfcc_runtime *rt = NULL;
  if (tfcc_runtime_create(&o, &rt) != TFCC_OK) {
    fprintf(stderr, "runtime: %s\n", tfcc_last_error());
    return 1;
  }
  for (int i = first; i < argc; i++) rc |= bench_model(rt, argv[i], runs, reps);
  tfcc_runtime_destroy(rt);
  return rc;
}
