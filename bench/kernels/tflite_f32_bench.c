/* Micro-benchmark of the XNNPACK-order float operators of hybrid models (kernels/tflite-f32/tflite_f32.h)
 * through their threaded drivers, and of the trailing-axes MEAN (kernels/reduce xnn_mean_f32)
 * against its portable loop (not a test). Built as build/bench/tflite_f32_bench; usage:
 * tflite_f32_bench [reps]. Shapes of the keyword-spotting transformers (102 tokens, 4 heads):
 * BATCH_MATMUL [4,102,64] x [4,64,102] and [4,102,102] x [4,102,64], GELU [102,512],
 * SOFTMAX 408 rows of 102, MEAN 102 rows of 256, and a constant-weight FULLY_CONNECTED
 * 102 x 256 -> 256 (default kernel) and -> 35 (nr2). Median wall time per call (monotonic
 * clock: the workers' time is not on the caller's CPU clock) on 1 and 2 threads, and the
 * kernel the session's ISA level picks. Then MobileNetV2's float-weight convolutions
 * (mnv2_layers, one thread, CPU time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/reduce/reduce.h"
#include "kernels/ref/activation.h"
#include "bench_clock.h"

#define MAX_REPS 401
static int reps = 101;

typedef struct job {
  int kind; /* 0 fc, 1 bmm, 2 gelu, 3 softmax, 4 mean (vector), 5 mean (portable loop), 6 gelu
               (tfcc_gelu_f32: the erfc form float models' TFLITE mode ran before exact53) */
  tfcc_threadpool *pool;
  const tfcc_tflite_f32_kernel *k;
  const tfcc_rsum_kernel *rk;
  const tfcc_bmm_dims *d;
  const float *x, *w, *bias;
  float *y, *scratch;
  int32_t m, kd, n;
  int inner_reps;
} job;

static void run(const job *j) {
  for (int r = 0; r < j->inner_reps; r++) switch (j->kind) {
      case 0:
        tfcc_xnn_fc_run(j->pool, j->k, j->x, j->m, j->kd, j->w, NULL, j->bias, j->n, -1e30f, 1e30f,
                        j->y);
        break;
      case 1: tfcc_xnn_bmm_run(j->pool, j->k, j->d, j->x, j->w, j->y, j->scratch); break;
      case 2:
        tfcc_xnn_gelu_run(j->pool, j->k, j->x, j->y, (size_t)j->m * (size_t)j->n,
                          tfcc_gelu_xnn_rational(0));
        break;
      case 3:
        tfcc_xnn_softmax_run(j->pool, j->k, j->x, j->y, (size_t)j->m, (size_t)j->n,
                             TFCC_XNN_SOFTMAX_PAIR);
        break;
      case 4:
        j->rk->xnn_mean_f32(j->x, (size_t)j->m, (size_t)j->n, 1.0f / (float)j->n, j->y);
        break;
      case 6: tfcc_gelu_f32(j->x, j->y, (size_t)j->m * (size_t)j->n, false); break;
      case 5:
        for (int32_t o = 0; o < j->m; o++)
          j->y[o] = tfcc_xnn_rsum_f32(j->x + (size_t)o * (size_t)j->n, (size_t)j->n) *
                    (1.0f / (float)j->n);
        break;
      default: break;
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

static float *frand_buf(size_t n) {
  float *p = malloc((n + 16) * sizeof(float));
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < n + 16; i++) p[i] = (float)((int)(i * 2654435761u % 2001) - 1000) / 500.0f;
  return p;
}

/* MobileNetV2's float-weight layers as a hybrid twin runs them (the converter leaves weights
 * under 1024 elements in float): the first 3x3 convolution 224x224x3 -> 112x112x32 (stride 2),
 * the 3x3 depthwise layers 112x112x32 (stride 1) and 112x112x96 (stride 2), the 1x1
 * convolution 32 -> 16 at 112x112; one thread, the caller's CPU clock, median and minimum
 * over reps (us per call). */
static void mnv2_layers(const tfcc_tflite_f32_kernel *k) {
  static const struct {
    const char *name;
    int dw;
    tfcc_conv_geom g;
  } L[] = {
      {"mnv2 conv 3x3/2 224x224x3 -> 32",
       0,
       {1, 224, 224, 3, 112, 112, 32, 3, 3, 3, 2, 2, 1, 1, 0, 0}},
      {"mnv2 dw 3x3/1 112x112x32", 1, {1, 112, 112, 32, 112, 112, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1}},
      {"mnv2 dw 3x3/2 112x112x96", 1, {1, 112, 112, 96, 56, 56, 96, 3, 3, 1, 2, 2, 1, 1, 0, 0}},
      {"mnv2 conv 1x1 112x112x32 -> 16",
       0,
       {1, 112, 112, 32, 112, 112, 16, 1, 1, 32, 1, 1, 1, 1, 0, 0}},
  };
  /* 64-byte aligned, as the session's arena places tensors */
  const size_t xn = 112 * 112 * 96, yn = 112 * 112 * 96;
  float *x = aligned_alloc(64, xn * sizeof(float)), *y = aligned_alloc(64, yn * sizeof(float));
  float *w = frand_buf(27 * 32 + 9 * 96 + 512), *bias = frand_buf(96);
  if (!x || !y) return;
  for (size_t i = 0; i < xn; i++) x[i] = (float)((int)(i * 2654435761u % 2001) - 1000) / 500.0f;
  memset(y, 0, yn * sizeof(float));
  double t[MAX_REPS];
  for (size_t l = 0; l < sizeof L / sizeof L[0]; l++) {
    const tfcc_conv_geom *g = &L[l].g;
    int32_t ocp = 0;
    float *wp =
        L[l].dw ? NULL : tfcc_xnn_conv_pack(w, g->out_c, g->filter_h * g->filter_w * g->in_c, &ocp);
    if (!L[l].dw && !wp) break;
    for (int r = 0; r <= reps; r++) {
      const double t0 = bench_now();
      if (L[l].dw)
        k->dwconv_rows(g, x, w, bias, 0.0f, 6.0f, y, 0, g->out_h);
      else
        k->conv_rows(g, x, wp, ocp, bias, 0.0f, 6.0f, y, 0, g->out_h);
      if (r > 0) t[r - 1] = bench_now() - t0; /* the first call warms up */
    }
    qsort(t, (size_t)reps, sizeof t[0], bench_cmp_double);
    printf("%-44s %10.2f (min %.2f; thread CPU time)\n", L[l].name, t[reps / 2] * 1e6, t[0] * 1e6);
    free(wp);
  }
  free(x), free(w), free(bias), free(y);
}

int main(int argc, char **argv) {
  if (argc > 1) reps = atoi(argv[1]);
  if (reps < 1) reps = 1;
  if (reps > MAX_REPS) reps = MAX_REPS;
  bench_use_cpu_clock = 0;
  const tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  const tfcc_tflite_f32_kernel *k = tfcc_tflite_f32_select(isa);
  const tfcc_rsum_kernel *rk = tfcc_rsum_select(isa);
  tfcc_threadpool *pool2 = NULL;
  tfcc_err e;
  if (!k || !rk || tfcc_threadpool_create(2, NULL, 0, &pool2, &e) != TFCC_OK) {
    fprintf(stderr, "no kernel or pool\n");
    return 1;
  }
  printf("kernels %s / %s, %d reps, median wall us per call\n", k->name, rk->name, reps);
  printf("%-44s %10s %10s %8s\n", "case", "1 thread", "2 threads", "ratio");
  float *x = frand_buf(102 * 512), *w = frand_buf(4 * 102 * 64 + 256 * 256);
  float *y = frand_buf(102 * 512), *scratch = frand_buf(4 * 102 * 64);
  float *bias = frand_buf(256);
  float *wp256 = tfcc_xnn_fc_pack(w, 256, 256), *wp35 = tfcc_xnn_fc_pack(w, 35, 256);
  tfcc_bmm_dims d1, d2;
  memset(&d1, 0, sizeof d1);
  d1.nbd = 1, d1.out_b[0] = d1.lhs_b[0] = d1.rhs_b[0] = 4;
  d2 = d1;
  d1.m = 102, d1.k = 64, d1.n = 102; /* Q x K^T (K^T already transposed) */
  d2.m = 102, d2.k = 102, d2.n = 64; /* attention x V */
  const struct {
    const char *name;
    job j;
  } cases[] = {
      {"FC 102x256 -> 256 (default kernel)",
       {0, NULL, k, rk, NULL, x, wp256, bias, y, NULL, 102, 256, 256, 1}},
      {"FC 102x256 -> 35 (nr2)", {0, NULL, k, rk, NULL, x, wp35, bias, y, NULL, 102, 256, 35, 1}},
      {"BMM [4,102,64] x [4,64,102]", {1, NULL, k, rk, &d1, x, w, NULL, y, scratch, 0, 0, 0, 1}},
      {"BMM [4,102,102] x [4,102,64]", {1, NULL, k, rk, &d2, x, w, NULL, y, scratch, 0, 0, 0, 1}},
      {"GELU [102,512]", {2, NULL, k, rk, NULL, x, NULL, NULL, y, NULL, 102, 0, 512, 1}},
      {"SOFTMAX 408 x 102", {3, NULL, k, rk, NULL, x, NULL, NULL, y, NULL, 408, 0, 102, 1}},
  };
  if (!wp256 || !wp35) return 1;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    job j = cases[c].j;
    const double t1 = median_us(&j);
    j.pool = pool2;
    tfcc_threadpool_run_begin(pool2); /* as a session's invoke: workers stay awake */
    const double t2 = median_us(&j);
    tfcc_threadpool_run_end(pool2);
    printf("%-44s %10.2f %10.2f %8.2f\n", cases[c].name, t1, t2, t1 / t2);
  }
  bench_use_cpu_clock = 1; /* one thread: the caller's CPU clock */
  job jm = {4, NULL, k, rk, NULL, x, NULL, NULL, y, NULL, 102, 0, 256, 20};
  const double tv = median_us(&jm);
  jm.kind = 5;
  const double ts = median_us(&jm);
  printf("%-44s %10.2f (portable loop %.2f, x%.2f; thread CPU time)\n", "MEAN 102 rows of 256", tv,
         ts, ts / tv);
  job jg = {2, NULL, k, rk, NULL, x, NULL, NULL, y, NULL, 102, 0, 512, 4};
  const double gx = median_us(&jg);
  jg.kind = 6;
  const double ge = median_us(&jg);
  printf("%-44s %10.2f (erfc form %.2f, x%.2f; thread CPU time)\n", "GELU [102,512], one thread",
         gx, ge, ge / gx);
  mnv2_layers(k);
  free(x), free(w), free(y), free(scratch), free(bias), free(wp256), free(wp35);
  tfcc_threadpool_destroy(pool2);
  return 0;
}
