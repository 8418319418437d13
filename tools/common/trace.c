#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json.h"

int trace_init(trace_rec *t, size_t op_cap, size_t run_cap) {
  memset(t, 0, sizeof *t);
  t->ops = (trace_op_event *)calloc(op_cap ? op_cap : 1, sizeof *t->ops);
  t->runs = (trace_run_event *)calloc(run_cap ? run_cap : 1, sizeof *t->runs);
  if (!t->ops || !t->runs) {
    trace_free(t);
    return -1;
  }
  t->op_cap = op_cap;
  t->run_cap = run_cap;
  return 0;
}

void trace_free(trace_rec *t) {
  free(t->ops);
  free(t->runs);
  memset(t, 0, sizeof *t);
}

int trace_reserve(trace_rec *t, size_t runs, size_t ops_per_run) {
  size_t want_runs = t->n_runs + runs, want_ops = t->n_ops + runs * ops_per_run;
  if (want_ops > t->op_cap) {
    trace_op_event *p = (trace_op_event *)realloc(t->ops, want_ops * sizeof *p);
    if (!p) return -1;
    t->ops = p;
    t->op_cap = want_ops;
  }
  if (want_runs > t->run_cap) {
    trace_run_event *p = (trace_run_event *)realloc(t->runs, want_runs * sizeof *p);
    if (!p) return -1;
    t->runs = p;
    t->run_cap = want_runs;
  }
  return 0;
}

uint64_t trace_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void trace_op(void *user, int32_t node, const char *name, uint64_t start_ns, uint64_t end_ns) {
  trace_rec *t = (trace_rec *)user;
  if (t->n_ops >= t->op_cap) {
    t->dropped++;
    return;
  }
  trace_op_event *e = &t->ops[t->n_ops++];
  e->name = name;
  e->node = node;
  e->run = t->run;
  e->start_ns = start_ns;
  e->end_ns = end_ns;
}

void trace_run(trace_rec *t, const char *phase, uint64_t start_ns, uint64_t end_ns) {
  if (t->n_runs < t->run_cap) {
    trace_run_event *e = &t->runs[t->n_runs++];
    e->phase = phase;
    e->run = t->run;
    e->start_ns = start_ns;
    e->end_ns = end_ns;
  }
  t->run++;
}

static void event(json_writer *w, const char *name, const char *cat, int tid, uint64_t t0,
                  uint64_t start, uint64_t end) {
  json_begin_object_inline(w);
  json_key(w, "name");
  json_string(w, name);
  json_key(w, "cat");
  json_string(w, cat);
  json_key(w, "ph");
  json_string(w, "X");
  json_key(w, "pid");
  json_int(w, 1);
  json_key(w, "tid");
  json_int(w, tid);
  json_key(w, "ts");
  json_double(w, (double)(start - t0) / 1e3);
  json_key(w, "dur");
  json_double(w, (double)(end - start) / 1e3);
}

int trace_write(const trace_rec *t, const char *path, const char *model, char *err, size_t n) {
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, n, "cannot write trace '%s': %s", path, strerror(errno));
    return -1;
  }
  uint64_t t0 = UINT64_MAX;
  for (size_t i = 0; i < t->n_runs; i++)
    if (t->runs[i].start_ns < t0) t0 = t->runs[i].start_ns;
  for (size_t i = 0; i < t->n_ops; i++)
    if (t->ops[i].start_ns < t0) t0 = t->ops[i].start_ns;
  if (t0 == UINT64_MAX) t0 = 0;
  json_writer w;
  json_init(&w, f);
  json_begin_object(&w);
  json_key(&w, "displayTimeUnit");
  json_string(&w, "ms");
  json_key(&w, "otherData");
  json_begin_object(&w);
  json_key(&w, "model");
  json_string(&w, model);
  json_key(&w, "dropped_op_events");
  json_int(&w, (int64_t)t->dropped);
  json_end_object(&w);
  json_key(&w, "traceEvents");
  json_begin_array(&w);
  /* thread names: tid 1 = runs, tid 2 = operators */
  static const char *const names[] = {"runs", "operators"};
  for (int k = 0; k < 2; k++) {
    json_begin_object_inline(&w);
    json_key(&w, "name");
    json_string(&w, "thread_name");
    json_key(&w, "ph");
    json_string(&w, "M");
    json_key(&w, "pid");
    json_int(&w, 1);
    json_key(&w, "tid");
    json_int(&w, k + 1);
    json_key(&w, "args");
    json_begin_object(&w);
    json_key(&w, "name");
    json_string(&w, names[k]);
    json_end_object(&w);
    json_end_object(&w);
  }
  for (size_t i = 0; i < t->n_runs; i++) {
    const trace_run_event *e = &t->runs[i];
    char name[64];
    snprintf(name, sizeof name, "%s run %d", e->phase, (int)e->run);
    event(&w, name, "run", 1, t0, e->start_ns, e->end_ns);
    json_key(&w, "args");
    json_begin_object(&w);
    json_key(&w, "run");
    json_int(&w, e->run);
    json_key(&w, "phase");
    json_string(&w, e->phase);
    json_end_object(&w);
    json_end_object(&w);
  }
  for (size_t i = 0; i < t->n_ops; i++) {
    const trace_op_event *e = &t->ops[i];
    event(&w, e->name ? e->name : "?", "op", 2, t0, e->start_ns, e->end_ns);
    json_key(&w, "args");
    json_begin_object(&w);
    json_key(&w, "node");
    json_int(&w, e->node);
    json_key(&w, "run");
    json_int(&w, e->run);
    json_end_object(&w);
    json_end_object(&w);
  }
  json_end_array(&w);
  json_end_object(&w);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    snprintf(err, n, "cannot write trace '%s': %s", path, strerror(errno));
    return -1;
  }
  return 0;
}
