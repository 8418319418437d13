/* f32 depthwise dispatch table and row-parallel driver. */
#include <stdbool.h>

#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/dw_expand.h"
#include "kernels/dispatch_table.h"
#include "base/threadpool.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS_SSE4, "f32-dwconv", tfcc_f32_dwconv)

typedef struct dw_job {
  const tfcc_f32_dwconv_kernel *k;
  const tfcc_conv_geom *g;
  const float *in, *filter, *bias;
  float lo, hi;
  float *out;
} dw_job;

static void dw_range(void *ctx, size_t r0, size_t r1) {
  const dw_job *j = ctx;
  j->k->fn(j->g, j->in, j->filter, j->bias, j->lo, j->hi, j->out, (int32_t)r0, (int32_t)r1);
}

size_t tfcc_f32_dwconv_scratch_bytes(const tfcc_conv_geom *g) {
  if (g->in_c == g->out_c || g->in_c <= 0) return 0;
  return (size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w * (size_t)g->out_c * sizeof(float);
}

void tfcc_f32_dwconv(struct tfcc_threadpool *pool, const tfcc_f32_dwconv_kernel *k,
                     const tfcc_conv_geom *g, const float *in, const float *filter,
                     const float *bias, float lo, float hi, float *out, void *scratch) {
  if (g->batches * g->out_h <= 0 || g->out_w <= 0 || g->out_c <= 0) return;
  int threads = tfcc_threadpool_size(pool);
  /* small layers: waking workers costs more than it saves */
  if ((double)g->batches * g->out_h * g->out_w * g->out_c * g->filter_h * g->filter_w <
      64.0 * 1024.0) {
    threads = 1;
    pool = NULL;
  }
  tfcc_conv_geom ge = *g;
  if (g->in_c != g->out_c) { /* depth multiplier: the kernels read an expanded input */
    const size_t pixels = (size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w;
    tfcc_dw_expand_channels(pool, in, scratch, pixels, (size_t)g->in_c,
                            (size_t)(g->out_c / g->in_c), sizeof(float));
    in = scratch;
    ge.in_c = g->out_c;
  }
  g = &ge;
  dw_job j = {k, g, in, filter, bias, lo, hi, out};
  const int32_t rows = g->batches * g->out_h;
  int32_t tasks = threads > 1 ? 4 * threads : 1;
  /* few rows (14x14, 7x7 images): one chunk per thread. 1-2 row tasks re-copy the window
   * rows around each chunk (AVX-512 padded tiles) and split 7 rows 4:3 anyway; MobileNetV2,
   * 2-thread pool, wall, workers awake: 14x14x384 0.033 -> 0.022 ms, 14x14x576 0.048 ->
   * 0.036, 7x7x960 0.026 -> 0.015 */
  if (threads > 1 && rows < 8 * threads) tasks = threads;
  tfcc_threadpool_run_split(pool, (size_t)rows, (size_t)tasks, dw_range, &j);
}
