/* The int16x8 depthwise SIMD128 row (q16-dwconv-wasmsimd) and the scalar row in Node:
 * tests/ops/test_q16_dwconv.c itself (the kernels against a plain int64 loop, the fused kernel
 * at every tap count, the driver against tfcc_dwconv_i16 bit for bit), built by
 * scripts/check-wasm-kernels.sh without the runtime: this file gives it the harness's counters,
 * the harness built without a pool (TFCC_TEST_NO_POOL: no pthreads in the Node build) and the
 * thread pool's calls on no pool (every task inline, thread 0), and tfcc_kernel_isa_fits
 * (kernel_families.c would bring every family). */
#include <stdio.h>

#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"

#define TFCC_TEST_NO_POOL /* kernel_test_main.h: tfcc_test_pool gives NULL */

void tfcc_threadpool_destroy(tfcc_threadpool *p) { (void)p; }
int tfcc_threadpool_size(const tfcc_threadpool *p) {
  (void)p;
  return 1;
}
void tfcc_threadpool_run(tfcc_threadpool *p, size_t n_tasks, tfcc_task_fn fn, void *ctx) {
  (void)p;
  for (size_t t = 0; t < n_tasks; t++) fn(ctx, t, 0);
}
void tfcc_threadpool_run_split(tfcc_threadpool *p, size_t n, size_t max_tasks, tfcc_range_fn fn,
                               void *ctx) {
  (void)p, (void)max_tasks;
  if (n) fn(ctx, 0, n);
}
int tfcc_kernel_isa_fits(tfcc_isa need, tfcc_isa level) {
  return need == TFCC_ISA_GENERIC || tfcc_isa_level_fits(need, level);
}

int tfcc_test_failures, tfcc_test_checks, tfcc_test_skipped;
int tfcc_test_finish(const char *name) {
  printf("%s: %d checks, %d failed\n", name, tfcc_test_checks, tfcc_test_failures);
  return tfcc_test_failures ? 1 : 0;
}

#include "../ops/test_q16_dwconv.c"
