/* float32 softmax dispatch table and threaded driver (rows split over the pool). */
#include "kernels/dispatch_table.h"
#include "kernels/ref/softmax.h"
#include "kernels/softmax/softmax.h"
#include "base/threadpool.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS, "f32-softmax", tfcc_f32_softmax)

typedef struct sm_job {
  const tfcc_f32_softmax_kernel *k;
  const float *in;
  float *out;
  size_t depth;
  float beta;
} sm_job;

static void sm_range(void *ctx, size_t r0, size_t r1) {
  const sm_job *j = ctx;
  j->k->fn(j->in + r0 * j->depth, j->out + r0 * j->depth, r1 - r0, j->depth, j->beta);
}

size_t tfcc_softmax_tasks(const struct tfcc_threadpool *pool, size_t outer, size_t depth) {
  const int threads = tfcc_threadpool_size(pool);
  const size_t n = outer * depth, min_task = 16 * 1024; /* ~20 flops per element */
  if (threads <= 1 || outer < 2 || n < 2 * min_task) return 0;
  const size_t tasks = n / min_task;
  return tasks > 4 * (size_t)threads ? 4 * (size_t)threads : tasks;
}

void tfcc_f32_softmax_run(struct tfcc_threadpool *pool, const tfcc_f32_softmax_kernel *k,
                          const float *in, float *out, size_t outer, size_t depth, float beta) {
  if (outer == 0 || depth == 0) return;
  if (!(beta >= 0.f)) { /* e^z below needs z <= 0 */
    tfcc_softmax_f32(in, out, outer, depth, beta);
    return;
  }
  const size_t tasks = tfcc_softmax_tasks(pool, outer, depth);
  if (!tasks) {
    k->fn(in, out, outer, depth, beta);
    return;
  }
  sm_job j = {k, in, out, depth, beta};
  tfcc_threadpool_run_split(pool, outer, tasks, sm_range, &j);
}
