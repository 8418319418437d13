/* f32 activation dispatch table and threaded driver. */
#include "kernels/f32-vunary/vunary.h"
#include "kernels/dispatch_table.h"

#include <stdbool.h>

#include "base/threadpool.h"

static const tfcc_f32_vunary_kernel kernels[] = {
    TFCC_KERNELS_X86({"f32-vunary-avx512", TFCC_ISA_AVX512, tfcc_f32_vunary_avx512},
                     {"f32-vunary-avx2", TFCC_ISA_AVX2, tfcc_f32_vunary_avx2})
    TFCC_KERNELS_ARM64({"f32-vunary-neon", TFCC_ISA_NEON, tfcc_f32_vunary_neon})
    TFCC_KERNELS_WASMSIMD({"f32-vunary-wasmsimd", TFCC_ISA_WASMSIMD, tfcc_f32_vunary_wasmsimd})
    {"f32-vunary-scalar", TFCC_ISA_GENERIC, tfcc_f32_vunary_scalar},
};
TFCC_DISPATCH_TABLE_FNS(tfcc_f32_vunary, tfcc_f32_vunary_kernel)

typedef struct vu_job {
  const tfcc_f32_vunary_kernel *k;
  const tfcc_f32_vunary_params *p;
  const float *in;
  float *out;
} vu_job;

static void vu_range(void *ctx, size_t i0, size_t i1) {
  const vu_job *j = ctx;
  j->k->fn(j->p, j->in + i0, j->out + i0, i1 - i0);
}

void tfcc_f32_vunary_run(struct tfcc_threadpool *pool, const tfcc_f32_vunary_kernel *k,
                         const tfcc_f32_vunary_params *p, const float *in, float *out, size_t n) {
  if (n == 0) return;
  const int threads = tfcc_threadpool_size(pool);
  /* memory-bound ops need large pieces; LOGISTIC / TANH do ~30 flops per element */
  const size_t min_task = (p->op == TFCC_F32VU_LOGISTIC || p->op == TFCC_F32VU_TANH) ? 8 * 1024 : 32 * 1024;
  if (threads <= 1 || n < 2 * min_task) {
    k->fn(p, in, out, n);
    return;
  }
  size_t tasks = n / min_task;
  if (tasks > 4 * (size_t)threads) tasks = 4 * (size_t)threads;
  vu_job j = {k, p, in, out};
  tfcc_threadpool_run_chunks(pool, n, ((n + tasks - 1) / tasks + 15) & ~(size_t)15, vu_range, &j);
}
