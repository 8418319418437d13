/* 8-bit table lookup (q8-lut): every variant this CPU can run gives table[in[i]] for every
 * byte value, random tables, lengths 0..300 (vector tails), in place, and split over a
 * 2-thread pool for large tensors. */
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-lut/lut.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 99u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static void run(const tfcc_q8_lut_kernel *k, tfcc_threadpool *pool, size_t n, bool inplace) {
  uint8_t table[256];
  for (int i = 0; i < 256; i++) table[i] = (uint8_t)urand();
  /* calloc: gcc -O3 warns that in may be read uninitialised (n 0) */
  uint8_t *in = calloc(n + 1, 1), *got = malloc(n + 1);
  for (size_t i = 0; i < n; i++) in[i] = (uint8_t)(i < 256 ? i : urand());
  memset(got, 0xEE, n + 1);
  const void *src = in;
  if (inplace) {
    memcpy(got, in, n);
    src = got;
  }
  tfcc_q8_lut_run(pool, k, table, src, got, n);
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != table[in[i]] && bad++ < 3)
      fprintf(stderr, "%s: out[%zu] = %d, want table[%d] = %d\n", k->name, i, got[i], in[i],
              table[in[i]]);
  CHECKF(bad == 0 && got[n] == 0xEE, "%s n %zu inplace %d: %d wrong", k->name, n, inplace, bad);
  free(in);
  free(got);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS(tfcc_q8_lut);
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_q8_lut, k, best) {
    for (size_t n = 0; n <= 300; n++) run(k, NULL, n, n % 3 == 0);
    run(k, pool, 1000003, false);
    run(k, pool, 777777, true);
    tested++;
  }
  printf("%d q8 lut kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool);
  return tfcc_test_finish("q8_lut");
}
