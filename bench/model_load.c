/* Model load time (mmap, verify, graph passes, operator init / prepack, shape check) with the
 * graph passes on and off, and the session memory plan (arena vs live-tensor lower bound).
 *   model_load MODEL.tflite... [--runs N] [--weights-cache DIR]
 * (--weights-cache: each setting loads with its own cache file DIR/<model>.<passes|nopasses>.wc,
 * written by an untimed load first: the timed loads are warm-cache loads.)
 * Prints per model: median and min load ms for both settings, the arena, the lower bound and
 * their ratio. Not a test: no thresholds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfcc/tfcc.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median and min over runs; -1 on a load failure. */
static int time_load(tfcc_runtime *rt, const char *path, uint32_t disabled, int runs,
                     const char *cache_dir, double *med, double *min) {
  double *t = calloc((size_t)runs, sizeof *t);
  if (!t) return -1;
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.disabled_passes = disabled;
  char cache[4096];
  if (cache_dir) {
    const char *name = strrchr(path, '/');
    snprintf(cache, sizeof cache, "%s/%s.%s.wc", cache_dir, name ? name + 1 : path,
             disabled ? "nopasses" : "passes");
    mo.weights_cache = cache;
  }
  for (int r = cache_dir ? -1 : 0; r < runs; r++) { /* r = -1: the cache-writing load, untimed */
    tfcc_model *m = NULL;
    double t0 = now_ms();
    if (tfcc_model_load_file(rt, path, &mo, &m) != TFCC_OK) {
      fprintf(stderr, "%s: %s\n", path, tfcc_last_error());
      free(t);
      return -1;
    }
    if (r >= 0) t[r] = now_ms() - t0;
    tfcc_model_release(m);
  }
  qsort(t, (size_t)runs, sizeof *t, cmp_d);
  *med = t[runs / 2];
  *min = t[0];
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  int runs = 20;
  const char *cache_dir = NULL;
  tfcc_runtime *rt = NULL;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK) return 1;
  printf("%-36s %10s %10s %10s %10s %10s %10s %6s\n", "model", "load ms", "(min)", "no passes",
         "(min)", "arena", "lower bnd", "ratio");
  int rc = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = atoi(argv[++i]);
      if (runs < 1) runs = 1;
      continue;
    }
    if (strcmp(argv[i], "--weights-cache") == 0 && i + 1 < argc) {
      cache_dir = argv[++i];
      continue;
    }
    double med_on, min_on, med_off, min_off;
    if (time_load(rt, argv[i], 0, runs, cache_dir, &med_on, &min_on) ||
        time_load(rt, argv[i], TFCC_PASS_ALL, runs, cache_dir, &med_off, &min_off)) {
      rc = 1;
      continue;
    }
    tfcc_model *m = NULL;
    tfcc_session *s = NULL;
    tfcc_memory_info mi = {0};
    if (tfcc_model_load_file(rt, argv[i], NULL, &m) == TFCC_OK &&
        tfcc_session_create(m, NULL, &s) == TFCC_OK)
      tfcc_session_memory_info(s, &mi);
    tfcc_session_destroy(s);
    tfcc_model_release(m);
    const char *name = strrchr(argv[i], '/');
    printf("%-36s %10.2f %10.2f %10.2f %10.2f %10zu %10zu %6.3f\n", name ? name + 1 : argv[i],
           med_on, min_on, med_off, min_off, mi.arena_bytes, mi.lower_bound_bytes,
           mi.lower_bound_bytes ? (double)mi.arena_bytes / (double)mi.lower_bound_bytes : 1.0);
  }
  tfcc_runtime_destroy(rt);
  return rc;
}
