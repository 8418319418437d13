/* What a kernel test's main opens with (tests/ops/test_q8_lut.c and the other kernel tests):
 *
 *   tfcc_threadpool *pool = tfcc_test_pool(2);
 *     a pool of 2 threads: one CHECK that it was made (NULL if not, where the kernels run on
 *     the calling thread); the test destroys it. Built with TFCC_TEST_NO_POOL (the SIMD128
 *     drivers of tests/wasm, without pthreads): NULL, no CHECK;
 *   TFCC_CHECK_SELECTS(tfcc_q8_lut);
 *     every dispatch level's select of the family gives a variant: one CHECK per level;
 *   TFCC_CHECK_SELECTS_USABLE(tfcc_pool, tfcc_pool_usable);
 *     the same, and the variant is one the family's own rule lets run at that level.
 *
 * It also brings the variant loops (kernel_variants.h). */
#ifndef TFCC_TEST_KERNEL_TEST_MAIN_H
#define TFCC_TEST_KERNEL_TEST_MAIN_H

#include "base/threadpool.h"
#include "kernel_variants.h"
#include "test_harness.h"

#ifdef TFCC_TEST_NO_POOL
/* A build without threads (tests/wasm: Node without pthreads): no pool, nothing checked; the
 * kernels run on the calling thread, as with a pool that could not be made. */
static inline tfcc_threadpool *tfcc_test_pool(int n_threads) {
  (void)n_threads;
  return NULL;
}
#else
static inline tfcc_threadpool *tfcc_test_pool(int n_threads) {
  tfcc_threadpool *pool = NULL;
  tfcc_err err = {0};
  const tfcc_status st = tfcc_threadpool_create(n_threads, NULL, 0, &pool, &err);
  CHECKF(st == TFCC_OK, "a pool of %d threads: %s", n_threads, err.msg);
  return st == TFCC_OK ? pool : NULL;
}
#endif

#define TFCC_CHECK_SELECTS_IF_(prefix, k, level, ok) \
  for (int level = 0; level < TFCC_ISA_COUNT_; level++) { \
    const prefix##_kernel *k = prefix##_select((tfcc_isa)level); \
    CHECKF(k != NULL && (ok), "%s_select(%s): %s", #prefix, tfcc_isa_name((tfcc_isa)level), \
           k ? k->name : "NULL"); \
  }

#define TFCC_CHECK_SELECTS(prefix) \
  TFCC_CHECK_SELECTS_IF_(prefix, prefix##_sel_, prefix##_level_, true)

#define TFCC_CHECK_SELECTS_USABLE(prefix, usable) \
  TFCC_CHECK_SELECTS_IF_(prefix, prefix##_sel_, prefix##_level_, \
                         usable(prefix##_sel_, (tfcc_isa)prefix##_level_))

#endif
