/* int16 SOFTMAX (q16-softmax): every variant this CPU can run against the reference kernel
 * (kernels/ref: tfcc_softmax_i16, TensorFlow Lite's reference_ops::SoftmaxInt16), bit for bit:
 * row lengths around the vector widths (masked tails), full-range random rows, rows at the
 * extremes -32768 / 32767, constant rows, narrow rows near the maximum, input scales * beta
 * from 1e-5 to 0.3 (left and right shifts of the input multiplier); and the driver: its
 * threaded split and the reference it runs for a multiplier the lanes do not take. */
#include <stdlib.h>
#include <string.h>

#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/softmax/softmax.h"
#include "kernel_test_main.h"
#include "test_harness.h"
#include "q16_softmax_values.h"

static void rows_case(const tfcc_q16_softmax_kernel *k, const tfcc_softmax_i16_params *p,
                      size_t rows, size_t depth, int mode) {
  const size_t n = rows * depth;
  int16_t *in = malloc((n + 1) * 2), *want = malloc((n + 1) * 2), *got = malloc((n + 1) * 2);
  CHECK(in && want && got);
  if (!in || !want || !got) return;
  const int16_t base = (int16_t)(urand() & 0xffff);
  for (size_t i = 0; i < n; i++) in[i] = val(mode, base);
  tfcc_softmax_i16(in, want, rows, depth, p);
  got[n] = 0x5a5a;
  k->fn(in, got, rows, depth, p);
  int bad = 0;
  for (size_t i = 0; i < n; i++) bad += got[i] != want[i];
  CHECKF(bad == 0 && got[n] == 0x5a5a, "%s rows %zu depth %zu mode %d mult %d shift %d: %d wrong",
         k->name, rows, depth, mode, (int)p->input_multiplier, p->input_shift, bad);
  free(in), free(want), free(got);
}

/* tfcc_q16_softmax_run (pool may be NULL) against the reference */
static void run_case(tfcc_threadpool *pool, const tfcc_q16_softmax_kernel *k,
                     const tfcc_softmax_i16_params *p, size_t rows, size_t depth) {
  const size_t n = rows * depth;
  int16_t *in = malloc(n * 2), *want = malloc(n * 2), *got = malloc(n * 2);
  CHECK(in && want && got);
  if (!in || !want || !got) return;
  for (size_t i = 0; i < n; i++) in[i] = val(0, 0);
  tfcc_softmax_i16(in, want, rows, depth, p);
  tfcc_q16_softmax_run(pool, k, in, got, rows, depth, p);
  CHECKF(memcmp(got, want, n * 2) == 0, "run %s pool %p rows %zu depth %zu shift %d", k->name,
         (void *)pool, rows, depth, p->input_shift);
  free(in), free(want), free(got);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  TFCC_CHECK_SELECTS(tfcc_q16_softmax);
  static const float sb[][2] = {{1e-5f, 1.f},    {3.05e-5f, 1.f}, {1e-4f, 1.f},
                                {4.6e-4f, 0.5f}, {2e-3f, 1.f},    {0.3f, 1.f}};
  static const size_t depths[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 128, 1000};
  static tfcc_softmax_i16_params p;
  int tested = 0;
  for (int ki = 0; ki < tfcc_q16_softmax_kernel_count(); ki++) {
    const tfcc_q16_softmax_kernel *k = tfcc_q16_softmax_kernel_at(ki);
    if (!tfcc_kernel_isa_fits(k->isa, best)) {
      printf("skip %s (CPU level %s)\n", k->name, tfcc_isa_name(best));
      continue;
    }
    for (size_t si = 0; si < sizeof sb / sizeof sb[0]; si++) {
      tfcc_softmax_i16_params_init(sb[si][0], sb[si][1], &p);
      for (size_t di = 0; di < sizeof depths / sizeof depths[0]; di++)
        for (int mode = 0; mode < 4; mode++) rows_case(k, &p, 3, depths[di], mode);
    }
    tested++;
  }
  /* the driver: threads, and its reference fallback */
  tfcc_threadpool *pool = tfcc_test_pool(3);
  const tfcc_q16_softmax_kernel *k = tfcc_q16_softmax_select(best);
  tfcc_softmax_i16_params_init(1e-3f, 1.f, &p);
  run_case(NULL, k, &p, 5, 77);
  run_case(pool, k, &p, 700, 128);
  run_case(pool, k, &p, 4096, 33);
  /* the multiplier INT32_MIN (SaturatingRoundingDoublingHighMul saturates where the lanes'
   * formula does not: x = INT32_MIN, here -2 << 30); a right shift past 31, the driver's other
   * fallback, is undefined in the reference itself (RoundingDivideByPOT's shift) */
  p.input_multiplier = INT32_MIN;
  p.input_shift = 30;
  run_case(NULL, k, &p, 9, 40);
  run_case(pool, k, &p, 600, 128);
  tfcc_threadpool_destroy(pool);
  printf("%d q16-softmax kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  return tfcc_test_finish("q16_softmax");
}
