/* A/B of graph passes inside one process: `build/bench/pass_ab [--runs N] [--rounds R]
 * [--threads T] --disable MASK MODEL`. Loads MODEL twice, A with every pass and B with the
 * TFCC_PASS_* bits in MASK disabled (e.g. 0x20 = fuse_residual_add), then R rounds of N runs
 * of each, alternating which goes first; prints the median process CPU time per run
 * (CLOCK_PROCESS_CPUTIME_ID: all threads) of A and B and the median of the per-round ratios
 * A/B. Same binary, same inputs (zeros), same moment: on a shared machine the ratio is far
 * steadier than two processes timed one after the other. --profile: then the same rounds with
 * per-operator timing on (wall time), and a table of the nodes whose time differs (a node
 * removed by the pass: B only). --swap: load B before A. Where a model's memory lands matters
 * (an A/A run, --disable 0x02 on a model without no-ops, measured the first-loaded model 3%
 * slower on ResNet-50): run both orders and take the geometric mean of the two ratios.
 * Not a test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfcc/tfcc.h"

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct side {
  tfcc_model *m;
  tfcc_session *s;
  void **in, **out;
  int ni, no;
} side;

static int open_side(tfcc_runtime *rt, const char *path, uint32_t disabled, side *x) {
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.disabled_passes = disabled;
  memset(x, 0, sizeof *x);
  if (tfcc_model_load_file(rt, path, &mo, &x->m) != TFCC_OK ||
      tfcc_session_create(x->m, NULL, &x->s) != TFCC_OK) {
    fprintf(stderr, "%s: %s\n", path, tfcc_last_error());
    return 1;
  }
  x->ni = tfcc_session_input_count(x->s);
  x->no = tfcc_session_output_count(x->s);
  x->in = calloc((size_t)x->ni + 1, sizeof *x->in);
  x->out = calloc((size_t)x->no + 1, sizeof *x->out);
  for (int i = 0; i < x->ni; i++) {
    tfcc_tensor_info t;
    tfcc_session_input_info(x->s, i, &t);
    x->in[i] = aligned_alloc(64, (t.bytes + 64) & ~(size_t)63);
    memset(x->in[i], 0, t.bytes);
  }
  for (int i = 0; i < x->no; i++) {
    tfcc_tensor_info t;
    tfcc_session_output_info(x->s, i, &t);
    x->out[i] = aligned_alloc(64, (t.bytes + 64) & ~(size_t)63);
  }
  return 0;
}

static void close_side(side *x) {
  for (int i = 0; i < x->ni && x->in; i++) free(x->in[i]);
  for (int i = 0; i < x->no && x->out; i++) free(x->out[i]);
  free(x->in);
  free(x->out);
  tfcc_session_destroy(x->s);
  tfcc_model_release(x->m);
}

/* CPU ms per run over n runs; < 0 on failure. */
static double timed(side *x, int n) {
  const double t0 = cpu_ms();
  for (int k = 0; k < n; k++)
    if (tfcc_session_run(x->s, (const void *const *)x->in, x->out) != TFCC_OK) return -1.0;
  return (cpu_ms() - t0) / n;
}

int main(int argc, char **argv) {
  int runs = 10, rounds = 21, threads = 1, profile = 0, swap = 0;
  uint32_t mask = 0;
  int a = 1;
  for (; a < argc; a++) {
    if (!strcmp(argv[a], "--runs") && a + 1 < argc) runs = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--rounds") && a + 1 < argc) rounds = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--threads") && a + 1 < argc) threads = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--profile")) profile = 1;
    else if (!strcmp(argv[a], "--swap")) swap = 1;
    else if (!strcmp(argv[a], "--disable") && a + 1 < argc) mask = (uint32_t)strtoul(argv[++a], NULL, 0);
    else break;
  }
  if (a + 1 != argc || runs < 1 || rounds < 1 || mask == 0) {
    fprintf(stderr, "usage: pass_ab [--runs N] [--rounds R] [--threads T] --disable MASK MODEL\n");
    return 2;
  }
  tfcc_runtime_options o;
  tfcc_runtime_options_default(&o);
  o.num_threads = threads;
  tfcc_runtime *rt = NULL;
  if (tfcc_runtime_create(&o, &rt) != TFCC_OK) {
    fprintf(stderr, "runtime: %s\n", tfcc_last_error());
    return 1;
  }
  side x[2];
  int rc = swap ? open_side(rt, argv[a], mask, &x[1]) || open_side(rt, argv[a], 0, &x[0])
                : open_side(rt, argv[a], 0, &x[0]) || open_side(rt, argv[a], mask, &x[1]);
  double *t = malloc(sizeof(double) * (size_t)rounds * 3);
  for (int w = 0; w < 2 && !rc; w++) rc = timed(&x[w], 3) < 0; /* warm-up */
  for (int r = 0; r < rounds && !rc; r++) {
    for (int k = 0; k < 2 && !rc; k++) {
      const int w = (r + k) % 2;
      const double v = timed(&x[w], runs);
      rc = v < 0;
      t[w * rounds + r] = v;
    }
    t[2 * rounds + r] = t[r] / t[rounds + r];
  }
  if (rc) {
    fprintf(stderr, "run failed: %s\n", tfcc_last_error());
  } else {
    for (int k = 0; k < 3; k++) qsort(t + k * rounds, (size_t)rounds, sizeof(double), cmp_double);
    printf("A (all passes)        median %8.3f ms/run  min %8.3f\n", t[rounds / 2], t[0]);
    printf("B (disabled 0x%02x)     median %8.3f ms/run  min %8.3f\n", (unsigned)mask,
           t[rounds + rounds / 2], t[rounds]);
    printf("A/B median of per-round ratios %.4f  (%d rounds x %d runs, %d thread%s, CPU time, "
           "%s loaded first)\n",
           t[2 * rounds + rounds / 2], rounds, runs, threads, threads == 1 ? "" : "s",
           swap ? "B" : "A");
  }
  if (!rc && profile) {
    for (int w = 0; w < 2; w++) tfcc_session_set_profiling(x[w].s, 1);
    for (int r = 0; r < rounds && !rc; r++)
      for (int k = 0; k < 2 && !rc; k++) rc = timed(&x[(r + k) % 2], runs) < 0;
    const tfcc_op_profile *pa, *pb;
    const int na = tfcc_session_profile(x[0].s, &pa), nb = tfcc_session_profile(x[1].s, &pb);
    double sa = 0, sb = 0;
    printf("node  op               A ms/run  B ms/run   A-B    (kernel A)\n");
    for (int j = 0; j < nb; j++) {
      const double b = pb[j].runs ? pb[j].total_ms / (double)pb[j].runs : 0.0;
      double av = 0.0;
      const char *ka = "-";
      for (int i = 0; i < na; i++)
        if (pa[i].node == pb[j].node) {
          av = pa[i].runs ? pa[i].total_ms / (double)pa[i].runs : 0.0;
          ka = pa[i].kernel;
        }
      sa += av;
      sb += b;
      printf("%4d  %-15s %9.3f %9.3f %7.3f   %s\n", (int)pb[j].node, pb[j].name, av, b, av - b, ka);
    }
    printf("sum   %-15s %9.3f %9.3f %7.3f\n", "", sa, sb, sa - sb);
  }
  free(t);
  close_side(&x[0]);
  close_side(&x[1]);
  tfcc_runtime_destroy(rt);
  return rc;
}
