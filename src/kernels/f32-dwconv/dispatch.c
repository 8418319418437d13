/* f32 depthwise dispatch table and row-parallel driver. */
#include <stdbool.h>

#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/dispatch_table.h"
#include "base/threadpool.h"

static const tfcc_f32_dwconv_kernel kernels[] = {
    TFCC_KERNELS_X86({"f32-dwconv-avx512", TFCC_ISA_AVX512, tfcc_f32_dwconv_avx512},
                     {"f32-dwconv-avx2", TFCC_ISA_AVX2, tfcc_f32_dwconv_avx2},
                     {"f32-dwconv-sse4", TFCC_ISA_SSE4, tfcc_f32_dwconv_sse4})
    TFCC_KERNELS_ARM64({"f32-dwconv-neon", TFCC_ISA_NEON, tfcc_f32_dwconv_neon})
    TFCC_KERNELS_WASMSIMD({"f32-dwconv-wasmsimd", TFCC_ISA_WASMSIMD, tfcc_f32_dwconv_wasmsimd})
    {"f32-dwconv-scalar", TFCC_ISA_GENERIC, tfcc_f32_dwconv_scalar},
};
TFCC_DISPATCH_TABLE_FNS(tfcc_f32_dwconv, tfcc_f32_dwconv_kernel)

typedef struct dw_job {
  const tfcc_f32_dwconv_kernel *k;
  const tfcc_conv_geom *g;
  const float *in, *filter, *bias;
  float lo, hi;
  float *out;
  int32_t rows, rows_per_task;
} dw_job;

static void dw_task(void *ctx, size_t task, int thread) {
  (void)thread;
  const dw_job *j = ctx;
  int32_t r0 = (int32_t)task * j->rows_per_task, r1 = r0 + j->rows_per_task;
  if (r1 > j->rows) r1 = j->rows;
  j->k->fn(j->g, j->in, j->filter, j->bias, j->lo, j->hi, j->out, r0, r1);
}

size_t tfcc_f32_dwconv_scratch_bytes(const tfcc_conv_geom *g) {
  if (g->in_c == g->out_c || g->in_c <= 0) return 0;
  return (size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w * (size_t)g->out_c * sizeof(float);
}

typedef struct expand_job {
  const float *in;
  float *out;
  size_t pixels, in_c, m, per_task;
} expand_job;

static void expand_task(void *ctx, size_t task, int thread) {
  (void)thread;
  const expand_job *e = ctx;
  size_t p0 = task * e->per_task, p1 = p0 + e->per_task;
  if (p1 > e->pixels) p1 = e->pixels;
  for (size_t px = p0; px < p1; px++) {
    const float *s = e->in + px * e->in_c;
    float *d = e->out + px * e->in_c * e->m;
    for (size_t c = 0; c < e->in_c; c++)
      for (size_t k = 0; k < e->m; k++) *d++ = s[c];
  }
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
    expand_job e = {in, scratch, pixels, (size_t)g->in_c, (size_t)(g->out_c / g->in_c), 0};
    const size_t tasks = pool ? 8 : 1;
    e.per_task = (pixels + tasks - 1) / tasks;
    tfcc_threadpool_run(pool, (pixels + e.per_task - 1) / e.per_task, expand_task, &e);
    in = scratch;
    ge.in_c = g->out_c;
  }
  g = &ge;
  dw_job j = {k, g, in, filter, bias, lo, hi, out, g->batches * g->out_h, 0};
  int32_t tasks = threads > 1 ? 4 * threads : 1;
  /* few rows (14x14, 7x7 images): one chunk per thread. 1-2 row tasks re-copy the window
   * rows around each chunk (AVX-512 padded tiles) and split 7 rows 4:3 anyway; MobileNetV2,
   * 2-thread pool, wall, workers awake: 14x14x384 0.033 -> 0.022 ms, 14x14x576 0.048 ->
   * 0.036, 7x7x960 0.026 -> 0.015 */
  if (threads > 1 && j.rows < 8 * threads) tasks = threads;
  if (tasks > j.rows) tasks = j.rows;
  j.rows_per_task = (j.rows + tasks - 1) / tasks;
  tasks = (j.rows + j.rows_per_task - 1) / j.rows_per_task;
  tfcc_threadpool_run(pool, (size_t)tasks, dw_task, &j);
}
