#include "cpulist.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_cpu(const char *s, const char **end, long *out) {
  char *e = NULL;
  if (*s < '0' || *s > '9') return -1;
  errno = 0;
  long v = strtol(s, &e, 10);
  if (errno == ERANGE || v < 0 || v >= CPU_SETSIZE) return -1;
  *end = e;
  *out = v;
  return 0;
}

int cpulist_parse(const char *s, int *cpus, int max, char *err, size_t n) {
  int count = 0;
  const char *p = s;
  if (!s || !*s) {
    snprintf(err, n, "--affinity: empty CPU list");
    return -1;
  }
  while (*p) {
    long lo, hi;
    const char *e;
    if (parse_cpu(p, &e, &lo) != 0) goto bad;
    hi = lo;
    if (*e == '-') {
      if (parse_cpu(e + 1, &e, &hi) != 0 || hi < lo) goto bad;
    }
    for (long c = lo; c <= hi; c++) {
      if (count >= max) {
        snprintf(err, n, "--affinity: more than %d CPUs in '%s'", max, s);
        return -1;
      }
      cpus[count++] = (int)c;
    }
    if (*e == ',')
      e++;
    else if (*e)
      goto bad;
    p = e;
  }
  if (count == 0) goto bad;
  return count;
bad:
  snprintf(err, n, "--affinity: '%s' is not a CPU list (e.g. 0,2-3; CPU ids below %d)", s,
           CPU_SETSIZE);
  return -1;
}

int cpulist_pin_self(int cpu, char *err, size_t n) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  if (rc != 0) {
    snprintf(err, n, "cannot pin to CPU %d: %s", cpu, strerror(rc));
    return -1;
  }
  return 0;
}
