/* Micro-benchmark of the elementwise kernels against the reference kernels (not a test).
 * Built as build/bench/vbinary_bench; usage: vbinary_bench [reps]. Prints the median thread
 * CPU time per call of the reference kernel and of every fast variant the CPU can run:
 * for ResNet-50's residual ADD shapes (56x56x256 .. 7x7x2048, same shape) and a per-channel
 * broadcast, int8 ADD in both quant modes (XNNPACK / builtin fixed point), int8 MUL (XNNPACK),
 * float32 ADD with RELU (avx512-i32: the AVX-512 variant with its 16-bit word-pair ADD path
 * switched off, i.e. 32-bit lanes only); then the activations on 56x56x256 (float32 RELU6, HARD_SWISH,
 * LOGISTIC, TANH; the int8 table lookup) and DeepLab's resize 33x33x21 -> 257x257 (int8 and
 * float32; float32 in both orders: the builtin's and, exact53, XNNPACK's, which TFLITE mode runs
 * wherever the delegate takes the node: its portable loop and the f32-resize variants' fn_xnn).
 * Single thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/f32-resize/resize.h"
#include "kernels/f32-vunary/vunary.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/q8-lut/lut.h"
#include "kernels/q8-resize/resize.h"
#include "kernels/ref/activation.h"
#include "kernels/ref/resize.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/arith_quant.h"
#include "kernels/ref/binary.h"
#include "bench_clock.h"

#define MAX_REPS 64
static int reps = 15;

typedef struct job {
  int kind; /* 0 ref q8, 1 fast q8, 2 ref f32, 3 fast f32, 4 ref unary, 5 fast unary, 6 ref lut,
              7 fast lut, 8 ref resize, 9 fast resize, 13 hybrid TANH (XNNPACK's, xk), 14 hybrid
              TANH (Eigen's, portable loop), 15 f32 resize XNNPACK order (portable loop), 16 the
              same (fast variant) */
  size_t n;
  const tfcc_f32_vunary_kernel *uk;
  const tfcc_tflite_f32_kernel *xk;
  const tfcc_f32_vunary_params *up;
  const tfcc_q8_lut_kernel *lk;
  const uint8_t *lut;
  const tfcc_q8_resize_kernel *rk;
  const tfcc_resize_shape *rs;
  void *scratch;
  const tfcc_f32_resize_kernel *fk2;
  const tfcc_bcast *bc;
  const void *a, *b;
  void *o;
  tfcc_arith_qop qop;
  const tfcc_arith_q *q;
  const tfcc_q8_vbinary_kernel *qk;
  const tfcc_q8_vbinary_params *qp;
  const tfcc_f32_vbinary_kernel *fk;
  const tfcc_f32_vbinary_params *fp;
  const tfcc_binary_act *act;
} job;

static void run(const job *j) {
  switch (j->kind) {
    case 0: tfcc_ref_arith_q(j->qop, TFCC_INT8, j->bc, j->a, j->b, j->o, j->q); break;
    case 1: tfcc_q8_vbinary_run(NULL, j->qk, j->qp, j->bc, j->a, j->b, j->o); break;
    case 2: tfcc_ref_binary(TFCC_BIN_ADD, TFCC_FLOAT32, j->bc, j->a, j->b, j->o, j->act); break;
    case 3: tfcc_f32_vbinary_run(NULL, j->fk, j->fp, j->bc, j->a, j->b, j->o); break;
    case 4:
      switch (j->up->op) {
        case TFCC_F32VU_CLAMP: tfcc_clamp_f32(j->a, j->o, j->n, j->up->lo, j->up->hi); break;
        case TFCC_F32VU_HARD_SWISH: tfcc_hard_swish_f32(j->a, j->o, j->n); break;
        case TFCC_F32VU_LOGISTIC: tfcc_logistic_f32(j->a, j->o, j->n); break;
        default: tfcc_tanh_f32(j->a, j->o, j->n); break;
      }
      break;
    case 5: tfcc_f32_vunary_run(NULL, j->uk, j->up, j->a, j->o, j->n); break;
    case 6: tfcc_lut8_apply(j->a, j->o, j->n, j->lut); break;
    case 7: tfcc_q8_lut_run(NULL, j->lk, j->lut, j->a, j->o, j->n); break;
    case 8: tfcc_xnn_resize_bilinear_i8(j->rs, false, false, j->a, j->o); break;
    case 10: tfcc_ref_resize_bilinear_f32(j->rs, false, false, j->a, j->o); break;
    case 11:
      tfcc_f32_resize_bilinear(NULL, j->fk2, j->rs, false, false, j->a, j->o, j->scratch);
      break;
    case 15: tfcc_xnn_resize_bilinear_f32(j->rs, false, false, j->a, j->o); break;
    case 16:
      tfcc_f32_resize_bilinear_xnn(NULL, j->fk2, j->rs, false, false, j->a, j->o, j->scratch);
      break;
    case 13: j->xk->tanh(j->a, j->o, j->n); break;
    case 14: tfcc_tanh_f32_eigen(j->a, j->o, j->n); break;
    default:
      tfcc_q8_resize_bilinear(NULL, j->rk, j->rs, false, false, true, j->a, j->o, j->scratch);
      break;
  }
}

static double median_ms(const job *j) {
  double t[MAX_REPS];
  run(j);
  for (int r = 0; r < reps; r++) {
    const double t0 = bench_now();
    run(j);
    t[r] = bench_now() - t0;
  }
  qsort(t, (size_t)reps, sizeof t[0], bench_cmp_double);
  return t[reps / 2] * 1e3;
}

int main(int argc, char **argv) {
  if (argc > 1) reps = atoi(argv[1]);
  if (reps < 1) reps = 1;
  if (reps > MAX_REPS) reps = MAX_REPS;
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  static const int32_t shapes[][4] = {
      {1, 56, 56, 256}, {1, 28, 28, 512}, {1, 14, 14, 1024}, {1, 7, 7, 2048}};
  printf("%-26s %-18s %10s %10s\n", "kernel", "shape", "ms/call", "GB/s");
  for (size_t s = 0; s < 5; s++) {
    const bool chan = s == 4;
    const int32_t *da = shapes[chan ? 0 : s];
    const int32_t dc[1] = {da[3]};
    const int32_t ranks[2] = {4, chan ? 1 : 4};
    const int32_t *dims[2] = {da, chan ? dc : da};
    tfcc_bcast bc;
    tfcc_bcast_plan(&bc, 2, ranks, dims, 4, da);
    const size_t n = (size_t)bc.elements;
    int8_t *a = malloc(n), *b = malloc(n), *o = malloc(n);
    float *fa = malloc(n * 4), *fb = malloc(n * 4), *fo = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
      a[i] = (int8_t)(i * 7);
      b[i] = (int8_t)(i * 13);
      fa[i] = (float)(int)(i % 97) - 48.f;
      fb[i] = (float)(int)(i % 89) - 44.f;
    }
    char sh[64];
    snprintf(sh, sizeof sh, "%dx%dx%d%s", da[1], da[2], da[3], chan ? " +[C]" : "");
    const double bytes_q = 3.0 * (double)n, bytes_f = 12.0 * (double)n;
    for (int mode = 0; mode < 3; mode++) {
      tfcc_arith_q q;
      memset(&q, 0, sizeof q);
      tfcc_arith_qop qop;
      const char *what;
      if (mode == 0) {
        tfcc_arith_q_prepare_add_xnn(&q, 0.05f, 3, 0.07f, -5, 0.09f, -2, false);
        qop = TFCC_AQ_ADD_XNN;
        what = "int8 ADD xnn";
      } else if (mode == 1) {
        tfcc_arith_q_prepare_add(&q, 0.05f, 3, 0.07f, -5, 0.09f, -2, 20, false);
        qop = TFCC_AQ_ADD;
        what = "int8 ADD fixed";
      } else {
        tfcc_arith_q_prepare_mul_xnn(&q, 0.05f, 3, 0.07f, -5, 0.09f, -2);
        qop = TFCC_AQ_MUL_XNN;
        what = "int8 MUL xnn";
      }
      q.act_min = -2;
      q.act_max = 127;
      job j = {0};
      j.bc = &bc;
      j.a = a;
      j.b = b;
      j.o = o;
      j.qop = qop;
      j.q = &q;
      double ms = median_ms(&j);
      printf("%-14s %-11s %-18s %10.3f %10.2f\n", what, "ref", sh, ms, bytes_q / ms * 1e-6);
      for (int ki = 0; ki < tfcc_q8_vbinary_kernel_count(); ki++) {
        const tfcc_q8_vbinary_kernel *k = tfcc_q8_vbinary_kernel_at(ki);
        if (!tfcc_q8_vbinary_usable(k, best)) continue;
        tfcc_q8_vbinary_params p;
        if (!tfcc_q8_vbinary_params_init(qop, TFCC_INT8, &q, &p)) continue;
        j.kind = 1;
        j.qk = k;
        j.qp = &p;
        ms = median_ms(&j);
        printf("%-14s %-11s %-18s %10.3f %10.2f\n", what, k->name + 11, sh, ms,
               bytes_q / ms * 1e-6);
        if (p.xnn_pairs && !strcmp(k->name, "q8-vbinary-avx512")) {
          /* the same variant in 32-bit lanes only (before the 16-bit word-pair path) */
          p.xnn_pairs = false;
          ms = median_ms(&j);
          printf("%-14s %-11s %-18s %10.3f %10.2f\n", what, "avx512-i32", sh, ms,
                 bytes_q / ms * 1e-6);
        }
      }
    }
    tfcc_binary_act act;
    tfcc_binary_act_range(1, &act);
    job j = {0};
    j.kind = 2;
    j.bc = &bc;
    j.a = fa;
    j.b = fb;
    j.o = fo;
    j.act = &act;
    double ms = median_ms(&j);
    printf("%-14s %-11s %-18s %10.3f %10.2f\n", "f32 ADD relu", "ref", sh, ms, bytes_f / ms * 1e-6);
    const tfcc_f32_vbinary_params fp = {TFCC_F32VB_ADD, act.f_lo, act.f_hi};
    for (int ki = 0; ki < tfcc_f32_vbinary_kernel_count(); ki++) {
      const tfcc_f32_vbinary_kernel *k = tfcc_f32_vbinary_kernel_at(ki);
      if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
      j.kind = 3;
      j.fk = k;
      j.fp = &fp;
      ms = median_ms(&j);
      printf("%-14s %-11s %-18s %10.3f %10.2f\n", "f32 ADD relu", k->name + 12, sh, ms,
             bytes_f / ms * 1e-6);
    }
    free(a);
    free(b);
    free(o);
    free(fa);
    free(fb);
    free(fo);
  }
  /* activations on 56x56x256 */
  const size_t n = 56 * 56 * 256;
  float *fx = malloc(n * 4), *fy = malloc(n * 4);
  uint8_t *bx = malloc(n), *by = malloc(n), lut[256];
  for (size_t i = 0; i < n; i++) {
    fx[i] = (float)(int)(i % 1999) * 0.01f - 10.f;
    bx[i] = (uint8_t)(i * 31);
  }
  for (int i = 0; i < 256; i++) lut[i] = (uint8_t)(255 - i);
  static const char *un[] = {"f32 RELU6", "f32 HARD_SWISH", "f32 LOGISTIC", "f32 TANH"};
  const tfcc_f32_vunary_params ups[] = {{TFCC_F32VU_CLAMP, 0.f, 6.f, 0.f},
                                        {TFCC_F32VU_HARD_SWISH, 0, 0, 0},
                                        {TFCC_F32VU_LOGISTIC, 0, 0, 0},
                                        {TFCC_F32VU_TANH, 0, 0, 0}};
  for (int u = 0; u < 4; u++) {
    job j = {0};
    j.kind = 4;
    j.a = fx;
    j.o = fy;
    j.n = n;
    j.up = &ups[u];
    double ms = median_ms(&j);
    printf("%-14s %-11s %-18s %10.3f %10.2f\n", un[u], "ref", "56x56x256", ms,
           8.0 * (double)n / ms * 1e-6);
    for (int ki = 0; ki < tfcc_f32_vunary_kernel_count(); ki++) {
      const tfcc_f32_vunary_kernel *k = tfcc_f32_vunary_kernel_at(ki);
      if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
      j.kind = 5;
      j.uk = k;
      ms = median_ms(&j);
      printf("%-14s %-11s %-18s %10.3f %10.2f\n", un[u], k->name + 11, "56x56x256", ms,
             8.0 * (double)n / ms * 1e-6);
    }
  }
  { /* sweep18: the TANH of hybrid models (XNNPACK's rational 9/8 per variant; Eigen's) */
    job j = {0};
    j.a = fx;
    j.o = fy;
    j.n = n;
    j.kind = 14;
    double ms = median_ms(&j);
    printf("%-14s %-11s %-18s %10.3f %10.2f\n", "f32 TANH hyb", "eigen-ref", "56x56x256", ms,
           8.0 * (double)n / ms * 1e-6);
    for (int ki = 0; ki < tfcc_tflite_f32_kernel_count(); ki++) {
      const tfcc_tflite_f32_kernel *k = tfcc_tflite_f32_kernel_at(ki);
      if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
      j.kind = 13;
      j.xk = k;
      ms = median_ms(&j);
      printf("%-14s %-11s %-18s %10.3f %10.2f\n", "f32 TANH hyb", k->name + 4, "56x56x256", ms,
             8.0 * (double)n / ms * 1e-6);
    }
  }
  {
    job j = {0};
    j.kind = 6;
    j.a = bx;
    j.o = by;
    j.n = n;
    j.lut = lut;
    double ms = median_ms(&j);
    printf("%-14s %-11s %-18s %10.3f %10.2f\n", "q8 table", "ref", "56x56x256", ms,
           2.0 * (double)n / ms * 1e-6);
    for (int ki = 0; ki < tfcc_q8_lut_kernel_count(); ki++) {
      const tfcc_q8_lut_kernel *k = tfcc_q8_lut_kernel_at(ki);
      if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
      j.kind = 7;
      j.lk = k;
      ms = median_ms(&j);
      printf("%-14s %-11s %-18s %10.3f %10.2f\n", "q8 table", k->name + 7, "56x56x256", ms,
             2.0 * (double)n / ms * 1e-6);
    }
  }
  {
    const tfcc_resize_shape rs = {1, 33, 33, 21, 257, 257};
    const size_t nout = 257 * 257 * 21;
    uint8_t *ro = malloc(nout);
    void *scratch = malloc(tfcc_q8_resize_scratch_bytes(&rs));
    job j = {0};
    j.kind = 8;
    j.a = bx;
    j.o = ro;
    j.rs = &rs;
    j.scratch = scratch;
    double ms = median_ms(&j);
    printf("%-14s %-11s %-18s %10.3f %10.2f\n", "int8 resize", "ref", "33x33x21->257", ms,
           (double)nout / ms * 1e-6);
    for (int ki = 0; ki < tfcc_q8_resize_kernel_count(); ki++) {
      const tfcc_q8_resize_kernel *k = tfcc_q8_resize_kernel_at(ki);
      if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
      j.kind = 9;
      j.rk = k;
      ms = median_ms(&j);
      printf("%-14s %-11s %-18s %10.3f %10.2f\n", "int8 resize", k->name + 10, "33x33x21->257", ms,
             (double)nout / ms * 1e-6);
    }
    free(ro);
    free(scratch);
    float *fin = malloc(sizeof(float) * 33 * 33 * 21), *fo = malloc(sizeof(float) * nout);
    for (size_t i = 0; i < 33 * 33 * 21; i++) fin[i] = (float)(int)(i % 101) * 0.37f - 18.f;
    void *fscratch = malloc(tfcc_f32_resize_scratch_bytes(&rs));
    j.kind = 10;
    j.a = fin;
    j.o = fo;
    j.scratch = fscratch;
    ms = median_ms(&j);
    printf("%-14s %-11s %-18s %10.3f %10.2f\n", "f32 resize", "ref", "33x33x21->257", ms,
           4.0 * (double)nout / ms * 1e-6);
    for (int ki = 0; ki < tfcc_f32_resize_kernel_count(); ki++) {
      const tfcc_f32_resize_kernel *k = tfcc_f32_resize_kernel_at(ki);
      if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
      j.kind = 11;
      j.fk2 = k;
      ms = median_ms(&j);
      printf("%-14s %-11s %-18s %10.3f %10.2f\n", "f32 resize", k->name + 11, "33x33x21->257", ms,
             4.0 * (double)nout / ms * 1e-6);
    }
    j.kind = 15;
    ms = median_ms(&j);
    printf("%-14s %-11s %-18s %10.3f %10.2f\n", "f32 rsz xnn", "ref", "33x33x21->257", ms,
           4.0 * (double)nout / ms * 1e-6);
    for (int ki = 0; ki < tfcc_f32_resize_kernel_count(); ki++) {
      const tfcc_f32_resize_kernel *k = tfcc_f32_resize_kernel_at(ki);
      if (!tfcc_kernel_isa_fits(k->isa, best)) continue;
      j.kind = 16;
      j.fk2 = k;
      ms = median_ms(&j);
      printf("%-14s %-11s %-18s %10.3f %10.2f\n", "f32 rsz xnn", k->name + 11, "33x33x21->257", ms,
             4.0 * (double)nout / ms * 1e-6);
    }
    free(fin);
    free(fo);
    free(fscratch);
  }
  free(fx);
  free(fy);
  free(bx);
  free(by);
  return 0;
}
