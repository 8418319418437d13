/* CPU list parsing ("0,2-3,8") for --affinity, and pinning the calling thread. */
#ifndef TFCC_TOOLS_CPULIST_H
#define TFCC_TOOLS_CPULIST_H

#include <stddef.h>

/* Parses s into cpus[0..max) (in the order given, ranges ascending). Returns the count, or -1
 * with err set ("--affinity: '3-1' is not a range"). */
int cpulist_parse(const char *s, int *cpus, int max, char *err, size_t n);

/* Pins the calling thread to one CPU. Returns 0 or -1 with err set. */
int cpulist_pin_self(int cpu, char *err, size_t n);

#endif
