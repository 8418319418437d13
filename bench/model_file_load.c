/* What the private copy of a model file costs at load (docs/lifecycle.md, "Model files"):
 *   model_file_load MODEL.tflite [--runs N]
 * tfcc_model_load_file with file_immutable = 1 (zero-copy mmap) and = 0 (checked private copy),
 * interleaved run by run so that a shared machine's load drifts equally over both; and, as the
 * floor of any copy, a plain read() of the file into fresh memory. Prints median and min of wall
 * and thread CPU time, and their differences. Not a test: no thresholds. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tfcc/tfcc.h"

static double clock_ms(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* read() of the whole file into fresh anonymous memory (what the copy does, without checks). */
static int plain_read(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) return -1;
  size_t n = (size_t)sb.st_size;
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return -1;
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, (char *)p + got, n - got);
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  munmap(p, n);
  return got == n ? 0 : -1;
}

int main(int argc, char **argv) {
  int runs = 21;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
    else path = argv[i];
  }
  if (!path || runs < 1) {
    fprintf(stderr, "usage: model_file_load MODEL.tflite [--runs N]\n");
    return 2;
  }
  tfcc_runtime *rt = NULL;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK) return 1;
  double *t = calloc((size_t)runs * 6, sizeof *t); /* [mode][wall|cpu][run] */
  if (!t) return 1;
  for (int r = -1; r < runs; r++) { /* r = -1: warm-up */
    for (int mode = 0; mode < 3; mode++) {
      double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
      if (mode < 2) {
        tfcc_model_options mo;
        tfcc_model_options_default(&mo);
        mo.file_immutable = mode == 0;
        tfcc_model *m = NULL;
        if (tfcc_model_load_file(rt, path, &mo, &m) != TFCC_OK) {
          fprintf(stderr, "%s\n", tfcc_last_error());
          return 1;
        }
        double w = clock_ms(CLOCK_MONOTONIC) - w0, c = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
        tfcc_model_release(m);
        if (r >= 0) t[(mode * 2) * runs + r] = w, t[(mode * 2 + 1) * runs + r] = c;
      } else {
        if (plain_read(path) != 0) return 1;
        double w = clock_ms(CLOCK_MONOTONIC) - w0, c = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
        if (r >= 0) t[(mode * 2) * runs + r] = w, t[(mode * 2 + 1) * runs + r] = c;
      }
    }
  }
  for (int k = 0; k < 6; k++) qsort(t + k * runs, (size_t)runs, sizeof *t, cmp_d);
  const char *label[3] = {"load_file, file_immutable (mmap)", "load_file, default (private copy)",
                          "plain read() into fresh memory"};
  printf("%-36s %10s %10s %10s %10s   (%d runs, interleaved)\n", "", "wall med", "wall min", "CPU med", "CPU min", runs);
  for (int mode = 0; mode < 3; mode++)
    printf("%-36s %10.2f %10.2f %10.2f %10.2f\n", label[mode], t[(mode * 2) * runs + runs / 2], t[(mode * 2) * runs],
           t[(mode * 2 + 1) * runs + runs / 2], t[(mode * 2 + 1) * runs]);
  printf("%-36s %10.2f %10.2f %10.2f %10.2f\n", "copy - mmap", t[2 * runs + runs / 2] - t[runs / 2],
         t[2 * runs] - t[0], t[3 * runs + runs / 2] - t[runs + runs / 2], t[3 * runs] - t[runs]);
  free(t);
  tfcc_runtime_destroy(rt);
  return 0;
}
