/* Where a model's latency tail comes from, on a shared machine: `build/bench/run_tail MODEL
 * [--runs N] [--warmup W] [--threads T] [--prefault] [--io-huge] [--ftz] [--control] [--dump NODE] [--settle S] [--top K]` (--ftz: denormals
 * flushed to zero on the calling thread, x86-64; --control: then the same number of runs of
 * fixed register arithmetic of the model's CPU p50, and of one pass over as many bytes as the
 * model's constants, measured alike: the platform's own spread for compute and for streaming;
 * --io-huge: the inputs and outputs on huge pages, not the C heap's 4 KiB ones). One session, seeded inputs
 * (the same every run, as tfcc bench and ONNX Runtime's side of bench/compare_ort.sh), N timed
 * runs; for each run: wall time, the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), its
 * minor page faults and voluntary / involuntary context switches (getrusage RUSAGE_THREAD),
 * and every operator's CPU time and involuntary switches (read in the session's op observer,
 * into a table reserved before; 1 thread only).
 *
 * At 1 thread the run is the calling thread's alone, so wall - CPU is time the thread did not
 * run (preempted by another process: the machine's share of the tail), and the CPU time's own
 * spread is the work's (cache and TLB misses, page faults, denormals: tfcc's share). Printed:
 * p50 / p99 / max of wall, CPU and wall - CPU with p99/p50 and p99 - p50; the faults and
 * switches of the timed runs; the CPU figures of the runs without any context switch; then the
 * K slowest runs by CPU time, each with its wall, faults, switches and the operators whose CPU
 * time was most above their own median (node, name, ms over median, switches in it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include "tfcc/tfcc.h"
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

typedef struct run_rec {
  double wall_ms, cpu_ms;
  long minflt, nvcsw, nivcsw;
  int index;
} run_rec;

static double ms_now(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Per operator and run: its thread CPU time (from the previous operator's end, or the run's
 * start, to its end: at 1 thread every operator runs on the calling thread, which calls the
 * observer) and the involuntary context switches in it. */
typedef struct op_table {
  double *cpu; /* [runs][n_ops] */
  long *csw;   /* [runs][n_ops] */
  long *flt;   /* [runs][n_ops]: minor page faults */
  int n_ops, run, slot;
  double cpu_prev;
  long csw_prev, flt_prev;
  const char **names;
  int32_t *nodes;
} op_table;

static void observe(void *user, int32_t node, const char *name, uint64_t start_ns,
                    uint64_t end_ns) {
  op_table *t = user;
  (void)start_ns, (void)end_ns;
  if (t->run < 0 || t->slot >= t->n_ops) return;
  struct rusage u;
  const double c = ms_now(CLOCK_THREAD_CPUTIME_ID);
  getrusage(RUSAGE_THREAD, &u);
  const size_t at = (size_t)t->run * (size_t)t->n_ops + (size_t)t->slot;
  t->cpu[at] = c - t->cpu_prev;
  t->csw[at] = u.ru_nivcsw - t->csw_prev;
  t->flt[at] = u.ru_minflt - t->flt_prev;
  t->flt_prev = u.ru_minflt;
  t->cpu_prev = c;
  t->csw_prev = u.ru_nivcsw;
  if (t->run == 0) { /* operators come in execution order: the k-th call of a run is slot k */
    t->names[t->slot] = name;
    t->nodes[t->slot] = node;
  }
  t->slot++;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int cmp_cpu_desc(const void *a, const void *b) {
  double x = ((const run_rec *)a)->cpu_ms, y = ((const run_rec *)b)->cpu_ms;
  return x > y ? -1 : x < y;
}

/* Linear interpolation between ranks (NumPy's default, as tfcc bench). v sorted. */
static double pct(const double *v, int n, double p) {
  double r = p / 100.0 * (n - 1);
  int i = (int)r;
  return i + 1 < n ? v[i] + (r - i) * (v[i + 1] - v[i]) : v[n - 1];
}

static void summary(const char *what, double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  double p50 = pct(v, n, 50), p99 = pct(v, n, 99);
  printf("%-5s p50 %.3f  p99 %.3f  max %.3f ms   p99/p50 %.3f   p99-p50 %.3f ms\n", what, p50, p99,
         v[n - 1], p99 / p50, p99 - p50);
}

/* The control: fixed arithmetic in registers (no memory traffic), the same every call. */
static double spin(long iters) {
  double a = 1.0, b = 1.0000001;
  for (long i = 0; i < iters; i++) a = a * b + 1e-9;
  return a;
}

/* Runs the control `runs` times, each about target_ms of CPU, measured as the model's runs;
 * prints its CPU and clean lines. A spread like the model's in this control is the platform's
 * (preemption, host scheduling, interrupts), not the model's. */
/* One pass over n bytes (a sum of 64-bit words, 8 independent chains): the streaming part of
 * a model's run alone. */
static uint64_t stream(const uint64_t *p, size_t words) {
  uint64_t acc[8] = {0};
  for (size_t i = 0; i + 8 <= words; i += 8)
    for (int k = 0; k < 8; k++) acc[k] += p[i + (size_t)k];
  return acc[0] ^ acc[1] ^ acc[2] ^ acc[3] ^ acc[4] ^ acc[5] ^ acc[6] ^ acc[7];
}

/* Times `runs` calls of work as the model's runs are timed: every run's CPU ms into v[0..runs),
 * those without a context switch into v[runs..); returns how many of those. */
typedef struct work {
  long iters;          /* spin */
  const uint64_t *buf; /* stream */
  size_t words;
  volatile double sink;
} work;

static int time_work(void (*fn)(work *), work *w, int runs, double *v) {
  int clean = 0;
  for (int r = 0; r < runs; r++) {
    struct rusage u0, u1;
    getrusage(RUSAGE_THREAD, &u0);
    const double c0 = ms_now(CLOCK_THREAD_CPUTIME_ID);
    fn(w);
    const double c1 = ms_now(CLOCK_THREAD_CPUTIME_ID);
    getrusage(RUSAGE_THREAD, &u1);
    v[r] = c1 - c0;
    if (u1.ru_nivcsw == u0.ru_nivcsw && u1.ru_nvcsw == u0.ru_nvcsw) v[runs + clean++] = c1 - c0;
  }
  return clean;
}

static void work_spin(work *w) { w->sink += spin(w->iters); }
static void work_stream(work *w) { w->sink += (double)stream(w->buf, w->words); }

/* The controls: fixed register arithmetic of target_ms of CPU, then one pass over `bytes`. */
static void control(double target_ms, size_t bytes, int runs, double *v) {
  work w = {.iters = 1000000};
  for (;;) { /* calibrate: iterations per target_ms */
    const double c0 = ms_now(CLOCK_THREAD_CPUTIME_ID);
    work_spin(&w);
    const double d = ms_now(CLOCK_THREAD_CPUTIME_ID) - c0;
    if (d > 20.0 || d > target_ms / 2) {
      w.iters = (long)((double)w.iters * target_ms / d);
      break;
    }
    w.iters *= 4;
  }
  int clean = time_work(work_spin, &w, runs, v);
  printf("control: fixed arithmetic of ~%.1f ms CPU, %d runs, %d without a context switch\n",
         target_ms, runs, clean);
  summary("ctl", v, runs);
  if (clean >= 2) summary("ctl clean", v + runs, clean);
  w.words = bytes / 8;
  uint64_t *buf = aligned_alloc(64, (w.words * 8 + 63) & ~(size_t)63);
  if (!buf) return;
  memset(buf, 1, w.words * 8);
  w.buf = buf;
  work_stream(&w);
  clean = time_work(work_stream, &w, runs, v);
  printf(
      "control: one pass over %.1f MiB (the model's constants), %d runs, %d without a "
      "context switch\n",
      (double)bytes / 1048576.0, runs, clean);
  summary("mem", v, runs);
  if (clean >= 2) summary("mem clean", v + runs, clean);
  free(buf);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next_u32(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 32);
}

/* An input of t's size: float32 uniform in [-1, 1], other dtypes random bytes (xorshift). */
/* --io-huge: inputs and outputs cut from one 2 MiB aligned mapping advised as huge pages (as
 * the arena and the packed weights are), instead of the C heap's 4 KiB pages */
static int g_io_huge;
static void *io_alloc(size_t n) {
  n = (n + 63) & ~(size_t)63;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  static uint8_t *base;
  static size_t used, cap;
  if (g_io_huge) {
    const size_t huge = (size_t)2 << 20;
    if (!base) {
      cap = 4 * huge; /* 8 MiB of address space; pages become resident as written */
      uint8_t *raw =
          mmap(NULL, cap + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (raw == MAP_FAILED) return NULL;
      base = (uint8_t *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
      (void)madvise(base, cap, MADV_HUGEPAGE);
    }
    if (n > cap - used) return NULL;
    used += n;
    return base + used - n;
  }
#endif
  return aligned_alloc(64, n);
}

static void *seeded_input(const tfcc_tensor_info *t) {
  const size_t n = t->bytes ? t->bytes : 1;
  uint8_t *p = io_alloc(n);
  if (!p) return NULL;
  if (t->dtype != TFCC_FLOAT32) {
    for (size_t k = 0; k < n; k++) p[k] = (uint8_t)next_u32();
    return p;
  }
  float *f = (float *)(void *)p;
  for (size_t k = 0; k < n / 4; k++) f[k] = (float)(next_u32() % 2001) / 1000.0f - 1.0f;
  return p;
}

int main(int argc, char **argv) {
  const char *path = NULL;
  int runs = 200, warmup = 5, threads = 1, prefault = 0, top = 5, ftz = 0, ctl = 0, dump = -1,
      settle = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
      warmup = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--top") && i + 1 < argc)
      top = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--prefault"))
      prefault = 1;
    else if (!strcmp(argv[i], "--io-huge"))
      g_io_huge = 1;
    else if (!strcmp(argv[i], "--ftz"))
      ftz = 1;
    else if (!strcmp(argv[i], "--control"))
      ctl = 1;
    else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
      dump = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--settle") && i + 1 < argc)
      settle = atoi(argv[++i]);
    else if (argv[i][0] != '-' && !path)
      path = argv[i];
    else {
      fprintf(
          stderr,
          "usage: run_tail MODEL [--runs N] [--warmup W] [--threads T] [--prefault] [--io-huge] [--ftz] [--control] [--dump NODE] [--settle S] [--top K]\n");
      return 2;
    }
  }
  if (!path || runs < 2) {
    fprintf(
        stderr,
        "usage: run_tail MODEL [--runs N] [--warmup W] [--threads T] [--prefault] [--io-huge] [--ftz] [--control] [--dump NODE] [--settle S] [--top K]\n");
    return 2;
  }
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = threads;
  tfcc_runtime *rt = NULL;
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.prefault = prefault;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK ||
      tfcc_model_load_file(rt, path, NULL, &m) != TFCC_OK ||
      tfcc_session_create(m, &so, &s) != TFCC_OK) {
    fprintf(stderr, "run_tail: %s: %s\n", path, tfcc_last_error());
    return 1;
  }
#define MAX_IO 64
  const int ni = tfcc_session_input_count(s), no = tfcc_session_output_count(s);
  if (ni > MAX_IO || no > MAX_IO) {
    fprintf(stderr, "run_tail: %s: more than %d inputs or outputs\n", path, MAX_IO);
    return 1;
  }
  void *in[MAX_IO + 1] = {0}, *out[MAX_IO + 1] = {0};
  tfcc_tensor_info ti;
  for (int i = 0; i < ni; i++)
    if (tfcc_session_input_info(s, i, &ti) != TFCC_OK || !(in[i] = seeded_input(&ti))) return 1;
  for (int i = 0; i < no; i++)
    if (tfcc_session_output_info(s, i, &ti) != TFCC_OK || !(out[i] = seeded_input(&ti))) return 1;
  int n_ops = tfcc_model_op_count(m);
  op_table t = {.cpu = calloc((size_t)runs * (size_t)n_ops, sizeof(double)),
                .csw = calloc((size_t)runs * (size_t)n_ops, sizeof(long)),
                .flt = calloc((size_t)runs * (size_t)n_ops, sizeof(long)),
                .n_ops = n_ops,
                .run = -1,
                .names = calloc((size_t)n_ops, sizeof(char *)),
                .nodes = calloc((size_t)n_ops, sizeof(int32_t))};
  run_rec *rec = calloc((size_t)runs, sizeof *rec);
  double *v = calloc(2 * (size_t)runs, sizeof *v);
  if (!t.cpu || !t.csw || !t.flt || !t.names || !t.nodes || !rec || !v) return 1;
  /* the tables' pages touched now: their first-touch faults would be counted in the runs */
  memset(t.cpu, 0xff, (size_t)runs * (size_t)n_ops * sizeof *t.cpu);
  memset(t.csw, 0xff, (size_t)runs * (size_t)n_ops * sizeof *t.csw);
  memset(t.flt, 0xff, (size_t)runs * (size_t)n_ops * sizeof *t.flt);
  memset(rec, 0xff, (size_t)runs * sizeof *rec);
  tfcc_session_set_op_observer(s, observe, &t);
#if defined(__x86_64__)
  /* flush denormal results and inputs to zero (MXCSR FTZ | DAZ) on the calling thread, which
     runs every operator at 1 thread: a CPU time that drops with it means denormals */
  if (ftz) _mm_setcsr(_mm_getcsr() | 0x8040);
#endif
  /* --settle S: seconds between the load and the runs (khugepaged's time to collapse what the
     load left in 4 KiB pages, as in a server that has been up a while) */
  if (settle > 0) {
    struct timespec ts = {settle, 0};
    nanosleep(&ts, NULL);
  }
  for (int i = 0; i < warmup; i++) tfcc_session_run(s, (const void *const *)in, out);
  for (int r = 0; r < runs; r++) {
    struct rusage u0, u1;
    getrusage(RUSAGE_THREAD, &u0);
    double w0 = ms_now(CLOCK_MONOTONIC), c0 = ms_now(CLOCK_THREAD_CPUTIME_ID);
    t.run = r;
    t.slot = 0;
    t.cpu_prev = c0;
    t.csw_prev = u0.ru_nivcsw;
    t.flt_prev = u0.ru_minflt;
    tfcc_status st = tfcc_session_run(s, (const void *const *)in, out);
    double c1 = ms_now(CLOCK_THREAD_CPUTIME_ID), w1 = ms_now(CLOCK_MONOTONIC);
    getrusage(RUSAGE_THREAD, &u1);
    if (st != TFCC_OK) {
      fprintf(stderr, "run_tail: run failed: %s\n", tfcc_session_last_error(s));
      return 1;
    }
    rec[r] = (run_rec){w1 - w0,
                       c1 - c0,
                       u1.ru_minflt - u0.ru_minflt,
                       u1.ru_nvcsw - u0.ru_nvcsw,
                       u1.ru_nivcsw - u0.ru_nivcsw,
                       r};
  }
  t.run = -1;
  const int n_used = t.slot; /* operators the plan runs (after fusion; <= the model's) */
  long flt = 0, vcs = 0, ics = 0, runs_flt = 0;
  for (int r = 0; r < runs; r++) {
    flt += rec[r].minflt, vcs += rec[r].nvcsw, ics += rec[r].nivcsw;
    runs_flt += rec[r].minflt > 0;
  }
  printf("%s: %d runs, %d thread(s)%s%s, %d operators run\n", path, runs, threads,
         prefault ? ", prefault" : "", ftz ? ", FTZ+DAZ" : "", n_used);
  for (int r = 0; r < runs; r++) v[r] = rec[r].wall_ms;
  summary("wall", v, runs);
  for (int r = 0; r < runs; r++) v[r] = rec[r].cpu_ms;
  summary("cpu", v, runs);
  for (int r = 0; r < runs; r++) v[r] = rec[r].wall_ms - rec[r].cpu_ms;
  summary("off", v, runs);
  printf("minor faults %ld in %ld runs; context switches voluntary %ld, involuntary %ld\n", flt,
         runs_flt, vcs, ics);
  /* where the page faults of the timed runs were */
  for (int k = 0; k < n_used; k++) {
    long f = 0;
    for (int r = 0; r < runs; r++) f += t.flt[(size_t)r * (size_t)n_ops + (size_t)k];
    if (f) printf("  %ld minor faults in #%d %s\n", f, t.nodes[k], t.names[k] ? t.names[k] : "?");
  }
  /* the runs no other process interrupted: their CPU spread is the work's own */
  int clean = 0;
  for (int r = 0; r < runs; r++)
    if (rec[r].nivcsw == 0 && rec[r].nvcsw == 0) v[clean++] = rec[r].cpu_ms;
  printf("runs without a context switch: %d\n", clean);
  double cpu_p50 = 0;
  if (clean >= 2) summary("clean", v, clean);
  for (int r = 0; r < runs; r++) v[r] = rec[r].cpu_ms;
  qsort(v, (size_t)runs, sizeof *v, cmp_double);
  cpu_p50 = pct(v, runs, 50);
  /* per operator, its executions without a switch: the widest CPU spreads (p99 - p50) */
  int worst[5] = {-1, -1, -1, -1, -1};
  double wp50[5] = {0}, wp99[5] = {0}, wspread[5] = {0};
  int wn[5] = {0};
  for (int k = 0; k < n_used; k++) {
    int c = 0;
    for (int r = 0; r < runs; r++)
      if (t.csw[(size_t)r * (size_t)n_ops + (size_t)k] == 0)
        v[c++] = t.cpu[(size_t)r * (size_t)n_ops + (size_t)k];
    if (c < 2) continue;
    qsort(v, (size_t)c, sizeof *v, cmp_double);
    const double p50 = pct(v, c, 50), p99 = pct(v, c, 99), d = p99 - p50;
    for (int j = 0; j < 5; j++)
      if (worst[j] < 0 || d > wspread[j]) {
        for (int q = 4; q > j; q--)
          worst[q] = worst[q - 1], wp50[q] = wp50[q - 1], wp99[q] = wp99[q - 1],
          wspread[q] = wspread[q - 1], wn[q] = wn[q - 1];
        worst[j] = k, wp50[j] = p50, wp99[j] = p99, wspread[j] = d, wn[j] = c;
        break;
      }
  }
  printf("operators, executions without a switch, widest CPU p99 - p50:\n");
  for (int j = 0; j < 5 && worst[j] >= 0; j++)
    printf("  #%d %s: p50 %.3f p99 %.3f ms (p99-p50 %.3f, %d executions)\n", t.nodes[worst[j]],
           t.names[worst[j]] ? t.names[worst[j]] : "?", wp50[j], wp99[j], wspread[j], wn[j]);
  /* each operator's median CPU time over the runs */
  double *med = calloc((size_t)n_ops, sizeof *med);
  for (int k = 0; k < n_used && med; k++) {
    for (int r = 0; r < runs; r++) v[r] = t.cpu[(size_t)r * (size_t)n_ops + (size_t)k];
    qsort(v, (size_t)runs, sizeof *v, cmp_double);
    med[k] = pct(v, runs, 50);
  }
  qsort(rec, (size_t)runs, sizeof *rec, cmp_cpu_desc);
  for (int i = 0; i < top && i < runs && med; i++) {
    const run_rec *x = &rec[i];
    const double *row = &t.cpu[(size_t)x->index * (size_t)n_ops];
    const long *crow = &t.csw[(size_t)x->index * (size_t)n_ops];
    printf("slow run %d: cpu %.3f wall %.3f faults %ld csw %ld/%ld; CPU above median:", x->index,
           x->cpu_ms, x->wall_ms, x->minflt, x->nvcsw, x->nivcsw);
    int best[3] = {-1, -1, -1}; /* the three operators most above their median */
    for (int k = 0; k < n_used; k++)
      for (int j = 0; j < 3; j++)
        if (best[j] < 0 || row[k] - med[k] > row[best[j]] - med[best[j]]) {
          memmove(&best[j + 1], &best[j], sizeof(int) * (size_t)(2 - j));
          best[j] = k;
          break;
        }
    for (int j = 0; j < 3 && best[j] >= 0; j++)
      printf(" #%d %s +%.3f (of %.3f, %ld csw)", t.nodes[best[j]],
             t.names[best[j]] ? t.names[best[j]] : "?", row[best[j]] - med[best[j]], med[best[j]],
             crow[best[j]]);
    printf("\n");
  }
  free(med);
  for (int k = 0; k < n_used; k++) /* --dump NODE: that operator's CPU ms in every run, in order */
    if (t.nodes[k] == dump) {
      printf("node %d %s CPU ms by run:", dump, t.names[k] ? t.names[k] : "?");
      for (int r = 0; r < runs; r++) printf(" %.2f", t.cpu[(size_t)r * (size_t)n_ops + (size_t)k]);
      printf("\n");
    }
  if (ctl) control(cpu_p50, tfcc_model_constant_bytes(m), runs, v);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
  return 0;
}
