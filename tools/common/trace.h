/* Chrome trace (chrome://tracing, Perfetto) of `tfcc bench`: every operator of every run.
 *
 * Events are recorded into buffers reserved before the runs (no allocation, no I/O inside a
 * run): trace_op is the session's op observer. Events past the reserved capacity are counted
 * as dropped, not recorded. trace_write writes the JSON afterwards. */
#ifndef TFCC_TOOLS_TRACE_H
#define TFCC_TOOLS_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct trace_op_event {
  const char *name;
  int32_t node;
  int32_t run;
  uint64_t start_ns, end_ns;
} trace_op_event;

typedef struct trace_run_event {
  const char *phase; /* "first", "warmup", "timed", "profiled" (static strings) */
  int32_t run;
  uint64_t start_ns, end_ns;
} trace_run_event;

typedef struct trace_rec {
  trace_op_event *ops;
  size_t op_cap, n_ops, dropped;
  trace_run_event *runs;
  size_t run_cap, n_runs;
  int32_t run; /* index of the run in progress */
} trace_rec;

/* Reserves room for op_cap operator events and run_cap runs. Returns 0 or -1 (no memory). */
int trace_init(trace_rec *t, size_t op_cap, size_t run_cap);
void trace_free(trace_rec *t);
/* Makes room for at least `runs` more runs of `ops_per_run` events (call between runs only).
 * Returns 0 or -1 (no memory; what was recorded is kept). */
int trace_reserve(trace_rec *t, size_t runs, size_t ops_per_run);

/* CLOCK_MONOTONIC in nanoseconds (the clock the library's observer uses). */
uint64_t trace_now_ns(void);

/* tfcc_op_observer_fn: records one operator of the current run. */
void trace_op(void *user, int32_t node, const char *name, uint64_t start_ns, uint64_t end_ns);

/* Records a whole run [start, end] of a phase and advances the run index. */
void trace_run(trace_rec *t, const char *phase, uint64_t start_ns, uint64_t end_ns);

/* Writes the Chrome trace JSON. Returns 0, or -1 with err set. */
int trace_write(const trace_rec *t, const char *path, const char *model, char *err, size_t n);

#endif
