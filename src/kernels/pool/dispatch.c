/* Pooling dispatch table and row-parallel driver. */
#include "kernels/pool/pool.h"
#include "kernels/dispatch_table.h"
#include "base/threadpool.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS_SSE4, "pool", tfcc_pool)

bool tfcc_pool_usable(const tfcc_pool_kernel *k, tfcc_isa isa) {
  return tfcc_isa_level_fits(k->isa, isa);
}

bool tfcc_pool_fast_ok(const tfcc_conv_geom *g, bool is_avg, tfcc_dtype dt) {
  if (dt != TFCC_FLOAT32 && dt != TFCC_UINT8 && dt != TFCC_INT8 && dt != TFCC_INT16) return false;
  if (g->in_c != g->out_c || g->in_c <= 0 || g->filter_h <= 0 || g->filter_w <= 0) return false;
  /* the quantized average's float division is exact while |acc| + n/2 < 2^24: 65535 taps of
   * 8-bit values, 511 of int16 ones (511 * 32768 + 255 < 2^24) */
  const int64_t taps = (int64_t)g->filter_h * g->filter_w;
  if (is_avg && dt != TFCC_FLOAT32 && taps > (dt == TFCC_INT16 ? 511 : 65535)) return false;
  return true;
}

typedef struct pool_task {
  const tfcc_pool_kernel *k;
  const tfcc_pool_job *j;
} pool_task;

static void run_range(void *ctx, size_t r0, size_t r1) {
  const pool_task *t = ctx;
  t->k->fn(t->j, (int32_t)r0, (int32_t)r1);
}

void tfcc_pool_run(struct tfcc_threadpool *pool, const tfcc_pool_kernel *k,
                   const tfcc_pool_job *j) {
  const tfcc_conv_geom *g = j->g;
  pool_task t = {k, j};
  const int32_t rows = g->batches * g->out_h;
  if (rows <= 0 || g->out_w <= 0 || g->out_c <= 0) return;
  int threads = tfcc_threadpool_size(pool);
  /* small layers: waking workers costs more than it saves */
  const double work = (double)rows * g->out_w * g->out_c * g->filter_h * g->filter_w;
  if (work < 256.0 * 1024.0) {
    threads = 1;
    pool = NULL;
  }
  tfcc_threadpool_run_split(pool, (size_t)rows, threads > 1 ? 4 * (size_t)threads : 1, run_range,
                            &t);
}
