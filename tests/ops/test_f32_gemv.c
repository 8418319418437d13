/* Float32 GEMV driver (FULLY_CONNECTED at batch 1): every GEMM kernel this CPU can run,
 * through tfcc_f32_gemv, against a double-precision reference and bit for bit against the
 * GEMM driver (one row alone and as row 0 of a 5-row product: the server's dynamic batching
 * relies on a row's result not depending on its batch), on K and N around the panel width
 * and the 4-panel groups (N 1, 31, 32, 33, 100, 129, 1000), bias / no bias, activations,
 * inline and on a 2-thread pool. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-gemm/gemv.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 99u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static void test_gemv(const tfcc_f32_gemm_kernel *k, tfcc_threadpool *pool, int K, int N, bool bias,
                      float lo, float hi) {
  const int M = 5;
  float *a = malloc(sizeof(float) * (size_t)M * K), *w = malloc(sizeof(float) * (size_t)N * K);
  float *b = malloc(sizeof(float) * (size_t)N), *got = malloc(sizeof(float) * (size_t)(N + 1));
  float *one = malloc(sizeof(float) * (size_t)N), *five = malloc(sizeof(float) * (size_t)M * N);
  for (int i = 0; i < M * K; i++) a[i] = frand();
  for (int i = 0; i < N * K; i++) w[i] = frand();
  for (int i = 0; i < N; i++) b[i] = frand();
  tfcc_f32_packed pk;
  CHECK(tfcc_f32_pack(k, N, K, w, (size_t)K, 1, bias ? b : NULL, &pk));
  got[N] = 777.0f;
  tfcc_f32_gemv(pool, &pk, a, got, lo, hi);
  tfcc_f32_gemm(pool, &pk, 1, a, (size_t)K, one, (size_t)N, lo, hi);
  tfcc_f32_gemm(pool, &pk, M, a, (size_t)K, five, (size_t)N, lo, hi);
  int bad = 0, diff = 0;
  for (int n = 0; n < N; n++) {
    double s = bias ? b[n] : 0.0;
    for (int kk = 0; kk < K; kk++) s += (double)a[kk] * w[(size_t)n * K + kk];
    s = s < lo ? lo : s > hi ? hi : s;
    if (fabs(got[n] - s) > 1e-5 * (K + 1) && bad++ < 3)
      fprintf(stderr, "%s K %d N %d: c[%d] = %g, want %g\n", tfcc_f32_gemv_name(&pk), K, N, n,
              got[n], s);
    if ((memcmp(&got[n], &one[n], sizeof(float)) || memcmp(&got[n], &five[n], sizeof(float))) &&
        diff++ < 3)
      fprintf(stderr, "%s K %d N %d: c[%d] = %a, GEMM %a / %a\n", tfcc_f32_gemv_name(&pk), K, N, n,
              got[n], one[n], five[n]);
  }
  CHECKF(bad == 0, "%s K %d N %d: %d wrong", tfcc_f32_gemv_name(&pk), K, N, bad);
  CHECKF(diff == 0, "%s K %d N %d: %d differ from the GEMM", tfcc_f32_gemv_name(&pk), K, N, diff);
  CHECK(got[N] == 777.0f);
  tfcc_f32_packed_free(&pk);
  free(a);
  free(w);
  free(b);
  free(got);
  free(one);
  free(five);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  static const int ns[] = {1, 31, 32, 33, 100, 129, 1000};
  static const int ks[] = {1, 7, 32, 33, 100, 1280};
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_f32_gemm, k, best) {
    tested++;
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
      for (size_t kj = 0; kj < sizeof ks / sizeof ks[0]; kj++) {
        tfcc_threadpool *p = (ni + kj) % 2 ? pool2 : NULL;
        const bool bias = kj % 3 != 1;
        test_gemv(k, p, ks[kj], ns[ni], bias, -INFINITY, INFINITY);
        if (kj % 2) test_gemv(k, p, ks[kj], ns[ni], bias, 0.0f, 6.0f);
      }
  }
  CHECK(tested >= 1);
  printf("f32 GEMV through %d kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_f32_gemv");
}
