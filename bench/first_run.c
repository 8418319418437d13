/* What a first run pays that later runs do not (issue 18 point 5), one process:
 *
 *   first_run MODEL [--cache PATH] [--threads N] [--prefault N] [--runs N] [--maps FILE]
 *
 * loads MODEL (with the weights cache at PATH), creates a session, makes its inputs, then times
 * the first run and N - 1 more (default 9) and prints one JSON line: load_cpu / load_wall /
 * load_faults (tfcc_model_load_file + tfcc_session_create), first_cpu / first_wall /
 * first_faults, and the median of the later runs (run_cpu, run_wall). CPU is the process's (all
 * threads), faults are getrusage's minor + major. --maps FILE writes /proc/self/maps right
 * before the first run, and the first run is bracketed on stderr by "MARK t" / "MARKEND t"
 * (CLOCK_MONOTONIC seconds), so that bench/first_faults.sh can attribute the first run's page
 * faults to mappings (perf's exceptions:page_fault_user with -k CLOCK_MONOTONIC). --prefault N
 * is tfcc_session_options.prefault: 0 the default (arena and cache touched at creation), -1
 * nothing touched (TFCC_PREFAULT_OFF), 1, 2 (TFCC_PREFAULT_BACKGROUND). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tfcc/tfcc.h"

static double clock_ms(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static long faults(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return r.ru_minflt + r.ru_majflt;
}

static int cmp_d(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
  const char *model = NULL, *cache = NULL, *maps = NULL;
  int threads = 1, prefault = 0, runs = 10;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--cache") && v)
      cache = argv[++i];
    else if (!strcmp(a, "--threads") && v)
      threads = atoi(argv[++i]);
    else if (!strcmp(a, "--prefault") && v)
      prefault = atoi(argv[++i]);
    else if (!strcmp(a, "--runs") && v)
      runs = atoi(argv[++i]);
    else if (!strcmp(a, "--maps") && v)
      maps = argv[++i];
    else if (a[0] != '-' && !model)
      model = a;
    else {
      fprintf(stderr,
              "usage: first_run MODEL [--cache PATH] [--threads N] [--prefault N] "
              "[--runs N] [--maps FILE]\n");
      return 2;
    }
  }
  if (!model || runs < 2) {
    fprintf(stderr, "first_run: a model and --runs 2 or more\n");
    return 2;
  }
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = threads;
  tfcc_runtime *rt = NULL;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK) {
    fprintf(stderr, "runtime: %s\n", tfcc_last_error());
    return 1;
  }
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.weights_cache = cache;
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.prefault = prefault;
  const double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_ms(CLOCK_MONOTONIC);
  const long f0 = faults();
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  if (tfcc_model_load_file(rt, model, &mo, &m) != TFCC_OK ||
      tfcc_session_create(m, &so, &s) != TFCC_OK) {
    fprintf(stderr, "%s: %s\n", model, tfcc_last_error());
    return 1;
  }
  const double c1 = clock_ms(CLOCK_PROCESS_CPUTIME_ID), w1 = clock_ms(CLOCK_MONOTONIC);
  const long f1 = faults();
  const int ni = tfcc_session_input_count(s), no = tfcc_session_output_count(s);
  void **in = calloc((size_t)ni + 1, sizeof *in), **out = calloc((size_t)no + 1, sizeof *out);
  double *rc = malloc((size_t)runs * sizeof *rc), *rw = malloc((size_t)runs * sizeof *rw);
  if (!in || !out || !rc || !rw) return 1;
  for (int i = 0; i < ni + no; i++) { /* inputs of 1s, outputs written once before */
    tfcc_tensor_info ti;
    (i < ni ? tfcc_session_input_info : tfcc_session_output_info)(s, i < ni ? i : i - ni, &ti);
    void *p = malloc(ti.bytes ? ti.bytes : 1);
    if (!p) return 1;
    memset(p, i < ni ? 1 : 0, ti.bytes);
    if (i < ni)
      in[i] = p;
    else
      out[i - ni] = p;
  }
  if (maps) {
    FILE *f = fopen(maps, "w"), *g = fopen("/proc/self/maps", "r");
    char b[4096];
    size_t n;
    while (f && g && (n = fread(b, 1, sizeof b, g)) > 0) fwrite(b, 1, n, f);
    if (f) fclose(f);
    if (g) fclose(g);
  }
  long first_faults = 0;
  for (int k = 0; k < runs; k++) {
    const long fa = faults();
    const double a = clock_ms(CLOCK_PROCESS_CPUTIME_ID), b = clock_ms(CLOCK_MONOTONIC);
    if (k == 0 && maps) fprintf(stderr, "MARK %.6f\n", b / 1e3);
    if (tfcc_session_run(s, (const void *const *)in, out) != TFCC_OK) {
      fprintf(stderr, "run: %s\n", tfcc_session_last_error(s));
      return 1;
    }
    rw[k] = clock_ms(CLOCK_MONOTONIC) - b;
    rc[k] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - a;
    if (k == 0) {
      first_faults = faults() - fa;
      if (maps) fprintf(stderr, "MARKEND %.6f\n", clock_ms(CLOCK_MONOTONIC) / 1e3);
    }
  }
  printf(
      "{\"load_cpu\":%.4f,\"load_wall\":%.4f,\"load_faults\":%ld,\"first_cpu\":%.4f,"
      "\"first_wall\":%.4f,\"first_faults\":%ld,\"run_cpu\":%.4f,\"run_wall\":%.4f}\n",
      c1 - c0, w1 - w0, f1 - f0, rc[0], rw[0], first_faults, median(rc + 1, runs - 1),
      median(rw + 1, runs - 1));
  for (int i = 0; i < ni; i++) free(in[i]);
  for (int i = 0; i < no; i++) free(out[i]);
  free(in);
  free(out);
  free(rc);
  free(rw);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
  return 0;
}
