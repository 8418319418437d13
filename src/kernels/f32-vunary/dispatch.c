/* f32 activation dispatch table and threaded driver. */
#include "kernels/f32-vunary/vunary.h"
#include "kernels/dispatch_table.h"

#include <stdbool.h>

#include "base/threadpool.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS, "f32-vunary", tfcc_f32_vunary)

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
  /* memory-bound ops need large pieces; LOGISTIC / TANH do ~30 flops per element */
  const size_t min_task =
      (p->op == TFCC_F32VU_LOGISTIC || p->op == TFCC_F32VU_TANH) ? 8 * 1024 : 32 * 1024;
  vu_job j = {k, p, in, out};
  tfcc_threadpool_run_elementwise(pool, n, min_task, 16, vu_range, &j);
}
