/* Simple model latency timer (until `tfcc bench` lands): median / min of R runs after W warm-up
 * runs at N threads, then a per-operator-type profile (time, share, GFLOP/s, kernel).
 * Usage: f32_model_bench MODEL.tflite [threads] [runs]. Inputs are zeros plus a ramp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfcc/tfcc.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + 1e-6 * (double)t.tv_nsec;
}
static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + 1e-6 * (double)t.tv_nsec;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  int threads = argc > 2 ? atoi(argv[2]) : 1, runs = argc > 3 ? atoi(argv[3]) : 50;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = threads;
  tfcc_runtime *rt;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK) return fprintf(stderr, "%s\n", tfcc_last_error()), 1;
  tfcc_model *m;
  double t0 = now_ms(), c0 = cpu_ms();
  if (tfcc_model_load_file(rt, argv[1], NULL, &m) != TFCC_OK)
    return fprintf(stderr, "%s\n", tfcc_last_error()), 1;
  double load = now_ms() - t0, load_cpu = cpu_ms() - c0;
  tfcc_session *s;
  if (tfcc_session_create(m, NULL, &s) != TFCC_OK) return fprintf(stderr, "%s\n", tfcc_last_error()), 1;
  int ni = tfcc_session_input_count(s), no = tfcc_session_output_count(s);
  void *in[16], *out[16];
  for (int i = 0; i < ni; i++) {
    tfcc_tensor_info ti;
    tfcc_session_input_info(s, i, &ti);
    in[i] = calloc(1, ti.bytes + 4);
    if (ti.dtype == TFCC_FLOAT32)
      for (size_t k = 0; k < ti.bytes / 4; k++) ((float *)in[i])[k] = (float)(k % 255) / 255.0f;
  }
  for (int i = 0; i < no; i++) {
    tfcc_tensor_info ti;
    tfcc_session_output_info(s, i, &ti);
    out[i] = calloc(1, ti.bytes + 4);
  }
  for (int w = 0; w < 5; w++) tfcc_session_run(s, (const void *const *)in, out);
  double *lat = malloc(sizeof(double) * (size_t)runs), *cpu = malloc(sizeof(double) * (size_t)runs);
  for (int r = 0; r < runs; r++) {
    double a = now_ms(), c = cpu_ms();
    if (tfcc_session_run(s, (const void *const *)in, out) != TFCC_OK)
      return fprintf(stderr, "run: %s\n", tfcc_session_last_error(s)), 1;
    lat[r] = now_ms() - a;
    cpu[r] = cpu_ms() - c;
  }
  qsort(lat, (size_t)runs, sizeof(double), cmpd);
  qsort(cpu, (size_t)runs, sizeof(double), cmpd);
  /* caller-thread CPU time: with 1 thread, the latency an idle machine would show */
  printf("load CPU %.1f ms\n", load_cpu);
  printf("%s threads=%d load=%.1f ms  latency median %.3f ms  min %.3f ms  (caller CPU median %.3f min %.3f)\n",
         argv[1], threads, load, lat[runs / 2], lat[0], cpu[runs / 2], cpu[0]);
  tfcc_session_set_profiling(s, 1);
  for (int r = 0; r < 20; r++) tfcc_session_run(s, (const void *const *)in, out);
  const tfcc_op_profile *pe;
  int n = tfcc_session_profile(s, &pe);
  double total = 0;
  for (int i = 0; i < n; i++) total += pe[i].total_ms;
  /* group by op name + kernel */
  for (int i = 0; i < n; i++) {
    int first = 1;
    for (int j = 0; j < i; j++)
      if (!strcmp(pe[j].name, pe[i].name) && !strcmp(pe[j].kernel, pe[i].kernel)) first = 0;
    if (!first) continue;
    double ms = 0, macs = 0;
    int cnt = 0;
    for (int j = i; j < n; j++)
      if (!strcmp(pe[j].name, pe[i].name) && !strcmp(pe[j].kernel, pe[i].kernel)) {
        ms += pe[j].total_ms / (double)pe[j].runs;
        macs += (double)pe[j].macs;
        cnt++;
      }
    printf("  %-20s %-24s x%-3d %8.3f ms %5.1f%%  %7.1f GFLOP/s\n", pe[i].name, pe[i].kernel, cnt,
           ms, 100.0 * ms * 20 / total, macs > 0 ? 2 * macs / (ms * 1e6) : 0.0);
  }
  if (getenv("F32_BENCH_OPS"))
    for (int i = 0; i < n; i++)
      printf("    node %3d %-18s %-22s %8.3f ms %7.1f GFLOP/s\n", pe[i].node, pe[i].name,
             pe[i].kernel, pe[i].total_ms / (double)pe[i].runs,
             pe[i].macs ? 2.0 * (double)pe[i].macs / (pe[i].total_ms / (double)pe[i].runs * 1e6) : 0);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
  return 0;
}
