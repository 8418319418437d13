/* q8 table lookup dispatch table and threaded driver. */
#include "kernels/q8-lut/lut.h"
#include "kernels/dispatch_table.h"

#include <stdbool.h>

#include "base/threadpool.h"

static const tfcc_q8_lut_kernel kernels[] = {
    TFCC_KERNELS_X86({"q8-lut-64-avx512", TFCC_ISA_AVX512, tfcc_q8_lut_avx512},
                     {"q8-lut-32-avx2", TFCC_ISA_AVX2, tfcc_q8_lut_avx2})
        TFCC_KERNELS_ARM64({"q8-lut-16-neon", TFCC_ISA_NEON, tfcc_q8_lut_neon}){
            "q8-lut-scalar", TFCC_ISA_GENERIC, tfcc_q8_lut_scalar},
};
TFCC_DISPATCH_TABLE_FNS(tfcc_q8_lut, tfcc_q8_lut_kernel)

typedef struct lut_job {
  const tfcc_q8_lut_kernel *k;
  const uint8_t *table;
  const uint8_t *in;
  uint8_t *out;
} lut_job;

static void lut_range(void *ctx, size_t i0, size_t i1) {
  const lut_job *j = ctx;
  j->k->fn(j->table, j->in + i0, j->out + i0, i1 - i0);
}

void tfcc_q8_lut_run(struct tfcc_threadpool *pool, const tfcc_q8_lut_kernel *k,
                     const uint8_t table[256], const void *in, void *out, size_t n) {
  lut_job j = {k, table, in, out};
  tfcc_threadpool_run_elementwise(pool, n, 64 * 1024, 64, lut_range, &j);
}
