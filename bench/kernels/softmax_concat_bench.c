/* Micro-benchmark of the SOFTMAX and CONCATENATION / SPLIT fast paths against the reference
 * kernels (not a test). Built as build/bench/softmax_concat_bench; usage:
 * softmax_concat_bench [reps]. Median thread CPU time per call, one thread:
 *  - float32 SOFTMAX (reference, every f32-softmax variant the CPU runs) and uint8 / int8
 *    SOFTMAX (reference, every q8-softmax variant the CPU runs) on a classifier row (1 x 1001), SSD-like rows
 *    (1917 x 91) and 64 x 1000;
 *  - CONCATENATION / SPLIT byte copies (tfcc_ref_concat / _split vs tfcc_concat_copy /
 *    tfcc_split_copy): split_concat_quant's [1,8,8,{1,1,2}] pieces, a channel concatenation
 *    of two 56x56x64 int8 tensors, 28x28 float32 pieces of 3 / 5 / 8 channels, two 1 MiB
 *    blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/concat/concat.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-lut/lut.h"
#include "kernels/ref/copy.h"
#include "kernels/ref/softmax.h"
#include "kernels/softmax/softmax.h"
#include "bench_clock.h"

#define MAX_REPS 201
static int reps = 31;

typedef struct job {
  int kind; /* 0 ref f32, 1 fast f32, 2 ref q8, 3 fast q8, 4 ref concat, 5 fast concat,
               6 ref split, 7 fast split */
  const void *in;
  void *out;
  size_t outer, depth;
  const tfcc_f32_softmax_kernel *fk;
  const tfcc_q8_lut_kernel *lk;
  const tfcc_q8_softmax_kernel *qk;
  tfcc_dtype dt;
  const float *table;
  int32_t n;
  const void *const *parts;
  void *const *outs;
  const size_t *inner;
  int inner_reps; /* calls per timed sample (tiny shapes) */
} job;

static void run(const job *j) {
  for (int r = 0; r < j->inner_reps; r++) switch (j->kind) {
      case 0: tfcc_softmax_f32(j->in, j->out, j->outer, j->depth, 1.f); break;
      case 1: tfcc_f32_softmax_run(NULL, j->fk, j->in, j->out, j->outer, j->depth, 1.f); break;
      case 2:
        tfcc_softmax_q8(j->dt, j->in, j->dt, j->out, j->outer, j->depth, j->table, 1.f / 256,
                        j->dt == TFCC_INT8 ? -128 : 0);
        break;
      case 3:
        tfcc_q8_softmax_run(NULL, j->qk, j->lk, j->dt == TFCC_UINT8, j->in, j->out, j->outer,
                            j->depth, j->table, 1.f / 256, j->dt == TFCC_INT8 ? -128 : 0);
        break;
      case 4: tfcc_ref_concat(j->n, j->parts, j->inner, (int64_t)j->outer, j->out); break;
      case 5: tfcc_concat_copy(j->n, j->parts, j->inner, (int64_t)j->outer, j->out); break;
      case 6: tfcc_ref_split(j->in, j->n, j->outs, j->inner, (int64_t)j->outer); break;
      default: tfcc_split_copy(j->in, j->n, j->outs, j->inner, (int64_t)j->outer); break;
    }
}

static double median_us(const job *j) {
  double t[MAX_REPS];
  run(j);
  for (int r = 0; r < reps; r++) {
    const double t0 = bench_now();
    run(j);
    t[r] = (bench_now() - t0) / j->inner_reps;
  }
  qsort(t, (size_t)reps, sizeof t[0], bench_cmp_double);
  return t[reps / 2] * 1e6;
}

static void line(const char *what, const char *kernel, const char *shape, double us,
                 double ref_us) {
  printf("%-16s %-20s %-18s %10.3f %8.2fx\n", what, kernel, shape, us, ref_us / us);
}

int main(int argc, char **argv) {
  if (argc > 1) reps = atoi(argv[1]);
  if (reps < 1) reps = 1;
  if (reps > MAX_REPS) reps = MAX_REPS;
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  printf("%-16s %-20s %-18s %10s %9s\n", "op", "kernel", "shape", "us/call", "vs ref");
  static const size_t rows[][2] = {{1, 1001}, {1917, 91}, {64, 1000}};
  for (size_t s = 0; s < 3; s++) {
    const size_t outer = rows[s][0], depth = rows[s][1], n = outer * depth;
    char sh[32];
    snprintf(sh, sizeof sh, "%zux%zu", outer, depth);
    float *x = malloc(n * 4), *y = malloc(n * 4);
    uint8_t *q = malloc(n), *qo = malloc(n);
    for (size_t i = 0; i < n; i++) {
      x[i] = (float)(int)(i * 2654435761u % 2001) * 0.01f - 10.f;
      q[i] = (uint8_t)(i * 2654435761u >> 7);
    }
    job j = {0};
    j.in = x;
    j.out = y;
    j.outer = outer;
    j.depth = depth;
    j.inner_reps = outer == 1 ? 20 : 1;
    const double ref = median_us(&j);
    line("f32 SOFTMAX", "ref", sh, ref, ref);
    for (int ki = 0; ki < tfcc_f32_softmax_kernel_count(); ki++) {
      const tfcc_f32_softmax_kernel *k = tfcc_f32_softmax_kernel_at(ki);
      if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
      j.kind = 1;
      j.fk = k;
      line("f32 SOFTMAX", k->name, sh, median_us(&j), ref);
    }
    float table[256];
    tfcc_softmax_table_build(table, 0.1f, 1.f);
    for (int t = 0; t < 2; t++) {
      const char *what = t ? "int8 SOFTMAX" : "uint8 SOFTMAX";
      job jq = {0};
      jq.kind = 2;
      jq.in = q;
      jq.out = qo;
      jq.outer = outer;
      jq.depth = depth;
      jq.dt = t ? TFCC_INT8 : TFCC_UINT8;
      jq.table = table;
      jq.inner_reps = j.inner_reps;
      const double qref = median_us(&jq);
      line(what, "ref", sh, qref, qref);
      jq.kind = 3;
      jq.lk = tfcc_q8_lut_select(best);
      for (int ki = 0; ki < tfcc_q8_softmax_kernel_count(); ki++) {
        jq.qk = tfcc_q8_softmax_kernel_at(ki);
        if (!tfcc_kernel_isa_fits(jq.qk->isa, best)) continue;
        line(what, jq.qk->name, sh, median_us(&jq), qref);
      }
    }
    free(x);
    free(y);
    free(q);
    free(qo);
  }
  /* concatenation / split */
  typedef struct cc {
    const char *name;
    int32_t n;
    size_t inner[3];
    size_t outer;
    int inner_reps;
  } cc;
  static const cc cases[] = {
      {"[1,8,8,{1,1,2}] u8", 3, {1, 1, 2}, 64, 200},
      {"56x56x{64,64} i8", 2, {64, 64, 0}, 56 * 56, 1},
      {"28x28x{3,5,8} f32", 3, {12, 20, 32}, 28 * 28, 20},
      {"2 x 1 MiB", 2, {1 << 20, 1 << 20, 0}, 1, 1},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const cc *k = &cases[c];
    size_t row = 0;
    for (int32_t i = 0; i < k->n; i++) row += k->inner[i];
    void *parts[3], *outs[3];
    for (int32_t i = 0; i < k->n; i++) {
      parts[i] = malloc(k->inner[i] * k->outer);
      outs[i] = malloc(k->inner[i] * k->outer);
      memset(parts[i], 7 * i + 1, k->inner[i] * k->outer);
    }
    void *joined = malloc(row * k->outer);
    job j = {0};
    j.n = k->n;
    j.parts = (const void *const *)parts;
    j.outs = outs;
    j.inner = k->inner;
    j.outer = k->outer;
    j.out = joined;
    j.in = joined;
    j.inner_reps = k->inner_reps;
    j.kind = 4;
    double ref = median_us(&j);
    line("CONCATENATION", "ref", k->name, ref, ref);
    j.kind = 5;
    line("CONCATENATION", "concat-copy", k->name, median_us(&j), ref);
    j.kind = 6;
    ref = median_us(&j);
    line("SPLIT", "ref", k->name, ref, ref);
    j.kind = 7;
    line("SPLIT", "concat-copy", k->name, median_us(&j), ref);
    for (int32_t i = 0; i < k->n; i++) {
      free(parts[i]);
      free(outs[i]);
    }
    free(joined);
  }
  return 0;
}
