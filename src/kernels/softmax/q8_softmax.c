/* 8-bit softmax dispatch table and threaded driver (rows split over the pool). */
#include "base/threadpool.h"
#include "kernels/dispatch_table.h"
#include "kernels/softmax/softmax.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS, "q8-softmax", tfcc_q8_softmax)

typedef struct q8sm_job {
  tfcc_q8_softmax_fn fn;
  const tfcc_q8_lut_kernel *lk;
  bool u8;
  const uint8_t *in;
  uint8_t *out;
  size_t depth;
  const float *table;
  float out_scale;
  int32_t out_zp;
} q8sm_job;

static void q8sm_range(void *ctx, size_t r0, size_t r1) {
  const q8sm_job *j = ctx;
  j->fn(j->lk, j->u8, j->in + r0 * j->depth, j->out + r0 * j->depth, r1 - r0, j->depth, j->table,
        j->out_scale, j->out_zp);
}

const tfcc_q8_softmax_kernel *tfcc_q8_softmax_pick(const tfcc_q8_softmax_kernel *k, bool u8,
                                                   float out_scale, int32_t out_zp) {
  /* the lanes' quantization needs probabilities >= 0 (or NaN) and an int8 zero point */
  if (!(out_scale > 0.f) || (!u8 && (out_zp < -128 || out_zp > 127)))
    return tfcc_q8_softmax_select(TFCC_ISA_GENERIC);
  return k;
}

void tfcc_q8_softmax_run(struct tfcc_threadpool *pool, const tfcc_q8_softmax_kernel *k,
                         const tfcc_q8_lut_kernel *lk, bool u8, const uint8_t *in, uint8_t *out,
                         size_t outer, size_t depth, const float table[256], float out_scale,
                         int32_t out_zp) {
  if (outer == 0 || depth == 0) return;
  q8sm_job j = {k->fn, lk, u8, in, out, depth, table, out_scale, out_zp};
  const size_t tasks = tfcc_softmax_tasks(pool, outer, depth);
  if (!tasks) {
    q8sm_range(&j, 0, outer);
    return;
  }
  tfcc_threadpool_run_split(pool, outer, tasks, q8sm_range, &j);
}
