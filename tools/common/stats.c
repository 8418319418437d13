#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double stats_percentile(const double *sorted, size_t n, double p) {
  if (n == 0) return 0.0;
  if (p <= 0) return sorted[0];
  if (p >= 100) return sorted[n - 1];
  double rank = p / 100.0 * (double)(n - 1);
  size_t lo = (size_t)floor(rank);
  size_t hi = lo + 1 < n ? lo + 1 : lo;
  double frac = rank - (double)lo;
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

void stats_compute(const double *values, size_t n, double *scratch, latency_stats *st) {
  memset(st, 0, sizeof *st);
  st->count = n;
  if (n == 0) return;
  memcpy(scratch, values, n * sizeof *values);
  qsort(scratch, n, sizeof *scratch, cmp_double);
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += scratch[i];
  st->avg = sum / (double)n;
  double var = 0;
  for (size_t i = 0; i < n; i++) var += (scratch[i] - st->avg) * (scratch[i] - st->avg);
  st->stddev = n > 1 ? sqrt(var / (double)(n - 1)) : 0.0;
  st->min = scratch[0];
  st->max = scratch[n - 1];
  st->p50 = stats_percentile(scratch, n, 50);
  st->p90 = stats_percentile(scratch, n, 90);
  st->p99 = stats_percentile(scratch, n, 99);
}

/* VmHWM of /proc/self/status in bytes, 0 when there is none (not Linux, no /proc). */
static size_t vm_hwm_bytes(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  unsigned long long kb = 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) {
      kb = strtoull(line + 6, NULL, 10);
      break;
    }
  fclose(f);
  return (size_t)kb * 1024u;
}

size_t stats_peak_rss_bytes(void) {
  /* VmHWM is the peak of this program's own address space. getrusage's ru_maxrss is kept
   * across execve: started by a process larger than its own peak (a Python harness that
   * vfork()s, a shell holding a large variable), tfcc reported that process's peak instead
   * (bench/README.md, "load8"). */
  const size_t hwm = vm_hwm_bytes();
  if (hwm) return hwm;
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return (size_t)ru.ru_maxrss * 1024u; /* Linux: kilobytes */
}

long stats_page_faults(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return ru.ru_minflt + ru.ru_majflt;
}
