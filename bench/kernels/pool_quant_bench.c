/* Micro-benchmark of the pooling, quantize and MEAN kernels against the reference kernels on
 * the ResNet-50 / MobileNetV2 shapes (not a test). Usage: pool_quant_bench [reps]. Each row:
 * median thread CPU time per call (CLOCK_THREAD_CPUTIME_ID) of the reference kernel and of
 * every fast variant this CPU can run, single threaded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_info.h"
#include "kernels/pool/pool.h"
#include "kernels/quantize/quantize.h"
#include "kernels/reduce/reduce.h"
#include "kernels/ref/pool.h"
#include "kernels/ref/quantize.h"
#include "kernels/ref/reduce.h"
#include "bench_clock.h"

static int reps = 51;
#define TIME_US(result, CALL) \
  do { \
    double t_[201]; \
    CALL; \
    for (int r_ = 0; r_ < reps; r_++) { \
      const double t0_ = bench_now(); \
      CALL; \
      t_[r_] = bench_now() - t0_; \
    } \
    qsort(t_, (size_t)reps, sizeof(double), bench_cmp_double); \
    (result) = t_[reps / 2] * 1e6; \
  } while (0)

static void row(const char *what, double ref_us, const char **names, const double *us, int n) {
  printf("%-40s ref %8.1f us", what, ref_us);
  for (int i = 0; i < n; i++) printf("  %s %7.1f (%4.0fx)", names[i], us[i], ref_us / us[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc > 1) reps = atoi(argv[1]);
  if (reps < 1 || reps > 201) reps = 51;
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  const size_t big = (size_t)224 * 224 * 64 * 4;
  uint8_t *in = aligned_alloc(64, big), *out = aligned_alloc(64, big);
  for (size_t i = 0; i < big; i++) in[i] = (uint8_t)(i * 2654435761u >> 13);
  float *fin = (float *)(void *)in;
  const char *names[8];
  double us[8], ref_us;
  int n;

  /* max pool 3x3 s2 SAME on 112x112x64 (ResNet-50 stem) */
  tfcc_conv_geom g = {1, 112, 112, 64, 56, 56, 64, 3, 3, 1, 2, 2, 1, 1, 0, 0};
  const tfcc_dtype pdt[2] = {TFCC_INT8, TFCC_FLOAT32};
  for (int d = 0; d < 2; d++) {
    if (pdt[d] == TFCC_FLOAT32) {
      for (size_t i = 0; i < (size_t)112 * 112 * 64; i++) fin[i] = (float)(i % 1000) * 0.01f;
      TIME_US(ref_us, tfcc_maxpool_f32(&g, fin, -1e30f, 1e30f, (float *)(void *)out));
    } else {
      TIME_US(ref_us, tfcc_pool_q(false, TFCC_INT8, &g, in, -128, 127, out));
    }
    n = 0;
    for (int k = 0; k < tfcc_pool_kernel_count(); k++) {
      const tfcc_pool_kernel *pk = tfcc_pool_kernel_at(k);
      if (!tfcc_pool_usable(pk, best)) continue;
      const tfcc_pool_job j = {&g, false, pdt[d], in, out, -1e30f, 1e30f, -128, 127};
      names[n] = pk->name;
      TIME_US(us[n], pk->fn(&j, 0, g.out_h));
      n++;
    }
    row(pdt[d] == TFCC_FLOAT32 ? "MAX_POOL 3x3/2 112x112x64 f32" : "MAX_POOL 3x3/2 112x112x64 int8",
        ref_us, names, us, n);
  }

  /* average pool 7x7 VALID on 7x7x1024 (MobileNet v1 head), uint8 */
  tfcc_conv_geom ga = {1, 7, 7, 1024, 1, 1, 1024, 7, 7, 1, 1, 1, 1, 1, 0, 0};
  TIME_US(ref_us, tfcc_pool_q(true, TFCC_UINT8, &ga, in, 0, 255, out));
  n = 0;
  for (int k = 0; k < tfcc_pool_kernel_count(); k++) {
    const tfcc_pool_kernel *pk = tfcc_pool_kernel_at(k);
    if (!tfcc_pool_usable(pk, best)) continue;
    const tfcc_pool_job j = {&ga, true, TFCC_UINT8, in, out, 0.f, 0.f, 0, 255};
    names[n] = pk->name;
    TIME_US(us[n], pk->fn(&j, 0, 1));
    n++;
  }
  row("AVERAGE_POOL 7x7 7x7x1024 uint8", ref_us, names, us, n);

  /* QUANTIZE 224x224x3 float -> int8, both modes; DEQUANTIZE 1000 int8 */
  const size_t nq = (size_t)224 * 224 * 3;
  for (size_t i = 0; i < nq; i++) fin[i] = (float)(i % 513) * 0.01f - 2.5f;
  TIME_US(ref_us, tfcc_xnn_quantize_f32(fin, TFCC_INT8, out, nq, 1.f / 0.0187f, -14));
  n = 0;
  for (int k = 0; k < tfcc_qz_kernel_count(); k++) {
    const tfcc_qz_kernel *qk = tfcc_qz_kernel_at(k);
    if (!tfcc_qz_usable(qk, best)) continue;
    names[n] = qk->name;
    TIME_US(us[n], qk->quantize_xnn(fin, out, nq, 1.f / 0.0187f, -14, TFCC_INT8));
    n++;
  }
  row("QUANTIZE 224x224x3 f32->int8 (TFLITE)", ref_us, names, us, n);
  TIME_US(ref_us, tfcc_affine_quantize(fin, TFCC_INT8, out, nq, 0.0187f, -14));
  n = 0;
  for (int k = 0; k < tfcc_qz_kernel_count(); k++) {
    const tfcc_qz_kernel *qk = tfcc_qz_kernel_at(k);
    if (!tfcc_qz_usable(qk, best)) continue;
    names[n] = qk->name;
    TIME_US(us[n], qk->quantize_ref(fin, out, nq, 0.0187f, -14, TFCC_INT8));
    n++;
  }
  row("QUANTIZE 224x224x3 f32->int8 (REFERENCE)", ref_us, names, us, n);
  TIME_US(ref_us, tfcc_dequantize(TFCC_INT8, in, (float *)(void *)out, nq, 0.0187f, -14));
  n = 0;
  for (int k = 0; k < tfcc_qz_kernel_count(); k++) {
    const tfcc_qz_kernel *qk = tfcc_qz_kernel_at(k);
    if (!tfcc_qz_usable(qk, best)) continue;
    names[n] = qk->name;
    TIME_US(us[n], qk->dequantize(in, (float *)(void *)out, nq, 0.0187f, -14, TFCC_INT8));
    n++;
  }
  row("DEQUANTIZE 224x224x3 int8->f32", ref_us, names, us, n);

  /* QUANTIZE int8 -> int8 of 56x56x144 (TFLITE, XNNPACK arithmetic) */
  const size_t nr = (size_t)56 * 56 * 144;
  TIME_US(ref_us, tfcc_xnn_requantize_q8(TFCC_INT8, in, out, nr, 300, -5, 7));
  n = 0;
  for (int k = 0; k < tfcc_qz_kernel_count(); k++) {
    const tfcc_qz_kernel *qk = tfcc_qz_kernel_at(k);
    if (!tfcc_qz_usable(qk, best)) continue;
    names[n] = qk->name;
    TIME_US(us[n], qk->requantize_xnn(in, out, nr, 300, -5, 7, TFCC_INT8));
    n++;
  }
  tfcc_qz_lut lut;
  tfcc_qz_lut_build(&lut, TFCC_INT8, TFCC_INT8, true, 300, 0, -5, 7);
  names[n] = "quantize-lut";
  TIME_US(us[n], tfcc_qz_lut_apply(&lut, in, out, nr));
  n++;
  row("QUANTIZE 56x56x144 int8->int8 (TFLITE)", ref_us, names, us, n);

  /* MEAN over H,W of 7x7x2048 (ResNet-50) int8 sums and float */
  tfcc_reduce_shape s;
  memset(&s, 0, sizeof s);
  s.rank = 4;
  s.dims[0] = 1;
  s.dims[1] = 7;
  s.dims[2] = 7;
  s.dims[3] = 2048;
  s.reduced[1] = s.reduced[2] = true;
  tfcc_reduce_shape_finish(&s);
  int32_t *acc = malloc(2048 * 4);
  TIME_US(ref_us, tfcc_xnn_reduce_q8(&s, TFCC_INT8, in, -3, 0.02f, out, 5, 0.01f, acc, true));
  n = 0;
  for (int k = 0; k < tfcc_rsum_kernel_count(); k++) {
    const tfcc_rsum_kernel *rk = tfcc_rsum_kernel_at(k);
    if (!tfcc_rsum_usable(rk, best)) continue;
    names[n] = rk->name;
    TIME_US(us[n], rk->sum_q(TFCC_INT8, in, 1, 49, 2048, acc);
            tfcc_rsum_xnn_q8_finish(rk->isa, &s, TFCC_INT8, acc, -3, 0.02f, out, 5, 0.01f, true));
    n++;
  }
  row("MEAN 7x7x2048 int8 (TFLITE)", ref_us, names, us, n);
  for (size_t i = 0; i < (size_t)49 * 2048; i++) fin[i] = (float)(i % 1000) * 0.01f;
  TIME_US(ref_us, tfcc_reduce_mean_f32(&s, fin, (float *)(void *)out));
  n = 0;
  for (int k = 0; k < tfcc_rsum_kernel_count(); k++) {
    const tfcc_rsum_kernel *rk = tfcc_rsum_kernel_at(k);
    if (!tfcc_rsum_usable(rk, best)) continue;
    names[n] = rk->name;
    TIME_US(us[n], rk->sum_f32(fin, 1, 49, 2048, (float *)(void *)out));
    n++;
  }
  row("MEAN 7x7x2048 f32 (sums)", ref_us, names, us, n);
  free(acc);
  free(in);
  free(out);
  return 0;
}
