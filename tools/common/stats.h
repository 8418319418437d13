/* Latency statistics for `tfcc bench`: min, mean, percentiles, max, standard deviation. */
#ifndef TFCC_TOOLS_STATS_H
#define TFCC_TOOLS_STATS_H

#include <stddef.h>

typedef struct latency_stats {
  size_t count;
  double min, avg, p50, p90, p99, max, stddev;
} latency_stats;

/* Percentile p (0..100) of sorted[0..n) by linear interpolation between closest ranks
 * (NumPy's default). n must be > 0. */
double stats_percentile(const double *sorted, size_t n, double p);

/* Fills st from values[0..n) (sorts a copy into scratch[0..n)). n == 0 gives all zeros. */
void stats_compute(const double *values, size_t n, double *scratch, latency_stats *st);

/* Peak resident set size of this program in bytes (VmHWM of /proc/self/status, since its
 * execve; else getrusage's ru_maxrss, which counts the parent's peak before the execve), 0 if
 * unknown. */
size_t stats_peak_rss_bytes(void);

/* Page faults this process took so far, minor and major (getrusage's ru_minflt + ru_majflt:
 * all threads), 0 if unknown. */
long stats_page_faults(void);

#endif
