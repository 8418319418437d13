#include "bench_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static int cmp_row_ms(const void *a, const void *b) {
  const op_row *x = (const op_row *)a, *y = (const op_row *)b;
  return (x->ms < y->ms) - (x->ms > y->ms);
}

static int cmp_type_ms(const void *a, const void *b) {
  const type_row *x = (const type_row *)a, *y = (const type_row *)b;
  return (x->ms < y->ms) - (x->ms > y->ms);
}

int bench_profile_collect(const tfcc_op_profile *e, int n, bench_result *r) {
  r->ops = (op_row *)calloc((size_t)(n > 0 ? n : 1), sizeof *r->ops);
  r->types = (type_row *)calloc((size_t)(n > 0 ? n : 1), sizeof *r->types);
  if (!r->ops || !r->types) return -1;
  for (int i = 0; i < n; i++) {
    if (e[i].runs == 0) continue; /* folded at prepare time: never runs */
    op_row *o = &r->ops[r->n_ops++];
    o->node = e[i].node;
    o->name = e[i].name ? e[i].name : "?";
    o->kernel = e[i].kernel ? e[i].kernel : "ref";
    o->macs = e[i].macs;
    o->ms = e[i].total_ms / (double)e[i].runs;
    r->profile_ms += o->ms;
    int k = 0;
    while (k < r->n_types && strcmp(r->types[k].name, o->name) != 0) k++;
    type_row *t = &r->types[k];
    if (k == r->n_types) {
      r->n_types++;
      t->name = o->name;
    }
    t->count++;
    t->macs += o->macs;
    t->ms += o->ms;
    /* distinct kernels, comma-separated */
    size_t kl = strlen(o->kernel), used = strlen(t->kernels);
    int seen = 0;
    for (const char *p = t->kernels; *p && !seen;
         p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
      seen = strncmp(p, o->kernel, kl) == 0 && (p[kl] == ',' || p[kl] == '\0');
    if (!seen && used + kl + 2 < sizeof t->kernels)
      snprintf(t->kernels + used, sizeof t->kernels - used, "%s%s", used ? "," : "", o->kernel);
  }
  qsort(r->types, (size_t)r->n_types, sizeof *r->types, cmp_type_ms);
  return 0;
}

double bench_gops(int64_t macs, double ms) {
  return ms > 0 && macs > 0 ? 2.0 * (double)macs / (ms * 1e6) : 0.0;
}

void bench_result_free(bench_result *r) {
  free(r->ops);
  free(r->types);
  r->ops = NULL;
  r->types = NULL;
  r->n_ops = r->n_types = 0;
}

/* ------------------------------------------------------------ reports */

/* Milliseconds with about 4 significant digits below 10 ms, 3 decimals above. */
static void ms_text(double ms, char *buf, size_t n) {
  if (ms >= 10 || ms == 0)
    snprintf(buf, n, "%.3f", ms);
  else if (ms >= 0.1)
    snprintf(buf, n, "%.4f", ms);
  else
    snprintf(buf, n, "%.6f", ms);
}

/* GOP/s with two decimals, "-" for operators without MACs. */
static void gops_text(int64_t macs, double ms, char *buf, size_t n) {
  if (macs <= 0)
    snprintf(buf, n, "-");
  else
    snprintf(buf, n, "%.2f", bench_gops(macs, ms));
}

/* "key": {min, avg, p50, p90, p99, max, stddev} */
static void json_latency(json_writer *w, const char *key, const latency_stats *l) {
  json_key(w, key);
  json_begin_object(w);
  const char *keys[] = {"min", "avg", "p50", "p90", "p99", "max", "stddev"};
  const double vals[] = {l->min, l->avg, l->p50, l->p90, l->p99, l->max, l->stddev};
  for (int i = 0; i < 7; i++) {
    json_key(w, keys[i]);
    json_double(w, vals[i]);
  }
  json_end_object(w);
}

static void human_bytes(size_t v, char *buf, size_t n) {
  if (v >= (size_t)1 << 30)
    snprintf(buf, n, "%.2f GiB", (double)v / (1 << 30));
  else if (v >= (size_t)1 << 20)
    snprintf(buf, n, "%.2f MiB", (double)v / (1 << 20));
  else if (v >= 1024)
    snprintf(buf, n, "%.1f KiB", (double)v / 1024);
  else
    snprintf(buf, n, "%zu B", v);
}

void bench_report_text(const bench_result *r, const bench_setting *o) {
  char buf[64], buf2[64];
  printf("model: %s\n", o->model);
  if (o->threads == 0)
    printf("threads: all CPUs");
  else
    printf("threads: %ld", o->threads);
  if (o->n_cpus) {
    printf(" (affinity");
    for (int i = 0; i < o->n_cpus; i++) printf("%s%d", i ? "," : " ", o->cpus[i]);
    printf(")");
  }
  printf("   kernels: %s%s%s%s%s%s   inputs: %s (seed %ld)\n", tfcc_isa_name(r->level),
         r->isa_capped ? " (cap " : "", r->isa_capped ? tfcc_isa_name(r->cap) : "",
         r->isa_capped ? ")" : "",
         r->precision == TFCC_PRECISION_BF16  ? "   precision: bf16"
         : r->precision == TFCC_PRECISION_F16 ? "   precision: fp16"
                                              : "",
         r->quant_compat == TFCC_QUANT_COMPAT_REFERENCE ? "   quant-compat: reference" : "",
         o->inputs, o->seed);
  printf("load: %.3f ms (model %.3f + session %.3f; cpu %.3f ms)   first inference: %.3f ms\n",
         r->load_ms, r->model_ms, r->session_ms, r->load_cpu_ms, r->first_ms);
  char v[7][32];
  const double lv[7] = {r->lat.min, r->lat.avg, r->lat.p50,   r->lat.p90,
                        r->lat.p99, r->lat.max, r->lat.stddev};
  for (int i = 0; i < 7; i++) ms_text(lv[i], v[i], sizeof v[i]);
  printf(
      "latency over %zu runs (%ld warm-up) in ms: min %s  avg %s  p50 %s  p90 %s  p99 %s  max %s  (std %s)\n",
      r->n_lat, o->warmup, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
  printf("throughput: %.2f inferences/s   CPU time: %.3f ms/run (all threads)\n", r->qps,
         r->cpu_ms_per_run);
  human_bytes(r->peak_rss, buf, sizeof buf);
  human_bytes(r->arena, buf2, sizeof buf2);
  printf("memory: peak RSS %s   arena %s", buf, buf2);
  if (r->have_mem) {
    human_bytes(r->mem.lower_bound_bytes, buf, sizeof buf);
    printf(" (lower bound %s)", buf);
    human_bytes(r->mem.constant_bytes, buf, sizeof buf);
    printf("   constants %s", buf);
  }
  printf("\n");
  if (r->profile_runs <= 0) return;
  int64_t total_macs = 0;
  for (int i = 0; i < r->n_ops; i++) total_macs += r->ops[i].macs;
  printf("\nprofile: %ld run%s, %d operators, %.3f ms/run in operators, %.2f GOP/s overall\n",
         r->profile_runs, r->profile_runs == 1 ? "" : "s", r->n_ops, r->profile_ms,
         bench_gops(total_macs, r->profile_ms));
  printf("by operator type:\n  %-28s %5s %10s %7s %9s  %s\n", "type", "count", "ms/run", "share",
         "GOP/s", "kernels");
  for (int k = 0; k < r->n_types; k++) {
    const type_row *t = &r->types[k];
    char g[32];
    gops_text(t->macs, t->ms, g, sizeof g);
    printf("  %-28s %5d %10.3f %6.1f%% %9s  %s\n", t->name, t->count, t->ms,
           r->profile_ms > 0 ? 100.0 * t->ms / r->profile_ms : 0.0, g, t->kernels);
  }
  op_row *sorted = (op_row *)malloc((size_t)(r->n_ops > 0 ? r->n_ops : 1) * sizeof *sorted);
  if (!sorted) return;
  memcpy(sorted, r->ops, (size_t)r->n_ops * sizeof *sorted);
  qsort(sorted, (size_t)r->n_ops, sizeof *sorted, cmp_row_ms);
  int top = o->top == 0 || o->top > r->n_ops ? r->n_ops : (int)o->top;
  printf("top %d operators by time:\n  %5s  %-28s %10s %7s %14s %9s  %s\n", top, "node", "type",
         "ms/run", "share", "MACs", "GOP/s", "kernel");
  for (int i = 0; i < top; i++) {
    const op_row *p = &sorted[i];
    char g[32];
    gops_text(p->macs, p->ms, g, sizeof g);
    printf("  %5d  %-28s %10.4f %6.1f%% %14" PRId64 " %9s  %s\n", (int)p->node, p->name, p->ms,
           r->profile_ms > 0 ? 100.0 * p->ms / r->profile_ms : 0.0, p->macs, g, p->kernel);
  }
  free(sorted);
  if (o->trace)
    printf("trace: %s (%zu operator events%s)\n", o->trace, o->trace_events,
           o->trace_dropped ? ", some dropped" : "");
}

void bench_report_json(const bench_result *r, const bench_setting *o, FILE *out) {
  json_writer w;
  json_init(&w, out);
  json_begin_object(&w);
  json_key(&w, "model");
  json_string(&w, o->model);
  json_key(&w, "threads");
  json_int(&w, o->threads);
  json_key(&w, "affinity");
  json_begin_array_inline(&w);
  for (int i = 0; i < o->n_cpus; i++) json_int(&w, o->cpus[i]);
  json_end_array(&w);
  json_key(&w, "isa");
  json_string(&w, tfcc_isa_name(r->level));
  json_key(&w, "isa_cap");
  if (r->isa_capped)
    json_string(&w, tfcc_isa_name(r->cap));
  else
    json_null(&w);
  json_key(&w, "precision");
  json_string(&w, r->precision == TFCC_PRECISION_BF16  ? "bf16"
                  : r->precision == TFCC_PRECISION_F16 ? "fp16"
                                                       : "f32");
  json_key(&w, "quant_compat");
  json_string(&w, r->quant_compat == TFCC_QUANT_COMPAT_REFERENCE ? "reference" : "tflite");
  json_key(&w, "seed");
  json_int(&w, o->seed);
  json_key(&w, "load_ms");
  json_double(&w, r->load_ms);
  json_key(&w, "model_ms");
  json_double(&w, r->model_ms);
  json_key(&w, "session_ms");
  json_double(&w, r->session_ms);
  json_key(&w, "load_cpu_ms");
  json_double(&w, r->load_cpu_ms);
  json_key(&w, "first_ms");
  json_double(&w, r->first_ms);
  json_key(&w, "first_cpu_ms");
  json_double(&w, r->first_cpu_ms);
  json_key(&w, "load_faults");
  json_int(&w, r->load_faults);
  json_key(&w, "first_faults");
  json_int(&w, r->first_faults);
  json_key(&w, "warmup_runs");
  json_int(&w, o->warmup);
  json_key(&w, "runs");
  json_int(&w, (int64_t)r->n_lat);
  json_key(&w, "timed_s");
  json_double(&w, r->timed_s);
  json_latency(&w, "latency_ms", &r->lat);
  json_latency(&w, "cpu_latency_ms", &r->cpu_lat);
  json_key(&w, "qps");
  json_double(&w, r->qps);
  json_key(&w, "cpu_ms_per_run");
  json_double(&w, r->cpu_ms_per_run);
  json_key(&w, "faults_per_run");
  json_double(&w, r->faults_per_run);
  json_key(&w, "peak_rss_bytes");
  json_int(&w, (int64_t)r->peak_rss);
  json_key(&w, "arena_bytes");
  json_int(&w, (int64_t)r->arena);
  json_key(&w, "memory");
  if (r->have_mem) {
    json_begin_object(&w);
    json_key(&w, "arena_bytes");
    json_int(&w, (int64_t)r->mem.arena_bytes);
    json_key(&w, "naive_bytes");
    json_int(&w, (int64_t)r->mem.naive_bytes);
    json_key(&w, "lower_bound_bytes");
    json_int(&w, (int64_t)r->mem.lower_bound_bytes);
    json_key(&w, "persistent_bytes");
    json_int(&w, (int64_t)r->mem.persistent_bytes);
    json_key(&w, "constant_bytes");
    json_int(&w, (int64_t)r->mem.constant_bytes);
    json_end_object(&w);
  } else {
    json_null(&w);
  }
  json_key(&w, "profile_runs");
  json_int(&w, r->profile_runs);
  json_key(&w, "profile_ms");
  json_double(&w, r->profile_ms);
  json_key(&w, "ops");
  json_begin_array(&w);
  for (int i = 0; i < r->n_ops; i++) {
    const op_row *p = &r->ops[i];
    json_begin_object_inline(&w);
    json_key(&w, "node");
    json_int(&w, p->node);
    json_key(&w, "name");
    json_string(&w, p->name);
    json_key(&w, "kernel");
    json_string(&w, p->kernel);
    json_key(&w, "ms");
    json_double(&w, p->ms);
    json_key(&w, "share");
    json_double(&w, r->profile_ms > 0 ? p->ms / r->profile_ms : 0.0);
    json_key(&w, "macs");
    json_int(&w, p->macs);
    json_key(&w, "gops");
    json_double(&w, bench_gops(p->macs, p->ms));
    json_end_object(&w);
  }
  json_end_array(&w);
  json_key(&w, "op_types");
  json_begin_array(&w);
  for (int k = 0; k < r->n_types; k++) {
    const type_row *t = &r->types[k];
    json_begin_object_inline(&w);
    json_key(&w, "name");
    json_string(&w, t->name);
    json_key(&w, "count");
    json_int(&w, t->count);
    json_key(&w, "ms");
    json_double(&w, t->ms);
    json_key(&w, "share");
    json_double(&w, r->profile_ms > 0 ? t->ms / r->profile_ms : 0.0);
    json_key(&w, "macs");
    json_int(&w, t->macs);
    json_key(&w, "gops");
    json_double(&w, bench_gops(t->macs, t->ms));
    json_key(&w, "kernels");
    json_string(&w, t->kernels);
    json_end_object(&w);
  }
  json_end_array(&w);
  json_key(&w, "trace");
  if (o->trace) {
    json_begin_object(&w);
    json_key(&w, "path");
    json_string(&w, o->trace);
    json_key(&w, "op_events");
    json_int(&w, (int64_t)o->trace_events);
    json_key(&w, "dropped");
    json_int(&w, (int64_t)o->trace_dropped);
    json_end_object(&w);
  } else {
    json_null(&w);
  }
  json_end_object(&w);
}
